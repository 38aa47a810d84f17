#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Same instructions before and after a move: tools/same_code.py BASE_REV [REV ...].

Builds the core of each revision (git archive of each, so the work tree is not used
unless only BASE_REV is given, which compares it with the work tree as it is) and
compares each revision with the one before it (BASE_REV A B: BASE_REV..A, A..B). The
core is built the way meson builds the extension's variants: csrc/p256.c at -O3 with
the variant's defines, and the variant's assembly sources from csrc/variants.txt; plus
tests/c/test_hash.c (the hash layer on its own, as the harnesses include it). Configurations: portable and x86_64_adx
with gcc and clang, portable and aarch64_asm with aarch64-linux-gnu-gcc (each only if
the compiler is installed). C is compiled with -ffunction-sections, so each function
disassembles from offset 0 and calls between functions are relocations.

Each function's disassembly (objdump -dr, no raw bytes) is normalized: addresses,
symbol names (of the function, its callees, its relocations and the .L labels) and
assembler comments are dropped; jumps inside a function keep their offset from its
start. Two revisions agree when their functions' bodies are the same multiset:
code may move between files, be renamed and be emitted in another order. The
functions whose names exist on one side only are listed (a rename shows up there);
a body that differs is shown as a diff. Trailing nops (alignment padding before the
next function) are dropped. SAME_CODE_ONLY=gcc:portable,clang:x86_64_adx limits the run
to those configurations. Exit status 0 when every configuration agrees, 1 otherwise.
"""

import collections
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CFLAGS = ["-O3", "-std=c99", "-fPIC", "-fno-strict-aliasing", "-fvisibility=hidden",
          "-DP256_TABLES_EXTERN", "-ffunction-sections", "-Icsrc"]
CONFIGS = [  # (label, compiler, objdump, variants)
    ("gcc", ["gcc"], "objdump", ["portable", "x86_64_adx"]),
    ("clang", ["clang"], "objdump", ["portable", "x86_64_adx"]),
    ("aarch64-gcc", ["aarch64-linux-gnu-gcc"], "aarch64-linux-gnu-objdump",
     ["portable", "aarch64_asm"]),
]
EXTRA_UNITS = ["tests/c/test_hash.c"]


def tree_of(rev, dest):
    """The sources of rev (None: the work tree) under dest."""
    if rev is None:
        return ROOT
    os.makedirs(dest)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev], check=True,
                             stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    return dest


def variants(tree):
    """{name: (defines, sources)} from csrc/variants.txt."""
    out = {}
    with open(os.path.join(tree, "csrc", "variants.txt"), encoding="utf-8") as f:
        for line in f:
            col = line.split()
            if not col or col[0].startswith("#") or len(col) < 6:
                continue
            out[col[0]] = ([] if col[4] == "-" else col[4].split(","),
                           [] if col[5] == "-" else col[5].split(","))
    return out


_ADDR = re.compile(r"^\s*[0-9a-f]+:\s*")
_FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
_TARGET = re.compile(r"\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>")


def functions(objdump, obj):
    """{function name: [normalized instruction lines]} of an object file."""
    text = subprocess.run([objdump, "-dr", "--no-show-raw-insn", obj], check=True,
                          stdout=subprocess.PIPE, universal_newlines=True).stdout
    out, name, body = {}, None, None
    for line in text.splitlines():
        m = _FUNC.match(line)
        if m:
            name = m.group(1)
            body = out.setdefault(name, [])
            continue
        if body is None or not line.strip() or line.startswith("Disassembly of section"):
            continue
        if re.match(r"^\s*[0-9a-f]+: R_", line):  # a relocation: keep its type only
            body.append("reloc " + line.split()[1])
            continue
        if not _ADDR.match(line):
            continue
        insn = _ADDR.sub("", line).split("#")[0].split("//")[0].rstrip()
        insn = _TARGET.sub(lambda t: "<%s>" % ((t.group(2) or "+0x0") if t.group(1) == name
                                               else "sym"), insn)
        insn = re.sub(r"\s+", " ", insn)
        body.append(insn)
    for body in out.values():  # the padding up to the next symbol's alignment is no code
        while body and re.match(r"^(nop|xchg %ax,%ax|data16|cs nop)", body[-1]):
            body.pop()
    return out


def build(tree, cc, objdump, variant, defines, sources, work):
    """{function: body} of one variant's objects built from tree."""
    os.makedirs(work, exist_ok=True)
    units = [("csrc/p256.c", defines + ["-DP256_VARIANT=p256_api_" + variant])]
    units += [(u, defines) for u in EXTRA_UNITS if os.path.exists(os.path.join(tree, u))]
    units += [(s, defines) for s in sources]
    funcs = {}
    for i, (src, args) in enumerate(units):
        obj = os.path.join(work, "%d-%s.o" % (i, os.path.basename(src)))
        subprocess.run(cc + CFLAGS + args + ["-c", "-o", obj, src], cwd=tree, check=True)
        for name, body in functions(objdump, obj).items():
            funcs["%s:%s" % (os.path.basename(src), name)] = body
    return funcs


def compare(before, after):
    """(report lines, same?) for two {unit:function: body} maps."""
    def bag(funcs):
        return collections.Counter("\n".join(b) for b in funcs.values())
    lines = []
    b_bag, a_bag = bag(before), bag(after)
    names_b = {k.split(":", 1)[1] for k in before}
    names_a = {k.split(":", 1)[1] for k in after}
    gone, new = sorted(names_b - names_a), sorted(names_a - names_b)
    if gone or new:
        lines.append("  names only before: %s" % (" ".join(gone) or "-"))
        lines.append("  names only after:  %s" % (" ".join(new) or "-"))
    if b_bag == a_bag:
        return lines, True
    by_body_b = {"\n".join(b): k for k, b in before.items()}
    by_body_a = {"\n".join(b): k for k, b in after.items()}
    only_b = [by_body_b[x] for x in (b_bag - a_bag)]
    only_a = [by_body_a[x] for x in (a_bag - b_bag)]
    lines.append("  bodies only before: %s" % " ".join(sorted(only_b)))
    lines.append("  bodies only after:  %s" % " ".join(sorted(only_a)))
    for kb in sorted(only_b):
        fb = kb.split(":", 1)[1]
        ka = next((k for k in only_a if k.split(":", 1)[1] == fb), None)
        if ka:
            lines.extend("    " + d for d in difflib.unified_diff(
                before[kb], after[ka], kb, ka, lineterm="", n=2))
    return lines, False


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    revs = argv[1:] if len(argv) > 2 else [argv[1], None]
    only = set(filter(None, os.environ.get("SAME_CODE_ONLY", "").split(",")))
    tmp = tempfile.mkdtemp(prefix="same_code-")
    ok = True
    try:
        trees = [tree_of(r, os.path.join(tmp, "tree%d" % i)) for i, r in enumerate(revs)]
        vs = [variants(t) for t in trees]
        for label, cc, objdump, names in CONFIGS:
            if shutil.which(cc[0]) is None or shutil.which(objdump) is None:
                print("%s: SKIP: %s or %s is not installed" % (label, cc[0], objdump))
                continue
            for v in names:
                if only and "%s:%s" % (label, v) not in only:
                    continue
                got = [build(t, cc, objdump, v, *vmap[v], os.path.join(tmp, "obj%d" % i, label, v))
                       for i, (t, vmap) in enumerate(zip(trees, vs))]
                for i in range(1, len(revs)):
                    lines, same = compare(got[i - 1], got[i])
                    n = sum(len(b) for b in got[i].values())
                    print("%s %s %s..%s: %s (%d functions, %d instructions)" % (
                        label, v, revs[i - 1], revs[i] or "work tree",
                        "same instructions" if same else "DIFFERENT", len(got[i]), n))
                    for line in lines:
                        print(line)
                    ok = ok and same
                sys.stdout.flush()
    finally:
        shutil.rmtree(tmp)
    print("same_code: %s" % ("same" if ok else "DIFFERENT"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
