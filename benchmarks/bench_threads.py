# SPDX-License-Identifier: Apache-2.0
"""Throughput of the single operations from 1, 2 and 8 threads sharing keys, as the
thread-hammer test (tests/test_stress.py) uses them: each thread loops verify, sign or
ECDH on the same key objects for SECONDS; the core runs without the GIL, so on N cores
the throughput grows up to N-fold.

    python benchmarks/bench_threads.py [--seconds 2] [--rounds 3] [--threads 1 2 8]

Prints per operation and thread count the median ops/s of the rounds, the speedup over
one thread, and CPU time per wall time (1.00 means one core: another process had the
other, as on a shared VM; see docs/batch.md, Thread scaling).
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import p256


def ops():
    k = p256.PrivateKey.from_int(0x1234567)
    peer = p256.PrivateKey.from_int(0x7654321).public_key
    pub, msg = k.public_key, b"thread hammer"
    sig = k.sign(msg)
    return {
        "verify": lambda: pub.verify(sig, msg),
        "sign": lambda: k.sign(msg),
        "ecdh": lambda: k.exchange(peer),
    }


def rate(fn, threads: int, seconds: float) -> tuple[float, float]:
    counts = [0] * threads
    start = threading.Barrier(threads + 1)

    def work(i: int) -> None:
        start.wait()
        n, end = 0, time.monotonic() + seconds
        while time.monotonic() < end:
            fn()
            n += 1
        counts[i] = n
    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    c0, w0 = time.process_time(), time.monotonic()
    start.wait()
    for t in ts:
        t.join()
    wall = time.monotonic() - w0
    return sum(counts) / wall, (time.process_time() - c0) / wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 8])
    a = ap.parse_args()
    print(f"p256 {p256.__version__}, backend {p256.backend()}, {os.cpu_count()} CPUs, "
          f"{a.rounds} rounds of {a.seconds} s (median)")
    print(f"{'op':8} {'threads':>7} {'ops/s':>10} {'speedup':>8} {'CPU/wall':>9}")
    for name, fn in ops().items():
        base = None
        for n in a.threads:
            runs = [rate(fn, n, a.seconds) for _ in range(a.rounds)]
            r = statistics.median(x for x, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            base = base or r
            print(f"{name:8} {n:>7} {r:>10,.0f} {r / base:>7.2f}x {cpu:>9.2f}")


if __name__ == "__main__":
    main()
