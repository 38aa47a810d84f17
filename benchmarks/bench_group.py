#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The group's operations against what they are measured by (a benchmark, not a test):
P + Q from Python; Scalar * Point against one ECDH; Scalar * Point.generator() against a
key generation's scalar_base_mult; RFC 9380's native map of 96 and of 48 uniform bytes
(the core of hash_to_curve and encode_to_curve) against one ECDH; multi_mult_vartime of
64 and 1024 pairs against as many separate mul_vartime calls, and the constant-time
multi_mult of 64 beside them; the pure-Python reference's times beside the additions
and products.

Every operation of a round is timed in turn (interleaved: a machine that slows down
slows all of them alike), ROUNDS rounds; the figure is the median over the rounds of
the CPU time per operation (process time: robust on a shared machine), the ratios are
those of the medians. The CPU is named.

    python benchmarks/bench_group.py [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, Dict, List, Tuple

import p256
from p256 import Point, Scalar, reference as ref

from _timing import per_call
from bench_many import cpu_name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9, help="rounds (default 9)")
    args = ap.parse_args()
    g = Point.generator()
    p, q, s = Scalar.random() * g, Scalar.random() * g, Scalar.random()
    sk, peer = p256.PrivateKey.generate(), p256.PrivateKey.generate().public_key
    k32 = p256.PrivateKey.generate().to_bytes()
    uniform = os.urandom(96)
    ks = [Scalar.random() for _ in range(1024)]
    ps = [Scalar.random() * g for _ in range(1024)]
    c = ref.P256
    rp, rq, rk = c.scalar_base_mult(int(Scalar.random())), c.scalar_base_mult(7), int(s)
    h2c = p256._core.h2c_map
    cases: List[Tuple[str, Callable[[], object], int]] = [
        ("P + Q", lambda: p + q, 20000),
        ("s * P", lambda: s * p, 200),
        ("ECDH (exchange)", lambda: sk.exchange(peer), 200),
        ("s * G", lambda: s * g, 1000),
        ("scalar_base_mult", lambda: p256.scalar_base_mult(k32), 1000),
        ("map, 96 bytes", lambda: h2c(uniform), 1000),
        ("map, 48 bytes", lambda: h2c(uniform[:48]), 1000),
        ("64 x mul_vartime", lambda: [b.mul_vartime(a) for a, b in zip(ks[:64], ps[:64])], 3),
        ("multi_mult_vartime, 64", lambda: p256.multi_mult_vartime(ks[:64], ps[:64]), 10),
        ("multi_mult, 64", lambda: p256.multi_mult(ks[:64], ps[:64]), 5),
        ("1024 x mul_vartime", lambda: [b.mul_vartime(a) for a, b in zip(ks, ps)], 1),
        ("multi_mult_vartime, 1024", lambda: p256.multi_mult_vartime(ks, ps), 2),
        ("reference add", lambda: c.add(rp, rq), 2000),
        ("reference scalar_mult", lambda: c.scalar_mult(rp, rk), 3),
    ]
    times: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
    for _ in range(args.rounds):
        for name, fn, number in cases:
            times[name].append(per_call(fn, number, time.process_time))
    med = {name: statistics.median(v) for name, v in times.items()}
    print("CPU: %s; p256 %s, backend %s; %d rounds, interleaved; median CPU time per call"
          % (cpu_name(), p256.__version__, p256.backend(), args.rounds))
    print()
    print("| operation | time | measured by | ratio | target |")
    print("|---|---:|---|---:|---:|")
    rows = [
        ("P + Q", None, "", "<= 0.5 us"),
        ("s * P", "ECDH (exchange)", "one ECDH", "<= 1.05"),
        ("s * G", "scalar_base_mult", "scalar_base_mult", "<= 1.05"),
        ("map, 96 bytes", "ECDH (exchange)", "one ECDH", "(hash_to_curve <= 0.35)"),
        ("map, 48 bytes", "ECDH (exchange)", "one ECDH", "(encode_to_curve <= 0.2)"),
        ("multi_mult_vartime, 64", "64 x mul_vartime", "64 x mul_vartime", "<= 0.4"),
        ("multi_mult, 64", "64 x mul_vartime", "64 x mul_vartime", ""),
        ("multi_mult_vartime, 1024", "1024 x mul_vartime", "1024 x mul_vartime", "<= 0.2"),
        ("reference add", "P + Q", "P + Q", ""),
        ("reference scalar_mult", "s * P", "s * P", ""),
    ]
    for name, base, label, target in rows:
        ratio = "" if base is None else "%.3f" % (med[name] / med[base])
        print("| %s | %.2f us | %s | %s | %s |" % (name, med[name] * 1e6, label, ratio, target))
    print()
    for name in ("ECDH (exchange)", "scalar_base_mult", "64 x mul_vartime", "1024 x mul_vartime"):
        print("%s: %.2f us" % (name, med[name] * 1e6))


if __name__ == "__main__":
    main()
