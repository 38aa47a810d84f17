# SPDX-License-Identifier: Apache-2.0
"""Differential tests of the native core: against p256.reference and pyca/cryptography,
in both directions (their signatures verify here, ours verify there), on random inputs."""

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import p256
from p256 import reference as ref

ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.utils import (  # noqa: E402
    Prehashed,
    decode_dss_signature,
    encode_dss_signature,
)

N = ref.P256.n
C = ref.P256

scalars = st.one_of(
    st.integers(min_value=1, max_value=N - 1),
    st.integers(min_value=1, max_value=64),
    st.integers(min_value=N - 64, max_value=N - 1),
)
any32 = st.integers(min_value=0, max_value=2**256 - 1)
messages = st.binary(max_size=200)
digests = st.one_of(st.binary(max_size=80), st.binary(min_size=32, max_size=32))
CRYPTO_HASHES = {
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
    "sha3_256": hashes.SHA3_256,
    "sha3_384": hashes.SHA3_384,
    "sha3_512": hashes.SHA3_512,
}
hash_names = st.sampled_from(sorted(CRYPTO_HASHES))

settings.register_profile(
    "p256", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("p256")


def enc(pt):
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def crypto_key(d):
    return ec.derive_private_key(d, ec.SECP256R1())


@given(scalars)
def test_public_key_matches_reference_and_cryptography(d):
    sk = p256.PrivateKey.from_int(d)
    pk = sk.public_key
    assert pk.to_bytes() == enc(C.scalar_base_mult(d))
    theirs = crypto_key(d).public_key()
    assert pk.to_bytes() == theirs.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert pk.to_bytes(compressed=True) == theirs.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint
    )
    assert (pk.x, pk.y) == (theirs.public_numbers().x, theirs.public_numbers().y)
    assert p256.PublicKey.from_bytes(pk.to_bytes(compressed=True)) == pk


@given(scalars, messages, hash_names, st.booleans())
def test_our_signatures_verify_in_reference_and_cryptography(d, msg, hname, deterministic):
    sk = p256.PrivateKey.from_int(d)
    der = sk.sign(msg, hash=hname, deterministic=deterministic)
    raw = sk.sign(msg, hash=hname, encoding="raw", deterministic=deterministic)
    assert len(raw) == 64
    digest = hashlib.new(hname, msg).digest()
    r, s = decode_dss_signature(der)
    assert ref.ecdsa_verify(C, C.scalar_base_mult(d), digest, r, s)
    crypto_key(d).public_key().verify(der, msg, ec.ECDSA(CRYPTO_HASHES[hname]()))
    rr, ss = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    crypto_key(d).public_key().verify(
        encode_dss_signature(rr, ss), msg, ec.ECDSA(CRYPTO_HASHES[hname]())
    )
    if deterministic:
        assert (r, s) == (rr, ss)


@given(scalars, messages, hash_names)
def test_their_signatures_verify_here(d, msg, hname):
    sk = p256.PrivateKey.from_int(d)
    pk = sk.public_key
    der = crypto_key(d).sign(msg, ec.ECDSA(CRYPTO_HASHES[hname]()))
    assert pk.verify(der, msg, hash=hname)
    r, s = decode_dss_signature(der)
    raw = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    assert pk.verify(raw, msg, hash=hname, encoding="raw")
    assert not pk.verify(raw, msg + b"!", hash=hname, encoding="raw")
    # The reference with a random nonce, on a raw digest of any length.
    digest = hashlib.new(hname, msg).digest()
    r2, s2 = ref.ecdsa_sign(C, d, digest, k=(d * 7919 + len(msg)) % (N - 1) + 1)
    assert pk.verify_digest(r2.to_bytes(32, "big") + s2.to_bytes(32, "big"), digest, hash=hname, encoding="raw")


@given(scalars, st.sampled_from(["sha224", "sha256", "sha384", "sha512"]), messages)
def test_deterministic_equals_reference_rfc6979(d, hname, msg):
    digest = hashlib.new(hname, msg).digest()
    r, s = ref.ecdsa_sign(C, d, digest)  # k=None: RFC 6979 with the hash of this digest size
    raw = p256.PrivateKey.from_int(d).sign(msg, hash=hname, encoding="raw", deterministic=True)
    assert raw == r.to_bytes(32, "big") + s.to_bytes(32, "big")


@given(scalars, hash_names, messages)
def test_deterministic_equals_cryptography(d, hname, msg):
    try:
        algo = ec.ECDSA(CRYPTO_HASHES[hname](), deterministic_signing=True)
        theirs = crypto_key(d).sign(msg, algo)
    except Exception as exc:  # older OpenSSL without RFC 6979 support for this hash
        pytest.skip(f"cryptography cannot sign deterministically here: {exc}")
    ours = p256.PrivateKey.from_int(d).sign(msg, hash=hname, deterministic=True)
    assert ours == theirs


@given(scalars, st.sampled_from(["sha256", "sha384", "sha512"]), messages)
def test_deterministic_equals_cryptography_sha2(d, hname, msg):
    """RFC 6979 byte for byte against OpenSSL's, never skipped: the test extra requires a
    cryptography (>= 43) with deterministic_signing, so its absence is a failure."""
    algo = ec.ECDSA(CRYPTO_HASHES[hname](), deterministic_signing=True)
    theirs = crypto_key(d).sign(msg, algo)
    sk = p256.PrivateKey.from_int(d)
    assert sk.sign(msg, hash=hname, deterministic=True) == theirs
    r, s = decode_dss_signature(theirs)
    raw = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    assert sk.sign(msg, hash=hname, encoding="raw", deterministic=True) == raw
    if hname == "sha256":  # sign_digest's RFC 6979 uses SHA-256 too
        digest = hashlib.sha256(msg).digest()
        pre = ec.ECDSA(Prehashed(hashes.SHA256()), deterministic_signing=True)
        assert sk.sign_digest(digest, deterministic=True) == crypto_key(d).sign(digest, pre)


@given(scalars, scalars)
def test_ecdh_matches_reference_and_cryptography(d1, d2):
    a, b = p256.PrivateKey.from_int(d1), p256.PrivateKey.from_int(d2)
    shared = a.exchange(b.public_key)
    assert shared == b.exchange(a.public_key)
    assert shared == ref.ecdh(C, d1, C.scalar_base_mult(d2))
    theirs = crypto_key(d1).exchange(ec.ECDH(), crypto_key(d2).public_key())
    assert shared == theirs


@given(any32, scalars)
def test_scalar_mult_matches_reference(k, dq):
    q = C.scalar_base_mult(dq)
    kb = k.to_bytes(32, "big")
    if k % N == 0:
        with pytest.raises(ValueError):
            p256.scalar_mult(kb, enc(q))
        with pytest.raises(ValueError):
            p256.scalar_base_mult(kb)
        return
    assert p256.scalar_mult(kb, enc(q)) == enc(C.scalar_mult(q, k))
    assert p256.scalar_base_mult(kb) == enc(C.scalar_base_mult(k))
    compressed = p256.PublicKey.from_bytes(enc(q)).to_bytes(compressed=True)
    assert p256.scalar_mult(kb, compressed) == enc(C.scalar_mult(q, k))


@given(digests, scalars)
def test_sign_digest_any_length(digest, d):
    """hash=None: digests shorter than 32 bytes are used as is, longer ones truncated
    (FIPS 186-5); an empty one is refused."""
    sk = p256.PrivateKey.from_int(d)
    if not digest:
        with pytest.raises(ValueError, match="empty"):
            sk.sign_digest(digest, hash=None)
        with pytest.raises(ValueError, match="empty"):
            sk.public_key.verify_digest(bytes(64), digest, hash=None, encoding="raw")
        return
    raw = sk.sign_digest(digest, hash=None, encoding="raw")
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    assert ref.ecdsa_verify(C, C.scalar_base_mult(d), digest, r, s)
    assert sk.public_key.verify_digest(raw, digest, hash=None, encoding="raw")
    det = sk.sign_digest(digest, hash=None, encoding="raw", deterministic=True)
    r2, s2 = ref.ecdsa_sign(C, d, digest) if len(digest) in (28, 32, 48, 64) else (None, None)
    if len(digest) == 32:
        assert det == r2.to_bytes(32, "big") + s2.to_bytes(32, "big")
