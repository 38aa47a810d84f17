# SPDX-License-Identifier: Apache-2.0
"""Precomputed public keys: pk.precompute() must change nothing but speed.

10^4 random differential cases (valid, tampered, forged for any key, x(R) = r + n,
u1*G = +-u2*Q) and edge keys agree with a plain key (every Wycheproof vector through a
precomputed key: tests/test_wycheproof.py);
a wrong table is noticed (negative control); the API's contract (returns pk, equality,
hash, pickling, window sizes, errors); thread stress: 8 verifiers and concurrent
precompute() calls, one table built. ECDH with a precomputed peer (the constant-time
comb over its table) gives exactly the plain key's and cryptography's shared secret,
for every window, edge scalars and keys included, and through PublicKeyCache; a wrong
table is noticed there too. The C comb itself: tests/c/test_precompute.c.
"""

import hashlib
import pickle
import random
import threading
import time

import pytest

import p256
import p256._keys as keys_module
from p256 import _core, reference

N = p256.N
CURVE = reference.curve_by_name("P-256")
G = (CURVE.gx, CURVE.gy)


def _sec1(pt):
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def _point(pk):
    return (pk.x, pk.y)


def _fresh(pk):
    return p256.PublicKey.from_bytes(pk.to_bytes())


# ---- A wrong table ------------------------------------------------------------------


def test_a_wrong_table_is_noticed(monkeypatch):
    """Negative control: tables built for the wrong point (here -Q, as if a sign were lost
    in the build) make the random differential comparison below fail (and the Wycheproof
    path of precomputed keys: tests/test_wycheproof.py)."""
    real = keys_module._build_table

    def negated(key, bits):
        sec1 = key.to_bytes()
        y = (-int.from_bytes(sec1[33:], "big")) % CURVE.p
        return real(p256.PublicKey.from_bytes(sec1[:33] + y.to_bytes(32, "big")), bits)

    monkeypatch.setattr(keys_module, "_build_table", negated)
    assert len(_differential(500)) > 50


# ---- Random differential cases -------------------------------------------------------


def _forge(q, rng, r_plus_n=False):
    """A valid (r||s, digest) for any point q, made from random u1, u2 (the textbook
    existential forgery with a chosen digest): R = u1 G + u2 Q, r = x(R) mod n,
    s = r / u2, e = u1 s. None when R is infinity or r = 0."""
    u1, u2 = rng.randrange(N), rng.randrange(1, N)
    big = CURVE.add(CURVE.scalar_base_mult(u1) if u1 else None, CURVE.scalar_mult(q, u2))
    if big is None or big[0] % N == 0:
        return None
    r = big[0] % N
    s = r * pow(u2, -1, N) % N
    e = u1 * s % N
    return r.to_bytes(32, "big") + s.to_bytes(32, "big"), e.to_bytes(32, "big")


def _r_plus_n_case(rng):
    """A key and valid signature whose R has x = r + n (needs r + n < p): Q is chosen
    as u2^-1 (R - u1 G) for an R with that x."""
    while True:
        r = rng.randrange(1, CURVE.p - N)
        x = r + N
        rhs = (x ** 3 - 3 * x + CURVE.b) % CURVE.p
        y = pow(rhs, (CURVE.p + 1) // 4, CURVE.p)
        if y * y % CURVE.p != rhs:
            continue
        u1, u2 = rng.randrange(1, N), rng.randrange(1, N)
        g1 = CURVE.scalar_base_mult(u1)
        diff = CURVE.add((x, y), (g1[0], -g1[1] % CURVE.p))
        if diff is None:
            continue
        q = CURVE.scalar_mult(diff, pow(u2, -1, N))
        s = r * pow(u2, -1, N) % N
        e = u1 * s % N
        return q, r.to_bytes(32, "big") + s.to_bytes(32, "big"), e.to_bytes(32, "big")


def _doubling_case(d, rng):
    """For Q = dG a valid signature with u1 G = u2 Q (the sum doubles): R = kG,
    u2 = k / 2d, s = r / u2, e = r d. And (sig, e') with e' = -r d: u1 G = -u2 Q, R is
    infinity, never valid."""
    while True:
        k = rng.randrange(1, N)
        r = CURVE.scalar_base_mult(k)[0] % N
        u2 = k * pow(2 * d, -1, N) % N
        if r and u2:
            s = r * pow(u2, -1, N) % N
            if s:
                sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
                return sig, (r * d % N).to_bytes(32, "big"), (-r * d % N).to_bytes(32, "big")


def _agree(plain, pre, sig, digest, want=None):
    a = plain.verify_digest(sig, digest, hash=None, encoding="raw")
    b = pre.verify_digest(sig, digest, hash=None, encoding="raw")
    return a is b and (want is None or a is want)


CASES = 10_000


def test_random_differential():
    assert _differential(CASES) == []


def _differential(cases):
    """The indices of the random cases where a precomputed key disagrees."""
    rng = random.Random(14)
    sks = [p256.PrivateKey.from_int(rng.randrange(1, N)) for _ in range(4)]
    bad = []
    for i in range(cases):
        sk = sks[i % len(sks)]
        plain = _fresh(sk.public_key)
        pre = sk.public_key.precompute()  # one table per key, built on first use
        kind = i % 5
        if kind == 0:  # valid, then each kind of tampering
            msg = rng.randbytes(rng.randrange(0, 64))
            sig = sk.sign(msg, encoding="raw")
            digest = hashlib.sha256(msg).digest()
            ok = _agree(plain, pre, sig, digest, True)
            t = bytearray(sig)
            t[rng.randrange(64)] ^= 1 << rng.randrange(8)
            ok = ok and _agree(plain, pre, bytes(t), digest, False)
            t = bytearray(digest)
            t[rng.randrange(32)] ^= 1 << rng.randrange(8)
            ok = ok and _agree(plain, pre, sig, bytes(t), False)
        elif kind == 1:  # DER through verify, valid and with a flipped message
            msg = rng.randbytes(16)
            sig = sk.sign(msg)
            ok = pre.verify(sig, msg) is plain.verify(sig, msg) is True
            ok = ok and pre.verify(sig, msg + b"x") is plain.verify(sig, msg + b"x") is False
        elif kind == 2:  # random r, s (nearly all invalid, some out of range)
            sig = rng.randbytes(64)
            ok = _agree(plain, pre, sig, rng.randbytes(32))
        elif kind == 3 and i % 50 == 3:  # forged for the key, without d (slower: Python)
            f = _forge(_point(plain), rng)
            ok = f is None or _agree(plain, pre, f[0], f[1], True)
        else:  # u1 G = +-u2 Q
            sig, e, e_neg = _doubling_case(sk.to_int(), rng) if i % 25 == 4 else (
                rng.randbytes(64), rng.randbytes(32), rng.randbytes(32))
            ok = _agree(plain, pre, sig, e) and _agree(plain, pre, sig, e_neg)
            if i % 25 == 4:
                ok = ok and _agree(plain, pre, sig, e, True) and _agree(plain, pre, sig, e_neg,
                                                                         False)
        if not ok:
            bad.append(i)
    return bad


def test_r_plus_n():
    rng = random.Random(1414)
    for _ in range(8):
        q, sig, e = _r_plus_n_case(rng)
        plain = p256.PublicKey.from_xy(*q)
        pre = p256.PublicKey.from_xy(*q).precompute()
        assert _agree(plain, pre, sig, e, True)
        # the same r without the + n branch: a different R, invalid
        t = bytearray(e)
        t[31] ^= 1
        assert _agree(plain, pre, sig, bytes(t), False)


def _small_x_keys(count):
    found = []
    x = 0
    while len(found) < count:
        try:
            found.append(p256.PublicKey.from_bytes(b"\x02" + x.to_bytes(32, "big")))
        except ValueError:
            pass
        x += 1
    return found


EDGE_KEYS = {
    "G": p256.PrivateKey.from_int(1).public_key,
    "-G": p256.PrivateKey.from_int(N - 1).public_key,
    "2G": p256.PrivateKey.from_int(2).public_key,
    "(n-1)/2 G": p256.PrivateKey.from_int((N - 1) // 2).public_key,
}


@pytest.mark.parametrize("window", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("name", list(EDGE_KEYS) + ["small x 0", "small x 1"])
def test_edge_keys(name, window):
    rng = random.Random(name + str(window))
    key = EDGE_KEYS[name] if name in EDGE_KEYS else _small_x_keys(2)[int(name[-1])]
    plain = _fresh(key)
    pre = _fresh(key).precompute(window=window)
    assert pre.is_precomputed and not plain.is_precomputed
    for _ in range(6):
        f = _forge(_point(plain), rng)
        if f is not None:
            assert _agree(plain, pre, f[0], f[1], True)
            assert _agree(plain, pre, f[0], bytes(32), False)
        assert _agree(plain, pre, rng.randbytes(64), rng.randbytes(32), False)
    # u1 = 0 or u2 = n - 1 and friends: digest 0, r = 1, s = 1 / n-1
    for r, s, e in [(1, 1, 0), (1, N - 1, 0), (N - 1, 1, 1), (2, 1, N - 1), (1, 1, 1)]:
        sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        assert _agree(plain, pre, sig, e.to_bytes(32, "big"))


# ---- ECDH with a precomputed peer ----------------------------------------------------

WINDOWS = [4, 5, 6, 7, 8]


def _edge_scalars(window):
    """1, 2, 3, n-1..n-3, powers of two and their neighbours, all-ones windows of `window`
    bits (alone and all the others), the alternating patterns and 2^256 - 1 mod n."""
    ks = {1, 2, 3, N - 1, N - 2, N - 3, (N - 1) // 2, (N + 1) // 2}
    for e in range(256):
        ks |= {1 << e, (1 << e) + 1, (2 << e) - 1, N - (1 << e)}
    rows = -(-257 // window)
    for i in range(rows):
        ones = ((1 << window) - 1) << (window * i)
        ks |= {ones, ((1 << 256) - 1) ^ ones}
    ks |= {int("55" * 32, 16), int("aa" * 32, 16), (1 << 256) - 1}
    return sorted(k % N for k in ks if k % N)


def _cryptography_exchange(d, peer):
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    theirs = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), peer.to_bytes())
    return ec.derive_private_key(d, ec.SECP256R1()).exchange(ec.ECDH(), theirs)


@pytest.mark.parametrize("window", WINDOWS)
def test_exchange_with_a_precomputed_peer_is_the_plain_exchange(window):
    rng = random.Random(window)
    peers = [p256.PrivateKey.generate().public_key, EDGE_KEYS["G"], EDGE_KEYS["-G"]]
    for peer in peers:
        plain = _fresh(peer)
        pre = _fresh(peer).precompute(window=window)
        assert pre._t.bits == window and not plain.is_precomputed
        ds = _edge_scalars(window) + [rng.randrange(1, N) for _ in range(20)]
        for d in ds:
            sk = p256.PrivateKey.from_int(d)
            assert sk.exchange(pre) == sk.exchange(plain), (window, hex(d))
        for d in ds[:3] + ds[-3:]:
            sk = p256.PrivateKey.from_int(d)
            assert sk.exchange(pre) == _cryptography_exchange(d, plain), (window, hex(d))


@pytest.mark.parametrize("window", WINDOWS)
def test_exchange_through_the_public_key_cache(window):
    cache = p256.PublicKeyCache(max_keys=4, window=window)
    for _ in range(3):
        sk, peer = p256.PrivateKey.generate(), p256.PrivateKey.generate()
        cached = cache.get(peer.public_key.to_bytes())
        assert cached.is_precomputed and cached._t.bits == window
        want = sk.exchange(_fresh(peer.public_key))
        assert sk.exchange(cached) == want == peer.exchange(sk.public_key)
        assert sk.exchange(cache.from_jwk(peer.public_key.to_jwk())) == want
        d = int.from_bytes(sk.to_bytes(), "big")
        assert want == _cryptography_exchange(d, cached)


def test_exchange_notices_a_wrong_table(monkeypatch):
    """Negative control: a table built for 2Q instead of Q (a key whose table went wrong)
    gives another shared secret, so the comparisons above can fail."""
    real = keys_module._build_table

    def doubled(key, bits):
        twice = p256.PublicKey.from_bytes(p256.scalar_mult((2).to_bytes(32, "big"), key.to_bytes()))
        return real(twice, bits)

    monkeypatch.setattr(keys_module, "_build_table", doubled)
    sk, peer = p256.PrivateKey.generate(), p256.PrivateKey.generate().public_key
    for window in WINDOWS:
        assert sk.exchange(_fresh(peer).precompute(window=window)) != sk.exchange(_fresh(peer))


# ---- The API -------------------------------------------------------------------------


def test_api_contract():
    sk = p256.PrivateKey.generate()
    pk = _fresh(sk.public_key)
    other = _fresh(pk)
    assert pk.is_precomputed is False
    assert pk.precompute() is pk and pk.is_precomputed is True
    assert pk == other and hash(pk) == hash(other) and repr(pk) == repr(other)
    assert pk.precompute() is pk  # again: nothing rebuilt, same table
    clone = pickle.loads(pickle.dumps(pk))
    assert clone == pk and not clone.is_precomputed  # the table is not pickled
    assert len(pickle.dumps(pk)) < 200
    with pytest.raises(TypeError, match="not pickled"):
        pickle.dumps(keys_module._build_table(pk, 7))
    sig = sk.sign(b"m")
    for w in (4, 5, 6, 7, 8):
        assert pk.precompute(window=w) is pk and pk.verify(sig, b"m")
        assert not pk.verify(sig, b"n")
    for bad in (3, 9, 0, -1):
        with pytest.raises(ValueError, match="window"):
            pk.precompute(window=bad)
    for bad in (7.0, "7", True, None):
        with pytest.raises(TypeError, match="window"):
            pk.precompute(window=bad)
    assert pk.is_precomputed  # a refused call keeps the table


def test_table_sizes():
    """The sizes docs/precompute.md states, and __sizeof__ counting the table."""
    pk = p256.PrivateKey.generate().public_key
    want = {4: 33296, 5: 53264, 6: 88080, 7: 151568, 8: 270352}
    for w, size in want.items():
        t = keys_module._build_table(pk, w)
        assert t.bits == w and t.nbytes == size and t.__sizeof__() > size
    assert _core.PUBTABLE_BITS == 7


def test_core_table_refuses_bad_input():
    """A table is built only from a key object (a validated point): bytes, even a valid
    point's, are refused, and so is a window outside 4..8; a precomputed key answers
    malformed signatures False and refuses a signature that is not bytes-like."""
    pk = p256.PrivateKey.generate().public_key
    for bad in (b"\x04" + bytes(64), b"", "04", pk.to_bytes()):
        with pytest.raises(TypeError):
            keys_module._build_table(bad, 7)
    for bad in (9, 3, 2**40, -(2**70)):
        with pytest.raises(ValueError, match="window"):
            keys_module._build_table(pk, bad)
    with pytest.raises(TypeError):
        _core.PublicTable(pk, 7)  # only a key makes its table
    t = p256.PublicKey.from_bytes(pk.to_bytes(compressed=True)).precompute()
    assert t._t.bits == 7 and t == pk
    assert t.verify_digest(b"", bytes(32), encoding="raw") is False
    assert t.verify_digest(b"\x30\x00", bytes(32)) is False
    with pytest.raises(TypeError):
        t.verify_digest("sig", bytes(32), encoding="raw")


def test_verify_many_mixes_plain_and_precomputed_keys():
    sks = [p256.PrivateKey.generate() for _ in range(3)]
    keys = [_fresh(sks[0].public_key).precompute(), _fresh(sks[1].public_key),
            _fresh(sks[2].public_key).precompute(window=4)]
    items, want = [], []
    for i in range(60):
        j = i % 3
        msg = b"m%d" % i
        sig = sks[j].sign(msg)
        if i % 4 == 0:
            msg += b"!"
        items.append((keys[j], sig, msg))
        want.append(i % 4 != 0)
    assert p256.verify_many(items) == want
    assert p256.verify_many(items, threads=2) == want


# ---- Threads -------------------------------------------------------------------------


def test_threads_build_one_table_and_never_see_half_of_one(monkeypatch):
    """8 threads verify through one key (good and bad signatures) while others call
    precompute() on it at the same time: every verdict right, exactly one table built."""
    real = keys_module._build_table
    built = []

    def counting(key, bits):
        built.append(bits)
        time.sleep(0.01)  # widen the window in which a second build could start
        return real(key, bits)

    monkeypatch.setattr(keys_module, "_build_table", counting)
    sk = p256.PrivateKey.generate()
    sigs = [(sk.sign(b"%d" % i), b"%d" % i) for i in range(20)]
    errors = []
    for _round in range(3):
        pk = _fresh(sk.public_key)
        start = threading.Barrier(12)
        stop = time.monotonic() + 0.5

        def verifier(seed):
            rng = random.Random(seed)
            start.wait()
            while time.monotonic() < stop:
                sig, msg = rng.choice(sigs)
                good = rng.random() < 0.5
                if pk.verify(sig, msg if good else msg + b"x") is not good:
                    errors.append((seed, msg, good))
                if rng.random() < 0.1 and p256.verify_many([(pk, sig, msg)]) != [True]:
                    errors.append((seed, "verify_many"))

        def builder():
            start.wait()
            assert pk.precompute() is pk

        threads = [threading.Thread(target=verifier, args=(i,)) for i in range(8)]
        threads += [threading.Thread(target=builder) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert pk.is_precomputed
    assert errors == []
    assert built == [7, 7, 7]  # one table per key, not one per precompute() call


def test_tables_are_freed_with_their_keys():
    """tracemalloc sees the table (PyMem_RawMalloc): 200 keys precomputed, used and dropped
    leave < 64 KiB behind; keeping them (the negative control) holds 200 tables."""
    import gc
    import tracemalloc

    sk = p256.PrivateKey.generate()
    sec1, sig = sk.public_key.to_bytes(), sk.sign(b"m")

    def churn(keep):
        for _ in range(200):
            pk = p256.PublicKey.from_bytes(sec1).precompute()
            assert pk.verify(sig, b"m") and p256.verify_many([(pk, sig, b"m")]) == [True]
            if keep is not None:
                keep.append(pk)

    kept = []
    tracemalloc.start()
    try:
        churn(None)  # warm-up
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        churn(None)
        gc.collect()
        dropped = tracemalloc.get_traced_memory()[0] - before
        churn(kept)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert dropped < 64 * 1024
    assert held > 200 * 150_000


# ---- PublicKeyCache ------------------------------------------------------------------


def test_public_key_cache_is_a_bounded_lru():
    sks = [p256.PrivateKey.generate() for _ in range(4)]
    cache = p256.PublicKeyCache(max_keys=2)
    assert cache.max_keys == 2 and len(cache) == 0
    a = cache.get(sks[0].public_key)
    assert a.is_precomputed and a == sks[0].public_key
    assert cache.get(sks[0].public_key.to_bytes(compressed=True)) is a  # by point
    assert cache.from_jwk(sks[0].public_key.to_jwk()) is a
    b = cache.get(sks[1].public_key)
    assert cache.get(sks[0].public_key) is a  # a is now the most recent
    cache.get(sks[2].public_key)  # evicts b, the least recent
    assert len(cache) == 2 and sks[0].public_key in cache and sks[1].public_key not in cache
    assert cache.get(sks[1].public_key) is not b  # rebuilt
    assert b"not a key" not in cache
    sig = sks[2].sign(b"m")
    assert cache.get(sks[2].public_key).verify(sig, b"m")
    cache.clear()
    assert len(cache) == 0
    assert p256.PublicKeyCache(window=4).get(sks[3].public_key)._t.bits == 4


def test_public_key_cache_errors():
    with pytest.raises(ValueError):
        p256.PublicKeyCache(max_keys=0)
    with pytest.raises(TypeError):
        p256.PublicKeyCache(max_keys=2.0)
    with pytest.raises(ValueError):
        p256.PublicKeyCache(window=9)
    with pytest.raises(TypeError):
        p256.PublicKeyCache(window="7")
    cache = p256.PublicKeyCache()
    with pytest.raises(ValueError):
        cache.get(b"\x04" + bytes(64))
    with pytest.raises(TypeError):
        cache.get("04" * 33)
    with pytest.raises(ValueError):
        cache.from_jwk({"kty": "EC", "crv": "P-384", "x": "", "y": ""})
    assert len(cache) == 0


def test_public_key_cache_membership_takes_what_get_takes():
    """`in` accepts every form `get` accepts (a PublicKey, its SEC1 encoding compressed or
    not, as any bytes-like object); anything else is False, never an exception; and it
    leaves the LRU order alone."""
    sk, other = p256.PrivateKey.generate(), p256.PrivateKey.generate()
    pk = sk.public_key
    cache = p256.PublicKeyCache(max_keys=2)
    forms = [pk, _fresh(pk), pk.to_bytes(), pk.to_bytes(compressed=True),
             bytearray(pk.to_bytes()), memoryview(pk.to_bytes(compressed=True))]
    assert not any(f in cache for f in forms)
    kept = cache.get(pk.to_bytes())
    assert all(f in cache for f in forms) and all(cache.get(f) is kept for f in forms)
    released = memoryview(pk.to_bytes())
    released.release()
    hybrid = bytes([6 + (pk.y & 1)]) + pk.to_bytes()[1:]
    not_keys = [other.public_key, other.public_key.to_bytes(compressed=True), b"", b"not a key",
                b"\x04" + bytes(64), pk.to_bytes()[:-1], hybrid, released, pk.to_bytes().hex(),
                7, None, 1.5, [pk], (pk,), {"kty": "EC"}]
    assert not any(x in cache for x in not_keys)
    cache.get(other.public_key)  # pk is now the least recently used ...
    assert pk.to_bytes() in cache  # ... and stays so
    cache.get(p256.PrivateKey.generate().public_key)
    assert pk not in cache and other.public_key in cache and len(cache) == 2


def test_public_key_cache_threads_share_one_build(monkeypatch):
    real = keys_module._build_table
    built = []

    def counting(key, bits):
        built.append(key)
        time.sleep(0.01)
        return real(key, bits)

    monkeypatch.setattr(keys_module, "_build_table", counting)
    sk = p256.PrivateKey.generate()
    sig = sk.sign(b"m")
    cache = p256.PublicKeyCache(max_keys=4)
    start = threading.Barrier(8)
    got, errors = [], []

    def worker():
        start.wait()
        k = cache.get(sk.public_key.to_bytes())
        got.append(k)
        if not k.verify(sig, b"m"):
            errors.append(k)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(built) == 1 and all(k is got[0] for k in got)
