#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The work with secrets many at a time against loops of single calls (a benchmark, not a
test): generate_many, scalar_base_mult_many, sign_many (hedged and RFC 6979) and
exchange_many, each beside the loop it replaces, on one thread.

Per operation, ROUNDS rounds of N items, the loop and the batch interleaved in each
round; the figure is the median over the rounds of the CPU time per item (process time:
robust on a shared machine) and the ratio batch / loop. The engine that ran is named
(p256.batch_backend), with the CPU.

    python benchmarks/bench_many.py [-n N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from typing import Callable, List, Tuple

import p256


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def per_item(fn: Callable[[], object], n: int) -> float:
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="items per round (default 2000)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    args = ap.parse_args()
    n = args.n
    keys = p256.PrivateKey.generate_many(n)
    peers = [k.public_key for k in p256.PrivateKey.generate_many(n)]
    msgs = [os.urandom(32) for _ in range(n)]
    scalars = [k.to_bytes() for k in keys]
    cases: List[Tuple[str, str, Callable[[], object], Callable[[], object]]] = [
        ("generate_many (+ public_key)", "generate_many",
         lambda: [p256.PrivateKey.generate().public_key for _ in range(n)],
         lambda: p256.PrivateKey.generate_many(n, threads=1)),
        ("scalar_base_mult_many", "scalar_base_mult_many",
         lambda: [p256.scalar_base_mult(k) for k in scalars],
         lambda: p256.scalar_base_mult_many(scalars, threads=1)),
        ("sign_many, hedged", "sign_many",
         lambda: [k.sign(m) for k, m in zip(keys, msgs)],
         lambda: p256.sign_many(zip(keys, msgs), threads=1)),
        ("sign_many, RFC 6979", "sign_many",
         lambda: [k.sign(m, deterministic=True) for k, m in zip(keys, msgs)],
         lambda: p256.sign_many(zip(keys, msgs), deterministic=True, threads=1)),
        ("exchange_many", "exchange_many",
         lambda: [k.exchange(q) for k, q in zip(keys, peers)],
         lambda: p256.exchange_many(zip(keys, peers), threads=1)),
    ]
    print("CPU: %s; p256 %s, backend %s; %d rounds of %d items, CPU time per item, one thread"
          % (cpu_name(), p256.__version__, p256.backend(), args.rounds, n))
    print()
    print("| operation | engine | loop of single calls | batch | batch / loop |")
    print("|---|---|---:|---:|---:|")
    for name, op, loop, batch in cases:
        tl, tb = [], []
        for _ in range(args.rounds):
            tl.append(per_item(loop, n))
            tb.append(per_item(batch, n))
        ml, mb = statistics.median(tl), statistics.median(tb)
        print("| %s | %s | %.2f µs | %.2f µs | %.2f |"
              % (name, p256.batch_backend(op), ml * 1e6, mb * 1e6, mb / ml))


if __name__ == "__main__":
    main()
