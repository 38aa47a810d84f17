#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The C harnesses' negative controls on an emulated arm64: every planted bug must be caught.

The plants are the lines of tests/c/plants.txt (PLANTS below), whose header says what a
plant is; tests/c/meson.build declares a meson test of each for the host (make
ctest-plants, suite plants). This script runs the core's plants of one variant where meson
does not: cross-compiled for arm64 and run under qemu (make test-arm64). The plants in C
are compiled into one plant build (-DP256_PLANTS) and armed one at a time at run time with
P256_PLANT=kind:n (csrc/common.h); the assembly's are chosen when it is assembled, so the
plant build's one object is linked again with each planted assembly object.

    tools/plants.py core CC VARIANT   tests/c/run_core.c's plants on a field backend
    tools/plants.py --list            every plant, with its harness

Options: --arch aarch64 with --run "qemu-aarch64 -L SYSROOT" builds for and runs on an
emulated arm64; --bin DIR (tests/c/bin/plants). Environment: CTEST_FLAGS, the compiler
arguments. Each plant runs at its P256_TEST_ITERS; its harness must exit with status 1
(checks failed), not 0 (blind) nor anything else (a crash or a broken run is not a caught
bug). Before the plants, the plant build runs once with nothing armed and must pass, so
that a plant build broken in itself cannot pass for one that catches everything.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys

from cpuinfo import host_flags  # /proc/cpuinfo's one reader for the tools and tests
from same_code import variants  # csrc/variants.txt's one reader in tools/

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_plants(path: str) -> list[tuple]:
    """(plant, harness, what it breaks, architectures, asm define or None, P256_TEST_ITERS)
    per line of tests/c/plants.txt."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                plant, harness, archs, asm, iters, what = line.split(None, 5)
                rows.append((plant, harness, what.strip(), tuple(archs.split(",")),
                             None if asm == "-" else asm, iters))
    return rows


PLANTS = read_plants(os.path.join(ROOT, "tests", "c", "plants.txt"))


def sh(cmd: list[str]) -> None:
    print("  " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def run(prefix: list[str], binary: str, args: list[str], env: dict[str, str], log: str) -> int:
    full_env = dict(os.environ, **env)
    if "P256_PLANT" not in env:
        full_env.pop("P256_PLANT", None)
    with open(log, "w") as out:
        return subprocess.run(prefix + [binary] + args, env=full_env, stdout=out,
                              stderr=subprocess.STDOUT, cwd=ROOT).returncode


def last_line(log: str) -> str:
    """The harness's count line ("N checks, M failures"), else the log's last line."""
    with open(log, errors="replace") as f:
        lines = [l.rstrip() for l in f if l.strip()]
    counts = [l for l in lines if "failures" in l]
    return (counts or lines or ["(no output)"])[-1]


def check(tag: str, prefix: list[str], binary: str, args: list[str], plants: list[tuple],
          binaries: dict[str, str], bindir: str) -> bool:
    """The unarmed run passes; each plant's run fails with status 1."""
    ok = True
    name = os.path.basename(binary) + "".join("-" + x for x in args if not x.startswith("-"))
    log = os.path.join(bindir, name + "-unarmed.log")
    rc = run(prefix, binary, args, {"P256_TEST_ITERS": min((p[5] for p in plants), key=float)}, log)
    if rc != 0:
        print(open(log, errors="replace").read()[-4000:])
        print("%s: the plant build fails with nothing planted (status %d): it cannot show that "
              "a plant is caught" % (tag, rc))
        return False
    for plant, _, what, _, asm, it in plants:
        b = binaries.get(plant, binary)
        # One failed check shows the plant caught: the harness stops there.
        env = {"P256_TEST_ITERS": it, "P256_TEST_FAILFAST": "1"}
        if asm is None:
            env["P256_PLANT"] = plant
        log = os.path.join(bindir, "%s-%s.log" % (name, plant.replace(":", "")))
        rc = run(prefix, b, args, env, log)
        if rc == 1:
            print("%s: planted bug %s (%s) caught: %s" % (tag, plant, what, last_line(log)))
        else:
            print(open(log, errors="replace").read()[-4000:])
            why = "went unnoticed: the harness is blind to it" if rc == 0 else \
                "ended with status %d, not a harness's failed checks (1)" % rc
            print("%s: planted bug %s (%s) %s" % (tag, plant, what, why))
            ok = False
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", choices=["core"])
    ap.add_argument("cc", nargs="?")
    ap.add_argument("mode", nargs="?", help="the field backend (csrc/variants.txt)")
    ap.add_argument("--arch", default=os.uname().machine)
    ap.add_argument("--run", default="", help="the emulator to run the binaries under")
    ap.add_argument("--bin", default="tests/c/bin/plants")
    ap.add_argument("--cflags", default="", help="core: more compiler arguments (-DP256_NO_IFMA)")
    ap.add_argument("--kinds", help="only the plants of these kinds (comma-separated: point,scalar)")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for plant, harness, what, archs, asm, it in PLANTS:
            where = "assembled with -D%s" % asm if asm else "P256_PLANT=%s" % plant
            print("%-11s %-15s %-8s %-40s %s" % (plant, harness, ",".join(archs), where, what))
        return 0
    if a.what is None or a.cc is None:
        ap.error("what and cc are required")
    flags = shlex.split(os.environ.get("CTEST_FLAGS", "-O2 -std=c99 -Wall -Wextra -Werror -Icsrc"))
    cc = shlex.split(a.cc)
    prefix = shlex.split(a.run)
    tag = "plants [%s%s]" % (a.cc, ", " + a.mode if a.mode else "")
    bindir = os.path.join(ROOT, a.bin)
    os.makedirs(bindir, exist_ok=True)
    mine = [p for p in PLANTS if a.arch in p[3]
            and (not a.kinds or p[0].split(":")[0] in a.kinds.split(","))]
    cctag = os.path.basename(cc[0]) + ("-" + a.arch if a.arch != os.uname().machine else "")

    if a.what == "core":
        v = variants(ROOT)
        if a.mode not in v:
            ap.error("unknown variant %r (csrc/variants.txt)" % a.mode)
        defines, sources = v[a.mode]
        core = [p for p in mine if not p[1].startswith(("test_batch_ifma", "test_ifma_emu"))]
        if not sources:  # a variant without assembly: the plants in C only
            core = [p for p in core if p[1] not in ("point_asm", "scalar_asm")]
        if a.arch == "x86_64" and not prefix and "avx2" not in (host_flags() or set()):
            print("%s: SKIP scalar:3 (the AVX2 table scan): this CPU lacks avx2" % tag)
            core = [p for p in core if p[0] != "scalar:3"]
        base = os.path.join(bindir, "run_core-%s-%s" % (cctag, a.mode))
        print("%s: one plant build of tests/c/run_core.c" % tag, flush=True)
        sh(cc + flags + shlex.split(a.cflags) + ["-Itests/c", "-DP256_PLANTS"] + defines
           + ["-c", "-o", base + ".o", "tests/c/run_core.c"])
        plain = []
        for s in sources:
            o = "%s-%s.o" % (base, os.path.splitext(os.path.basename(s))[0])
            sh(cc + flags + defines + ["-c", "-o", o, s])
            plain.append(o)
        sh(cc + flags + ["-o", base, base + ".o"] + plain)
        binaries = {}
        for plant, _, _, _, asm, _ in core:
            if asm is None:
                continue
            objs = []
            for s in sources:
                o = "%s-%s-%s.o" % (base, plant.replace(":", ""), os.path.splitext(os.path.basename(s))[0])
                sh(cc + flags + defines + ["-D" + asm, "-c", "-o", o, s])
                objs.append(o)
            binaries[plant] = "%s-%s" % (base, plant.replace(":", ""))
            sh(cc + flags + ["-o", binaries[plant], base + ".o"] + objs)
        ok = True
        for harness in sorted({p[1] for p in core}):
            group = [p for p in core if p[1] == harness]
            ok &= check(tag, prefix, base, ["-t", harness], group, binaries, bindir)
        return 0 if ok else 1



if __name__ == "__main__":
    sys.exit(main())
