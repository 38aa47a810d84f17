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

A second run shares what else a program shares between threads: precomputed PublicKeys
(verification and ECDH through their tables), a PublicKeyCache (by every encoding; rounds
of new points that all threads ask for at once must give one object per point, and
precompute() of new keys one table per key), a small cache that evicts all the time, and
every batch function with threads=2 (verify_many, p256verify_many, sign_many,
exchange_many, scalar_base_mult_many, PrivateKey.generate_many), each result compared
with the single-threaded answer. Negative control: a cache without its lock, preempted
between its lookup and its insert, is flagged (two objects for one point).
"""

import collections
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


def _expecter(tid, barrier, errors):
    """A thread's check: records a failure, stops the other threads at their next barrier
    and ends this thread's run (AssertionError, which _drive catches)."""
    def expect(cond, what):
        if not cond:
            errors.append("thread %d: %s" % (tid, what))
            barrier.abort()
            raise AssertionError(what)
    return expect


def _drive(tid, deadline, barrier, errors, counts, rng, rounds, ops):
    """A thread's run: rounds() (what all threads start together), then operations chosen
    at random until the deadline; records how many, and any exception the checks did not
    expect."""
    n = 0
    try:
        rounds()
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


def _worker(w, tid, deadline, barrier, errors, counts):
    rng = random.Random(tid)
    keys, pubs, msgs = w["keys"], w["pubs"], w["msgs"]
    nk = len(keys)
    expect = _expecter(tid, barrier, errors)

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
    _drive(tid, deadline, barrier, errors, counts, rng, fresh_public_keys, ops)


def _run_threads(worker, w, seconds):
    """worker(w, tid, deadline, barrier, errors, counts) on THREADS threads at once for
    `seconds`, thread switches forced often; (errors, counts), once every thread is done."""
    errors, counts = [], [0] * THREADS
    barrier = threading.Barrier(THREADS)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: more interleavings of the Python layer
    try:
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=worker, args=(w, t, deadline, barrier, errors, counts))
                   for t in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 60)
    finally:
        sys.setswitchinterval(old)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors, counts


def test_threads_stress(world):
    errors, counts = _run_threads(_worker, world, SECONDS)
    assert not errors, errors[:10]
    assert all(c > 0 for c in counts), counts


# ---- Shared precomputed keys, caches and batches --------------------------------------

SHARED_SECONDS = float(os.environ.get("P256_STRESS_SECONDS", "3"))
NEW_POINT_ROUNDS = 12  # rounds of new points that every thread asks the cache for at once
NEW_POINTS = 4  # points per round
BATCH = 40  # items per batch call: enough for threads=2 to start a helper


@pytest.fixture(scope="module")
def shared(world):
    """world, plus the shared objects of the second run and the single-threaded answers."""
    rng = random.Random(7)
    keys, pubs, nk = world["keys"], world["pubs"], len(world["keys"])
    w = dict(world)
    w["pre"] = [p256.PublicKey.from_bytes(u).precompute() for u in world["pub_u"]]
    # Big enough never to evict: each point's object must stay the one every thread gets.
    w["cache"] = p256.PublicKeyCache(max_keys=nk + NEW_POINT_ROUNDS * NEW_POINTS, window=4)
    w["cached"] = [w["cache"].get(u) for u in world["pub_u"]]
    w["small"] = p256.PublicKeyCache(max_keys=3, window=4)  # evicts all the time
    w["rounds"] = [[p256.PrivateKey.from_int(rng.randrange(1, p256.N)).public_key.to_bytes()
                    for _ in range(NEW_POINTS)] for _ in range(NEW_POINT_ROUNDS)]
    w["unbuilt"] = [[p256.PublicKey.from_bytes(u) for u in r] for r in w["rounds"]]
    w["seen"] = collections.defaultdict(list)  # (round, point) -> what each thread got

    det, msgs = world["det"], world["msgs"]
    picks = [(rng.randrange(nk), rng.choice(msgs), rng.choice(("der", "raw"))) for _ in range(BATCH)]
    w["sign_items"] = [(keys[i], m) for i, m, _ in picks]
    w["sign_want"] = [det[i, m, "sha256", "der"] for i, m, _ in picks]
    verify = [(pubs[i], det[i, m, "sha256", "der"], m) for i, m, _ in picks]
    verify[::3] = [(pk, _flip(sig, 9), m) for pk, sig, m in verify[::3]]
    w["verify_items"], w["verify_want"] = verify, [i % 3 != 0 for i in range(BATCH)]
    eip = []
    for i, m, _ in picks:
        eip.append(hashlib.sha256(m).digest() + det[i, m, "sha256", "raw"] + world["pub_u"][i][1:])
    eip[::4] = [_flip(x, 40) for x in eip[::4]]
    w["eip_items"], w["eip_want"] = eip, [p256.p256verify(x) for x in eip]
    assert w["eip_want"].count(b"") == BATCH // 4
    pairs = [(rng.randrange(nk), rng.randrange(nk)) for _ in range(BATCH)]
    w["pairs"] = [(keys[i], pubs[j]) for i, j in pairs]
    w["pairs_want"] = [world["shared"][i, j] for i, j in pairs]
    w["scalars"] = [rng.choice(list(world["sbm"])) for _ in range(BATCH)]
    w["scalars_want"] = [world["sbm"][k] for k in w["scalars"]]
    return w


def _shared_worker(w, tid, deadline, barrier, errors, counts):
    rng = random.Random(100 + tid)
    keys, pubs, pre, msgs = w["keys"], w["pubs"], w["pre"], w["msgs"]
    nk = len(keys)
    expect = _expecter(tid, barrier, errors)

    def form(pk_bytes):
        pk = p256.PublicKey.from_bytes(pk_bytes)
        return rng.choice((pk, pk_bytes, pk.to_bytes(compressed=True), bytearray(pk_bytes)))

    def op_precomputed():
        i, j, m, h = rng.randrange(nk), rng.randrange(nk), rng.choice(msgs), rng.choice(HASHES)
        sig = w["det"][i, m, h, "der"]
        expect(pre[i].verify(sig, m, hash=h) is True, "precomputed key rejects a valid signature")
        expect(pre[i].verify(_flip(sig, rng.randrange(len(sig))), m, hash=h) is False,
               "precomputed key accepts a corrupted signature")
        expect(keys[j].exchange(pre[i]) == w["shared"][j, i], "ECDH through a table differs")

    def op_cache():
        i = rng.randrange(nk)
        got = w["cache"].get(form(w["pub_u"][i]))
        expect(got is w["cached"][i], "the cache gave another object for a cached point")
        expect(form(w["pub_u"][i]) in w["cache"], "a cached point is not in the cache")
        small = w["small"].get(form(w["pub_u"][i]))
        expect(small == pubs[i] and small.is_precomputed, "the evicting cache gave a wrong key")
        m = rng.choice(msgs)
        expect(small.verify(w["det"][i, m, "sha256", "der"], m), "a key from the cache rejects")

    def op_batch():
        kind = rng.randrange(6)
        if kind == 0:
            expect(p256.verify_many(w["verify_items"], threads=2) == w["verify_want"], "verify_many")
        elif kind == 1:
            expect(p256.p256verify_many(w["eip_items"], threads=2) == w["eip_want"], "p256verify_many")
        elif kind == 2:
            det = p256.sign_many(w["sign_items"], deterministic=True, threads=2)
            expect(det == w["sign_want"], "sign_many (deterministic) differs")
            hedged = p256.sign_many(w["sign_items"], threads=2)
            expect(all(sk.public_key.verify(s, m) for (sk, m), s in zip(w["sign_items"], hedged)),
                   "sign_many (hedged) gave a signature that does not verify")
        elif kind == 3:
            expect(p256.exchange_many(w["pairs"], threads=2) == w["pairs_want"], "exchange_many")
        elif kind == 4:
            expect(p256.scalar_base_mult_many(w["scalars"], threads=2) == w["scalars_want"],
                   "scalar_base_mult_many")
        else:
            made = p256.PrivateKey.generate_many(BATCH, threads=2)
            expect(all(k.public_key.to_bytes() == p256.scalar_base_mult(k.to_bytes()) for k in made),
                   "generate_many gave a key whose public key is not d*G")
            expect(len({k.to_bytes() for k in made}) == BATCH, "generate_many repeated a key")

    def new_points():
        # All threads start each round together on points the cache has not seen (the
        # first get inserts, the others must find that object), then on keys nobody has
        # precomputed (one build each): every object is recorded, checked after the run.
        for r, (round_bytes, unbuilt) in enumerate(zip(w["rounds"], w["unbuilt"])):
            barrier.wait()
            for j in rng.sample(range(NEW_POINTS), NEW_POINTS):
                w["seen"][r, j].append(w["cache"].get(form(round_bytes[j])))
            for j in rng.sample(range(NEW_POINTS), NEW_POINTS):
                expect(unbuilt[j].precompute(window=4).is_precomputed, "precompute() left no table")

    _drive(tid, deadline, barrier, errors, counts, rng, new_points,
           [op_precomputed, op_cache, op_batch])


def _one_object_per_point(w):
    """What the threads got for the rounds' new points: the problems (more than one
    object for a point, or not the object the cache now holds)."""
    problems = []
    for (r, j), got in sorted(w["seen"].items()):
        if len(got) != THREADS:
            problems.append("round %d point %d: %d answers" % (r, j, len(got)))
        if len({id(x) for x in got}) != 1:
            problems.append("round %d point %d: %d objects" % (r, j, len({id(x) for x in got})))
        elif got[0] is not w["cache"].get(w["rounds"][r][j]):
            problems.append("round %d point %d: not the cached object" % (r, j))
    return problems


def test_shared_objects_stress(shared):
    errors, counts = _run_threads(_shared_worker, shared, SHARED_SECONDS)
    assert not errors, errors[:10]
    assert all(c > 0 for c in counts), counts
    assert _one_object_per_point(shared) == []
    assert len(shared["small"]) <= 3
    assert all(pk.is_precomputed for r in shared["unbuilt"] for pk in r)


def test_a_cache_without_its_lock_is_flagged(shared, monkeypatch):
    """Negative control: a cache get that drops the lock, preempted between its lookup and
    its insert (time.sleep(0): what a thread switch there does), gives two threads that
    ask for a new point at once two objects, and the check above says so."""

    def racy_get(self, key):
        pk = key if isinstance(key, p256.PublicKey) else p256.PublicKey.from_bytes(key)
        sec1 = pk.to_bytes()
        hit = self._keys.get(sec1)
        if hit is None:
            time.sleep(0)
            hit = self._keys[sec1] = p256.PublicKey.from_bytes(sec1)
        return hit.precompute(window=self._window)

    monkeypatch.setattr(p256.PublicKeyCache, "get", racy_get)
    w = dict(shared)
    w["cache"] = p256.PublicKeyCache(max_keys=len(shared["pub_u"]) + NEW_POINT_ROUNDS * NEW_POINTS,
                                     window=4)
    w["cached"] = [w["cache"].get(u) for u in shared["pub_u"]]
    w["unbuilt"] = [[p256.PublicKey.from_bytes(u) for u in r] for r in shared["rounds"]]
    w["seen"] = collections.defaultdict(list)
    errors, _ = _run_threads(_shared_worker, w, 0.0)
    assert not errors, errors[:10]
    assert any("objects" in p for p in _one_object_per_point(w))
