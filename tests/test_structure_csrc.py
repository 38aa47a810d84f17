# SPDX-License-Identifier: Apache-2.0
"""The structure of the C core: one CPU layer (only csrc/cpu.h and csrc/cpu_aarch64.h ask
the CPU or the OS which instruction sets it has), an #include graph without a cycle, and
a map of the tree in docs/development.md that lists every C file and Python module.
Everything here reads source text; nothing is compiled."""

import fnmatch
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_TREES = ("csrc", os.path.join("tests", "c"))
C_SUFFIXES = (".c", ".h", ".S")

# The CPU layer: the only files allowed to run a feature test.
CPU_LAYER = {"csrc/cpu.h", "csrc/cpu_aarch64.h"}

# Ways of asking for a feature: the CPUID instruction, its compiler wrappers and header,
# XGETBV (named, or as its opcode bytes 0f 01 d0), the compilers' feature builtins, the
# auxiliary vector (Linux, FreeBSD), sysctl (macOS), the aarch64 ID registers (op0 = 3,
# op1 = 0, CRn = 0, by name or in the S3_0_C0_Cm_n form), /proc/cpuinfo.
FEATURE_TESTS = re.compile(
    r"\bcpuid\b|__get_cpuid|__cpuid|xgetbv"
    r"|0x0f\s*,\s*0x01\s*,\s*0xd0|\b15\s*,\s*1\s*,\s*208\b"
    r"|__builtin_cpu_(?:supports|init|is)"
    r"|\bgetauxval\b|\belf_aux_info\b|sys/auxv\.h|\bsysctlbyname\b"
    r"|\bID_AA64\w*|\bS3_0_C0_C\d+_\d+|/proc/cpuinfo",
    re.IGNORECASE)

# String and character literals are kept (inline assembly lives in them); comments go.
_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.DOTALL)


def strip_comments(text):
    """text without its C comments, newlines kept (so line numbers stay right)."""
    def keep(m):
        tok = m.group(0)
        return tok if tok[0] in "\"'" else "\n" * tok.count("\n") + " "
    return _TOKENS.sub(keep, text)


def feature_tests(text):
    """[(line, what)] of every feature test in a C or assembly source."""
    code = strip_comments(text)
    return [(code.count("\n", 0, m.start()) + 1, m.group(0)) for m in FEATURE_TESTS.finditer(code)]


def c_sources():
    """{path relative to the root, with /: text} of every C and assembly file of the trees."""
    out = {}
    for tree in C_TREES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, tree)):
            for fname in files:
                if fname.endswith(C_SUFFIXES):
                    path = os.path.join(dirpath, fname)
                    with open(path, encoding="utf-8") as f:
                        out[os.path.relpath(path, ROOT).replace(os.sep, "/")] = f.read()
    return out


def test_feature_tests_only_in_the_cpu_layer():
    sources = c_sources()
    assert CPU_LAYER <= set(sources)
    found = ["%s:%d: %s" % (path, line, what) for path, text in sorted(sources.items())
             if path not in CPU_LAYER for line, what in feature_tests(text)]
    assert found == [], "feature tests outside csrc/cpu.h, csrc/cpu_aarch64.h:\n" + "\n".join(found)


def test_feature_test_scanner_flags_plants():
    """Negative control: every spelling is flagged, in code and in inline assembly; the
    layer itself is found to test features; comments are not code."""
    plants = [
        "#include <cpuid.h>\n",
        "if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;\n",
        "__get_cpuid_max(0, NULL);\n",
        "__cpuid_count(7, 0, a, b, c, d);\n",
        '__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));\n',
        'unsigned long long x = _xgetbv(0);\n',
        '__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));\n',
        '__asm__ volatile(".byte 0x0F,0x01,0xD0" : "=a"(lo), "=d"(hi) : "c"(0));\n',
        "if (__builtin_cpu_supports(\"avx2\")) f();\n",
        "__builtin_cpu_init();\n",
        "unsigned long h = getauxval(AT_HWCAP);\n",
        "#include <sys/auxv.h>\n",
        'sysctlbyname("hw.optional.arm.FEAT_DIT", &v, &len, NULL, 0);\n',
        '__asm__ __volatile__("mrs %0, S3_0_C0_C4_0" : "=r"(pfr0));\n',
        '__asm__ __volatile__("mrs %0, ID_AA64ISAR0_EL1" : "=r"(isar0));\n',
        "\tcpuid\n",
        'FILE *f = fopen("/proc/cpuinfo", "r");\n',
    ]
    for plant in plants:
        assert feature_tests("int f(void)\n{\n" + plant + "}\n"), plant
    assert feature_tests("int x;\n/* a\n */ int y; __cpuid(1, a, b, c, d);\n") == [(3, "__cpuid")]
    assert feature_tests("/* reads CPUID leaf 7 and getauxval(AT_HWCAP) */\n"
                         "// __builtin_cpu_supports(\"avx2\")\nint cpuid_leaf;\n") == []
    assert len(feature_tests(c_sources()["csrc/cpu.h"])) >= 5


# ---- The #include graph of csrc -------------------------------------------------------

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def include_graph(sources, search=("csrc",)):
    """{file: set of files it includes} over {path: text}: a quoted #include resolves to
    the including file's directory first, then to each of `search` (the -I directories),
    as the compilers do; includes of files outside `sources` (system headers) are left out."""
    graph = {path: set() for path in sources}
    for path, text in sources.items():
        here = os.path.dirname(path)
        for name in _INCLUDE.findall(strip_comments(text)):
            for base in (here,) + tuple(search):
                target = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
                if target in sources:
                    graph[path].add(target)
                    break
    return graph


def test_csrc_include_graph_has_no_cycle():
    from test_structure import find_cycle  # the cycle finder of the Python import graph
    core = {p: t for p, t in c_sources().items() if p.startswith("csrc/")}
    graph = include_graph(core)
    assert "csrc/field_impl.h" in graph["csrc/p256.c"]
    assert "csrc/modules/recovery/recovery.h" in graph["csrc/modules/recovery/main_impl.h"]
    assert "csrc/asm/x86_64_mont.h" in graph["csrc/asm/field_x86_64.S"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle)


def include_closure(graph, start):
    """Every file start includes, directly or not, and start itself."""
    seen, todo = set(), [start]
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(graph.get(path, ()))
    return seen


def variant_reach(sources, harness):
    """The files in harness's include closure whose code (comments aside) names a variant's
    macro (P256_ASM_*: the defines of csrc/variants.txt and what asm.h derives from them)."""
    graph = include_graph(sources, search=("csrc", "tests/c"))
    return sorted(p for p in include_closure(graph, harness)
                  if "P256_ASM" in strip_comments(sources[p]))


def meson_list(name, path="tests/c/meson.build"):
    """The strings of a `name = [...]` list in a meson.build (the C harnesses' lists)."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        m = re.search(r"^%s = \[([^\]]*)\]" % name, f.read(), re.MULTILINE)
    assert m, name
    return re.findall(r"'([^']*)'", m.group(1))


def test_variant_free_harnesses_reach_no_variant_code():
    """tests/c/meson.build builds the harnesses in variant_free once per compiler, not per
    variant: none of them may include code that a variant's defines change. Negative
    control: test_core.c (the whole core) reaches the assembly's macros."""
    sources = c_sources()
    free = ["tests/c/%s.c" % name for name in meson_list("variant_free")]
    assert "tests/c/test_modinv.c" in free
    for harness in free:
        assert variant_reach(sources, harness) == [], harness
    assert "csrc/asm.h" in variant_reach(sources, "tests/c/test_core.c")


def undeclared_harnesses(harnesses, run_core, meson):
    """The tests/c/test_*.c that neither run_core.c includes nor tests/c/meson.build names
    (a harness no meson test would run)."""
    included = set(re.findall(r'^#include "(test_\w+)\.c"', run_core, re.MULTILINE))
    named = set(re.findall(r"'(test_\w+)'", meson))
    return sorted(h for h in harnesses if h not in included | named)


def test_every_harness_is_declared():
    """A harness runs only once tests/c/meson.build declares it (meson has no glob): every
    tests/c/test_*.c is one of run_core's or named in a list there. Negative control: a
    harness named nowhere is reported."""
    names = [f[:-2] for f in os.listdir(os.path.join(ROOT, "tests", "c"))
             if f.startswith("test_") and f.endswith(".c")]
    with open(os.path.join(ROOT, "tests", "c", "run_core.c"), encoding="utf-8") as f:
        run_core = f.read()
    with open(os.path.join(ROOT, "tests", "c", "meson.build"), encoding="utf-8") as f:
        meson = f.read()
    assert len(names) > 15
    assert undeclared_harnesses(names, run_core, meson) == []
    assert undeclared_harnesses(names + ["test_planted"], run_core, meson) == ["test_planted"]


def harness_build_problems(meson, options):
    """Why pip's build (meson-python, default options) could configure a C harness: the
    top-level meson.build includes tests/c outside an `if get_option('tests') != 'false'`
    block, or the option's default is not 'false'."""
    problems = []
    default = re.search(r"option\('tests',[^)]*?value: '(\w+)'", options, re.S)
    if not default or default.group(1) != "false":
        problems.append("meson.options: tests does not default to false")
    guarded = re.search(r"^if get_option\('tests'\) != 'false'\n  subdir\('tests/c'\)\nendif$", meson, re.M)
    if meson.count("subdir('tests/c')") != 1 or not guarded:
        problems.append("meson.build: subdir('tests/c') outside the tests option's if")
    return problems


def test_pip_builds_no_harness():
    """The C harnesses are declared in a build directory made with -Dtests=true only.
    Negative controls: an unguarded subdir and a default of true are reported."""
    with open(os.path.join(ROOT, "meson.build"), encoding="utf-8") as f:
        meson = f.read()
    with open(os.path.join(ROOT, "meson.options"), encoding="utf-8") as f:
        options = f.read()
    assert harness_build_problems(meson, options) == []
    assert len(harness_build_problems(meson + "subdir('tests/c')\n", options)) == 1
    assert len(harness_build_problems(meson, options.replace("value: 'false'", "value: 'true'"))) == 1


MAKEFILE_MAX_LINES = 300      # the front door
BUILD_SCRIPT_MAX_LINES = 1100  # the Makefile and tools/*.sh together


def front_door_problems(makefile, scripts):
    """Why the build is scripted rather than declared: the Makefile over its budget or
    computing with awk or $(eval) (what it lists belongs in tests/c/meson.build), or the
    Makefile and {name: text} of tools/*.sh over theirs (logic moved, not declared)."""
    problems = []
    lines = makefile.count("\n")
    if lines > MAKEFILE_MAX_LINES:
        problems.append("Makefile: %d lines, over %d" % (lines, MAKEFILE_MAX_LINES))
    for word in ("awk", "$(eval"):
        if re.search(r"(^|[^\w])%s" % re.escape(word), strip_make_comments(makefile), re.M):
            problems.append("Makefile: %s" % word)
    total = lines + sum(text.count("\n") for text in scripts.values())
    if total > BUILD_SCRIPT_MAX_LINES:
        problems.append("Makefile and tools/*.sh: %d lines, over %d" % (total, BUILD_SCRIPT_MAX_LINES))
    return problems


def strip_make_comments(text):
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def test_the_makefile_is_a_front_door():
    """The Makefile runs what tests/c/meson.build declares; it does not compute the build.
    Negative controls: a line over budget, an awk, an $(eval) and a script that grows the
    total are each reported."""
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    tools = os.path.join(ROOT, "tools")
    scripts = {}
    for name in sorted(os.listdir(tools)):
        if name.endswith(".sh"):
            with open(os.path.join(tools, name), encoding="utf-8") as f:
                scripts[name] = f.read()
    assert len(scripts) >= 5
    assert front_door_problems(makefile, scripts) == []
    assert front_door_problems("x:\n" * (MAKEFILE_MAX_LINES + 1), {}) == [
        "Makefile: %d lines, over %d" % (MAKEFILE_MAX_LINES + 1, MAKEFILE_MAX_LINES)]
    assert front_door_problems("V := $(shell awk 1 f)\n", {}) == ["Makefile: awk"]
    assert front_door_problems("$(eval $(call rule,x))\n", {}) == ["Makefile: $(eval"]
    assert front_door_problems("# awk and $(eval in a comment\n", {}) == []
    big = dict(scripts, extra="\n" * (BUILD_SCRIPT_MAX_LINES + 1))
    assert any("tools/*.sh" in p for p in front_door_problems(makefile, big))


def test_include_cycle_detector_finds_cycles():
    """Negative control: a cycle through a module's own directory and the -I directory, and
    one through an assembly header, are found; a comment is no include."""
    from test_structure import find_cycle
    planted = {
        "csrc/ecdsa.h": '#include "modules/recovery/recovery.h"\n',
        "csrc/modules/recovery/recovery.h": '#include "main_impl.h"\n',
        "csrc/modules/recovery/main_impl.h": '#include "ecdsa.h"\n',
    }
    assert find_cycle(include_graph(planted)) == [
        "csrc/ecdsa.h", "csrc/modules/recovery/recovery.h",
        "csrc/modules/recovery/main_impl.h", "csrc/ecdsa.h"]
    asm = {"csrc/asm/a.S": '#include "m.h"\n', "csrc/asm/m.h": '  #  include "a.S"\n'}
    assert find_cycle(include_graph(asm)) is not None
    comment = {"csrc/a.h": '/* #include "b.h" */\n', "csrc/b.h": '#include "a.h"\n'}
    assert find_cycle(include_graph(comment)) is None


def module_problems(sources):
    """Where the core reaches into a module (libsecp256k1's rule: src/modules/<name> is
    included after the core, which never includes a module): a file of csrc outside
    modules/ whose includes reach a module, but the one translation unit p256.c, which
    includes the modules' main_impl.h last, after every layer of the core."""
    graph = include_graph(sources)
    is_module = lambda path: path.startswith("csrc/modules/")
    found = []
    for path in sorted(graph):
        if is_module(path) or not path.startswith("csrc/"):
            continue
        if path == "csrc/p256.c":
            names = _INCLUDE.findall(strip_comments(sources[path]))
            kinds = [n.startswith("modules/") for n in names]
            if True in kinds and False in kinds[kinds.index(True):]:
                found.append("%s: includes %s after a module" % (
                    path, names[kinds.index(False, kinds.index(True))]))
            continue
        reached = sorted(p for p in include_closure(graph, path) if is_module(p))
        if reached:
            found.append("%s: reaches %s" % (path, ", ".join(reached)))
    return found


def test_the_core_includes_no_module():
    sources = {p: t for p, t in c_sources().items() if p.startswith("csrc/")}
    assert module_problems(sources) == []
    assert any(p.startswith("csrc/modules/") for p in include_closure(
        include_graph(sources), "csrc/p256.c")), "p256.c includes no module: test nothing"


def test_module_rule_finds_plants():
    """Negative control: a core header that includes a module, one that reaches it through
    another header, and p256.c including a layer after a module are each reported."""
    core = {
        "csrc/ecdsa.h": '#include "group.h"\n',
        "csrc/group.h": "\n",
        "csrc/modules/recovery/main_impl.h": '#include "../../ecdsa.h"\n',
        "csrc/p256.c": '#include "ecdsa.h"\n#include "modules/recovery/main_impl.h"\n',
    }
    assert module_problems(core) == []
    direct = dict(core, **{"csrc/ecdsa.h": '#include "modules/recovery/main_impl.h"\n'})
    assert module_problems(direct) == [
        "csrc/ecdsa.h: reaches csrc/modules/recovery/main_impl.h"]
    through = dict(core, **{"csrc/group.h": '#include "modules/recovery/main_impl.h"\n'})
    assert [p.split(":")[0] for p in module_problems(through)] == ["csrc/ecdsa.h", "csrc/group.h"]
    late = dict(core, **{"csrc/p256.c": core["csrc/p256.c"] + '#include "group.h"\n'})
    assert module_problems(late) == ["csrc/p256.c: includes group.h after a module"]


# ---- docs/development.md's map of the tree ----------------------------------------------

DEV_DOC = os.path.join(ROOT, "docs", "development.md")


def tree_map(text):
    """{top directory: set of names and glob patterns} from the ```text block under
    "## Layout": each line at column 0 opens a directory's section; every word of its
    entries (split at blanks and at , ; : / ( )) is a name or pattern."""
    block = text.split("## Layout", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    out, top = {}, None
    for line in block.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            top = line.split()[0]
            out[top] = set()
            line = line[len(top):]
        if top is not None:
            out[top].update(w for w in re.split(r"[\s,;:/()]+", line) if w)
    return out


def unmapped(names, words):
    """The names (paths relative to the section's directory) that no word matches, by
    basename or by path; words may be glob patterns (field*.h, asm/*_aarch64.S)."""
    def listed(name):
        return any(fnmatch.fnmatchcase(os.path.basename(name), w) or fnmatch.fnmatchcase(name, w)
                   for w in words)
    return sorted(n for n in names if not listed(n))


def csrc_files():
    out = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "csrc")):
        out += [os.path.relpath(os.path.join(dirpath, f), os.path.join(ROOT, "csrc"))
                .replace(os.sep, "/") for f in files if not f.endswith((".pyc", ".o"))]
    return out


def package_modules():
    pkg = os.path.join(ROOT, "src", "p256")
    return [os.path.splitext(f)[0] if f.endswith(".py") else f
            for f in os.listdir(pkg) if f.endswith((".py", ".pyi", ".typed"))]


def test_development_map_lists_every_c_file_and_module():
    with open(DEV_DOC, encoding="utf-8") as f:
        tree = tree_map(f.read())
    assert unmapped(csrc_files(), tree["csrc/"]) == [], "csrc files missing from docs/development.md's Layout"
    assert unmapped(package_modules(), tree["src/p256/"]) == [], \
        "src/p256 modules missing from docs/development.md's Layout"


def test_development_map_check_finds_omissions():
    """Negative control: a map without the cpu.h line, or without _keys, is caught, and a
    file or module the map has never heard of is reported."""
    with open(DEV_DOC, encoding="utf-8") as f:
        text = f.read()
    tree = tree_map(text)
    assert unmapped(["cpu.h", "modules/recovery/main_impl.h", "asm/field_x86_64.S"],
                    tree["csrc/"]) == []
    assert unmapped(["frobnicate_impl.h"], tree["csrc/"]) == ["frobnicate_impl.h"]
    assert unmapped(["_frobnicate"], tree["src/p256/"]) == ["_frobnicate"]
    assert unmapped(["cpu.h"], tree_map(re.sub(r"\bcpu\.h\b", "", text))["csrc/"]) == ["cpu.h"]
    assert unmapped(["_keys"], tree_map(re.sub(r"\b_keys\b", "", text))["src/p256/"]) == ["_keys"]


def map_names(text, top):
    """The names of the entries of `top`'s section of the map: the first column of each
    entry line (two spaces in, names separated by ", ", then two or more spaces)."""
    block = text.split("## Layout", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    names, inside = [], False
    for line in block.splitlines():
        if line and not line[0].isspace():
            inside = line.split()[0] == top
            continue
        m = re.match(r"  (\S(?:[^ ]| (?! ))*?)(?:  +|$)", line)
        if inside and m:
            names += [n.rstrip(",") for n in m.group(1).split(", ")]
    return names


def tracked_files():
    """Every file git tracks (the tree as a clone has it), relative to the root."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return out or [os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                   for d, _, fs in os.walk(ROOT) for f in fs]


def stale_map_entries(text, files):
    """The map's entries and the file names it mentions that name nothing in the tree:
    a src/p256/ entry that is no module or package, a csrc/ entry (a name or a glob)
    that matches no file, and any word anywhere in the map that looks like a file
    (x.c, x.h, x.S, x.py, x.sh, x.txt) with no tracked file of that name."""
    modules = {os.path.splitext(f[len("src/p256/"):])[0].split("/")[0]
               for f in files if f.startswith("src/p256/")}
    csrc = [f[len("csrc/"):] for f in files if f.startswith("csrc/")]
    stale = ["src/p256/ " + n for n in map_names(text, "src/p256/")
             if n.rstrip("/") not in modules and n.split(".")[0] not in modules]
    stale += ["csrc/ " + n for n in map_names(text, "csrc/")
              if not any(fnmatch.fnmatchcase(c, n.rstrip("/") + ("/*" if n.endswith("/") else ""))
                         or fnmatch.fnmatchcase(os.path.basename(c), n) for c in csrc)]
    block = text.split("## Layout", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    names = {os.path.basename(f) for f in files}
    stale += ["mentions " + w for w in sorted(set(re.findall(
        r"(?<![\w*/.-])([A-Za-z_]\w*\.(?:c|h|S|py|sh|txt))\b", block)))
              if w not in names and not re.match(r"[A-Z](_|\.)", w)]  # X.h: a placeholder
    return stale


def test_development_map_names_only_what_exists():
    with open(DEV_DOC, encoding="utf-8") as f:
        text = f.read()
    files = tracked_files()
    assert "_keys" in map_names(text, "src/p256/") and "cpu.h" in map_names(text, "csrc/")
    assert stale_map_entries(text, files) == []


def test_stale_map_entries_are_found():
    """Negative control: an entry for a module that is gone, a C file that is gone, and a
    mention of a file nobody has are each reported."""
    with open(DEV_DOC, encoding="utf-8") as f:
        text = f.read()
    files = tracked_files()
    gone = text.replace("  _bridge  ", "  _bridge, _recover  ", 1)
    assert "src/p256/ _recover" in stale_map_entries(gone, files)
    gone = text.replace("  cpu.h  ", "  cpu.h, cpuid_old.h  ", 1)
    assert "csrc/ cpuid_old.h" in stale_map_entries(gone, files)
    gone = text.replace("same_code.py", "frobnicate.py, same_code.py", 1)
    assert "mentions frobnicate.py" in stale_map_entries(gone, files)


# A path in the tree (src/p256/..., csrc/..., tests/..., tools/..., docs/...) or a bare file
# name in a comment or docstring; build outputs and placeholders (tests/c/bin/...,
# test_NAME.c) are not names of files in the tree.
_PATH_REF = re.compile(r"(?<![\w/.-])((?:src/p256|csrc|tests|tools|docs|benchmarks)/[\w./-]*\w)"
                       r"(?![\w*<])")
_NAME_REF = re.compile(r"(?<![\w/.<>*-])([A-Za-z_]\w*\.(?:c|h|S|py|pyi|sh))\b")
_SYSTEM_HEADER = re.compile(r"#\s*include\s*<([^>]+)>")


def comment_text(path, text):
    """The comments (C, assembly) or comments and docstrings (Python) of a source."""
    if path.endswith(".py") or path.endswith(".pyi"):
        import ast
        import io
        import tokenize
        out = [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline)
               if tok.type == tokenize.COMMENT]
        out += [ast.get_docstring(node) or "" for node in ast.walk(ast.parse(text))
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                     ast.AsyncFunctionDef))]
        return "\n".join(out)
    return "\n".join(m.group(0) for m in _TOKENS.finditer(text) if m.group(0)[0] == "/")


def missing_references(sources, files):
    """[(source, name)] for each file a comment names (a path in the tree, or a bare file
    name) that is not there."""
    names = {os.path.basename(f) for f in files}
    system = {os.path.basename(h) for t in sources.values() for h in _SYSTEM_HEADER.findall(t)}
    found = []
    for path, text in sorted(sources.items()):
        comments = comment_text(path, text)
        for ref in _PATH_REF.findall(comments):
            ref = ref.rstrip(".")
            if "/bin/" in ref + "/" or re.search(r"[A-Z]{3,}", ref):
                continue
            if not any(f == ref or f.startswith(ref.rstrip("/") + "/") for f in files):
                found.append((path, ref))
        for name in _NAME_REF.findall(comments):
            if name not in names and name not in system and not re.search(r"[A-Z]{3,}", name) \
                    and not re.match(r"[A-Z](_|\.)", name):  # X_impl.h: a placeholder
                found.append((path, name))
    return found


def test_comments_name_files_that_exist():
    files = tracked_files()
    sources = {f: open(os.path.join(ROOT, f), encoding="utf-8").read() for f in files
               if f.startswith(("csrc/", "src/p256/", "tests/c/"))
               and f.endswith((".c", ".h", ".S", ".py", ".pyi"))}
    assert len(sources) > 100
    assert missing_references(sources, files) == []


def test_missing_references_are_found():
    """Negative control: what csrc/py_pubkey.c's header once said (a module that never
    existed), a bare name in a C comment and in a Python docstring; system headers and
    build outputs are not reported."""
    files = tracked_files()
    planted = {
        "csrc/py_x.c": "#include <stdint.h>\n/* subclassed in src/p256/_public.py; see "
                       "stdint.h, tests/c/bin/run_core and ecmult_old_impl.h */\nint x;\n",
        "src/p256/_x.py": '"""Reads what _der.py and _gone.py say."""\nx = "src/p256/_nope.py"\n',
    }
    assert missing_references(planted, files) == [
        ("csrc/py_x.c", "src/p256/_public.py"), ("csrc/py_x.c", "ecmult_old_impl.h"),
        ("src/p256/_x.py", "_gone.py")]


# ---- The house style of the C sources (tools/check_c_style.py, make check-style) --------

STYLE_TOOL = os.path.join(ROOT, "tools", "check_c_style.py")
CLEAN_HEADER = ("/* SPDX-License-Identifier: Apache-2.0 */\n"
                "/* widget.h: a header that keeps every rule. */\n"
                "#ifndef P256_WIDGET_H\n#define P256_WIDGET_H\n\n"
                "#if defined(X)\nint widget(void);\n#endif\n\n"
                "#endif /* P256_WIDGET_H */\n")


def run_style(*paths):
    """(exit status, the violation lines) of tools/check_c_style.py over paths."""
    proc = subprocess.run([sys.executable, STYLE_TOOL, *map(str, paths)], capture_output=True,
                          text=True, check=False)
    return proc.returncode, [line for line in proc.stdout.splitlines()
                             if not line.startswith("check_c_style:")]


def test_c_style_of_the_tree():
    status, found = run_style()
    assert (status, found) == (0, []), "\n".join(found)


def test_c_style_reports_planted_violations(tmp_path):
    """Negative control: each rule broken once in a file of its own is reported, with its
    line; a clean header and a generated file pass."""
    good = tmp_path / "widget.h"
    good.write_text(CLEAN_HEADER)
    (tmp_path / "gen.h").write_text("/* DO NOT EDIT: generated */\n\tint x;   \n")
    assert run_style(good, tmp_path / "gen.h") == (0, [])
    plants = {
        "long.c": ("/* SPDX-License-Identifier: Apache-2.0 */\nint x; /*" + "x" * 120 + "*/\n",
                   ":2: line of 131 characters"),
        "nospdx.c": ("/* Apache-2.0 */\nint x;\n", ":1: no SPDX-License-Identifier"),
        "tab.c": ("/* SPDX-License-Identifier: Apache-2.0 */\nint\tx;\n", ":2: tab"),
        "space.c": ("/* SPDX-License-Identifier: Apache-2.0 */\nint x; \n", ":2: trailing whitespace"),
        "misnamed.h": (CLEAN_HEADER, ":3: include guard P256_WIDGET_H not named after the file"),
        "wid.h": (CLEAN_HEADER.replace("WIDGET", "XWID"), ":3: include guard P256_XWID_H"),
        "unguarded.h": ("/* SPDX-License-Identifier: Apache-2.0 */\nint x;\n", ": no include guard"),
        "widget_open.h": (CLEAN_HEADER.replace("WIDGET", "WIDGET_OPEN") + "#define LATE 1\n",
                          ":11: the include guard's #endif"),
    }
    for name, (text, want) in plants.items():
        path = tmp_path / name
        path.write_text(text)
        status, found = run_style(path)
        assert status == 1 and len(found) == 1 and want in found[0], (name, found)
        path.unlink()
    # the directory walk finds them too, and skips build outputs (bin/)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "junk.c").write_text("\tjunk \n")
    (tmp_path / "tab.c").write_text(plants["tab.c"][0])
    status, found = run_style(tmp_path)
    assert status == 1 and [line.split(":", 1)[1] for line in found] == ["2: tab"], found


# ---- The core's reason codes, by name on both sides ---------------------------------------

REASON = re.compile(r"^#define P256_((?:POINT|SIG|RECOVER)_\w+) (\d+)\b", re.MULTILINE)


def reason_mismatches(header, core):
    """[(name, in p256.h, in _core)] where the reason codes of p256.h's text and a module's
    attributes (POINT_*, SIG_*, RECOVER_*) differ, either side missing included."""
    declared = {name: int(value) for name, value in REASON.findall(header)}
    exported = {name: getattr(core, name) for name in dir(core)
                if re.match(r"(POINT|SIG|RECOVER)_", name)}
    return sorted((name, declared.get(name), exported.get(name))
                  for name in set(declared) | set(exported)
                  if declared.get(name) != exported.get(name))


def test_reason_codes_are_p256_h_s():
    """_core exports every reason of p256.h under its name, with its value; the Python
    layer's messages cover every reason but OK (and the point's ENCODING, worded from the
    data, and recovery's RANGE, which the Python layer rules out before the core)."""
    from p256 import _common, _core, _keys, _sig
    with open(os.path.join(ROOT, "csrc", "p256.h"), encoding="utf-8") as f:
        header = f.read()
    assert len(REASON.findall(header)) >= 27
    assert reason_mismatches(header, _core) == []
    codes = lambda prefix: {getattr(_core, n) for n in dir(_core) if n.startswith(prefix)}
    assert set(_common.POINT_PROBLEMS) == codes("POINT_") - {_core.POINT_OK, _core.POINT_ENCODING}
    assert set(_sig.DER_PROBLEMS) == codes("SIG_DER_")
    assert set(_keys._NO_KEY) == codes("RECOVER_") - {_core.RECOVER_OK, _core.RECOVER_RANGE}


def test_reason_check_finds_plants():
    """Negative control: a value changed on either side, a reason only one side has."""
    class Core:
        POINT_OK, POINT_HYBRID = 0, 2
    header = "#define P256_POINT_OK 0\n#define P256_POINT_HYBRID 2\n"
    assert reason_mismatches(header, Core) == []
    assert reason_mismatches(header.replace("HYBRID 2", "HYBRID 3"), Core) == [
        ("POINT_HYBRID", 3, 2)]
    assert reason_mismatches(header + "#define P256_SIG_OK 0\n", Core) == [("SIG_OK", 0, None)]
    Core.RECOVER_OK = 0
    assert reason_mismatches(header, Core) == [("RECOVER_OK", None, 0)]
