# SPDX-License-Identifier: Apache-2.0
"""Tests of p256.reference: RFC 6979 vectors, group laws, scalar edge sweeps, validation, interop.

Scalar-multiplication results are compared with a deliberately naive oracle written here:
affine chord-and-tangent formulas (one inversion per operation) and right-to-left
double-and-add on the unreduced scalar, sharing no code with the module under test.
"""

from __future__ import annotations

import hashlib
import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p256 import reference as ref
from vectors_util import VECTORS, der_sig_decode, sec1_decode

CURVES = [ref.P224, ref.P256, ref.P384, ref.P521]
CURVE_IDS = [c.name for c in CURVES]
HYP = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# Independent slow oracle (affine, a = -3)
# ---------------------------------------------------------------------------------------------


def o_add(c, P, Q):
    if P is None:
        return Q
    if Q is None:
        return P
    p = c.p
    x1, y1 = P
    x2, y2 = Q
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return None
        lam = (3 * x1 * x1 - 3) * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return x3, (lam * (x1 - x3) - y1) % p


def o_mul(c, P, k):
    """k*P by right-to-left double-and-add over the integer k (no reduction mod n)."""
    R, A = None, P
    while k:
        if k & 1:
            R = o_add(c, R, A)
        A = o_add(c, A, A)
        k >>= 1
    return R


def neg(c, P):
    return None if P is None else (P[0], (-P[1]) % c.p)


def random_point(c, rng):
    return o_mul(c, c.g, rng.randrange(1, c.n))


# ---------------------------------------------------------------------------------------------
# Domain parameters
# ---------------------------------------------------------------------------------------------


def _probable_prime(m):
    if m < 2 or m % 2 == 0:
        return m == 2
    d, s = m - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        x = pow(a, d, m)
        if x in (1, m - 1):
            continue
        for _ in range(s - 1):
            x = x * x % m
            if x == m - 1:
                break
        else:
            return False
    return True


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_domain_parameters(c):
    bits = {"P-224": 224, "P-256": 256, "P-384": 384, "P-521": 521}[c.name]
    assert c.bit_size == bits == c.p.bit_length() == c.n.bit_length()
    assert c.byte_len == (bits + 7) // 8
    assert _probable_prime(c.p) and _probable_prime(c.n)
    assert c.a == c.p - 3
    assert c.g == (c.gx, c.gy) and c.is_on_curve(c.gx, c.gy)
    assert o_mul(c, c.g, c.n) is None  # prime order n, cofactor 1 (Hasse: n > p + 1 - 2 sqrt p)
    assert abs(c.p + 1 - c.n) <= 2 * math.isqrt(c.p) + 1
    assert ref.curve_by_name(c.name) is c
    assert (c.p % 4 == 1) == (c.name == "P-224")


# ---------------------------------------------------------------------------------------------
# RFC 6979
# ---------------------------------------------------------------------------------------------

with open(VECTORS / "rfc6979_p256.json", "rb") as _f:
    RFC6979 = json.load(_f)


def test_rfc6979_key():
    x = int(RFC6979["private_key"], 16)
    assert int(RFC6979["q"], 16) == ref.P256.n
    pub = (int(RFC6979["public_key"]["x"], 16), int(RFC6979["public_key"]["y"], 16))
    assert ref.P256.scalar_base_mult(x) == pub
    assert sec1_decode(ref.P256, bytes.fromhex(RFC6979["public_key"]["uncompressed"])) == pub


@pytest.mark.parametrize(
    "case", RFC6979["tests"], ids=[f"{t['message']}-{t['hash']}" for t in RFC6979["tests"]]
)
def test_rfc6979_vectors(case):
    c = ref.P256
    x = int(RFC6979["private_key"], 16)
    pub = (int(RFC6979["public_key"]["x"], 16), int(RFC6979["public_key"]["y"], 16))
    digest = hashlib.new(case["hash"], case["message"].encode()).digest()
    assert digest.hex() == case["digest"]
    k, r, s = (int(case[f], 16) for f in ("k", "r", "s"))
    assert ref.rfc6979_nonce(c, x, digest, case["hash"]) == k
    assert ref.ecdsa_sign(c, x, digest, k=k) == (r, s)
    if case["hash"] == "sha1":  # a 20-byte digest has no k=None hash rule
        with pytest.raises(ValueError):
            ref.ecdsa_sign(c, x, digest)
    else:
        assert ref.ecdsa_sign(c, x, digest) == (r, s)
    assert ref.ecdsa_verify(c, pub, digest, r, s)
    assert der_sig_decode(bytes.fromhex(case["sig_der"])) == (r, s)
    assert bytes.fromhex(case["sig_raw"]) == r.to_bytes(32, "big") + s.to_bytes(32, "big")


def test_rfc6979_a12_rejects_first_candidate():
    # RFC 6979 A.1.2: qlen = 163 (not a multiple of 8), SHA-256("sample"); the first candidate
    # 0x04982D23... is >= q and must be rejected by the step-h loop.  Only n matters for the
    # nonce, so a Curve object carrying that q is enough.
    q = 0x4000000000000000000020108A2E0CC0D99F8A5EF
    x = 0x09A4D6792295A7F730FC3F2B49CBC0F62E862272F
    toy = ref.Curve("toy-q163", p=ref.P256.p, n=q, b=ref.P256.b, gx=ref.P256.gx, gy=ref.P256.gy)
    h1 = hashlib.sha256(b"sample").digest()
    assert ref.rfc6979_nonce(toy, x, h1, "sha256") == 0x23AF4074C90A02B3FE61D286D5C87F425E6BDD81B


def test_rfc6979_continues_when_s_is_zero(monkeypatch):
    # Make the first RFC 6979 candidate give s == 0 (e = -r*d mod n) and check that ecdsa_sign
    # moves on to the next candidate instead of returning or raising.
    c = ref.P256
    d, k_bad, k_good = 0x1234567, 0xABCDEF, 0x7654321
    r_bad = c.scalar_base_mult(k_bad)[0] % c.n
    digest = (-r_bad * d % c.n).to_bytes(32, "big")
    with pytest.raises(ValueError):
        ref.ecdsa_sign(c, d, digest, k=k_bad)
    monkeypatch.setattr(ref, "_rfc6979_nonces", lambda *a: iter([k_bad, k_good]))
    assert ref.ecdsa_sign(c, d, digest) == ref.ecdsa_sign(c, d, digest, k=k_good)


def test_rfc6979_hash_rule():
    c, d = ref.P256, 7
    for size in (0, 20, 31, 33, 65):
        with pytest.raises(ValueError):
            ref.ecdsa_sign(c, d, b"\x01" * size)
        ref.ecdsa_sign(c, d, b"\x01" * size, k=5)  # explicit k: any digest length
    for size, name in ((28, "sha224"), (32, "sha256"), (48, "sha384"), (64, "sha512")):
        dg = bytes(range(size))
        k = ref.rfc6979_nonce(c, d, dg, name)
        assert ref.ecdsa_sign(c, d, dg) == ref.ecdsa_sign(c, d, dg, k=k)
    with pytest.raises(ValueError):
        ref.rfc6979_nonce(c, d, b"\x00" * 32, "md5")


# ---------------------------------------------------------------------------------------------
# Group law and scalar sweeps on every curve
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_group_law_special_cases(c):
    rng = random.Random(c.name)
    for P in (c.g, random_point(c, rng), random_point(c, rng)):
        two = o_add(c, P, P)
        assert c.add(P, P) == c.double(P) == c.scalar_mult(P, 2) == c.scalar_mult(P, c.n + 2) == two
        assert c.add(P, neg(c, P)) is None
        assert c.add(neg(c, P), P) is None
        assert c.add(P, None) == c.add(None, P) == P
        assert c.scalar_mult(P, c.n - 1) == neg(c, P)
        Q = random_point(c, rng)
        assert c.add(P, Q) == o_add(c, P, Q)
        assert c.add(two, neg(c, P)) == P  # result equals an operand's negation partner
    assert c.add(None, None) is None
    assert c.double(None) is None
    assert c.scalar_mult(None, 5) is None
    assert c.scalar_mult(None, 0) is None


def _sweep(c, P):
    """(k, k*P by the oracle) for 0, 2^i (i <= bit_size + 1), 2^bits - 1, n-32..n+32."""
    cases = [(0, None)]
    A = P
    for i in range(c.bit_size + 2):
        cases.append((1 << i, A))
        A = o_add(c, A, A)
    ones = (1 << c.bit_size) - 1
    cases.append((ones, o_mul(c, P, ones)))
    A = o_mul(c, P, c.n - 32)
    for k in range(c.n - 32, c.n + 33):
        cases.append((k, A))
        A = o_add(c, A, P)
    by_k = dict(cases)
    assert by_k[c.n] is None and by_k[c.n + 1] == P and by_k[c.n - 1] == neg(c, P)  # oracle sanity
    return cases


@pytest.mark.parametrize("which", ["base", "mult_G", "mult_random"])
@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_scalar_sweep(c, which):
    P = random_point(c, random.Random("sweep" + c.name)) if which == "mult_random" else c.g
    for k, want in _sweep(c, P):
        got = c.scalar_base_mult(k) if which == "base" else c.scalar_mult(P, k)
        assert got == want, f"{c.name} {which} k={k:#x}"


def _scalars(c):
    return st.integers(min_value=0, max_value=(1 << (c.bit_size + 8)) - 1) | st.sampled_from(
        [1, 2, 3, c.n - 1, c.n, c.n + 1, 2 * c.n, (1 << c.bit_size) - 1]
    )


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
@HYP
@given(data=st.data())
def test_base_mult_matches_generic(c, data):
    k = data.draw(_scalars(c))
    assert c.scalar_base_mult(k) == c.scalar_mult(c.g, k)


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
@HYP
@given(data=st.data())
def test_against_oracle(c, data):
    k = data.draw(st.integers(min_value=1, max_value=c.n - 1))
    j = data.draw(st.integers(min_value=0, max_value=(1 << c.bit_size) - 1))
    P = c.scalar_base_mult(k)
    assert P == o_mul(c, c.g, k)
    assert c.scalar_mult(P, j) == o_mul(c, P, j)


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
@HYP
@given(data=st.data())
def test_group_laws(c, data):
    ints = st.integers(min_value=1, max_value=c.n - 1)
    a, b, e = data.draw(ints), data.draw(ints), data.draw(ints)
    P, Q, R = c.scalar_base_mult(a), c.scalar_base_mult(b), c.scalar_base_mult(e)
    assert c.add(P, Q) == c.add(Q, P)
    assert c.add(c.add(P, Q), R) == c.add(P, c.add(Q, R))
    assert c.add(P, Q) == c.scalar_base_mult(a + b)
    assert c.scalar_mult(Q, a) == c.scalar_mult(P, b) == c.scalar_base_mult(a * b)
    assert c.add(c.scalar_mult(P, b), c.scalar_mult(P, e)) == c.scalar_mult(P, b + e)
    assert c.add(P, neg(c, P)) is None
    assert c.double(P) == c.add(P, P)


# ---------------------------------------------------------------------------------------------
# ECDSA / ECDH behaviour
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
@HYP
@given(data=st.data())
def test_sign_verify_roundtrip(c, data):
    d = data.draw(st.integers(min_value=1, max_value=c.n - 1))
    digest = data.draw(st.sampled_from([28, 32, 48, 64]).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
    Q = c.scalar_base_mult(d)
    r, s = ref.ecdsa_sign(c, d, digest)
    assert 1 <= r < c.n and 1 <= s < c.n
    assert ref.ecdsa_verify(c, Q, digest, r, s)
    assert ref.ecdsa_verify(c, Q, digest, r, c.n - s)  # ECDSA is malleable: (r, -s) also verifies
    assert not ref.ecdsa_verify(c, Q, digest, r, s % (c.n - 1) + 1)
    assert not ref.ecdsa_verify(c, Q, digest, r % (c.n - 1) + 1, s)
    # wrong key: 2Q (not -Q, which verifies when e == 0, nor Q + G, which is None for d = n - 1)
    assert not ref.ecdsa_verify(c, c.double(Q), digest, r, s)
    flipped = bytes([digest[0] ^ 0x80]) + digest[1:]
    assert not ref.ecdsa_verify(c, Q, flipped, r, s)


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_verify_range_checks(c):
    d = 12345
    Q = c.scalar_base_mult(d)
    digest = hashlib.sha256(b"range").digest()
    r, s = ref.ecdsa_sign(c, d, digest)
    for bad_r, bad_s in ((0, s), (r, 0), (c.n, s), (r, c.n), (r + c.n, s), (r, s + c.n), (-r, s), (r, -s)):
        assert ref.ecdsa_verify(c, Q, digest, bad_r, bad_s) is False


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_digest_truncation(c):
    # FIPS 186-5: only the leftmost bit_length(n) bits of the digest enter the computation.
    d, k = 0xC0FFEE, 0xBEEF
    long_digest = bytes(range(1, 81))  # 640 bits: longer than every n
    e = ref.bits2int(long_digest, c.n.bit_length())
    assert e == int.from_bytes(long_digest, "big") >> (640 - c.n.bit_length())
    same = (e << (8 * c.byte_len - c.n.bit_length())).to_bytes(c.byte_len, "big")
    assert ref.bits2int(same, c.n.bit_length()) == e
    sig = ref.ecdsa_sign(c, d, long_digest, k=k)
    assert sig == ref.ecdsa_sign(c, d, same, k=k)
    assert ref.ecdsa_verify(c, c.scalar_base_mult(d), same, *sig)
    short = b"\x01\x02"  # shorter digests are used as is
    assert ref.ecdsa_sign(c, d, short, k=k) == ref.ecdsa_sign(c, d, b"\x00" * 10 + short, k=k)


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_ecdh_agreement(c):
    rng = random.Random("ecdh" + c.name)
    a, b = rng.randrange(1, c.n), rng.randrange(1, c.n)
    A, B = c.scalar_base_mult(a), c.scalar_base_mult(b)
    z = ref.ecdh(c, a, B)
    assert z == ref.ecdh(c, b, A)
    assert len(z) == c.byte_len
    assert int.from_bytes(z, "big") == o_mul(c, c.g, a * b % c.n)[0]
    assert ref.ecdh(c, 1, B) == B[0].to_bytes(c.byte_len, "big")
    assert ref.ecdh(c, c.n - 1, B) == B[0].to_bytes(c.byte_len, "big")


def test_interop_cryptography():
    """Cross-check with pyca/cryptography (OpenSSL): keys, ECDH, ECDSA both ways, RFC 6979 on every curve."""
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric.utils import (
        Prehashed, decode_dss_signature, encode_dss_signature)

    ossl_curves = {"P-224": ec.SECP224R1(), "P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(),
                   "P-521": ec.SECP521R1()}
    algs = {"sha224": hashes.SHA224(), "sha256": hashes.SHA256(), "sha384": hashes.SHA384(),
            "sha512": hashes.SHA512()}
    import inspect
    # deterministic_signing appeared in cryptography 44; pyproject allows >= 41.
    has_det = "deterministic_signing" in inspect.signature(ec.ECDSA).parameters
    rng = random.Random("interop")
    for c in CURVES:
        for hname, alg in algs.items():
            d = rng.randrange(1, c.n)
            sk = ec.derive_private_key(d, ossl_curves[c.name])
            pn = sk.public_key().public_numbers()
            Q = c.scalar_base_mult(d)
            assert Q == (pn.x, pn.y)
            peer = ec.derive_private_key(rng.randrange(1, c.n), ossl_curves[c.name])
            ppn = peer.public_key().public_numbers()
            assert ref.ecdh(c, d, (ppn.x, ppn.y)) == sk.exchange(ec.ECDH(), peer.public_key())
            digest = hashlib.new(hname, rng.randbytes(20)).digest()
            r, s = ref.ecdsa_sign(c, d, digest)
            sk.public_key().verify(encode_dss_signature(r, s), digest, ec.ECDSA(Prehashed(alg)))
            theirs = sk.sign(digest, ec.ECDSA(Prehashed(alg)))
            assert ref.ecdsa_verify(c, Q, digest, *decode_dss_signature(theirs))
            if has_det:
                det = sk.sign(digest, ec.ECDSA(Prehashed(alg), deterministic_signing=True))
                assert decode_dss_signature(det) == (r, s), f"RFC 6979 mismatch on {c.name}/{hname}"
    if not has_det:
        pytest.skip("this cryptography has no deterministic_signing: RFC 6979 cross-check not run")


# ---------------------------------------------------------------------------------------------
# Argument validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_validation(c):
    G, n, p = c.g, c.n, c.p
    dg = b"\x11" * 32
    off = (G[0], (G[1] + 1) % p)
    bad_type_points = [[G[0], G[1]], (G[0],), (G[0], G[1], 1), (float(G[0]), G[1]), (G[0], str(G[1])),
                       (True, G[1]), (G[0], False), "G", 5]
    for P in bad_type_points:
        for f in (lambda P: c.add(P, G), lambda P: c.add(G, P), c.double, lambda P: c.scalar_mult(P, 3),
                  lambda P: ref.ecdsa_verify(c, P, dg, 1, 1), lambda P: ref.ecdh(c, 3, P)):
            with pytest.raises(TypeError):
                f(P)
    for P in (off, (G[0] + p, G[1]), (G[0], G[1] + p), (-1, G[1]), (0, 0)):
        for f in (lambda P: c.add(P, G), lambda P: c.add(G, P), c.double, lambda P: c.scalar_mult(P, 3),
                  lambda P: ref.ecdsa_verify(c, P, dg, 1, 1), lambda P: ref.ecdh(c, 3, P)):
            with pytest.raises(ValueError):
                f(P)
    # infinity is a group element but not a public key
    with pytest.raises(ValueError):
        ref.ecdsa_verify(c, None, dg, 1, 1)
    with pytest.raises(ValueError):
        ref.ecdh(c, 3, None)
    # scalars
    for k in (1.0, "1", True, False, None, b"\x01"):
        with pytest.raises(TypeError):
            c.scalar_mult(G, k)
        with pytest.raises(TypeError):
            c.scalar_base_mult(k)
        with pytest.raises(TypeError):
            ref.ecdh(c, k, G)
        with pytest.raises(TypeError):
            ref.ecdsa_verify(c, G, dg, k, 1)
        with pytest.raises(TypeError):
            ref.ecdsa_verify(c, G, dg, 1, k)
        if k is not None:
            with pytest.raises(TypeError):
                ref.ecdsa_sign(c, k, dg)
            with pytest.raises(TypeError):
                ref.ecdsa_sign(c, 1, dg, k=k)
    for k in (-1, -n):
        with pytest.raises(ValueError):
            c.scalar_mult(G, k)
        with pytest.raises(ValueError):
            c.scalar_base_mult(k)
    for d in (0, n, n + 1, -1):
        with pytest.raises(ValueError):
            ref.ecdsa_sign(c, d, dg)
        with pytest.raises(ValueError):
            ref.ecdh(c, d, G)
        with pytest.raises(ValueError):
            ref.ecdsa_sign(c, 1, dg, k=d)
        with pytest.raises(ValueError):
            ref.rfc6979_nonce(c, d, dg, "sha256")
    # digests and curves
    for bad in ("abc", 5, None, [1, 2]):
        with pytest.raises(TypeError):
            ref.ecdsa_sign(c, 1, bad)
        with pytest.raises(TypeError):
            ref.ecdsa_verify(c, G, bad, 1, 1)
    assert ref.ecdsa_sign(c, 1, bytearray(dg)) == ref.ecdsa_sign(c, 1, memoryview(dg))
    for f in (lambda: ref.ecdsa_sign("P-256", 1, dg), lambda: ref.ecdh(None, 1, G),
              lambda: ref.ecdsa_verify(object(), G, dg, 1, 1)):
        with pytest.raises(TypeError):
            f()
    with pytest.raises(TypeError):
        c.is_on_curve(1.0, 2)
    with pytest.raises(TypeError):
        c.is_on_curve(True, 2)
    assert c.is_on_curve(*G) and not c.is_on_curve(*off) and not c.is_on_curve(G[0] + p, G[1])
    # int subclasses other than bool are accepted
    class MyInt(int):
        pass
    assert c.scalar_mult((MyInt(G[0]), MyInt(G[1])), MyInt(2)) == c.double(G)


# ---------------------------------------------------------------------------------------------
# vectors_util helpers that other suites rely on
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", CURVES, ids=CURVE_IDS)
def test_sec1_decode(c):
    rng = random.Random("sec1" + c.name)
    L = c.byte_len
    for _ in range(8):
        x, y = c.scalar_base_mult(rng.randrange(1, c.n))
        X, Y = x.to_bytes(L, "big"), y.to_bytes(L, "big")
        assert sec1_decode(c, b"\x04" + X + Y) == (x, y)
        assert sec1_decode(c, bytes([2 + (y & 1)]) + X) == (x, y)  # Tonelli-Shanks on P-224
        assert sec1_decode(c, bytes([3 - (y & 1)]) + X) == (x, c.p - y)
        P_ = c.p.to_bytes(L, "big")
        for bad in (b"", b"\x00", b"\x04" + X + Y[:-1], b"\x04" + X, b"\x02" + X + b"\x00", b"\x02" + X[:-1],
                    b"\x06" + X + Y, b"\x07" + X + Y, b"\x05" + X, b"\x04" + X + ((y + 1) % c.p).to_bytes(L, "big"),
                    b"\x04" + P_ + Y, b"\x04" + X + P_, b"\x02" + P_, b"\x04" + b"\xff" * (2 * L)):
            with pytest.raises(ValueError):
                sec1_decode(c, bad)
    # compressed x whose x^3 - 3x + b is a quadratic non-residue: no point
    x = next(x for x in range(1, 1000) if pow((x ** 3 - 3 * x + c.b) % c.p, (c.p - 1) // 2, c.p) == c.p - 1)
    with pytest.raises(ValueError):
        sec1_decode(c, b"\x02" + x.to_bytes(L, "big"))
    with pytest.raises(ValueError):
        sec1_decode(c, b"\x03" + x.to_bytes(L, "big"))


def test_der_sig_decode_strict():
    good = bytes.fromhex("3006020101020102")
    assert der_sig_decode(good) == (1, 2)
    assert der_sig_decode(bytes.fromhex("3007020200ff020102")) == (255, 2)
    assert der_sig_decode(bytes.fromhex("3006020100020100")) == (0, 0)  # well-formed; range is the verifier's job
    big = 1 << 520
    body = (b"\x02\x42" + big.to_bytes(66, "big")) * 2  # 136 bytes: long form 0x81 is required
    long_form = b"\x30\x81" + bytes([len(body)]) + body
    assert der_sig_decode(long_form) == (big, big)
    assert der_sig_decode(b"\x30" + bytes([len(body)]) + body) is None  # 0x88: a long-form marker, bad
    assert der_sig_decode(b"\x30\x82\x00" + bytes([len(body)]) + body) is None
    for bad in (
        "", "30", "3000", "3006020101020102" + "00", "3080020101020102" + "0000",  # trailing / indefinite
        "308106020101020102",  # long form for a short length
        "30820006020101020102",  # long form with a leading zero
        "3007020101020102",  # length too long
        "3005020101020102",  # length too short
        "300702020001020102",  # non-minimal INTEGER
        "30060201ff020102",  # negative
        "3004020101",  # one INTEGER only
        "3009020101020102020103",  # three INTEGERs
        "3106020101020102",  # SET instead of SEQUENCE
        "3006030101020102",  # BIT STRING instead of INTEGER
        "30050200020102",  # empty INTEGER
    ):
        assert der_sig_decode(bytes.fromhex(bad)) is None, bad
    with pytest.raises(TypeError):
        der_sig_decode("3006020101020102")
