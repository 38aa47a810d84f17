# SPDX-License-Identifier: Apache-2.0
"""The package's structure: every module imports, and the import graph of src/p256 has
no cycle (lazy imports inside functions included: a cycle through one still ties the
modules together); no module reads another's private key attributes; in C, the binding
reads no Python attribute by name and no core file calls the byte-level API."""

import ast
import importlib
import os
import pkgutil
import re

import pytest

import p256

PACKAGE_DIR = os.path.dirname(p256.__file__)
MODULES = sorted(m.name for m in pkgutil.iter_modules([PACKAGE_DIR]))


def _module_of(path):
    name = os.path.splitext(os.path.basename(path))[0]
    return "p256" if name == "__init__" else "p256." + name


def _resolve(current, level, module):
    """The absolute name of a `from <dots><module> import` in `current`."""
    if level == 0:
        return module
    package = current if current == "p256" else current.rsplit(".", 1)[0]
    base = package.split(".")
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def import_graph(sources, native=("p256._core", "p256._allocstat")):
    """{module: set of p256 modules it imports} from {module: source text} (native: the
    compiled modules, which import nothing of p256)."""
    known = set(sources) | set(native)
    graph = {name: set() for name in sources}
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, node.level, node.module)
                # `from . import x`: x is a submodule, or a name of the package itself
                targets = [base + "." + a.name if base + "." + a.name in known else base
                           for a in node.names]
            for target in targets:
                while target and target not in known:  # p256.x.y -> p256.x
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph):
    """One import cycle as a list of modules (first == last), or None."""
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def _sources():
    out = {}
    for fname in os.listdir(PACKAGE_DIR):
        if fname.endswith(".py"):
            with open(os.path.join(PACKAGE_DIR, fname), encoding="utf-8") as f:
                out[_module_of(fname)] = f.read()
    return out


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports(name):
    if name == "__main__":
        pytest.skip("runs the command line when imported")
    importlib.import_module("p256." + name)


def test_no_import_cycle():
    graph = import_graph(_sources())
    assert "p256._keys" in graph and "p256._formats" in graph["p256._keys"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_cycle_detector_finds_cycles():
    """Negative control: the two cycles this package used to have are found."""
    before = {
        "p256._keys": "from . import _core\nfrom . import _formats\n",
        "p256._formats": "from ._keys import PrivateKey, PublicKey, _lookup\n",
        "p256._core": "",
    }
    assert find_cycle(import_graph(before)) == ["p256._formats", "p256._keys", "p256._formats"]
    lazy = {
        "p256._cli": "def f():\n    from . import _bench\n",
        "p256._bench": "def run_cli():\n    from ._cli import CLIError\n",
    }
    assert find_cycle(import_graph(lazy)) is not None
    via_package = {"p256": "from ._keys import PrivateKey\n",
                   "p256._keys": "from . import __version__\n"}
    assert find_cycle(import_graph(via_package)) is not None


# The key classes' internals: the native key objects' private methods and the table (_core.SecretKey, _core.PublicPoint: csrc/py_secretkey.c,
# csrc/py_pubkey.c). Only _keys, which defines the classes, uses them.
PRIVATE_KEY_ATTRIBUTES = {"_generate", "_public_key", "_sign", "_exchange", "_t", "_load",
                          "_encode", "_verify", "_table_bits", "_make_table", "_set_table",
                          "_recover"}


def _foreign_private_reads(name, text):
    """`x._sk`, `x._verify(...)`, ... in a module other than _keys (which owns them)."""
    return [(name, node.lineno, node.attr) for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE_KEY_ATTRIBUTES]


def test_no_module_reads_the_key_classes_private_attributes():
    found = [hit for name, text in _sources().items() if name != "p256._keys"
             for hit in _foreign_private_reads(name, text)]
    assert found == []
    # negative control: what _cli, _formats and _batch used to do is found
    assert _foreign_private_reads("p256._cli", "sk._sign(d, False, h, e, False, False, False)\n")
    assert _foreign_private_reads("p256._formats", "b = pk._encode(False)\n")
    assert _foreign_private_reads("p256._batch", "t = pk._t\n")


# ---- the C house ---------------------------------------------------------------------

CSRC = os.path.join(os.path.dirname(__file__), "..", "csrc")


def _c_files(*, binding):
    """{path relative to csrc: text}: the binding (module.c, py_*.c, py_binding.h) or the
    core (every other file: the layers, p256.c, backend.c, the modules)."""
    out = {}
    for root, _, files in os.walk(CSRC):
        for fname in files:
            if not fname.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(root, fname), CSRC)
            is_binding = rel == "module.c" or rel.startswith("py_")
            if is_binding == binding:
                with open(os.path.join(root, fname), encoding="utf-8") as f:
                    out[rel] = f.read()
    return out


def _attribute_reads(text):
    """The CPython calls by which C code would read a Python object's attribute by name."""
    return re.findall(r"\b(PyObject_GetAttr\w*|_PyObject_GetAttrId|PyObject_GetOptionalAttr\w*|"
                      r"PyObject_HasAttr\w*|PyObject_LookupAttr\w*)\s*\(", text)


def test_no_c_code_reads_a_python_attribute():
    """The binding takes the native objects (a key's point and table are C fields), never
    an attribute of a Python object by name."""
    found = {rel: _attribute_reads(text) for rel, text in _c_files(binding=True).items()}
    assert {rel: hits for rel, hits in found.items() if hits} == {}
    # negative control: what py_batch.c's batch_take used to do is found
    assert _attribute_reads('pub = PyObject_GetAttr(pk, name_b);\n')
    assert _attribute_reads('PyObject_GetAttrString(obj, "_t")')


def _api_names():
    """The names (without p256_) of the byte-level API functions, from the list made of
    p256.h's declarations (csrc/api_list.h)."""
    with open(os.path.join(CSRC, "api_list.h"), encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("#define P256_API_LIST(X)"):]
    return set(re.findall(r"X\([^,]+,\s*(\w+),", body))


def _api_calls(text, names):
    """Calls of p256.h's API functions (p256_<name>(...)) in a core file, its own
    definitions of API functions (a line starting with the return type) aside."""
    calls = []
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for line in text.splitlines():
        if re.match(r"^\w[\w\s\*]*\bp256_\w+\(", line):  # a definition
            continue
        calls += [m for m in re.findall(r"\bp256_(\w+)\s*\(", line) if m in names]
    return calls


def test_no_core_file_calls_the_byte_api():
    """The layers and the modules of the core use each other's internal functions (decoded
    points, scalars); only p256.c, the byte API itself, forwards between API functions, and
    backend.c forwards to a variant's table. So no core file climbs back up to p256.h."""
    names = _api_names()
    assert {"verify", "pubkey_load", "sign", "pubkey_recover"} <= names
    found = {rel: _api_calls(text, names) for rel, text in _c_files(binding=False).items()
             if rel not in ("p256.c", "p256.h", "backend.c")}
    assert {rel: hits for rel, hits in found.items() if hits} == {}
    # negative control: the IFMA engine's old fallback is found, a definition is not
    assert _api_calls("results[g] = (uint8_t)p256_verify(it[l].pub, it[l].pub_len, rs, d, n);\n",
                      names) == ["verify"]
    assert _api_calls("int p256_pubkey_recover(p256_pubkey *pk, const uint8_t rs[64],\n",
                      names) == []


def _public_callables():
    for name in p256.__all__:
        obj = getattr(p256, name)
        if isinstance(obj, type):
            yield name, obj
            for attr, member in vars(obj).items():
                if not attr.startswith("_"):
                    yield "%s.%s" % (name, attr), member
        elif callable(obj) and getattr(obj, "__module__", "").startswith("p256"):
            yield name, obj


def test_every_public_callable_has_a_google_style_docstring():
    """The API reference (mkdocstrings) is generated from these: Args/Returns/Raises."""
    import inspect

    missing = []
    for name, obj in _public_callables():
        fn = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
        doc = inspect.getdoc(fn.fget if isinstance(fn, property) else fn) or ""
        if not doc:
            missing.append(name + ": no docstring")
            continue
        if isinstance(fn, property) or isinstance(fn, type):
            continue
        params = [p for p in inspect.signature(fn).parameters if p not in ("self", "cls")]
        if params and "Args:" not in doc:
            missing.append(name + ": no Args:")
        if "Returns:" not in doc:
            missing.append(name + ": no Returns:")
    assert missing == []


def test_bench_is_not_imported_at_run_time():
    """`import p256` and the command line's parser leave p256._bench (p256 bench's code,
    its tables and timers) unimported: only `p256 bench` loads it."""
    import subprocess
    import sys

    code = ("import sys, p256, p256._cli\n"
            "p256._cli.build_parser()\n"
            "print(sorted(m for m in sys.modules if m.startswith('p256.')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "p256._bench" not in out.stdout and "p256._keys" in out.stdout


# Names of past pieces of work mean nothing to a reader: a test, docstring or heading says
# what it checks. CHANGELOG.md is the history and may name them; the vectors are data.
_PAST_WORK = re.compile(r"\b[Ii]ssues? ?#?\d+|\b[Ii]ssue-\d+|\bAPI(?:\.md)? v\d\b|\bv\d API\b"
                        r"|\bthe seed's (?:table|rows|benchmark)|\bas the seed\b|\bin the seed\b")
_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tracked_text_files():
    import subprocess
    out = subprocess.run(["git", "ls-files", "src", "tests", "docs", "csrc", "tools",
                          "benchmarks", "README.md", "mkdocs.yml", "meson.build", "Makefile"],
                         cwd=_TREE, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    for rel in out.stdout.split():
        if rel.startswith("tests/vectors/") or not rel.endswith(
                (".py", ".pyi", ".md", ".c", ".h", ".S", ".sh", ".yml", ".build", "Makefile")):
            continue
        yield rel


def test_no_names_of_past_work():
    this = os.path.relpath(os.path.abspath(__file__), _TREE)
    found = []
    for rel in _tracked_text_files():
        if rel == this:
            continue
        with open(os.path.join(_TREE, rel), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = _PAST_WORK.search(line)
                if m:
                    found.append("%s:%d: %s" % (rel, n, m.group()))
    assert found == [], "\n".join(found)


def test_past_work_pattern():
    for text in ("## Issue 19: native keys", "(issue 14)", "issues 12 and 13", "API v2",
                 "the seed's table", "the issue-15 targets"):
        assert _PAST_WORK.search(text), text
    for text in ("the seed corpus", "PKCS#8 v2", "SEC 1 v2", "-v2 aes256", "the issuer"):
        assert not _PAST_WORK.search(text), text


# ---- The public modules' namespaces ---------------------------------------------------

PUBLIC_MODULES = ["p256", "p256.jws", "p256.webauthn", "p256.x509", "p256.reference", "p256.oprf",
                  "p256.contrib.pyjwt", "p256.contrib.joserfc"]


def stray_names(module):
    """The public-looking names dir(module) shows beyond its __all__ (a package may also
    show its public submodules): imports and helpers a user would take for API."""
    names = {n for n in dir(module) if not n.startswith("_")}
    submodules = {n for n in names if getattr(getattr(module, n), "__name__", None) == "%s.%s" % (
        module.__name__, n) and hasattr(getattr(module, n), "__file__")}
    return sorted(names - set(module.__all__) - submodules)


def test_public_modules_show_only_their_public_names():
    import importlib
    found = {name: stray_names(importlib.import_module(name)) for name in PUBLIC_MODULES}
    assert found == {name: [] for name in PUBLIC_MODULES}


def test_stray_names_are_found():
    """Negative control: a module that imports what it uses, as webauthn once did."""
    import types
    m = types.ModuleType("p256.fake")
    exec("from __future__ import annotations\nimport hashlib\nfrom typing import Any\n"
         "__all__ = ['f']\ndef f(x: Any) -> None: hashlib.sha256()\n", m.__dict__)
    assert stray_names(m) == ["Any", "annotations", "hashlib"]
