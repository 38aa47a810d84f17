#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark the AArch64 assembly field backend against the portable C under qemu.

Run by `make bench-arm64`, which first builds, with aarch64-linux-gnu-gcc -O2,
tests/c/bench_core.c and tests/c/bench_field.c twice each into BIN:
  bench_core-asm, bench_field-asm            -DP256_ASM_AARCH64 + csrc/asm/field_aarch64.S
  bench_core-portable, bench_field-portable  the portable C

Figures, printed as Markdown tables:
  - times, ROUNDS runs alternating the two builds: bench_field's (CPU time of the emulating
    thread, robust on a loaded host; the assembly build also times the portable fe_mul and
    fe_sqr in the same process), median over rounds; bench_core's (wall clock), minimum
    over rounds. These are qemu-aarch64 (TCG) times on an x86-64 host, the cost of
    emulating the instructions: only a proxy for real AArch64 hardware.
  - dynamic instruction counts (exact, host-independent): qemu in single-step mode with
    the exec trace (-singlestep -d nochain,exec) logs one line per executed guest
    instruction; `bench_field OP N` runs OP N times, so the difference between two N,
    divided by their difference, is the instructions per operation.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading

LINE_US = re.compile(r"^(\S.*?)\s+([0-9.]+)\s+us\s*$")
LINE_GO = re.compile(r"^(Benchmark\S+)\s+\d+\s+([0-9.]+)\s+ns/op")


def parse_times(text):
    """name -> ns per op, from either bench output format (plain 'x.xxx us' or Go's)."""
    out = {}
    for line in text.splitlines():
        m = LINE_GO.match(line)
        if m:
            out[m.group(1)] = float(m.group(2))
            continue
        m = LINE_US.match(line)
        if m:
            out[m.group(1).strip()] = float(m.group(2)) * 1e3
    return out


def run_times(run, binary):
    res = subprocess.run(run + [binary], check=True, capture_output=True, text=True)
    return parse_times(res.stdout)


def count_instructions(run, binary, op, n):
    """Guest instructions executed by `binary op n`, from qemu's single-step exec trace."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "trace")
        os.mkfifo(fifo)
        counted = [0]

        def reader():
            with open(fifo, "rb") as f:
                counted[0] = sum(1 for line in f if line.startswith(b"Trace "))

        t = threading.Thread(target=reader)
        t.start()
        cmd = run[:1] + ["-singlestep", "-d", "nochain,exec", "-D", fifo] + run[1:] + [
            binary, op, str(n)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        t.join()
        if res.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {res.stderr}")
        return counted[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", required=True, help='emulator command, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu"')
    ap.add_argument("--bin", required=True, help="directory with the four binaries")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-count", action="store_true", help="skip the instruction counts")
    args = ap.parse_args()
    run = shlex.split(args.run)
    variants = ("portable", "asm")

    field = {v: {} for v in variants}  # bench_field: CPU time
    core = {v: {} for v in variants}   # bench_core: wall-clock time
    for r in range(args.rounds):
        order = variants if r % 2 == 0 else variants[::-1]
        for v in order:
            for prog, store in (("bench_field", field), ("bench_core", core)):
                print(f"round {r + 1}/{args.rounds}: {prog}-{v}", file=sys.stderr, flush=True)
                for name, ns in run_times(run, os.path.join(args.bin, f"{prog}-{v}")).items():
                    store[v].setdefault(name, []).append(ns)

    def fmt(x, ref):
        return f"{x / 1e3:.2f} µs" if ref >= 1e3 else f"{x:.0f} ns"

    # The assembly build of bench_field times both fe_mul/fe_sqr in one process.
    rows = []
    for op in ("fe_mul", "fe_sqr"):
        a = field["asm"].get(f"{op} aarch64")
        p = field["asm"].get(f"{op} portable")
        if a and p:
            rows.append((f"{op} (same process)", statistics.median(p), statistics.median(a)))
    for name, vals in field["portable"].items():
        if name in field["asm"] and not name.startswith("fe_"):
            rows.append((name, statistics.median(vals), statistics.median(field["asm"][name])))
    print(f"\nbench_field under {args.run}: emulated, a proxy for hardware. CPU time of the "
          f"emulating thread, median of 11 batches, median of {args.rounds} alternating runs:\n")
    print("| operation | portable C | aarch64 asm | asm / portable |")
    print("|---|---|---|---|")
    for name, p, a in rows:
        print(f"| {name} | {fmt(p, p)} | {fmt(a, p)} | {a / p:.2f} |")

    print(f"\nbench_core under {args.run}: emulated, wall clock (noisy on a shared host), "
          f"the benchmark's median, minimum of {args.rounds} alternating runs:\n")
    print("| operation | portable C | aarch64 asm | asm / portable |")
    print("|---|---|---|---|")
    for name, vals in core["portable"].items():
        if name in core["asm"]:
            p, a = min(vals), min(core["asm"][name])
            print(f"| {name} | {fmt(p, p)} | {fmt(a, p)} | {a / p:.2f} |")

    if args.no_count:
        return
    print("\nExecuted AArch64 instructions per operation (qemu -singlestep exec trace, exact):\n")
    print("| operation | portable C | aarch64 asm | asm / portable |")
    print("|---|---|---|---|")
    for op, n1, n2 in (("fe_mul", 1000, 3000), ("fe_sqr", 1000, 3000), ("ecmult_gen", 1, 2),
                       ("ecmult_const", 1, 2), ("sign", 1, 2), ("verify", 1, 2), ("ecdh", 1, 2)):
        per = {}
        for v in variants:
            b = os.path.join(args.bin, f"bench_field-{v}")
            print(f"counting {op} ({v})", file=sys.stderr, flush=True)
            c1 = count_instructions(run, b, op, n1)
            c2 = count_instructions(run, b, op, n2)
            per[v] = (c2 - c1) / (n2 - n1)
        print(f"| {op} | {per['portable']:,.0f} | {per['asm']:,.0f} | {per['asm'] / per['portable']:.2f} |")


if __name__ == "__main__":
    main()
