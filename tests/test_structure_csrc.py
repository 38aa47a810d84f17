# SPDX-License-Identifier: Apache-2.0
"""The structure of the C core: one CPU layer (only csrc/cpu.h and csrc/cpu_aarch64.h ask
the CPU or the OS which instruction sets it has). Reads the source tree only: no build."""

import os
import re

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
