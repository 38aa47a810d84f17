# SPDX-License-Identifier: Apache-2.0
"""Public-key recovery (PublicKey.recover, recover_candidates, sign_recoverable) and the
low-s form (sign/verify low_s=, normalize_s), against python-ecdsa's
from_public_key_recovery_with_digest, against an independent computation on the pure-Python
reference, and on signatures built for the edge cases (R.x = r + n, s = n/2, Q at
infinity, r no point's x)."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p256
from p256 import reference as ref

ecdsa = pytest.importorskip("ecdsa")

N, P = p256.N, p256.P
HALF = N // 2
C = ref.P256
HASHES = ["sha256", "sha224", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
RNG = random.Random(0x15A6)  # reproducible: a failure names its case


def raw(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def der(r, s):
    def integer(v):
        b = v.to_bytes(v.bit_length() // 8 + 1, "big", signed=True)
        return bytes((2, len(b))) + b
    body = integer(r) + integer(s)
    return bytes((0x30, len(body))) + body


def rs(sig):
    return int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")


def ecdsa_candidates(sig, digest):
    """python-ecdsa's two keys (R.y even, then odd: recovery ids 0 and 1), SEC1."""
    keys = ecdsa.VerifyingKey.from_public_key_recovery_with_digest(
        sig, digest, ecdsa.NIST256p, allow_truncate=True)
    return [vk.to_string("uncompressed") for vk in keys]


def lift(x, odd):
    """(x, y) with y of this parity on the reference curve, or None."""
    y2 = (x * x * x - 3 * x + C.b) % P
    y = pow(y2, (P + 1) // 4, P)
    if y * y % P != y2:
        return None
    return (x, y if y & 1 == odd else P - y)


def ref_recover(r, s, digest, recovery_id):
    """Q = r^-1 (s*R - e*G) on the reference (independent of p256's own code)."""
    x = r + N if recovery_id & 2 else r
    if x >= P:
        return None
    big_r = lift(x, recovery_id & 1)
    if big_r is None:
        return None
    e = ref.bits2int(digest, 256) % N
    rinv = pow(r, -1, N)
    q = C.add(C.scalar_mult(big_r, s * rinv % N), C.scalar_base_mult(-e * rinv % N) if e else None)
    return None if q is None else b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")


def signed_with(d, k, s):
    """(r, s, digest) of a valid signature by d with nonce k and the chosen s: the
    32-byte digest is solved for, e = s*k - r*d mod n."""
    r = C.scalar_base_mult(k)[0] % N
    return r, s, ((s * k - r * d) % N).to_bytes(32, "big")


# ---------------------------------------------------------------------------------------
# Randomized: against python-ecdsa and the reference


@pytest.mark.parametrize("case", range(200))
def test_recover_matches_python_ecdsa(case):
    hash = HASHES[case % len(HASHES)]
    sk = p256.PrivateKey.generate()
    pk = sk.public_key
    msg = RNG.randbytes(RNG.randrange(0, 100))
    low_s = case % 3 == 0
    sig, rid = sk.sign_recoverable(msg, hash=hash, deterministic=case % 2 == 0, low_s=low_s)
    digest = hashlib.new(hash, msg).digest()
    r, s = rs(sig)
    assert not low_s or s <= HALF
    theirs = ecdsa_candidates(sig, digest)
    assert rid in (0, 1)  # r + n >= p for every signature a real key makes (2^-128)
    assert theirs[rid] == pk.to_bytes()
    ours = p256.PublicKey.recover_candidates(sig, digest, hash=hash)
    assert [q.to_bytes() for q in ours] == theirs
    for i in (0, 1):
        assert p256.PublicKey.recover(sig, digest, i, hash=hash).to_bytes() == theirs[i]
    for i in (2, 3):
        with pytest.raises(ValueError, match="r \\+ n"):
            p256.PublicKey.recover(sig, digest, i, hash=hash)


@pytest.mark.parametrize("case", range(40))
def test_recover_brute_force_over_ids_matches_reference(case):
    """Every recovery id: p256's key equals the reference's Q = r^-1(sR - eG), verifies,
    and recover_candidates is exactly the set of ids that give a key."""
    sk = p256.PrivateKey.generate()
    digest = RNG.randbytes(32)
    sig = sk.sign_digest(digest, encoding="der")
    r, s = p256._sig.decode(sig, False)
    found = []
    for i in range(4):
        expected = ref_recover(r, s, digest, i)
        if expected is None:
            with pytest.raises(ValueError, match="no public key"):
                p256.PublicKey.recover(sig, digest, i, encoding="der")
            continue
        q = p256.PublicKey.recover(sig, digest, i, encoding="der")
        assert q.to_bytes() == expected
        assert q.verify_digest(sig, digest) and ref.ecdsa_verify(C, (q.x, q.y), digest, r, s)
        found.append(q)
    assert sk.public_key in found
    assert p256.PublicKey.recover_candidates(sig, digest, encoding="der") == found
    # negative control: another digest gives other keys, none of them the signer's
    other = p256.PublicKey.recover_candidates(sig, bytes(32 - 1) + b"\x01", encoding="der")
    assert sk.public_key not in other


def test_sign_digest_recoverable_and_hash_none():
    sk = p256.PrivateKey.generate()
    for digest, hash in [(RNG.randbytes(20), None), (RNG.randbytes(64), None),
                         (RNG.randbytes(28), "sha224"), (RNG.randbytes(64), "sha512")]:
        sig, rid = sk.sign_digest_recoverable(digest, hash=hash, deterministic=True)
        assert sig == sk.sign_digest(digest, hash=hash, encoding="raw", deterministic=True)
        assert p256.PublicKey.recover(sig, digest, rid, hash=hash) == sk.public_key
        assert ecdsa_candidates(sig, digest)[rid] == sk.public_key.to_bytes()
    sig, rid = sk.sign_recoverable(b"m", encoding="der", deterministic=True)
    assert sig == sk.sign(b"m", deterministic=True)
    assert p256.PublicKey.recover(sig, hashlib.sha256(b"m").digest(), rid, encoding="der") \
        == sk.public_key


def test_low_s_flips_the_recovery_id():
    """Over many signatures some are high-s; low_s=True returns n - s and the other id."""
    sk = p256.PrivateKey.generate()
    flipped = 0
    for i in range(40):
        msg = b"%d" % i
        sig, rid = sk.sign_recoverable(msg, deterministic=True)
        low, low_rid = sk.sign_recoverable(msg, deterministic=True, low_s=True)
        r, s = rs(sig)
        if s > HALF:
            flipped += 1
            assert low == raw(r, N - s) and low_rid == rid ^ 1
        else:
            assert (low, low_rid) == (sig, rid)
        digest = hashlib.sha256(msg).digest()
        assert p256.PublicKey.recover(low, digest, low_rid) == sk.public_key
    assert 0 < flipped < 40


# ---------------------------------------------------------------------------------------
# Constructed edge cases


def _find(predicate, start=1):
    x = start
    while not predicate(x):
        x += 1
    return x


def test_recovery_ids_2_and_3_r_plus_n_below_p():
    """A signature whose R has x = r + n (r < p - n), built for a key chosen by the
    construction itself (Q = r^-1(sR - eG) for a random s, e); the reference verifies it
    under Q, python-ecdsa (which tries x = r only) finds the other keys."""
    # r such that both r and r + n are x coordinates: up to four candidates
    r = _find(lambda t: lift(t, 0) is not None and lift(t + N, 0) is not None)
    assert r + N < P
    for odd in (0, 1):
        big_r = lift(r + N, odd)
        s, e = RNG.randrange(1, N), RNG.randrange(1, N)
        digest = e.to_bytes(32, "big")
        rinv = pow(r, -1, N)
        q = C.add(C.scalar_mult(big_r, s * rinv % N), C.scalar_base_mult(-e * rinv % N))
        assert ref.ecdsa_verify(C, q, digest, r, s)
        sig = raw(r, s)
        pk = p256.PublicKey.from_xy(*q)
        assert pk.verify_digest(sig, digest, encoding="raw")
        assert p256.PublicKey.recover(sig, digest, 2 | odd) == pk
        keys = p256.PublicKey.recover_candidates(sig, digest)
        assert len(keys) == 4 and keys[2 | odd] == pk
        assert [k.to_bytes() for k in keys[:2]] == ecdsa_candidates(sig, digest)
        assert [k.to_bytes() for k in keys] == [ref_recover(r, s, digest, i) for i in range(4)]
        assert all(k.verify_digest(sig, digest, encoding="raw") for k in keys)


def test_r_that_is_no_x_coordinate():
    r = _find(lambda t: lift(t, 0) is None, start=P - N + 1)  # r + n >= p as well
    sig = raw(r, 1234567)
    assert p256.PublicKey.recover_candidates(sig, bytes(32)) == []
    for i in range(4):
        with pytest.raises(ValueError, match="no public key"):
            p256.PublicKey.recover(sig, bytes(32), i)


def test_candidate_at_infinity_is_skipped():
    """R = kG, e = s*k: s*R - e*G is infinity for R itself; -R still gives a key."""
    k = RNG.randrange(1, N)
    big_r = C.scalar_base_mult(k)
    r, s = big_r[0] % N, RNG.randrange(1, N)
    digest = (s * k % N).to_bytes(32, "big")
    sig = raw(r, s)
    rid = big_r[1] & 1 | (2 if big_r[0] >= N else 0)
    with pytest.raises(ValueError, match="infinity"):
        p256.PublicKey.recover(sig, digest, rid)
    keys = p256.PublicKey.recover_candidates(sig, digest)
    assert keys == [p256.PublicKey.recover(sig, digest, rid ^ 1)]
    q = (-2 * s * k * pow(r, -1, N)) % N  # r^-1(-sR - eG) = -2e/r G
    assert keys[0] == p256.PrivateKey.from_int(q).public_key


@pytest.mark.parametrize("e", [0, N, N + 1, 2**256 - 1])
def test_digest_edges(e):
    """e = 0 (no G term), e = n (reduces to 0), e >= n, all ones; sha512 truncation."""
    d = RNG.randrange(1, N)
    sk = p256.PrivateKey.from_int(d)
    digest = e.to_bytes(32, "big")
    for hash, dg in (("sha256", digest), ("sha512", digest + RNG.randbytes(32))):
        sig, rid = sk.sign_digest_recoverable(dg, hash=hash)
        assert p256.PublicKey.recover(sig, dg, rid, hash=hash) == sk.public_key
        assert ecdsa_candidates(sig, dg)[rid] == sk.public_key.to_bytes()


# ---------------------------------------------------------------------------------------
# low-s: sign, verify, normalize_s


def test_low_s_boundary():
    """s = n/2 (rounded down) is low, s = n/2 + 1 is high: built with a known key."""
    d, k = RNG.randrange(1, N), RNG.randrange(1, N)
    pk = p256.PrivateKey.from_int(d).public_key
    for s, is_low in ((HALF, True), (HALF + 1, False), (1, True), (N - 1, False)):
        r, s, digest = signed_with(d, k, s)
        for enc, sig in (("raw", raw(r, s)), ("der", der(r, s))):
            assert pk.verify_digest(sig, digest, encoding=enc)
            assert pk.verify_digest(sig, digest, encoding=enc, low_s=True) is is_low
            normal = p256.normalize_s(sig, encoding=enc)
            assert (normal == sig) is is_low
            assert pk.verify_digest(normal, digest, encoding=enc, low_s=True)


def test_sign_low_s_always_low_and_verify_low_s_rejects_the_twin():
    sk = p256.PrivateKey.generate()
    pk = sk.public_key
    high_seen = 0
    for i in range(60):
        msg = b"msg %d" % i
        plain = sk.sign(msg, encoding="raw")
        low = sk.sign(msg, encoding="raw", low_s=True)
        assert rs(low)[1] <= HALF and pk.verify(low, msg, encoding="raw", low_s=True)
        r, s = rs(plain)
        if s > HALF:  # the negative control: a high-s signature is valid, but not low
            high_seen += 1
            assert pk.verify(plain, msg, encoding="raw")
            assert not pk.verify(plain, msg, encoding="raw", low_s=True)
            assert pk.verify(raw(r, N - s), msg, encoding="raw", low_s=True)
    assert high_seen > 0


@pytest.mark.parametrize("hash", HASHES)
def test_low_s_deterministic_equals_normalized(hash):
    sk = p256.PrivateKey.generate()
    pk = sk.public_key
    for i in range(6):
        msg = b"x" * i
        digest = hashlib.new(hash, msg).digest()
        for enc in ("der", "raw"):
            want = p256.normalize_s(sk.sign(msg, hash=hash, encoding=enc, deterministic=True),
                                    encoding=enc)
            assert sk.sign(msg, hash=hash, encoding=enc, deterministic=True, low_s=True) == want
            assert sk.sign_digest(digest, hash=hash, encoding=enc, deterministic=True,
                                  low_s=True) == want
            assert pk.verify(want, msg, hash=hash, encoding=enc, low_s=True)
            assert pk.verify_digest(want, digest, hash=hash, encoding=enc, low_s=True)


def test_normalize_s_round_trips():
    sk = p256.PrivateKey.generate()
    for i in range(40):
        msg = b"n%d" % i
        d_sig = sk.sign(msg)
        r_sig = sk.sign(msg, encoding="raw")
        for enc, sig in (("der", d_sig), ("raw", r_sig)):
            once = p256.normalize_s(sig, encoding=enc)
            assert p256.normalize_s(once, encoding=enc) == once  # idempotent
            assert p256.normalize_s(bytearray(sig), encoding=enc) == once
            assert sk.public_key.verify(once, msg, encoding=enc, low_s=True)
        r, s = p256._sig.decode(d_sig, False)
        assert p256.normalize_s(d_sig) == der(r, min(s, N - s))
        # DER <-> raw agree after normalizing (the DER length may change with s)
        r2, s2 = rs(p256.normalize_s(raw(r, s), encoding="raw"))
        assert p256.normalize_s(d_sig) == der(r2, s2) and s2 == min(s, N - s)


def test_verify_many_style_cross_check_with_cryptography():
    """cryptography produces both forms; normalize_s makes them verify with low_s."""
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    pk = p256.PublicKey.from_cryptography(key.public_key())
    for i in range(20):
        msg = b"c%d" % i
        sig = key.sign(msg, ec.ECDSA(hashes.SHA256()))
        low = p256.normalize_s(sig)
        assert pk.verify(low, msg, low_s=True)
        key.public_key().verify(low, msg, ec.ECDSA(hashes.SHA256()))  # raises if invalid
        assert pk.verify(sig, msg, low_s=True) is (low == sig)


# ---------------------------------------------------------------------------------------
# Bad input


@pytest.fixture(scope="module")
def signed():
    sk = p256.PrivateKey.generate()
    digest = hashlib.sha256(b"m").digest()
    sig, rid = sk.sign_recoverable(b"m")
    return sk, digest, sig, rid


@pytest.mark.parametrize("rid, exc", [(True, TypeError), (False, TypeError), ("0", TypeError),
                                      (0.0, TypeError), (None, TypeError), (-1, ValueError),
                                      (4, ValueError), (2**70, ValueError)])
def test_recover_bad_recovery_id(signed, rid, exc):
    _, digest, sig, _ = signed
    with pytest.raises(exc, match="recovery_id"):
        p256.PublicKey.recover(sig, digest, rid)


def test_recover_bad_signatures(signed):
    _, digest, sig, rid = signed
    r, s = rs(sig)
    for bad, match in [(raw(0, s), "r is not in"), (raw(r, 0), "s is not in"),
                       (raw(N, s), "r is not in"), (raw(r, N), "s is not in"),
                       (sig[:63], "64 bytes"), (sig + b"\0", "64 bytes"), (b"", "64 bytes")]:
        with pytest.raises(ValueError, match=match):
            p256.PublicKey.recover(bad, digest, rid)
        with pytest.raises(ValueError, match=match):
            p256.PublicKey.recover_candidates(bad, digest)
        with pytest.raises(ValueError, match=match):
            p256.normalize_s(bad, encoding="raw")
    good = der(r, s)
    assert p256.PublicKey.recover(good, digest, rid, encoding="der") == signed[0].public_key
    for bad in [good[:-1], good + b"\0", b"\x31" + good[1:], der(-r, s), sig,
                b"\x30\x81" + bytes((len(good) - 2,)) + good[2:]]:
        with pytest.raises(ValueError):
            p256.PublicKey.recover(bad, digest, rid, encoding="der")
        with pytest.raises(ValueError):
            p256.normalize_s(bad)
    for fn in (lambda: p256.PublicKey.recover("ab" * 32, digest, rid),
               lambda: p256.PublicKey.recover(sig, "ab" * 16, rid),
               lambda: p256.PublicKey.recover_candidates(sig, 7),
               lambda: p256.normalize_s(sig.hex(), encoding="raw"),
               lambda: p256.normalize_s(sig, encoding=b"raw"),
               lambda: p256.PublicKey.recover(sig, digest, rid, hash=256)):
        with pytest.raises(TypeError):
            fn()
    for fn, match in ((lambda: p256.PublicKey.recover(sig, digest[:20], rid), "32 bytes"),
                      (lambda: p256.PublicKey.recover(sig, b"", rid, hash=None), "empty"),
                      (lambda: p256.PublicKey.recover(sig, digest, rid, hash="md5"), "unknown hash"),
                      (lambda: p256.PublicKey.recover(sig, digest, rid, encoding="p1363"),
                       "unknown encoding"),
                      (lambda: p256.normalize_s(sig, encoding="DER"), "unknown encoding")):
        with pytest.raises(ValueError, match=match):
            fn()


def test_low_s_flag_must_be_bool(signed):
    sk, digest, sig, _ = signed
    pk = sk.public_key
    for bad in (1, 0, "yes", None):
        with pytest.raises(TypeError, match="low_s"):
            sk.sign(b"m", low_s=bad)
        with pytest.raises(TypeError, match="low_s"):
            sk.sign_digest(digest, low_s=bad)
        with pytest.raises(TypeError, match="low_s"):
            sk.sign_recoverable(b"m", low_s=bad)
        with pytest.raises(TypeError, match="low_s"):
            sk.sign_digest_recoverable(digest, low_s=bad)
        # refused before the signature is looked at, valid or not
        for s in (sig, b"junk"):
            with pytest.raises(TypeError, match="low_s"):
                pk.verify(s, b"m", encoding="raw", low_s=bad)
            with pytest.raises(TypeError, match="low_s"):
                pk.verify_digest(s, digest, encoding="raw", low_s=bad)
    with pytest.raises(TypeError, match="deterministic"):
        sk.sign_recoverable(b"m", deterministic=1)


def test_verify_low_s_false_for_invalid_signatures(signed):
    sk, digest, sig, _ = signed
    pk = sk.public_key
    for bad in (b"", b"\x30\x00", sig[:-1], raw(0, 1), bytes(64)):
        assert pk.verify(bad, b"m", encoding="raw", low_s=True) is False
        assert pk.verify(bad, b"m", low_s=True) is False
        assert pk.verify_digest(bad, digest, low_s=True) is False


def test_every_candidate_is_checked_by_verify(signed, monkeypatch):
    """A key the core's recovery does not verify (P256_RECOVER_UNVERIFIED; the C harness
    tests/c/test_recover.c plants a wrong multiplication to see the core's check catch
    it) is dropped by recover_candidates and refused by recover with its message."""
    _, digest, sig, rid = signed
    monkeypatch.setattr(p256.PublicKey, "_recover", classmethod(lambda cls, rs, d, i: 4))
    assert p256.PublicKey.recover_candidates(sig, digest) == []
    with pytest.raises(ValueError, match="does not verify"):
        p256.PublicKey.recover(sig, digest, rid)


# ---------------------------------------------------------------------------------------
# Arbitrary input: only ValueError/TypeError, and whatever is returned is right

def _near_signature():
    """Bytes around the signature shapes: random, raw-sized, DER-shaped with small r/s."""
    ints = st.one_of(st.integers(0, 2**16), st.integers(N - 2**8, N + 2**8),
                     st.integers(0, 2**256 - 1), st.integers(-2**8, -1))
    der_like = st.builds(lambda r, s: der(r, s), ints, ints)
    raw_like = st.builds(lambda r, s: raw(r % 2**256, s % 2**256), ints, ints)
    return st.one_of(st.binary(max_size=80), der_like, raw_like,
                     der_like.flatmap(lambda b: st.integers(0, len(b)).map(lambda i: b[:i])))


@settings(max_examples=300, deadline=None)
@given(sig=_near_signature(), digest=st.binary(min_size=1, max_size=64),
       recovery_id=st.integers(0, 3), encoding=st.sampled_from(["der", "raw"]))
def test_arbitrary_input_raises_only_value_error(sig, digest, recovery_id, encoding):
    try:
        q = p256.PublicKey.recover(sig, digest, recovery_id, hash=None, encoding=encoding)
    except ValueError as e:
        assert str(e)
    else:
        assert q.verify_digest(sig, digest, hash=None, encoding=encoding)
    try:
        keys = p256.PublicKey.recover_candidates(sig, digest, hash=None, encoding=encoding)
    except ValueError:
        keys = None
    else:
        assert all(k.verify_digest(sig, digest, hash=None, encoding=encoding) for k in keys)
    try:
        low = p256.normalize_s(sig, encoding=encoding)
    except ValueError as e:
        assert str(e) and keys is None  # the same signatures are malformed for both
    else:
        assert keys is not None
        r, s = p256._sig.decode(low, encoding == "raw")
        assert s <= HALF and low == p256.normalize_s(low, encoding=encoding)
        assert (low == sig) is (p256._sig.decode(sig, encoding == "raw")[1] <= HALF)


def test_encoding_mixups_are_named(signed):
    sk, digest, sig, rid = signed
    der_sig = sk.sign_digest(digest)
    with pytest.raises(ValueError, match='looks like DER: encoding="der"'):
        p256.PublicKey.recover(der_sig, digest, rid)
    with pytest.raises(ValueError, match='a raw r\\|\\|s signature\\? encoding="raw"'):
        p256.normalize_s(sig)
    with pytest.raises(ValueError, match="malformed DER signature"):
        p256.normalize_s(sig[:63])
