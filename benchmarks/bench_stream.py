#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Each `*_iter` twin against its list form (a benchmark, not a test): the same items
through `verify_many` and `verify_iter`, `sign_many` and `sign_iter`, `exchange_many` and
`exchange_iter`, `scalar_base_mult_many` and `scalar_base_mult_iter`, on the same thread
count, the two forms interleaved in each round.

The figure is the median over the rounds of the wall time per item and the ratio
stream / list (1.00: the stream costs nothing more; the docs promise within 5%); then the
peak traced memory of `verify_iter` over 10^5 and 10^6 items (bounded by its chunks, not
by the input), beside the list form's.

    python benchmarks/bench_stream.py [-n N] [--rounds R] [--threads T] [--no-memory]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tracemalloc
from typing import Callable, Iterator, List, Tuple

import p256

from bench_many import cpu_name


def wall_per_item(fn: Callable[[], int], n: int) -> float:
    t0 = time.perf_counter()
    count = fn()
    assert count == n, (count, n)
    return (time.perf_counter() - t0) / n


def drain(it: Iterator[object]) -> int:
    return sum(1 for _ in it)


def cheap_items(pk: p256.PublicKey, n: int) -> Iterator[Tuple[p256.PublicKey, bytes, bytes]]:
    """Items that are False at once (a malformed signature): the stream's own overhead."""
    for i in range(n):
        yield (pk, b"\x30\x00", b"message number %08d" % i)


def peak(fn: Callable[[], int]) -> int:
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20_000, help="items per round (default 20000)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    ap.add_argument("--threads", type=int, default=None, help="threads (default: one per CPU)")
    ap.add_argument("--no-memory", action="store_true", help="skip the peak-memory figures")
    args = ap.parse_args()
    n, th = args.n, args.threads
    keys = p256.PrivateKey.generate_many(n)
    peers = [k.public_key for k in p256.PrivateKey.generate_many(n)]
    msgs = [os.urandom(32) for _ in range(n)]
    sigs = p256.sign_many(zip(keys, msgs))
    triples = [(k.public_key, s, m) for k, s, m in zip(keys, sigs, msgs)]
    scalars = [k.to_bytes() for k in keys]
    cases: List[Tuple[str, Callable[[], int], Callable[[], int]]] = [
        ("verify", lambda: len(p256.verify_many(triples, threads=th)),
         lambda: drain(p256.verify_iter(triples, threads=th))),
        ("sign", lambda: len(p256.sign_many(zip(keys, msgs), threads=th)),
         lambda: drain(p256.sign_iter(zip(keys, msgs), threads=th))),
        ("exchange", lambda: len(p256.exchange_many(zip(keys, peers), threads=th)),
         lambda: drain(p256.exchange_iter(zip(keys, peers), threads=th))),
        ("scalar_base_mult", lambda: len(p256.scalar_base_mult_many(scalars, threads=th)),
         lambda: drain(p256.scalar_base_mult_iter(scalars, threads=th))),
    ]
    print("CPU: %s (%d CPUs); p256 %s, backend %s; %d rounds of %d items, threads=%s"
          % (cpu_name(), os.cpu_count() or 1, p256.__version__, p256.backend(), args.rounds, n,
             th or "default"))
    print()
    print("| operation | `*_many` (list) | `*_iter` (stream) | stream / list |")
    print("|---|---:|---:|---:|")
    for name, as_list, as_stream in cases:
        tl, ts = [], []
        for _ in range(args.rounds):
            tl.append(wall_per_item(as_list, n))
            ts.append(wall_per_item(as_stream, n))
        ml, ms = statistics.median(tl), statistics.median(ts)
        print("| %s | %.2f µs | %.2f µs | %.3f |" % (name, ml * 1e6, ms * 1e6, ms / ml))
    if args.no_memory:
        return
    print()
    print("| items | `verify_many` peak | `verify_iter` peak |")
    print("|---:|---:|---:|")
    pk = keys[0].public_key
    for count in (100_000, 1_000_000):
        listed = peak(lambda: len(p256.verify_many(cheap_items(pk, count), threads=th)))
        streamed = peak(lambda: drain(p256.verify_iter(cheap_items(pk, count), threads=th)))
        print("| %s | %.2f MB | %.2f MB |" % (format(count, ","), listed / 1e6, streamed / 1e6))


if __name__ == "__main__":
    main()
