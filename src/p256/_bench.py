# SPDX-License-Identifier: Apache-2.0
"""``p256 bench``: p256 against the pure-Python reference in the layout of Go's benchmark
table for its optimized P-256, and p256 beside the other Python libraries.

Table 1 follows that table (Go's ``benchstat`` old/new for the optimized P-256): the generic
pure-Python ``p256.reference`` is the "old" column, p256's native core the "new" one; rows
SignP256, VerifyP256, KeyGeneration, BaseMultP256, ScalarMultP256, ECDHP256 and the
generic rows SignP384 and BaseMult (P-224), which p256 does not implement (reference
only, as in Go's table, where those rows stayed the generic code in both columns).
Columns: time/op and its delta, alloc/op (bytes) and allocs/op (blocks).

Table 2 puts p256 beside pyca/cryptography, python-ecdsa and pycryptodome, when they are
installed: time/op per operation and the ratio peer time / p256 time.

Method
------
Time: ``time.perf_counter_ns`` around a batch of calls (``for _ in repeat(None, n):
fn()``); n is calibrated per implementation so one batch lasts ``min_time``; the figure is
the median over ``repeats`` batches of batch time / n. The implementations compared in a
row are measured in interleaved batches (their order alternates), so a burst of load on a
shared machine hits all of them alike, and the ratios come from one run. The cyclic GC is
off while timing (collected before each row).

Allocations: Go's alloc/op and allocs/op are the total bytes and the number of heap
objects allocated per operation, freed ones included. tracemalloc cannot measure that: it
traces only the blocks alive now (and the current/peak traced size), so the ten thousand
temporary ints of a pure-Python verification would vanish. The counts therefore come from
``p256._allocstat`` (csrc/allocstat.c), a hook on the PyMem/PyObject allocators through
the same PEP 445 API tracemalloc uses, which counts every malloc/calloc/realloc request:
n calls are counted, the count of an empty loop of n calls is subtracted, and the result is
divided by n. One difference from Go remains: CPython serves some small objects (tuples,
lists, dicts, floats) from per-type free lists without calling the allocator, so those
reuses are not counted; allocs/op is the number of allocator requests, a lower bound on
objects created (tracemalloc is blind to them in the same way). tracemalloc supplies a second figure, in the JSON only: the peak of traced
memory above its level before one call (``tracemalloc_peak_bytes``), i.e. the most memory
an operation holds at once. Allocation passes run apart from the timed batches (counting
and tracing slow the code down), after them.

How sure
--------
Beside each median the tables print its spread, ``±`` half the range of the repeats
(max - min) / 2 as a share of the median: a second run's median should fall within it. A
warning follows the tables when a spread is over ``SPREAD_WARN`` (10%), when the two
tables disagree on an operation both measure (``SAME_OPERATION``: p256's sign, verify,
keygen and ECDH) by more than their spreads and ``AGREE_FLOOR`` (5%) allow, and when
other processes kept a CPU's worth of time or more busy while the benchmark ran
(``/proc/stat``). The header names the CPU, the load and every version.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import itertools
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc

from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

from . import _core
from ._keys import PrivateKey, PublicKey, scalar_base_mult, scalar_mult
from . import reference as ref

try:
    from . import _allocstat
except ImportError:  # a build without the counter: alloc columns read "—", with a note
    _allocstat = None  # type: ignore[assignment]

Op = Callable[[], object]  # one benchmarked operation

MSG = bytes(range(64))  # the message of table 2's sign/verify: 64 bytes, SHA-256
DIGEST = hashlib.sha256(MSG).digest()  # the digest of table 1's SignP256/VerifyP256

SCHEMA = "p256-bench/1"


class Settings:
    """How long and how often to measure."""

    def __init__(self, mode: str = "default", repeats: Optional[int] = None,
                 min_time: Optional[float] = None) -> None:
        presets = {  # repeats, seconds per batch, seconds of counted calls, tracemalloc calls
            "default": (20, 0.06, 0.03, 5),
            "quick": (7, 0.03, 0.01, 3),
            "smoke": (1, 0.0005, 0.0, 1),  # tests only: one short batch of everything
        }
        r, t, a, k = presets[mode]
        self.mode = mode
        self.repeats = r if repeats is None else repeats
        self.min_time = t if min_time is None else min_time
        self.alloc_time = a
        self.tracemalloc_calls = k
        if self.repeats < 1:
            raise ValueError("--repeat must be at least 1")
        if not self.min_time >= 0:
            raise ValueError("--min-time must be >= 0")

    def as_dict(self) -> Dict[str, Any]:
        return {
            "mode": self.mode,
            "repeats": self.repeats,
            "min_time_s": self.min_time,
            "alloc_time_s": self.alloc_time,
            "tracemalloc_calls": self.tracemalloc_calls,
        }


# -- measuring ---------------------------------------------------------------------------


def _batch_ns(fn: Op, n: int) -> int:
    """Nanoseconds for n calls of fn."""
    loop = itertools.repeat(None, n)
    t0 = time.perf_counter_ns()
    for _ in loop:
        fn()
    return time.perf_counter_ns() - t0


_MAX_N = 1 << 22


def _calibrate(fn: Op, target_ns: float) -> int:
    """Calls per batch so that one batch takes about target_ns (at least 1).

    Two untimed calls first: a library's first call may import or build tables (tens of
    milliseconds), which would otherwise calibrate a 50 µs operation to one call per batch.
    The final estimate is the faster of two batches of the same size, for the same reason.
    """
    fn()
    fn()
    n = 1
    while True:
        t = _batch_ns(fn, n)
        if t >= target_ns * 0.2 or n >= _MAX_N:
            t = min(t, _batch_ns(fn, n))
            break
        # Grow towards a quarter of the target, at least doubling.
        n = min(_MAX_N, max(2 * n, int(n * target_ns * 0.25 / max(t, 1))))
    return max(1, min(_MAX_N, round(n * target_ns / max(t, 1))))


def time_interleaved(cands: Dict[str, Op], settings: Settings) -> Dict[str, Dict[str, Any]]:
    """{impl: timing dict} for {impl: zero-argument callable}, batches interleaved."""
    target = settings.min_time * 1e9
    numbers = {name: _calibrate(fn, target) for name, fn in cands.items()}
    samples: Dict[str, List[float]] = {name: [] for name in cands}
    order = list(cands)
    gc.collect()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for i in range(settings.repeats):
            for name in (order if i % 2 == 0 else order[::-1]):
                samples[name].append(_batch_ns(cands[name], numbers[name]) / numbers[name])
    finally:
        if gc_was:
            gc.enable()
    out = {}
    for name, s in samples.items():
        out[name] = dict(summarize(s), iterations=numbers[name])
    return out


def summarize(samples: List[float]) -> Dict[str, Any]:
    """The figures of one implementation's repeats (ns per operation each): the median,
    min, max and the spread, half the range as a share of the median (0 for one repeat)."""
    med = statistics.median(samples)
    return {
        "ns_per_op": med,
        "median_ns": med,
        "min_ns": min(samples),
        "max_ns": max(samples),
        "spread": (max(samples) - min(samples)) / 2 / med if med > 0 else 0.0,
        "repeats": len(samples),
        "samples_ns": list(samples),
    }


def _noop() -> None:
    return None


def _counted(fn: Op, n: int) -> Tuple[int, int]:
    """(blocks, bytes) requested from the PyMem/PyObject allocators by n calls of fn."""
    loop = itertools.repeat(None, n)
    _allocstat.start()
    try:
        for _ in loop:
            fn()
    finally:
        blocks, nbytes = _allocstat.stop()
    return blocks, nbytes


def count_allocations(fn: Op, n: int) -> Optional[Dict[str, float]]:
    """Go's allocs/op and alloc/op: mean blocks and bytes allocated per call, frees ignored.

    The count of an empty loop of n calls (the loop and the counter's own start/stop) is
    subtracted. None when the counter is not built or tracemalloc is running.
    """
    if _allocstat is None or tracemalloc.is_tracing():
        return None
    fn()  # anything built lazily on the first call is not the operation's cost
    gc.collect()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        # A full collection empties CPython's free lists (tuples, lists, ...): refill them
        # with one uncounted pass of each loop, or the first counted one pays for it.
        _counted(_noop, 1)
        _counted(fn, 1)
        b0, y0 = _counted(_noop, n)
        b1, y1 = _counted(fn, n)
    finally:
        if gc_was:
            gc.enable()
    return {
        "allocs_per_op": max(0, b1 - b0) / n,
        "alloc_bytes_per_op": max(0, y1 - y0) / n,
        "alloc_iterations": n,
    }


def tracemalloc_peak(fn: Op, calls: int) -> int:
    """Median over `calls` calls of the traced peak above the level before the call (bytes)."""
    was = tracemalloc.is_tracing()
    if not was:
        tracemalloc.start()
    try:
        fn()
        peaks = []
        for _ in range(calls):
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            fn()
            peaks.append(tracemalloc.get_traced_memory()[1] - before)
    finally:
        if not was:
            tracemalloc.stop()
    return int(statistics.median(peaks))


# -- what is measured ----------------------------------------------------------------------


class Row:
    def __init__(self, table: int, name: str, label: str, curve: str, what: str,
                 cands: Dict[str, Op]) -> None:
        self.table = table
        self.name = name  # the benchmark's name (JSON, tests)
        self.label = label  # as printed in the table
        self.curve = curve
        self.what = what  # one-line description of the operation
        self.cands = cands  # {impl: callable}


def _scalar(rng: random.Random, c: Any) -> int:
    return rng.randrange(1, c.n)


def table1_rows() -> List[Row]:
    """Table 1's rows (Go's benchmark names). Reference and p256 work on the same keys and inputs; the outputs
    are checked to agree once before anything is timed."""
    rng = random.Random(0x5eed)  # fixed inputs: reproducible counts; not for secrets
    P224, P256, P384 = ref.P224, ref.P256, ref.P384
    for c in (P224, P256, P384):
        c.scalar_base_mult(1)  # the reference builds its base tables lazily: not timed

    d, d2, k = _scalar(rng, P256), _scalar(rng, P256), _scalar(rng, P256)
    q, peer = _point(P256, d), _point(P256, d2)
    r, s = ref.ecdsa_sign(P256, d, DIGEST)
    sk = PrivateKey.from_int(d)
    pk = sk.public_key
    peer_pk = PublicKey.from_bytes(b"\x04" + peer[0].to_bytes(32, "big") + peer[1].to_bytes(32, "big"))
    k32 = k.to_bytes(32, "big")
    q65 = pk.to_bytes()
    raw_sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")

    d384 = _scalar(rng, P384)
    digest384 = hashlib.sha384(MSG).digest()
    k224 = _scalar(rng, P224)
    n256 = P256.n

    def ref_keygen() -> object:
        dd = int.from_bytes(os.urandom(40), "big") % (n256 - 1) + 1
        return dd, P256.scalar_base_mult(dd)

    def p256_keygen() -> object:
        key = PrivateKey.generate()
        return key, key.public_key

    # Same results from both before timing them (a benchmark of a wrong answer is void).
    if sk.sign_digest(DIGEST, encoding="raw", deterministic=True) != raw_sig:
        raise AssertionError("p256 and the reference disagree on an RFC 6979 signature")
    if not pk.verify_digest(raw_sig, DIGEST, encoding="raw"):
        raise AssertionError("p256 rejects the reference's signature")
    if scalar_base_mult(k32) != PublicKey.from_bytes(_sec1(P256.scalar_base_mult(k))).to_bytes():
        raise AssertionError("p256 and the reference disagree on k*G")
    if scalar_mult(k32, q65) != _sec1(P256.scalar_mult(q, k)):
        raise AssertionError("p256 and the reference disagree on k*Q")
    if sk.exchange(peer_pk) != ref.ecdh(P256, d, peer):
        raise AssertionError("p256 and the reference disagree on ECDH")

    sign_p256 = lambda: sk.sign_digest(DIGEST)  # noqa: E731  (DER, hedged nonce: the default)
    return [
        Row(1, "SignP256", "SignP256", "P-256", "ECDSA sign of a SHA-256 digest (p256: hedged nonce, DER; reference: RFC 6979, (r, s))",
            {"reference": lambda: ref.ecdsa_sign(P256, d, DIGEST), "p256": sign_p256}),
        Row(1, "VerifyP256", "VerifyP256", "P-256", "ECDSA verify of a SHA-256 digest (p256: raw r||s; reference: (r, s))",
            {"reference": lambda: ref.ecdsa_verify(P256, q, DIGEST, r, s),
             "p256": lambda: pk.verify_digest(raw_sig, DIGEST, encoding="raw")}),
        Row(1, "KeyGeneration", "KeyGeneration", "P-256", "random d from the OS and its public key d*G",
            {"reference": ref_keygen, "p256": p256_keygen}),
        Row(1, "BaseMultP256", "BaseMultP256", "P-256", "k*G for a fixed k (p256: 32 bytes in, SEC1 out)",
            {"reference": lambda: P256.scalar_base_mult(k), "p256": lambda: scalar_base_mult(k32)}),
        Row(1, "ScalarMultP256", "ScalarMultP256", "P-256", "k*Q for a fixed k and point (p256: SEC1 point in, validated)",
            {"reference": lambda: P256.scalar_mult(q, k), "p256": lambda: scalar_mult(k32, q65)}),
        Row(1, "ECDHP256", "ECDHP256", "P-256", "ECDH shared secret with a loaded peer key",
            {"reference": lambda: ref.ecdh(P256, d, peer), "p256": lambda: sk.exchange(peer_pk)}),
        Row(1, "SignP384", "SignP384", "P-384", "ECDSA sign of a SHA-384 digest (reference only)",
            {"reference": lambda: ref.ecdsa_sign(P384, d384, digest384)}),
        Row(1, "BaseMult", "BaseMult (P-224)", "P-224", "k*G on P-224 for a fixed k (reference only)",
            {"reference": lambda: P224.scalar_base_mult(k224)}),
    ]


def _sec1(point: Optional[Tuple[int, int]]) -> bytes:
    if point is None:
        raise AssertionError("the point at infinity where a point was expected")
    x, y = point
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def _point(c: Any, k: int) -> Tuple[int, int]:
    """k*G on the reference curve c, for 1 <= k < n (never infinity)."""
    point: Optional[Tuple[int, int]] = c.scalar_base_mult(k)
    if point is None:
        raise AssertionError("k*G at infinity for 1 <= k < n")
    return point


TABLE2_OPS = (
    ("keygen", "keygen (key + public key)"),
    ("sign", "sign (SHA-256, 64 B, DER)"),
    ("verify", "verify (SHA-256, 64 B, DER)"),
    ("ecdh", "ECDH (shared secret)"),
    ("load65", "public key load, 65 B"),
    ("load33", "public key load, 33 B"),
)

PEERS = ("cryptography", "ecdsa", "pycryptodome")
_PEER_PIP = {"cryptography": "cryptography", "ecdsa": "ecdsa", "pycryptodome": "pycryptodome"}


def _p256_ops() -> Dict[str, Op]:
    sk = PrivateKey.generate()
    pk = sk.public_key
    peer = PrivateKey.generate().public_key
    sig = sk.sign(MSG)
    b65, b33 = pk.to_bytes(), pk.to_bytes(compressed=True)
    if not pk.verify(sig, MSG):
        raise AssertionError("p256 rejects its own signature")
    return {
        "keygen": lambda: PrivateKey.generate().public_key,
        "sign": lambda: sk.sign(MSG),
        "verify": lambda: pk.verify(sig, MSG),
        "ecdh": lambda: sk.exchange(peer),
        "load65": lambda: PublicKey.from_bytes(b65),
        "load33": lambda: PublicKey.from_bytes(b33),
    }


def _cryptography_ops() -> Tuple[str, Dict[str, Op]]:
    import cryptography
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    curve = ec.SECP256R1()
    algo = ec.ECDSA(hashes.SHA256())
    ecdh = ec.ECDH()
    sk = ec.generate_private_key(curve)
    pk = sk.public_key()
    peer = ec.generate_private_key(curve).public_key()
    sig = sk.sign(MSG, algo)
    pk.verify(sig, MSG, algo)  # raises if invalid
    b65 = pk.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    b33 = pk.public_bytes(Encoding.X962, PublicFormat.CompressedPoint)
    load = ec.EllipticCurvePublicKey.from_encoded_point
    ops = {
        "keygen": lambda: ec.generate_private_key(curve).public_key(),
        "sign": lambda: sk.sign(MSG, algo),
        "verify": lambda: pk.verify(sig, MSG, algo),
        "ecdh": lambda: sk.exchange(ecdh, peer),
        "load65": lambda: load(curve, b65),
        "load33": lambda: load(curve, b33),
    }
    return cryptography.__version__, ops


def _ecdsa_ops() -> Tuple[str, Dict[str, Op]]:
    # python-ecdsa has no type information
    import ecdsa  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from ecdsa import ECDH, NIST256p, SigningKey, VerifyingKey
    from ecdsa.util import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        sigdecode_der, sigencode_der)

    h = hashlib.sha256
    sk = SigningKey.generate(curve=NIST256p)
    vk = sk.get_verifying_key()
    peer = SigningKey.generate(curve=NIST256p).get_verifying_key()
    sig = sk.sign(MSG, hashfunc=h, sigencode=sigencode_der)
    if not vk.verify(sig, MSG, hashfunc=h, sigdecode=sigdecode_der):
        raise AssertionError("python-ecdsa rejects its own signature")
    b65, b33 = vk.to_string("uncompressed"), vk.to_string("compressed")
    agreement = ECDH(curve=NIST256p, private_key=sk, public_key=peer)
    ops = {
        "keygen": lambda: SigningKey.generate(curve=NIST256p).get_verifying_key(),
        "sign": lambda: sk.sign(MSG, hashfunc=h, sigencode=sigencode_der),
        "verify": lambda: vk.verify(sig, MSG, hashfunc=h, sigdecode=sigdecode_der),
        "ecdh": agreement.generate_sharedsecret_bytes,
        "load65": lambda: VerifyingKey.from_string(b65, curve=NIST256p),
        "load33": lambda: VerifyingKey.from_string(b33, curve=NIST256p),
    }
    return ecdsa.__version__, ops


def _pycryptodome_ops() -> Tuple[str, Dict[str, Op]]:
    import Crypto
    from Crypto.Hash import SHA256
    from Crypto.PublicKey import ECC
    from Crypto.Signature import DSS

    sk = ECC.generate(curve="P-256")
    pk = sk.public_key()
    peer = ECC.generate(curve="P-256").public_key()
    signer = DSS.new(sk, "fips-186-3", encoding="der")
    verifier = DSS.new(pk, "fips-186-3", encoding="der")
    sig = signer.sign(SHA256.new(MSG))
    verifier.verify(SHA256.new(MSG), sig)  # raises ValueError if invalid
    b65 = pk.export_key(format="SEC1")
    b33 = pk.export_key(format="SEC1", compress=True)
    try:
        from Crypto.Protocol.DH import key_agreement

        ecdh = lambda: key_agreement(static_priv=sk, static_pub=peer, kdf=lambda z: z)  # noqa: E731
    except ImportError:  # before 3.20: the point multiplication itself
        ecdh = lambda: int(  # noqa: E731
            (peer.pointQ * sk.d).x).to_bytes(32, "big")
    ops = {
        "keygen": lambda: ECC.generate(curve="P-256").public_key(),
        "sign": lambda: signer.sign(SHA256.new(MSG)),
        "verify": lambda: verifier.verify(SHA256.new(MSG), sig),
        "ecdh": ecdh,
        "load65": lambda: ECC.import_key(b65, curve_name="P-256"),
        "load33": lambda: ECC.import_key(b33, curve_name="P-256"),
    }
    return Crypto.__version__, ops


_PEER_SETUP = {"cryptography": _cryptography_ops, "ecdsa": _ecdsa_ops, "pycryptodome": _pycryptodome_ops}


def peers() -> Tuple[Dict[str, Dict[str, Op]], Dict[str, str], Dict[str, str]]:
    """({peer: ops}, {peer: version}, {peer: reason skipped})."""
    found, versions, skipped = {}, {}, {}
    for name in PEERS:
        try:
            version, ops = _PEER_SETUP[name]()
        except ImportError:
            skipped[name] = "not installed (pip install %s, or the p256[bench] extra)" % _PEER_PIP[name]
            continue
        except Exception as e:  # an API we do not know: skip it, say why
            skipped[name] = "setup failed: %s: %s" % (type(e).__name__, e)
            continue
        found[name], versions[name] = ops, version
    return found, versions, skipped


def table2_rows(peer_ops: Dict[str, Dict[str, Op]]) -> List[Row]:
    ours = _p256_ops()
    rows = []
    for key, label in TABLE2_OPS:
        cands = {"p256": ours[key]}
        for name, ops in peer_ops.items():
            cands[name] = ops[key]
        rows.append(Row(2, key, label, "P-256", label, cands))
    return rows


# -- environment ---------------------------------------------------------------------------


_CPU_FLAGS_OF_NOTE = ("bmi2", "adx", "avx2", "avx512f", "sha_ni", "aes", "asimd", "sha2", "pmull")


def cpu_info() -> Tuple[str, Dict[str, Any]]:
    """(model name, details) from /proc/cpuinfo: the model as the kernel names it (a VM
    may show only "AMD EPYC"), plus vendor/family/model/stepping and the flags that decide
    which code paths run (BMI2/ADX, AVX2, SHA)."""
    fields: Dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    if fields:
                        break  # the first processor is enough
                    continue
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    model = (fields.get("model name") or fields.get("Model") or fields.get("Hardware")
             or fields.get("cpu model") or platform.processor() or "unknown")
    flags = set((fields.get("flags") or fields.get("Features") or "").split())
    details = {
        "vendor": fields.get("vendor_id") or fields.get("CPU implementer"),
        "family": fields.get("cpu family") or fields.get("CPU architecture"),
        "model": fields.get("model") or fields.get("CPU part"),
        "stepping": fields.get("stepping") or fields.get("CPU revision"),
        "flags": [f for f in _CPU_FLAGS_OF_NOTE if f in flags],
    }
    return model, details


def environment(peer_versions: Dict[str, str]) -> Dict[str, Any]:
    backend = getattr(_core, "backend", None)  # what p256.backend() returns
    backend_source = "p256.backend()"
    openssl = None
    if "cryptography" in peer_versions:
        try:
            from cryptography.hazmat.backends.openssl.backend import backend as ossl

            openssl = ossl.openssl_version_text()
        except Exception:
            openssl = None
    cpu, cpu_details = cpu_info()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "p256": _core.__version__,
        "p256_backend": backend() if callable(backend) else None,
        "p256_backend_source": backend_source,
        "p256_compiler": getattr(_core, "compiler", None),
        "peers": {name: peer_versions.get(name) for name in PEERS},
        "openssl": openssl,
        "cpu": cpu,
        "cpu_details": cpu_details,
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "alloc_counter": "p256._allocstat" if _allocstat is not None else None,
    }


# -- formatting ----------------------------------------------------------------------------


def fmt_time(ns: Optional[float]) -> str:
    if ns is None:
        return "—"
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    us = ns / 1e3
    if us >= 100:
        return "%.0f µs" % us
    if us >= 10:
        return "%.1f µs" % us
    return "%.2f µs" % us


def fmt_bytes(b: Optional[float]) -> str:
    if b is None:
        return "—"
    if b >= 1e6:
        return "%.2f MB" % (b / 1e6)
    if b >= 1e4:
        return "%.1f kB" % (b / 1e3)
    return "%.0f B" % b


def fmt_count(c: Optional[float]) -> str:
    if c is None:
        return "—"
    if c >= 10 or c == int(c):
        return "{:,.0f}".format(c)
    return "%.1f" % c


def fmt_delta(old: Optional[float], new: Optional[float]) -> str:
    if old is None or new is None or old == 0:
        return "—"
    return "%+.2f%%" % ((new - old) / old * 100)


def fmt_ratio(peer: Optional[float], ours: Optional[float]) -> str:
    if peer is None or ours is None or ours == 0:
        return "—"
    return "%.2f" % (peer / ours)


def fmt_spread(r: Dict[str, Any]) -> str:
    """A time cell: the median and, over two or more repeats, its spread ("31.6 µs ±1.2%")."""
    t = fmt_time(r.get("ns_per_op"))
    if r.get("ns_per_op") is None or r.get("repeats", 1) < 2 or "spread" not in r:
        return t
    pct = r["spread"] * 100
    return "%s ±%s%%" % (t, ("%.1f" % pct) if pct < 10 else ("%.0f" % pct))


def markdown_table(head: List[str], rows: List[List[str]], align: List[str]) -> str:
    """A Markdown table padded to aligned columns ('l' or 'r' per column)."""
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]

    def line(cells: List[str]) -> str:
        out = []
        for c, w, a in zip(cells, widths, align):
            out.append(str(c).rjust(w) if a == "r" else str(c).ljust(w))
        return "| " + " | ".join(out) + " |"

    sep = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2)) for w, a in zip(widths, align)) + "|"
    return "\n".join([line(head), sep] + [line(r) for r in rows])


def render_table1(results: List[Dict[str, Any]]) -> str:
    head = ["benchmark", "reference time/op", "p256 time/op", "delta",
            "reference alloc/op", "p256 alloc/op", "delta",
            "reference allocs/op", "p256 allocs/op", "delta"]
    rows = []
    for row in results:
        r, p = row["results"].get("reference", {}), row["results"].get("p256", {})
        rt, pt = r.get("ns_per_op"), p.get("ns_per_op")
        rb, pb = r.get("alloc_bytes_per_op"), p.get("alloc_bytes_per_op")
        rc, pc = r.get("allocs_per_op"), p.get("allocs_per_op")
        rows.append([row["label"], fmt_spread(r), fmt_spread(p), fmt_delta(rt, pt),
                     fmt_bytes(rb), fmt_bytes(pb), fmt_delta(rb, pb),
                     fmt_count(rc), fmt_count(pc), fmt_delta(rc, pc)])
    return markdown_table(head, rows, ["l"] + ["r"] * 9)


def render_table2(results: List[Dict[str, Any]], peer_versions: Dict[str, str]) -> str:
    names = [n for n in PEERS if n in peer_versions]
    head = ["operation", "p256"]
    for n in names:
        head += ["%s %s" % (n, peer_versions[n]), "%s/p256" % n]
    rows = []
    for row in results:
        ours = row["results"]["p256"]["ns_per_op"]
        cells = [row["label"], fmt_spread(row["results"]["p256"])]
        for n in names:
            r = row["results"].get(n, {})
            cells += [fmt_spread(r), fmt_ratio(r.get("ns_per_op"), ours)]
        rows.append(cells)
    return markdown_table(head, rows, ["l"] + ["r"] * (len(head) - 1))


TABLE1_NOTES = """\
reference = p256.reference (generic pure Python, variable time); p256 = the native core.
delta = (p256 - reference) / reference, as benchstat prints it. alloc/op = bytes and
allocs/op = blocks requested from Python's allocators per operation, freed ones included
(Go's meaning; counted by p256._allocstat, an empty loop's count subtracted).
— : p256 implements P-256 only. In Go's table, SignP384 and BaseMult (P-224) were the
generic code in both columns (left as they were); here only the reference figure exists."""

TABLE2_NOTES = """\
ratio = peer time / p256 time (2.00: the peer takes twice as long as p256; below 1: the
peer is faster). Each library's own API and defaults (random or hedged nonces)."""


# -- how sure ------------------------------------------------------------------------------

SPREAD_WARN = 0.10  # a spread over this share of the median is named in a warning
AGREE_FLOOR = 0.05  # the two tables' figures of one call may differ by this much at least
BUSY_WARN = 0.5  # other processes' CPU time per second of the run that earns a warning
# p256's calls that both tables time: (table 1's row, table 2's row). They differ only in
# what surrounds the arithmetic (a 64-byte message hashed, DER), well under AGREE_FLOOR.
SAME_OPERATION = (("SignP256", "sign"), ("VerifyP256", "verify"),
                  ("KeyGeneration", "keygen"), ("ECDHP256", "ecdh"))


def spread_warnings(results: List[Dict[str, Any]], limit: float = SPREAD_WARN) -> List[str]:
    """A warning for each row with a figure whose repeats spread more than `limit` of its
    median, naming those figures."""
    out = []
    for row in results:
        wide = ["%s ±%.0f%%" % (impl, r["spread"] * 100) for impl, r in row["results"].items()
                if r.get("repeats", 1) >= 2 and r["spread"] > limit]
        if wide:
            out.append("warning: %s: %s (a spread over %.0f%%)" % (row["label"], ", ".join(wide),
                                                                  limit * 100))
    return out


def agreement_warnings(results1: List[Dict[str, Any]], results2: List[Dict[str, Any]],
                       floor: float = AGREE_FLOOR) -> List[str]:
    """A warning for each p256 call that the two tables time apart (SAME_OPERATION) when
    their medians differ by more than their spreads together and `floor` of the smaller."""
    t1 = {row["name"]: row["results"].get("p256") for row in results1}
    t2 = {row["name"]: row["results"].get("p256") for row in results2}
    labels = {row["name"]: row["label"] for row in results1 + results2}
    out = []
    for n1, n2 in SAME_OPERATION:
        a, b = t1.get(n1), t2.get(n2)
        if not a or not b:
            continue
        ma, mb = a["ns_per_op"], b["ns_per_op"]
        allowed = max(floor * min(ma, mb), a.get("spread", 0) * ma + b.get("spread", 0) * mb)
        if abs(ma - mb) > allowed:
            out.append("warning: table 1's %s (%s) and table 2's %s (%s) time the same p256 "
                       "call but differ by %.0f%%, more than their spreads allow"
                       % (labels[n1], fmt_time(ma), labels[n2], fmt_time(mb),
                          abs(ma - mb) / min(ma, mb) * 100))
    return out


def load_warnings(load: Dict[str, Any], limit: float = BUSY_WARN) -> List[str]:
    """A warning when other processes kept `limit` CPUs or more busy during the run."""
    busy = load.get("others_busy_cpus")
    if busy is None or busy < limit:
        return []
    return ["warning: other processes kept %.1f of %s CPUs busy during the run"
            % (busy, load.get("cpu_count") or "?")]


WARNINGS_ADVICE = ("The figures named in a warning are not reliable: the machine was busy or "
                   "changed speed during the run.\nRerun on an idle machine; compare ratios "
                   "taken in one run rather than times of different runs.")


def _busy_seconds() -> Optional[float]:
    """CPU seconds the whole machine has spent busy since boot (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
        tick = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / tick


def _loadavg() -> Optional[List[float]]:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (OSError, AttributeError):
        return None


class LoadMeter:
    """The machine's load around a run: the load averages before and after, and the CPU
    time other processes took per second of the run (machine busy time less ours)."""

    def __init__(self) -> None:
        self.before = _loadavg()
        self.busy0 = _busy_seconds()
        self.own0 = time.process_time()
        self.wall0 = time.perf_counter()

    def stop(self) -> Dict[str, Any]:
        wall = time.perf_counter() - self.wall0
        own = time.process_time() - self.own0
        busy1 = _busy_seconds()
        others = None
        if self.busy0 is not None and busy1 is not None and wall > 0:
            others = round(max(0.0, (busy1 - self.busy0 - own) / wall), 2)
        return {"loadavg_before": self.before, "loadavg_after": _loadavg(),
                "others_busy_cpus": others, "cpu_count": os.cpu_count()}


def _fmt_loadavg(v: Optional[List[float]]) -> str:
    return " ".join("%.2f" % x for x in v) if v else "n/a"


def header(env: Dict[str, Any], settings: Settings) -> str:
    """The lines above the tables: p256 and its build, the CPU, the peers' versions, the
    load, how the figures were taken."""
    d = env["cpu_details"]
    cpu_id = ("family %s model %s, " % (d["family"], d["model"])) if d["family"] and d["model"] else ""
    lines = ["p256 %s (backend %s, %s), %s %s, %s (%s%s CPUs), %s, %s" % (
        env["p256"], env["p256_backend"], env["p256_compiler"], env["python_implementation"],
        env["python"], env["cpu"], cpu_id, env["cpu_count"], env["machine"], env["date"])]
    peers = ["%s %s" % (n, v) for n, v in env["peers"].items() if v]
    if env.get("openssl"):
        peers.append(env["openssl"] + " (cryptography's)")
    lines.append("peers: %s" % (", ".join(peers) or "none installed"))
    load = env.get("load") or {}
    busy = load.get("others_busy_cpus")
    lines.append("load: average %s before, %s after; other processes kept %s CPUs busy "
                 "during the run" % (_fmt_loadavg(load.get("loadavg_before")),
                                     _fmt_loadavg(load.get("loadavg_after")),
                                     "n/a" if busy is None else "%.2f" % busy))
    lines.append("medians of %d interleaved repeats of ~%g ms per implementation; ± is half "
                 "the range of the repeats, as a share of the median" % (
                     settings.repeats, settings.min_time * 1e3))
    return "\n".join(lines) + "\n"


# -- running -------------------------------------------------------------------------------


class Progress:
    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.i = 0
        self.stream = stream

    def say(self, text: str) -> None:
        self.stream.write("p256 bench: %s\n" % text)
        self.stream.flush()

    def start(self, row: Row) -> None:
        self.i += 1
        self.t0 = time.perf_counter()
        self.tag = "[%*d/%d] %s" % (len(str(self.total)), self.i, self.total, row.label)
        self.say("%s: %s ..." % (self.tag, ", ".join(row.cands)))

    def end(self, row: Row, res: Dict[str, Dict[str, Any]]) -> None:
        parts = ["%s %s" % (name, fmt_time(r["ns_per_op"])) for name, r in res.items()]
        self.say("%s: %s (%.1f s)" % (self.tag, ", ".join(parts), time.perf_counter() - self.t0))


def measure_row(row: Row, settings: Settings, allocs: bool) -> Dict[str, Dict[str, Any]]:
    res = time_interleaved(row.cands, settings)
    if allocs:
        for name, fn in row.cands.items():
            per_op = res[name]["ns_per_op"]
            n = max(1, min(res[name]["iterations"], round(settings.alloc_time * 1e9 / max(per_op, 1))))
            counted = count_allocations(fn, n)
            if counted is not None:
                res[name].update(counted)
            res[name]["tracemalloc_peak_bytes"] = tracemalloc_peak(fn, settings.tracemalloc_calls)
    return res


def run(settings: Settings, with_peers: bool = True, out: TextIO = sys.stdout,
        err: TextIO = sys.stderr) -> Dict[str, Any]:
    """Measure both tables, print them on `out`, progress on `err`; return the JSON document."""
    t_start = time.perf_counter()
    log = Progress(0, err)
    log.say("setting up (%s: %d repeats of ~%g ms per implementation)" % (
        settings.mode, settings.repeats, settings.min_time * 1e3))
    rows1 = table1_rows()
    peer_ops, peer_versions, skipped = peers() if with_peers else ({}, {}, {})
    rows2 = table2_rows(peer_ops) if with_peers else []
    for name, why in skipped.items():
        log.say("table 2: %s skipped: %s" % (name, why))
    log.total = len(rows1) + len(rows2)
    env = environment(peer_versions)
    meter = LoadMeter()

    results1: List[Dict[str, Any]] = []
    results2: List[Dict[str, Any]] = []
    flat: List[Dict[str, Any]] = []
    for rows, results, allocs in ((rows1, results1, True), (rows2, results2, False)):
        for row in rows:
            log.start(row)
            res = measure_row(row, settings, allocs)
            log.end(row, res)
            results.append({"table": row.table, "name": row.name, "label": row.label,
                            "curve": row.curve, "operation": row.what, "results": res})
            for impl, r in res.items():
                flat.append(dict({"table": row.table, "name": row.name, "impl": impl,
                                  "curve": row.curve, "operation": row.what}, **r))
    env["load"] = meter.stop()
    elapsed = time.perf_counter() - t_start
    log.say("done in %.1f s" % elapsed)
    warnings = (spread_warnings(results1 + results2) + agreement_warnings(results1, results2)
                + load_warnings(env["load"]))

    w = out.write
    w(header(env, settings) + "\n")
    w("Table 1: generic reference (old) vs p256 (new), as Go's benchstat\n\n")
    w(render_table1(results1) + "\n\n" + TABLE1_NOTES + "\n")
    if env["alloc_counter"] is None:
        w("No alloc columns: this build lacks p256._allocstat (csrc/allocstat.c).\n")
    if with_peers:
        w("\nTable 2: p256 beside other Python libraries (P-256, time/op)\n\n")
        if results2 and peer_versions:
            w(render_table2(results2, peer_versions) + "\n\n" + TABLE2_NOTES + "\n")
        else:
            w("(no peer library installed)\n")
        for name, why in skipped.items():
            w("skipped %s: %s\n" % (name, why))
    if warnings:
        w("\n" + "\n".join(warnings) + "\n" + WARNINGS_ADVICE + "\n")
    out.flush()

    return {
        "schema": SCHEMA,
        "settings": settings.as_dict(),
        "environment": env,
        "elapsed_s": elapsed,
        "skipped_peers": skipped,
        "ratio_definition": "table 2: peer ns_per_op / p256 ns_per_op; table 1 delta: (p256 - reference) / reference",
        "benchmarks": flat,
        "warnings": warnings,
    }
