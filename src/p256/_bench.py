"""Benchmarks: the generic pure-Python reference ("old"), p256's native core, and
pyca/cryptography (OpenSSL) when installed, measured side by side in one run.

Each operation is timed in batches; batches of the libraries being compared alternate,
so a burst of load on this shared machine hits all of them alike. Reported: the median
time per operation over the batches, and the ratio p256 / cryptography from those medians.
"""

from __future__ import annotations

import gc
import hashlib
import os
import statistics
import sys
import time

from . import PrivateKey, PublicKey, _core
from . import reference as ref

MSG = bytes(range(64))  # the signed message: 64 bytes, hashed with SHA-256


def _batch_time(fn, number):
    """Seconds per call of fn over one batch of `number` calls."""
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def _calibrate(fn, target=0.02):
    """Calls per batch so one batch takes about `target` seconds."""
    number = 1
    while True:
        t = _batch_time(fn, number) * number
        if t >= target / 4 or number >= 1 << 20:
            return max(1, int(number * target / max(t, 1e-9)))
        number *= 4


def measure(candidates, repeat):
    """{name: median seconds per call} for zero-argument callables, batches interleaved."""
    numbers = {name: _calibrate(fn) for name, fn in candidates.items()}
    samples = {name: [] for name in candidates}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for name, fn in candidates.items():
                samples[name].append(_batch_time(fn, numbers[name]))
    finally:
        if gc_was:
            gc.enable()
    return {name: statistics.median(v) for name, v in samples.items()}


def _p256_ops():
    sk = PrivateKey.generate()
    pk = sk.public_key
    peer = PrivateKey.generate().public_key
    sig = sk.sign(MSG)
    b65, b33 = pk.to_bytes(), pk.to_bytes(compressed=True)
    return {
        "keygen (key + public key)": lambda: PrivateKey.generate().public_key,
        "sign (SHA-256, 64 B, DER)": lambda: sk.sign(MSG),
        "verify (SHA-256, 64 B, DER)": lambda: pk.verify(sig, MSG),
        "ECDH (exchange)": lambda: sk.exchange(peer),
        "public key load, 65 B": lambda: PublicKey.from_bytes(b65),
        "public key load, 33 B": lambda: PublicKey.from_bytes(b33),
    }


def _cryptography_ops():
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    except ImportError:
        return None
    curve = ec.SECP256R1()
    algo = ec.ECDSA(hashes.SHA256())
    ecdh = ec.ECDH()
    sk = ec.generate_private_key(curve)
    pk = sk.public_key()
    peer = ec.generate_private_key(curve).public_key()
    sig = sk.sign(MSG, algo)
    b65 = pk.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    b33 = pk.public_bytes(Encoding.X962, PublicFormat.CompressedPoint)
    load = ec.EllipticCurvePublicKey.from_encoded_point
    return {
        "keygen (key + public key)": lambda: ec.generate_private_key(curve).public_key(),
        "sign (SHA-256, 64 B, DER)": lambda: sk.sign(MSG, algo),
        "verify (SHA-256, 64 B, DER)": lambda: pk.verify(sig, MSG, algo),
        "ECDH (exchange)": lambda: sk.exchange(ecdh, peer),
        "public key load, 65 B": lambda: load(curve, b65),
        "public key load, 33 B": lambda: load(curve, b33),
    }


def _reference_ops(curve):
    """The generic pure-Python implementation on any NIST curve."""
    d = int.from_bytes(os.urandom(64), "big") % (curve.n - 1) + 1
    q = curve.scalar_base_mult(d)
    peer = curve.scalar_base_mult(int.from_bytes(os.urandom(64), "big") % (curve.n - 1) + 1)
    digest = hashlib.sha256(MSG).digest()
    r, s = ref.ecdsa_sign(curve, d, digest)
    curve.scalar_base_mult(1)  # build the lazy base table outside the timing
    rand = lambda: int.from_bytes(os.urandom(64), "big") % (curve.n - 1) + 1  # noqa: E731
    return {
        "keygen (key + public key)": lambda: curve.scalar_base_mult(rand()),
        "sign (SHA-256, 64 B, DER)": lambda: ref.ecdsa_sign(curve, d, digest),
        "verify (SHA-256, 64 B, DER)": lambda: ref.ecdsa_verify(curve, q, digest, r, s),
        "ECDH (exchange)": lambda: ref.ecdh(curve, d, peer),
    }


def _fmt(seconds):
    if seconds is None:
        return "-"
    us = seconds * 1e6
    if us >= 1000:
        return "%.2f ms" % (us / 1000)
    if us >= 100:
        return "%.0f µs" % us
    if us >= 10:
        return "%.1f µs" % us
    return "%.2f µs" % us


def run(repeat=15, generic_curves=True, out=sys.stdout):
    ours = _p256_ops()
    theirs = _cryptography_ops()
    generic = _reference_ops(ref.P256)
    w = out.write
    w("p256 %s (backend %s, compiled by %s), Python %s\n\n" % (
        _core.__version__, _core.backend(), getattr(_core, "compiler", "?"), sys.version.split()[0]))
    head = ["operation", "generic (reference)", "p256", "speedup"]
    if theirs is not None:
        head += ["cryptography", "p256 / cryptography"]
    w("| " + " | ".join(head) + " |\n")
    w("|" + "|".join("---" for _ in head) + "|\n")
    rows = {}
    for op, fn in ours.items():
        cands = {"p256": fn}
        if theirs is not None:
            cands["cryptography"] = theirs[op]
        t = measure(cands, repeat)
        g = measure({"generic": generic[op]}, max(3, repeat // 3))["generic"] if op in generic else None
        cells = [op, _fmt(g), _fmt(t["p256"]), "%.0fx" % (g / t["p256"]) if g else "-"]
        if theirs is not None:
            cells += [_fmt(t["cryptography"]), "%.2f" % (t["p256"] / t["cryptography"])]
        w("| " + " | ".join(cells) + " |\n")
        out.flush()
        rows[op] = (g, t)
    if generic_curves:
        w("\nGeneric curves (reference only, unchanged by the P-256 core):\n\n")
        w("| curve | keygen | sign | verify | ECDH |\n|---|---|---|---|---|\n")
        for curve in (ref.P224, ref.P384, ref.P521):
            ops = _reference_ops(curve)
            t = measure(ops, max(3, repeat // 3))
            w("| %s | %s |\n" % (curve.name, " | ".join(_fmt(t[k]) for k in ops)))
    return rows


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="p256 bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="batches per operation (median)")
    parser.add_argument("--quick", action="store_true", help="fewer batches, P-256 only")
    args = parser.parse_args(argv)
    run(repeat=5 if args.quick else args.repeat, generic_curves=not args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
