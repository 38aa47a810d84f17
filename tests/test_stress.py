# SPDX-License-Identifier: Apache-2.0
"""Concurrency stress test: many threads using the same keys at once, every result checked.

The core releases the GIL around every scalar multiplication (csrc/py_secretkey.c), so
signing, verification, ECDH and key loading really run in parallel in C while other
threads run Python. THREADS threads share the same PrivateKey/PublicKey objects and,
for a bounded time (P256_STRESS_SECONDS, default 3 s), pick random operations and
compare each result with an expectation computed beforehand, single-threaded:

- deterministic signatures (every nonce hash, DER and raw) equal precomputed bytes,
  themselves checked against the RFC 6979 vector and the pure-Python reference;
- hedged signatures verify under the public key, and not under another key;
- verification of valid signatures is True, of corrupted ones False;
- ECDH is symmetric and equals the precomputed shared x;
- PublicKey.from_bytes of compressed and uncompressed encodings gives the same key,
  invalid encodings raise ValueError;
- scalar_base_mult and scalar_mult equal precomputed points;
- the public key of fresh PrivateKey objects, which every thread asks for at the same
  time (the lazily computed, cached d*G), is right in every thread.
"""

import hashlib
import json
import os
import random
import sys
import threading
import time

import pytest

import p256
from p256 import reference
from vectors_util import VECTORS

THREADS = 8
SECONDS = float(os.environ.get("P256_STRESS_SECONDS", "3"))
FRESH_ROUNDS = 20
HASHES = ["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
CURVE = reference.curve_by_name("P-256")


def _sec1(pt):
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


@pytest.fixture(scope="module")
def world():
    rng = random.Random(2024)
    w = {}
    scalars = [1, 2, p256.N - 1] + [rng.randrange(1, p256.N) for _ in range(5)]
    keys = [p256.PrivateKey.from_int(d) for d in scalars]
    pubs = [k.public_key for k in keys]
    w["keys"], w["pubs"] = keys, pubs
    w["scalars"] = scalars
    w["pub_u"] = [p.to_bytes() for p in pubs]
    w["pub_c"] = [p.to_bytes(compressed=True) for p in pubs]

    # Ground truth for the precomputed values: the RFC 6979 vector and the reference.
    vec = json.loads((VECTORS / "rfc6979_p256.json").read_text())
    t = next(t for t in vec["tests"] if t["hash"] == "sha256" and t["message"] == "sample")
    vk = p256.PrivateKey.from_bytes(bytes.fromhex(vec["private_key"]))
    assert vk.sign(b"sample", deterministic=True, encoding="raw") == bytes.fromhex(t["sig_raw"])
    w["vec"] = (vk, bytes.fromhex(t["sig_raw"]))

    msgs = [b"", b"sample", bytes(range(200)), b"x" * 1000]
    w["msgs"] = msgs
    det = {}
    for i, k in enumerate(keys):
        for m in msgs:
            for h in HASHES:
                for enc in ("der", "raw"):
                    sig = k.sign(m, hash=h, encoding=enc, deterministic=True)
                    det[i, m, h, enc] = sig
                    assert pubs[i].verify(sig, m, hash=h, encoding=enc)
    # Cross-check some deterministic signatures against the pure-Python reference.
    for i in (0, 3):
        for h in ("sha224", "sha256", "sha384", "sha512"):
            digest = hashlib.new(h, b"sample").digest()
            k = reference.rfc6979_nonce(CURVE, scalars[i], digest, h)
            r, s = reference.ecdsa_sign(CURVE, scalars[i], digest, k=k)
            assert det[i, b"sample", h, "raw"] == r.to_bytes(32, "big") + s.to_bytes(32, "big")
    w["det"] = det

    shared = {}
    for i, ki in enumerate(keys):
        for j, pj in enumerate(pubs):
            shared[i, j] = ki.exchange(pj)
    for i in range(len(keys)):
        for j in range(len(keys)):
            assert shared[i, j] == shared[j, i]
    assert shared[3, 4] == reference.ecdh(CURVE, scalars[3], (pubs[4].x, pubs[4].y))
    w["shared"] = shared

    ks = [d.to_bytes(32, "big") for d in scalars] + [b"\xff" * 32]
    w["sbm"] = {k: p256.scalar_base_mult(k) for k in ks}
    for k, pt in w["sbm"].items():
        assert pt == _sec1(CURVE.scalar_base_mult(int.from_bytes(k, "big")))
    for i, d in enumerate(scalars):
        assert w["sbm"][d.to_bytes(32, "big")] == w["pub_u"][i]
    w["sm"] = {(k, j): p256.scalar_mult(k, w["pub_c"][j]) for k in ks for j in range(len(pubs))}

    bad_points = [
        b"\x04" + b"\x00" * 64,                                # not on the curve
        w["pub_u"][3][:-1] + bytes([w["pub_u"][3][-1] ^ 1]),   # y flipped: off the curve
        b"\x02" + (p256.P).to_bytes(32, "big"),                # x = p
        b"\x00",                                               # infinity
        w["pub_c"][2][:20],                                    # truncated
    ]
    for b in bad_points:
        with pytest.raises(ValueError):
            p256.PublicKey.from_bytes(b)
    w["bad_points"] = bad_points

    # Fresh keys whose public key nobody has asked for yet: the threads race on them,
    # FRESH_ROUNDS rounds that all threads start together.
    fresh_d = [[rng.randrange(1, p256.N) for _ in range(8)] for _ in range(FRESH_ROUNDS)]
    w["fresh_expect"] = [[p256.scalar_base_mult(d.to_bytes(32, "big")) for d in r] for r in fresh_d]
    assert w["fresh_expect"][0][0] == _sec1(CURVE.scalar_base_mult(fresh_d[0][0]))
    w["fresh"] = [[p256.PrivateKey.from_int(d) for d in r] for r in fresh_d]
    return w


def _flip(b, i):
    i %= len(b)
    return b[:i] + bytes([b[i] ^ 0x10]) + b[i + 1:]


def _worker(w, tid, deadline, barrier, errors, counts):
    rng = random.Random(tid)
    keys, pubs, msgs = w["keys"], w["pubs"], w["msgs"]
    nk = len(keys)
    n = 0

    def expect(cond, what):
        if not cond:
            errors.append("thread %d: %s" % (tid, what))
            barrier.abort()
            raise AssertionError(what)

    def op_sign_det():
        i, m, h, enc = rng.randrange(nk), rng.choice(msgs), rng.choice(HASHES), rng.choice(("der", "raw"))
        expect(keys[i].sign(m, hash=h, encoding=enc, deterministic=True) == w["det"][i, m, h, enc],
               "deterministic signature differs (key %d, %s, %s)" % (i, h, enc))

    def op_sign_hedged():
        i, m = rng.randrange(nk), rng.choice(msgs)
        enc = rng.choice(("der", "raw"))
        sig = keys[i].sign(m, encoding=enc)
        expect(pubs[i].verify(sig, m, encoding=enc), "hedged signature does not verify")
        expect(not pubs[(i + 1) % nk].verify(sig, m, encoding=enc), "signature verifies under another key")
        expect(sig != w["det"][i, m, "sha256", enc], "hedged signature equals the deterministic one")

    def op_verify():
        i, m, h, enc = rng.randrange(nk), rng.choice(msgs), rng.choice(HASHES), rng.choice(("der", "raw"))
        sig = w["det"][i, m, h, enc]
        expect(pubs[i].verify(sig, m, hash=h, encoding=enc) is True, "valid signature rejected")
        bad = _flip(sig, rng.randrange(len(sig)))
        expect(pubs[i].verify(bad, m, hash=h, encoding=enc) is False, "corrupted signature accepted")
        expect(pubs[i].verify(sig, m + b"!", hash=h, encoding=enc) is False, "wrong message accepted")

    def op_exchange():
        i, j = rng.randrange(nk), rng.randrange(nk)
        expect(keys[i].exchange(pubs[j]) == w["shared"][i, j], "ECDH result differs")
        expect(keys[j].exchange(pubs[i]) == w["shared"][i, j], "ECDH is not symmetric")

    def op_load():
        j = rng.randrange(nk)
        a = p256.PublicKey.from_bytes(w["pub_u"][j])
        b = p256.PublicKey.from_bytes(bytearray(w["pub_c"][j]))
        expect(a == b == pubs[j], "decoded public key differs")
        expect(b.to_bytes(compressed=True) == w["pub_c"][j], "re-encoded public key differs")
        bad = rng.choice(w["bad_points"])
        try:
            p256.PublicKey.from_bytes(bad)
        except ValueError:
            pass
        else:
            expect(False, "invalid point accepted: %s" % bad.hex())

    def op_mult():
        k = rng.choice(list(w["sbm"]))
        expect(p256.scalar_base_mult(k) == w["sbm"][k], "scalar_base_mult differs")
        j = rng.randrange(nk)
        expect(p256.scalar_mult(k, w["pub_c"][j]) == w["sm"][k, j], "scalar_mult differs")

    def fresh_public_keys():
        # All threads start each round together on the same new keys: the first request
        # computes d*G without the GIL while the others ask for the same cached value.
        for keys_r, want_r in zip(w["fresh"], w["fresh_expect"]):
            barrier.wait()
            for key, want in zip(keys_r, want_r):
                expect(key.public_key.to_bytes() == want, "public key of a fresh key differs")

    ops = [op_sign_det, op_sign_hedged, op_verify, op_exchange, op_load, op_mult]
    try:
        fresh_public_keys()
        while time.monotonic() < deadline:
            rng.choice(ops)()
            n += 1
    except AssertionError:
        pass  # recorded in errors by expect()
    except threading.BrokenBarrierError:
        pass  # another thread failed first and broke the barrier: its error is recorded
    except Exception as e:  # anything unexpected (AttributeError from a race, ...)
        errors.append("thread %d: %r" % (tid, e))
        barrier.abort()
    counts[tid] = n


def test_threads_stress(world):
    errors, counts = [], [0] * THREADS
    barrier = threading.Barrier(THREADS)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: more interleavings of the Python layer
    try:
        deadline = time.monotonic() + SECONDS
        threads = [threading.Thread(target=_worker, args=(world, t, deadline, barrier, errors, counts))
                   for t in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(SECONDS + 60)
    finally:
        sys.setswitchinterval(old)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors[:10]
    assert all(c > 0 for c in counts), counts
