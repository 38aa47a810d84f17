# SPDX-License-Identifier: Apache-2.0
"""The API contract's digest rules: digests checked against their hash, RFC 6979 per hash equal to
pyca/cryptography's, hash=None as the explicit opt-in, bool flags, and error texts that
name the argument and what came."""

import hashlib

import pytest

import p256
from p256 import reference as ref

ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed  # noqa: E402

N, P = p256.N, p256.P
SIZES = {"sha224": 28, "sha256": 32, "sha384": 48, "sha512": 64,
         "sha3_256": 32, "sha3_384": 48, "sha3_512": 64}
CRYPTO = {"sha224": hashes.SHA224, "sha256": hashes.SHA256, "sha384": hashes.SHA384,
          "sha512": hashes.SHA512, "sha3_256": hashes.SHA3_256, "sha3_384": hashes.SHA3_384,
          "sha3_512": hashes.SHA3_512}
SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
MSG = b"p256 digest rules"


def test_every_hash_is_covered():
    assert set(SIZES) == set(p256._common.HASHES) == set(CRYPTO)


@pytest.mark.parametrize("hname", sorted(SIZES))
def test_digest_length_must_fit_the_hash(hname):
    size = SIZES[hname]
    good = hashlib.new(hname, MSG).digest()
    assert len(good) == size
    sig = SK.sign_digest(good, hash=hname)
    assert PK.verify_digest(sig, good, hash=hname)
    assert PK.verify(sig, MSG, hash=hname)
    for n in {0, 20, 28, 32, 48, 64, 65} - {size}:
        digest = good[:n] if n <= size else good + bytes(n - size)
        for call in (lambda: SK.sign_digest(digest, hash=hname),
                     lambda: PK.verify_digest(sig, digest, hash=hname),
                     lambda: SK.sign_digest(bytearray(digest), hash=hname, deterministic=True)):
            with pytest.raises(ValueError) as info:
                call()
            text = str(info.value)
            assert "%d bytes for hash=%r" % (size, hname) in text and "got %d" % n in text, text
    # bytearray and memoryview of the right size are digests too
    assert PK.verify_digest(sig, bytearray(good), hash=hname)
    assert PK.verify_digest(sig, memoryview(good), hash=hname)


@pytest.mark.parametrize("hname", sorted(CRYPTO))
@pytest.mark.parametrize("d", [1, 0xC0FFEE, N - 1, 0x1D4E5F60718293A4B5C6D7E8F9])
def test_deterministic_sign_digest_equals_cryptography_prehashed(hname, d):
    """RFC 6979 with HMAC of the digest's hash, byte for byte what cryptography's
    ECDSA(Prehashed(H), deterministic_signing=True) gives (OpenSSL), for every hash."""
    key = ec.derive_private_key(d, ec.SECP256R1())
    digest = hashlib.new(hname, MSG).digest()
    try:
        theirs = key.sign(digest, ec.ECDSA(Prehashed(CRYPTO[hname]()), deterministic_signing=True))
    except Exception as exc:  # an OpenSSL without this hash for RFC 6979
        pytest.skip("cryptography cannot sign deterministically with %s: %s" % (hname, exc))
    sk = p256.PrivateKey.from_int(d)
    assert sk.sign_digest(digest, hash=hname, deterministic=True) == theirs
    assert sk.sign(MSG, hash=hname, deterministic=True) == theirs


def test_the_truncation_trap_is_an_explicit_opt_in():
    """A 42-byte "digest" used to be signed as its first 32 bytes: a signature of
    "...pay alice" verified for "...pay mallory". The length check stops it; hash=None
    keeps FIPS 186-5 truncation for those who ask, and there the trap is real, which is
    why it must be asked for."""
    alice, mallory = b"A" * 32 + b" pay alice", b"A" * 32 + b" pay mallory"
    with pytest.raises(ValueError, match="32 bytes for hash='sha256'"):
        SK.sign_digest(alice)
    sig = SK.sign_digest(alice[:32])
    with pytest.raises(ValueError, match="got 44"):
        PK.verify_digest(sig, mallory)
    opted = SK.sign_digest(alice, hash=None)
    assert PK.verify_digest(opted, mallory, hash=None) is True  # the documented trap


def test_hash_none_takes_any_non_empty_digest():
    for n in (1, 20, 31, 32, 33, 48, 64, 100):
        digest = bytes(range(1, n + 1))
        sig = SK.sign_digest(digest, hash=None, encoding="raw")
        r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
        assert ref.ecdsa_verify(ref.P256, (PK.x, PK.y), digest, r, s)
        assert PK.verify_digest(sig, digest, hash=None, encoding="raw")
    d32 = hashlib.sha256(MSG).digest()  # nonce: HMAC-SHA-256, as for hash="sha256"
    assert SK.sign_digest(d32, hash=None, deterministic=True) == \
        SK.sign_digest(d32, deterministic=True)
    d48 = hashlib.sha384(MSG).digest()  # ... not HMAC of the hash p256 was not told
    assert SK.sign_digest(d48, hash=None, deterministic=True) != \
        SK.sign_digest(d48, hash="sha384", deterministic=True)
    for call in (lambda: SK.sign_digest(b"", hash=None),
                 lambda: PK.verify_digest(b"\x30\x00", b"", hash=None)):
        with pytest.raises(ValueError, match="empty"):
            call()


@pytest.mark.parametrize("kw,exc,fragment", [
    ({"hash": "md5"}, ValueError, "unknown hash 'md5'"),
    ({"hash": "SHA256"}, ValueError, "unknown hash"),
    ({"hash": 256}, TypeError, "hash must be a str or None"),
    ({"encoding": "pem"}, ValueError, "unknown encoding"),
    ({"encoding": None}, TypeError, "encoding must be a str"),
])
def test_digest_names(kw, exc, fragment):
    d = bytes(32)
    with pytest.raises(exc, match=fragment):
        SK.sign_digest(d, **kw)
    with pytest.raises(exc, match=fragment):
        PK.verify_digest(b"", d, **kw)


@pytest.mark.parametrize("bad", ["yes", 1, 0, None, 1.0, [], "False"])
def test_flags_must_be_bool(bad):
    for call in (lambda: SK.sign(MSG, deterministic=bad),
                 lambda: SK.sign_digest(bytes(32), deterministic=bad)):
        with pytest.raises(TypeError, match="deterministic must be True or False, not %s"
                           % type(bad).__name__):
            call()
    for call in (lambda: PK.to_bytes(bad), lambda: PK.to_bytes(compressed=bad),
                 lambda: PK.to_der(bad), lambda: PK.to_pem(compressed=bad)):
        with pytest.raises(TypeError, match="compressed must be True or False"):
            call()


def test_flags_as_bools_work():
    assert SK.sign(MSG, deterministic=True) == SK.sign(MSG, deterministic=True)
    assert SK.sign(MSG, deterministic=False) != SK.sign(MSG, deterministic=False)
    assert len(PK.to_bytes(True)) == 33 and len(PK.to_bytes(False)) == 65


@pytest.mark.parametrize("bad", ["text", 5, None, ["x"]])
def test_message_type_errors_name_msg(bad):
    sig = SK.sign(MSG)
    for call in (lambda: SK.sign(bad), lambda: PK.verify(sig, bad)):
        with pytest.raises(TypeError) as info:
            call()
        text = str(info.value)
        assert text.startswith("msg must be bytes") and type(bad).__name__ in text, text
        assert "Strings must be encoded" not in text
    with pytest.raises(TypeError, match="digest must be bytes"):
        SK.sign_digest(bad)
    with pytest.raises(TypeError, match="digest must be bytes"):
        PK.verify_digest(sig, bad)


G = ref.P256.scalar_base_mult(1)
XB, YB = G[0].to_bytes(32, "big"), G[1].to_bytes(32, "big")
PB = P.to_bytes(32, "big")


def _no_sqrt_x():
    for x in range(1, 200):
        if pow((x**3 - 3 * x + ref.P256.b) % P, (P - 1) // 2, P) != 1:
            return x.to_bytes(32, "big")


@pytest.mark.parametrize("data,fragment", [
    (b"\x04" * 10, "got 10 bytes"),
    (b"", "got 0 bytes"),
    (b"\x04" + XB, "got 33 bytes starting with 0x04"),
    (b"\x06" + XB + YB, "hybrid SEC1 encoding (prefix 0x06)"),
    (b"\x07" + XB + YB, "hybrid SEC1 encoding (prefix 0x07)"),
    (b"\x04" + PB + YB, "coordinate x >= p"),
    (b"\x04" + XB + PB, "coordinate y >= p"),
    (b"\x04" + XB + ((G[1] + 1) % P).to_bytes(32, "big"), "not on the curve"),
    (b"\x04" + bytes(64), "not on the curve"),
    (b"\x02" + PB, "coordinate x >= p"),
    (b"\x03" + _no_sqrt_x(), "no point of the curve has this x"),
    (b"\x00", "point at infinity"),
])
def test_point_errors_have_their_own_message(data, fragment):
    with pytest.raises(ValueError) as info:
        p256.PublicKey.from_bytes(data)
    assert fragment in str(info.value), str(info.value)
    if fragment == "not on the curve":  # not the old "coordinate >= p or not on the curve"
        assert ">= p" not in str(info.value)
    if len(data) == 65:  # inside a format: the same reason
        spki = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + data
        with pytest.raises(ValueError) as info:
            p256.PublicKey.from_der(spki)
        assert "invalid public key in the SubjectPublicKeyInfo" in str(info.value)
        assert fragment in str(info.value), str(info.value)


def test_hybrid_off_curve_is_named_hybrid_not_off_curve():
    # the hybrid prefix wins whatever the coordinates
    with pytest.raises(ValueError, match="hybrid"):
        p256.PublicKey.from_bytes(b"\x06" + bytes(64))


def test_to_int_and_from_xy():
    for d in (1, 2, 0xC0FFEE, N - 1):
        sk = p256.PrivateKey.from_int(d)
        assert sk.to_int() == d and type(sk.to_int()) is int
        pk = sk.public_key
        assert p256.PublicKey.from_xy(pk.x, pk.y) == pk
    x, y = G
    for bad, exc, fragment in [((x, (y + 1) % P), ValueError, "not on the curve"),
                               ((P, y), ValueError, "coordinate x >= p"),
                               ((x, -1), ValueError, "coordinate y < 0"),
                               ((0, 0), ValueError, "not on the curve"),
                               ((True, y), TypeError, "x must be an int"),
                               ((x, float(y)), TypeError, "y must be an int"),
                               ((XB, y), TypeError, "x must be an int")]:
        with pytest.raises(exc, match=fragment):
            p256.PublicKey.from_xy(*bad)


def test_verify_many_names_a_short_or_long_tuple():
    good = (PK, SK.sign(MSG), MSG)
    for bad, n in (((PK, good[1]), 2), (good + (b"",), 4), ((PK,), 1)):
        with pytest.raises(TypeError) as info:
            p256.verify_many([good, bad])
        text = str(info.value)
        assert "items[1]" in text and "triple" in text and "got a tuple of %d item" % n in text, text
    with pytest.raises(TypeError, match=r"items\[0\].*got a list of 2 items"):
        p256.verify_many(iter([[PK, good[1]]]))
    with pytest.raises(TypeError, match=r"items\[0\]\[0\] must be a PublicKey"):
        p256.verify_many([(None, b"", b""), (PK, b"")])  # the first problem is the one named
