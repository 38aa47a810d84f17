# SPDX-License-Identifier: Apache-2.0
"""Benchmark of p256.reference (pure Python, variable time): median time per operation.

    .venv/bin/python benchmarks/bench_reference.py [--repeat 7] [--min-time 0.2] [--curves P-256,P-384]

Operations per curve:
    keygen  scalar_base_mult(d)               (fixed-base table, built beforehand)
    sign    ecdsa_sign(d, digest)             (RFC 6979 nonce included)
    verify  ecdsa_verify(Q, digest, r, s)     (Straus-Shamir u1*G + u2*Q)
    ecdh    ecdh(d, Q)                        (wNAF variable-base multiplication)
The one-off cost of building each curve's base table is reported separately.
Each timing is the median over --repeat runs of a loop sized to last about --min-time seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import time

from _timing import calls_for, per_call


def _load_reference():
    try:
        from p256 import reference
        return reference
    except ImportError:
        # Not installed (or the C core is not built): load the module straight from src/.
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "p256", "reference.py")
        spec = importlib.util.spec_from_file_location("p256_reference", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def _median_time(fn, repeat, min_time):
    number = calls_for(fn, min_time)
    return statistics.median(per_call(fn, number) for _ in range(repeat))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per repeat (default 0.2)")
    ap.add_argument("--curves", default="P-224,P-256,P-384,P-521")
    args = ap.parse_args(argv)

    ref = _load_reference()
    rng = random.Random(1)
    hashes = {"P-224": "sha224", "P-256": "sha256", "P-384": "sha384", "P-521": "sha512"}
    print(f"p256.reference (pure Python, variable time) on Python {sys.version.split()[0]}, "
          f"median of {args.repeat}")
    header = f"{'curve':6s} {'table build':>12s} {'keygen':>10s} {'sign':>10s} {'verify':>10s} {'ecdh':>10s}"
    print(header)
    print("-" * len(header))
    for name in args.curves.split(","):
        c = ref.curve_by_name(name.strip())
        t0 = time.perf_counter()
        c.scalar_base_mult(1)  # builds the fixed-base table
        build = time.perf_counter() - t0
        d = rng.randrange(1, c.n)
        q = c.scalar_base_mult(d)
        peer = c.scalar_base_mult(rng.randrange(1, c.n))
        digest = hashlib.new(hashes[c.name], b"benchmark message").digest()
        r, s = ref.ecdsa_sign(c, d, digest)
        assert ref.ecdsa_verify(c, q, digest, r, s)
        res = {
            "keygen": _median_time(lambda: c.scalar_base_mult(d), args.repeat, args.min_time),
            "sign": _median_time(lambda: ref.ecdsa_sign(c, d, digest), args.repeat, args.min_time),
            "verify": _median_time(lambda: ref.ecdsa_verify(c, q, digest, r, s), args.repeat, args.min_time),
            "ecdh": _median_time(lambda: ref.ecdh(c, d, peer), args.repeat, args.min_time),
        }
        print(f"{c.name:6s} {build * 1e3:9.1f} ms" + "".join(f" {res[k] * 1e3:7.3f} ms" for k in
                                                          ("keygen", "sign", "verify", "ecdh")))


if __name__ == "__main__":
    main()
