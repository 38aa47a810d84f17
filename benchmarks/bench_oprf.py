# SPDX-License-Identifier: Apache-2.0
"""Hashing to the group and the OPRF, each beside one ECDH (`sk.exchange(pk)`), with the
pure-Python reference instance's times beside the package's.

    python benchmarks/bench_oprf.py [--rounds 7] [--budget 0.2]

Per operation: the median over the rounds of the CPU time per call (thread time, so that
other processes on a shared machine count little; each round runs the
operation for about --budget seconds), the ratio to ECDH's median, and the reference's
time (p256.reference's RFC 9380, the OPRF's reference instance p256._oprf_ref). The
operations: hash_to_curve, encode_to_curve, hash_to_scalar, expand_message_xmd of 96
bytes, the server's table of one blinded element (p256._core.PointTable, private) and one
product over it, and the VOPRF's steps for one element: the client's blind, the server's
blind_evaluate with its proof (a table and four products), the client's finalize with the
proof's verification.
The machine and the build are printed first.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Callable, Dict, Tuple

import p256
from p256 import _oprf_ref, _refgroup, oprf
from p256 import reference as ref

from _timing import calls_for, per_call

DST = b"BENCH-V01-CS01-with-P256_XMD:SHA-256_SSWU_RO_"


def timed(fn: Callable[[], object], budget: float) -> float:
    """Seconds of this thread's CPU per call of fn, over a loop of about `budget` seconds."""
    return per_call(fn, calls_for(fn, budget, time.thread_time), time.thread_time)


def voprf_steps(client_cls, server_cls, sk, pk) -> Dict[str, Callable[[], object]]:
    client, server = client_cls(oprf.VOPRF, pk), server_cls(oprf.VOPRF, sk)
    state, blinded = client.blind(b"input")
    evaluated, proof = server.blind_evaluate([blinded])
    return {
        "VOPRF blind": lambda: client.blind(b"input"),
        "VOPRF blind_evaluate + proof": lambda: server.blind_evaluate([blinded]),
        "VOPRF finalize + verify": lambda: client.finalize([b"input"], [state], evaluated, proof),
    }


def operations() -> Tuple[Dict[str, Callable[[], object]], Dict[str, Callable[[], object]]]:
    sk, peer = p256.PrivateKey.generate(), p256.PrivateKey.generate().public_key
    ours: Dict[str, Callable[[], object]] = {
        "ECDH (sk.exchange)": lambda: sk.exchange(peer),
        "hash_to_curve": lambda: p256.hash_to_curve(b"message", DST),
        "encode_to_curve": lambda: p256.encode_to_curve(b"message", DST),
        "hash_to_scalar": lambda: p256.hash_to_scalar(b"message", DST),
        "expand_message_xmd (96 bytes)": lambda: p256.expand_message_xmd(b"message", DST, 96),
    }
    o_sk, o_pk = oprf.generate_key_pair()
    # the server's products of one blinded element: a table of it, then each product
    c, s = p256.Point.generator() * p256.Scalar.random(), p256.Scalar.random()
    table = p256._core.PointTable(c)
    ours["point table of C (private)"] = lambda: p256._core.PointTable(c)
    ours["a product over it"] = lambda: table.mul(s)
    ours.update(voprf_steps(oprf.Client, oprf.Server, o_sk, o_pk))
    d, q = sk.to_int(), (peer.x, peer.y)
    theirs: Dict[str, Callable[[], object]] = {
        "ECDH (sk.exchange)": lambda: ref.ecdh(ref.P256, d, q),
        "hash_to_curve": lambda: ref.hash_to_curve(b"message", DST),
        "encode_to_curve": lambda: ref.encode_to_curve(b"message", DST),
        "hash_to_scalar": lambda: ref.hash_to_scalar(b"message", DST),
        "expand_message_xmd (96 bytes)": lambda: ref.expand_message_xmd(b"message", DST, 96),
    }
    r_c, r_s = _refgroup.Point.from_bytes(c.to_bytes()), _refgroup.Scalar.from_bytes(s.to_bytes())
    r_table = _refgroup.PointTable(r_c)
    theirs["point table of C (private)"] = lambda: _refgroup.PointTable(r_c)
    theirs["a product over it"] = lambda: r_table.mul(r_s)
    r_sk = _refgroup.Scalar.from_bytes(o_sk.to_bytes())
    r_pk = _refgroup.Point.from_bytes(o_pk.to_bytes())
    theirs.update(voprf_steps(_oprf_ref.Client, _oprf_ref.Server, r_sk, r_pk))
    return ours, theirs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--budget", type=float, default=0.2, help="seconds per operation and round")
    args = ap.parse_args()
    ours, theirs = operations()
    print("p256 %s, backend %s; %s, Python %s" % (
        p256.__version__, p256.backend(), platform.processor() or platform.machine(),
        platform.python_version()))
    times = {name: [] for name in ours}
    ref_times = {name: [] for name in theirs}
    for _ in range(args.rounds):
        for name, fn in ours.items():
            times[name].append(timed(fn, args.budget))
        for name, fn in theirs.items():
            ref_times[name].append(timed(fn, args.budget / 4))
    ecdh = statistics.median(times["ECDH (sk.exchange)"])
    print("%-32s %12s %10s %16s" % ("operation", "p256 (us)", "x ECDH", "reference (us)"))
    for name in ours:
        t = statistics.median(times[name])
        print("%-32s %12.2f %10.3f %16.1f" % (name, t * 1e6, t / ecdh, statistics.median(ref_times[name]) * 1e6))


if __name__ == "__main__":
    main()
