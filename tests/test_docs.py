# SPDX-License-Identifier: Apache-2.0
"""Every ```python block of README.md and of docs/*.md runs as printed.

The blocks of one file run in order in one namespace (a later block may use an earlier
one's names), in a scratch directory. Each block is compiled with its file's name and
padded to its line there, so a traceback points into the Markdown file itself. Every
failing block is reported as FILE:LINE with its error, not only the first. Signatures and
sketches that are not meant to run belong in ```text blocks.
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import traceback

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"] + sorted((ROOT / "docs").glob("*.md"))
# The info strings that mean Python; a block must be marked one of these to be run.
PYTHON_INFO = {"python", "py", "python3"}
# A fence opens a line (CommonMark allows up to three spaces of indentation).
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the first code line, source) of each python-fenced block, in order."""
    blocks = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).lower()
        start = i + 1
        j = start
        # The closing fence: the same character, at least as long, nothing after it.
        while j < len(lines) and not re.match(r"^ {0,3}%s%s*\s*$" % (re.escape(fence), fence[0]), lines[j]):
            j += 1
        if j == len(lines):
            raise ValueError("unclosed code fence at line %d" % (i + 1))
        if info in PYTHON_INFO:
            blocks.append((start + 1, "\n".join(lines[start:j]) + "\n"))
        i = j + 1
    return blocks


def run_blocks(name: str, text: str) -> list[str]:
    """Run the file's python blocks in one namespace; a 'NAME:LINE: error' per failure."""
    namespace: dict = {"__name__": "__docs__"}
    failures = []
    for line, source in python_blocks(text):
        try:
            code = compile("\n" * (line - 1) + source, name, "exec")
            exec(code, namespace)
        except Exception as exc:  # report every block, then fail
            where = "%s:%d" % (name, line)
            tb = traceback.extract_tb(exc.__traceback__)
            inner = [f for f in tb if f.filename == name]
            if inner:
                where += " (failed at line %d)" % inner[-1].lineno
            failures.append("%s: %s: %s" % (where, type(exc).__name__, exc))
    return failures


# The pages whose examples change other libraries for the whole process (p256.contrib's
# register() puts p256 into PyJWT's and joserfc's registries): their blocks run in an
# interpreter of their own, so that the tests that use those libraries as independent
# oracles keep the libraries' own ES256.
OWN_PROCESS = {"jose.md"}


def _run_blocks_in_own_process(name: str, cwd: pathlib.Path) -> list[str]:
    code = ("import json, sys; sys.path.insert(0, %r); import test_docs; "
            "print(json.dumps(test_docs.run_blocks(%r, open(%r, encoding='utf-8').read())))"
            % (str(ROOT / "tests"), name, str(ROOT / name)))
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        return ["%s: the interpreter failed: %s" % (name, done.stderr[-2000:])]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_blocks_run(path, tmp_path, monkeypatch, capsys):
    text = path.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # blocks may write files (key files, for instance)
    if path.name in OWN_PROCESS:
        failures = _run_blocks_in_own_process(str(path.relative_to(ROOT)), tmp_path)
    else:
        failures = run_blocks(str(path.relative_to(ROOT)), text)
    if failures:
        pytest.fail("python blocks that do not run as printed:\n" + "\n".join(failures),
                    pytrace=False)


def test_the_documents_have_examples():
    """The README and the API reference have runnable examples, so the test above cannot
    pass by finding none (for instance after a change of the fence syntax)."""
    for name in ("README.md", "docs/api.md"):
        assert len(python_blocks((ROOT / name).read_text(encoding="utf-8"))) >= 1, name
    assert len(python_blocks((ROOT / "docs/api.md").read_text(encoding="utf-8"))) >= 10


def test_failures_name_file_and_line():
    """Negative control: a failing block is reported with its file and line, later blocks
    still run in the same namespace, and non-python blocks are not run."""
    text = "\n".join([
        "# t",                       # 1
        "```python",                 # 2
        "x = 1",                     # 3
        "```",                       # 4
        "```text",                   # 5
        "this is not python",        # 6
        "```",                       # 7
        "````python",                # 8
        "y = x + 1",                 # 9
        "assert y == 3",             # 10
        "````",                      # 11
        "```py",                     # 12
        "z = undefined_name",        # 13
        "```",                       # 14
        "```python",                 # 15
        "assert (x, y) == (1, 2)",   # 16
        "```",                       # 17
        "",
    ])
    assert [line for line, _ in python_blocks(text)] == [3, 9, 13, 16]
    failures = run_blocks("t.md", text)
    assert len(failures) == 2, failures
    assert failures[0].startswith("t.md:9 (failed at line 10): AssertionError"), failures[0]
    assert failures[1].startswith("t.md:13 (failed at line 13): NameError"), failures[1]
    assert "undefined_name" in failures[1]


def test_unclosed_fence_is_an_error():
    with pytest.raises(ValueError, match="line 2"):
        python_blocks("text\n```python\nx = 1\n")


def test_readme_stays_short():
    """The README is an overview of at most ~200 lines; the details live in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 200, "README.md has %d lines; move the details into docs/" % lines


def _linked_pages(text: str, prefix: str) -> set[str]:
    """The docs pages a Markdown text links to (anchors dropped), by file name."""
    return {m.group(1) for m in re.finditer(r"\]\(%s([\w-]+\.md)(?:#[\w-]*)?\)" % re.escape(prefix), text)}


def _nav_pages() -> set[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1].split("\n\n")[0]
    nav = re.split(r"\n(?=\S)", nav, maxsplit=1)[0]  # the nav list ends at the next key
    return set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, re.M))


def test_every_page_is_listed():
    """A page a reader cannot find from the site's navigation, the docs' home page or the
    README's list does not exist for them: all three list every docs/*.md page."""
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert len(pages) >= 15
    nav = _nav_pages()
    index = _linked_pages((ROOT / "docs/index.md").read_text(encoding="utf-8"), "") | {"index.md"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme_list = _linked_pages(readme.split("\n## Documentation\n", 1)[1], "docs/") | {"index.md"}
    for where, listed in (("mkdocs.yml nav", nav), ("docs/index.md", index),
                          ("README.md's Documentation list", readme_list)):
        assert pages - listed == set(), "pages missing from %s" % where
        assert listed - pages == set(), "%s lists pages that do not exist" % where


def test_page_list_check_can_fail():
    """Negative control for the parsing above: a link is found, a missing one is not."""
    assert _linked_pages("[a](docs/api.md#x) [b](docs/cli.md)", "docs/") == {"api.md", "cli.md"}
    assert _linked_pages("[a](api.md)", "docs/") == set()
    assert {"api.md", "scale-out.md", "index.md"} <= _nav_pages()


def _first_block_after(path: pathlib.Path, heading: str) -> str:
    """The first python block below a heading of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    at = text.split("\n").index(heading) + 1
    return next(src for line, src in python_blocks(text) if line > at)


# Every worker of the spawn start method imports the main module again (as __mp_main__),
# so a script whose pool is not under `if __name__ == "__main__":` fails there; forcing it
# checks the examples as they run on macOS, Windows and Linux from Python 3.14.
_SPAWN = 'import multiprocessing; multiprocessing.set_start_method("spawn", force=True)\n'


def _run_script(source: str, tmp_path: pathlib.Path) -> subprocess.CompletedProcess:
    script = tmp_path / "example.py"
    script.write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)


def test_process_pool_example_runs_as_a_script_under_spawn(tmp_path):
    source = _first_block_after(ROOT / "docs/scale-out.md", "## concurrent.futures")
    assert 'if __name__ == "__main__":' in source
    done = _run_script(_SPAWN + source, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "verified 200 signatures, 1 bad" in done.stdout
    # Negative control: the same script without the guard fails under spawn.
    done = _run_script(_SPAWN + source.replace('if __name__ == "__main__":', "if True:"), tmp_path)
    assert done.returncode != 0 and "BrokenProcessPool" in done.stderr, done.stderr[-3000:]


def test_dask_example_runs_as_a_script(tmp_path):
    pytest.importorskip("dask.distributed")  # an optional extra of the example
    source = _first_block_after(ROOT / "docs/scale-out.md", "## Dask")
    assert 'if __name__ == "__main__":' in source
    done = _run_script(_SPAWN + source, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]


def _make_variable(name: str) -> list[str]:
    """A make variable's value as the Makefile defines it, split into words."""
    done = subprocess.run(["make", "-s", "--no-print-directory", "--eval",
                           "print-var: ; @echo $(%s)" % name, "print-var"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words, "make variable %s is empty or gone" % name
    return words


_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven", "twelve"]


def test_fuzz_counts_match_the_makefile():
    """docs/security.md and docs/fuzzing.md state how many fuzz targets and negative
    controls make fuzz-smoke runs; the numbers are those of FUZZ_TARGETS and FUZZ_PLANTS,
    and every target and plant is documented by name."""
    targets = _make_variable("FUZZ_TARGETS")
    plants = [p.split(":")[0] for p in _make_variable("FUZZ_PLANTS")]
    security = (ROOT / "docs/security.md").read_text(encoding="utf-8")
    fuzzing = (ROOT / "docs/fuzzing.md").read_text(encoding="utf-8")
    controls = "%s negative controls" % _NUMBER_WORDS[len(plants)]
    assert controls in security and controls in fuzzing, controls
    assert "%d targets" % len(targets) in security and "%d targets" % len(targets) in fuzzing
    documented = set(re.findall(r"^\| `(\w+)` \|", fuzzing, re.M))
    assert documented == set(targets)
    for plant in plants:
        assert "`%s`" % plant in fuzzing, plant


def _make_targets(makefile: str) -> set[str]:
    """The explicit targets of a Makefile's rules (`a b: ...`), variable assignments aside."""
    targets = set()
    for m in re.finditer(r"^([A-Za-z][\w .-]*):(?![:=])", makefile, re.M):
        targets.update(m.group(1).split())
    return targets


def _table_problems(doc: str, makefile: str) -> list[str]:
    """docs/development.md's make-target table against the Makefile: every target a row
    names exists, and every phony target is named in the page as `make X`."""
    rows = re.findall(r"^\| (`make [^|]*)\|", doc, re.M)
    listed = {t for row in rows for t in re.findall(r"`make ([\w-]+)`", row)}
    named = set(re.findall(r"`make ([\w-]+)", doc))
    phony = set(" ".join(re.findall(r"^\.PHONY:((?:.*\\\n)*.*)$", makefile, re.M))
                .replace("\\\n", " ").split())
    targets = _make_targets(makefile)
    internal = {"venv", "check-c", "check-py", "test-parts", "test-lane"}  # steps of a listed target
    return (["no target %s" % t for t in sorted(listed - targets)]
            + ["%s not in the page" % t for t in sorted(phony - named - internal)])


def test_make_target_table_matches_the_makefile():
    """The table of docs/development.md names real targets and every phony one. Negative
    controls: a row naming a target the Makefile lacks, and a phony target the page never
    names, are reported."""
    doc = (ROOT / "docs/development.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert len(re.findall(r"^\| `make ", doc, re.M)) > 20
    assert _table_problems(doc, makefile) == []
    assert _table_problems(doc + "\n| `make nothing-here` | x |\n", makefile) == ["no target nothing-here"]
    assert _table_problems(doc, makefile + "\n.PHONY: unsaid\nunsaid:\n") == ["unsaid not in the page"]


def test_bench_quick_duration_is_said_once():
    """`p256 bench --quick` takes the same 'about N s' in its --help and in the docs."""
    from p256 import _cli
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        _cli.main(["bench", "--help"])
    help_text = " ".join(out.getvalue().split())
    said = set(re.findall(r"about (\d+) s", help_text))  # the option's help and the example
    perf = (ROOT / "docs/performance.md").read_text(encoding="utf-8")
    said_docs = set(re.findall(r"`--quick`: [^.]*?about (\d+) s", perf))
    assert len(said) == 1 and said == said_docs, (said, said_docs)
    assert not re.search(r"under \d+ s", help_text)


def test_precomputed_table_sizes_are_documented():
    """docs/precompute.md gives each window's table size in bytes, and docs/api.md the
    same in KB; both are the tables' real size."""
    import p256
    table = (ROOT / "docs/precompute.md").read_text(encoding="utf-8")
    api = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    m = re.search(r"takes ([\d, ]+?), (\d+) \(the default, 7\) or (\d+) KB per key", api)
    assert m, "docs/api.md no longer states the table sizes"
    api_kb = [int(x) for x in m.group(1).split(",")] + [int(m.group(2)), int(m.group(3))]
    for w, kb in zip(range(4, 9), api_kb):
        size = p256.PrivateKey.from_int(5).public_key.precompute(window=w)._t.nbytes
        row = re.search(r"^\| %d(?: \(default\))? \| (\d+) KB \(([\d,]+) B\) \|" % w, table, re.M)
        assert row, "no row for window %d in docs/precompute.md" % w
        assert int(row.group(1)) == round(size / 1000) == kb, (w, size)
        assert int(row.group(2).replace(",", "")) == size, (w, size)


def test_precompute_docstring_sizes():
    import p256
    doc = " ".join(p256.PublicKey.precompute.__doc__.split())
    want = [round(p256.PrivateKey.from_int(5).public_key.precompute(window=w)._t.nbytes / 1000)
            for w in range(4, 9)]
    found = [int(x) for x in re.findall(r"(\d+) KB", doc)]
    assert found == want, (found, want)


SRC = ROOT / "src" / "p256"
# mkdocstrings' cross-reference syntax, [`name`][p256.name]: help() prints it literally.
_LINK = re.compile(r"\]\[(?:p256\.[\w.]*)?\]")


def _docstrings(path: pathlib.Path):
    import ast
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield getattr(node, "name", "<module>"), doc


@pytest.mark.parametrize("name", [p.name for p in sorted(SRC.glob("*.py"))])
def test_docstrings_have_no_link_syntax(name):
    """Docstrings are what help() shows: no mkdocstrings link syntax, plain names."""
    for where, doc in _docstrings(SRC / name):
        found = _LINK.search(doc)
        assert not found, "%s: %s: link syntax %r" % (name, where, found.group())


def _help_texts():
    """(defining module, name, docstring) of what help() shows for the public API."""
    import inspect
    import p256
    seen = set()
    objects = [(n, getattr(p256, n)) for n in p256.__all__]
    objects += [("p256", p256)] + [(m, getattr(p256, m)) for m in ("jws", "webauthn", "x509")]
    for name, obj in objects:
        members = [(name, obj)]
        if inspect.ismodule(obj) and name != "p256":
            members += [("%s.%s" % (name, a), getattr(obj, a)) for a in getattr(obj, "__all__", ())]
        for mname, member in list(members):
            if isinstance(member, type):
                members += [("%s.%s" % (mname, a), v) for a, v in vars(member).items()
                            if not a.startswith("_")]
        for mname, member in members:
            fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
            fn = fn.fget if isinstance(fn, property) else fn
            doc = getattr(fn, "__doc__", None)
            if not isinstance(doc, str) or id(fn) in seen or isinstance(fn, (str, int)):
                continue
            seen.add(id(fn))
            module = getattr(fn, "__module__", None) or getattr(fn, "__name__", "")
            yield module, mname, doc


_DOCS_FILE = re.compile(r"(?<![/\w])docs/[\w-]+\.md")


def _help_problems(keys_module: bool) -> list[str]:
    problems = []
    for module, name, doc in _help_texts():
        if (module == "p256._keys") != keys_module:
            continue
        if _DOCS_FILE.search(doc):
            problems.append("%s names %s, which the wheel does not ship"
                            % (name, _DOCS_FILE.search(doc).group()))
    return problems


def test_help_names_no_docs_file():
    """The wheel ships no docs/: help() points to the documentation's URL instead."""
    assert len(list(_help_texts())) > 50
    assert _help_problems(keys_module=False) == []


def test_help_names_no_docs_file_keys():
    assert _help_problems(keys_module=True) == []


def test_link_check_can_fail():
    assert _LINK.search("see [verify][p256.PublicKey.verify].")
    assert _LINK.search("see [`verify`][].")
    assert not _LINK.search("table[j][i - 1]")
    assert _DOCS_FILE.search("see docs/api.md") and not _DOCS_FILE.search("main/docs/api.md")


# Addresses of the project itself: it has none yet, so none may be written (a link must be
# true or absent): not in the metadata, not in mkdocs.yml, not in help() or the pages.
_OWN_ADDRESS = re.compile(r"github\.com/p256\b|^repo_url:|^\[project\.urls\]", re.M)


def _own_addresses(texts):
    return sorted(name for name, text in texts.items() if _OWN_ADDRESS.search(text))


def test_no_made_up_project_address():
    import p256
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
             for p in [ROOT / "pyproject.toml", ROOT / "mkdocs.yml", ROOT / "README.md",
                       *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "src" / "p256").rglob("*.py"))]}
    texts["help(p256)"] = p256.__doc__ or ""
    assert _own_addresses(texts) == []
    # negative control: what the metadata and the docstring said before
    assert _own_addresses({"a": 'Source = "https://github.com/p256/p256"',
                           "b": "[project.urls]\nDocs = 'x'", "c": "repo_url: https://x"}) == ["a", "b", "c"]


def test_every_public_name_is_in_the_api_reference():
    """Each name of p256.__all__ is in docs/api.md's table of module contents, and the
    type aliases have a section of their own."""
    import p256
    api = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    table = api.split("\n## Module contents\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(?:p256\.)?(\w+)", table))
    assert set(p256.__all__) - named == set()
    types = api.split("\n## Types\n", 1)[1].split("\n## ", 1)[0]
    for alias in ("Buffer", "HashName", "SigEncoding", "PrivateFormat", "JWK"):
        assert alias in p256.__all__ and "`p256.%s`" % alias in types, alias


def _silent_tries(source: str) -> list[int]:
    """Lines of the try statements that show an error but pass when none is raised: a
    handler that does not just re-raise, and neither an else that raises nor a body
    that ends in raise or assert."""
    import ast
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Try) or not node.handlers:
            continue
        if all(len(h.body) == 1 and isinstance(h.body[0], ast.Raise) for h in node.handlers):
            continue  # the success path, its errors propagated
        fails = any(isinstance(n, (ast.Raise, ast.Assert)) for s in node.orelse for n in ast.walk(s))
        if not fails and not isinstance(node.body[-1], (ast.Raise, ast.Assert)):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_error_examples_fail_without_the_error(path):
    """An example that shows an error with try/except fails when the error stops being
    raised (an else that raises), so the block above would notice."""
    silent = ["%s:%d" % (path.relative_to(ROOT), line + n - 1)
              for line, source in python_blocks(path.read_text(encoding="utf-8"))
              for n in _silent_tries(source)]
    assert silent == []


def test_silent_try_check_can_fail():
    assert _silent_tries("try:\n    f()\nexcept ValueError as e:\n    print(e)\n") == [1]
    assert _silent_tries("try:\n    f()\nexcept ValueError:\n    pass\n"
                         "else:\n    raise AssertionError\n") == []
    assert _silent_tries("try:\n    f()\nexcept ValueError:\n    raise\n") == []


def _declared_harness_tests() -> set[str]:
    """The names of the harness tests tests/c/meson.build declares: run_core's harnesses
    (its includes) and the per-variant lists per line of csrc/variants.txt, the
    variant-free ones alone."""
    from test_structure_csrc import meson_list
    run_core = (ROOT / "tests/c/run_core.c").read_text(encoding="utf-8")
    per_variant = re.findall(r'^#include "(test_\w+)\.c"', run_core, re.M)
    per_variant += meson_list("per_variant") + meson_list("native_once")
    variants = [line.split()[0] for line in (ROOT / "csrc/variants.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    return {"%s-%s" % (h, v) for h in per_variant for v in variants} | set(meson_list("variant_free"))


def _harness_section_problems(section: str, declared: set[str]) -> list[str]:
    """What in CONTRIBUTING.md's "One C harness" is not how make ctest builds and runs one."""
    problems = []
    runs = re.findall(r"^meson test -C (\S+) (.*?)\s+#", section, re.M)
    if {d for d, _ in runs} != {"build/c/gcc"} or "make build/c/gcc/build.ninja" not in section:
        problems.append("not the build directory that make sets up")
    if not any(args.startswith("--list") for _, args in runs):
        problems.append("no --list")
    names = [a for _, args in runs for a in args.split() if a.startswith("test_")]
    problems += ["no test %s" % n for n in names if n not in declared]
    if not names:
        problems.append("no test named")
    return problems


def test_contributing_runs_a_harness_as_make_ctest_does():
    """CONTRIBUTING.md lists and runs one C harness with meson test in the build directory
    the Makefile sets up, by names tests/c/meson.build declares; its hand build uses the
    flags of that directory (the Makefile's CSETUP and meson.build's defaults); and the
    README's development section points to the page. Negative control: a test name meson
    does not declare is reported."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### One C harness")[1].split("\n### ")[0]
    declared = _declared_harness_tests()
    assert {"test_core-x86_64_adx", "test_hash", "test_backend-portable"} <= declared
    assert _harness_section_problems(section, declared) == []
    assert _harness_section_problems(section.replace("test_hash ", "test_hashes "), declared) == [
        "no test test_hashes"]
    assert "-Doptimization=2" in _make_variable("CSETUP") and "-Dwerror=true" in _make_variable("CSETUP")
    meson = (ROOT / "meson.build").read_text(encoding="utf-8")
    assert "'c_std=c99'" in meson and "'warning_level=2'" in meson
    assert "`cc -O2 -std=c99 -Wall -Wextra -Werror -Icsrc -Itests/c " in " ".join(section.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(CONTRIBUTING.md)" in readme.split("## Features")[0]


def _pyjwt_es256_module() -> str:
    from jwt import api_jws
    return type(api_jws._jws_global_obj.get_algorithm_by_name("ES256")).__module__


def test_pages_that_register_run_apart(tmp_path, monkeypatch):
    """docs/jose.md registers p256 into PyJWT: run apart, it leaves this process's PyJWT
    alone; run here (the control, undone afterwards), it would not."""
    pytest.importorskip("jwt")
    pytest.importorskip("joserfc")
    from jwt import api_jwk, api_jws
    from joserfc.jws import JWSRegistry

    monkeypatch.chdir(tmp_path)
    assert not _pyjwt_es256_module().startswith("p256")
    assert _run_blocks_in_own_process("docs/jose.md", tmp_path) == []
    assert not _pyjwt_es256_module().startswith("p256")
    default = api_jws._jws_global_obj
    saved = (default._algorithms["ES256"], api_jwk.get_default_algorithms,
             JWSRegistry.algorithms["ES256"], list(JWSRegistry.recommended))
    try:
        assert run_blocks("docs/jose.md", (ROOT / "docs/jose.md").read_text(encoding="utf-8")) == []
        assert _pyjwt_es256_module() == "p256.contrib.pyjwt"
    finally:
        default._algorithms["ES256"] = saved[0]
        api_jwk.get_default_algorithms = saved[1]
        JWSRegistry.algorithms["ES256"] = saved[2]
        JWSRegistry.recommended[:] = saved[3]
    assert not _pyjwt_es256_module().startswith("p256")
