# SPDX-License-Identifier: Apache-2.0
"""The public API's contract (API.md): types, errors, encodings, bad input; the digest
rules (digests checked against their hash, RFC 6979 per hash equal to pyca/cryptography's
and to RFC 6979's own vectors, hash=None as the explicit opt-in), bool flags, and error
texts that name the argument and what came."""

import copy
import hashlib
import json
import pickle
import pydoc

import pytest

import p256
from p256 import reference as ref
from vectors_util import VECTORS

N, P = p256.N, p256.P
G = ref.P256.scalar_base_mult(1)
G_BYTES = b"\x04" + G[0].to_bytes(32, "big") + G[1].to_bytes(32, "big")


def test_constants():
    assert (N, P) == (ref.P256.n, ref.P256.p)


# -- PrivateKey ---------------------------------------------------------------------------


def test_generate_gives_distinct_valid_keys():
    keys = {p256.PrivateKey.generate().to_bytes() for _ in range(50)}
    assert len(keys) == 50
    assert all(1 <= int.from_bytes(k, "big") < N for k in keys)


@pytest.mark.parametrize("d", [0, N, N + 1, 2**256 - 1])
def test_private_key_out_of_range(d):
    with pytest.raises(ValueError):
        p256.PrivateKey.from_bytes(d.to_bytes(32, "big"))
    with pytest.raises(ValueError):
        p256.PrivateKey.from_int(d)


@pytest.mark.parametrize("d", [1, 2, N - 1])
def test_private_key_round_trip(d):
    b = d.to_bytes(32, "big")
    assert p256.PrivateKey.from_bytes(b).to_bytes() == b
    assert p256.PrivateKey.from_bytes(bytearray(b)).to_bytes() == b
    assert p256.PrivateKey.from_bytes(memoryview(b)).to_bytes() == b
    assert p256.PrivateKey.from_int(d).to_bytes() == b


@pytest.mark.parametrize("data", [b"", b"\x01" * 31, b"\x01" * 33])
def test_private_key_wrong_length(data):
    with pytest.raises(ValueError, match="32 bytes"):
        p256.PrivateKey.from_bytes(data)


@pytest.mark.parametrize("bad", ["00" * 32, 1, None, 1.0])
def test_private_key_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PrivateKey.from_bytes(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "1", b"\x01"])
def test_private_key_from_int_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PrivateKey.from_int(bad)


def test_private_key_hides_secret():
    sk = p256.PrivateKey.from_int(0x1234567890ABCDEF)
    assert "1234567890" not in repr(sk).lower() and "90abcdef" not in repr(sk).lower()
    assert "1234567890abcdef" not in p256._core.SecretKey.__repr__(sk).lower()
    for dump in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError):
            dump(sk)
    with pytest.raises(TypeError):  # the native object alone, too
        pickle.dumps(p256._core.SecretKey._load(sk.to_bytes()))
    with pytest.raises(TypeError):
        p256.PrivateKey()


def test_help_on_private_key_says_how_to_get_one():
    # help(p256.PrivateKey) shows the constructor's signature: the class and the
    # constructor's docstrings say that it raises and which class methods make keys.
    text = pydoc.render_doc(p256.PrivateKey, renderer=pydoc.plaintext)
    for name in ("generate", "from_bytes", "from_int", "from_pem", "from_der", "from_jwk"):
        assert name in p256.PrivateKey.__doc__, name
    assert "raises" in p256.PrivateKey.__doc__
    assert "TypeError" in p256.PrivateKey.__init__.__doc__
    assert "Not a constructor" in text
    with pytest.raises(TypeError, match=r"use PrivateKey\.generate\(\), PrivateKey\.from_bytes"
                                        r"\(\) or PrivateKey\.from_int\(\)"):
        p256.PrivateKey(b"\x01" * 32)
    # from_cose points to the public documentation, not to a private module.
    assert "p256._cose" not in p256.PublicKey.from_cose.__doc__
    assert "Integrations" in p256.PublicKey.from_cose.__doc__


def test_public_key_is_cached_and_correct():
    sk = p256.PrivateKey.from_int(1)
    assert sk.public_key is sk.public_key
    assert sk.public_key.to_bytes() == G_BYTES


# -- PublicKey ----------------------------------------------------------------------------


def test_public_key_round_trips():
    pk = p256.PublicKey.from_bytes(G_BYTES)
    assert (pk.x, pk.y) == G
    assert pk.to_bytes() == G_BYTES
    c = pk.to_bytes(compressed=True)
    assert len(c) == 33 and c[0] == 2 + (G[1] & 1)
    assert p256.PublicKey.from_bytes(c) == pk
    assert hash(p256.PublicKey.from_bytes(c)) == hash(pk)
    assert p256.PublicKey.from_bytes(bytearray(G_BYTES)) == pk
    assert pk != p256.PrivateKey.from_int(2).public_key
    assert pk != G_BYTES
    assert eval(repr(pk), {"p256": p256}) == pk
    with pytest.raises(TypeError):
        p256.PublicKey()


def _bad_points():
    x, y = G
    xb, yb = x.to_bytes(32, "big"), y.to_bytes(32, "big")
    p_bytes = P.to_bytes(32, "big")
    yield "infinity", b"\x00"
    yield "empty", b""
    yield "short", G_BYTES[:-1]
    yield "long", G_BYTES + b"\x00"
    yield "prefix 05", b"\x05" + xb + yb
    yield "hybrid 06", b"\x06" + xb + yb
    yield "hybrid 07", b"\x07" + xb + yb
    yield "compressed with 04", b"\x04" + xb
    yield "uncompressed with 02", b"\x02" + xb + yb
    yield "x >= p", b"\x04" + p_bytes + yb
    yield "y >= p", b"\x04" + xb + p_bytes
    yield "y + p (fits 32 bytes? no: x + p)", b"\x04" + (x + P).to_bytes(33, "big")[1:] + yb
    yield "off curve", b"\x04" + xb + ((y + 1) % P).to_bytes(32, "big")
    yield "zero point", b"\x04" + bytes(64)
    yield "compressed x >= p", b"\x02" + p_bytes
    # x = 0 has no point on P-256? find an x without a square root deterministically
    for cand in range(1, 200):
        rhs = (cand**3 - 3 * cand + ref.P256.b) % P
        if pow(rhs, (P - 1) // 2, P) != 1:
            yield "compressed no sqrt", b"\x03" + cand.to_bytes(32, "big")
            break


@pytest.mark.parametrize("name,data", list(_bad_points()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_key_rejects(name, data):
    with pytest.raises(ValueError):
        p256.PublicKey.from_bytes(data)
    with pytest.raises(ValueError):
        p256.scalar_mult(b"\x01" * 32, data)


@pytest.mark.parametrize("bad", [None, "04" * 65, 5, [4] * 65])
def test_public_key_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PublicKey.from_bytes(bad)


# -- ECDSA --------------------------------------------------------------------------------

SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
MSG = b"p256 test message"


@pytest.mark.parametrize("hname", ["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"])
@pytest.mark.parametrize("encoding", ["der", "raw"])
@pytest.mark.parametrize("det", [False, True])
def test_sign_verify_all_modes(hname, encoding, det):
    sig = SK.sign(MSG, hash=hname, encoding=encoding, deterministic=det)
    assert PK.verify(sig, MSG, hash=hname, encoding=encoding)
    assert not PK.verify(sig, MSG + b"x", hash=hname, encoding=encoding)
    other = "der" if encoding == "raw" else "raw"
    assert not PK.verify(sig, MSG, hash=hname, encoding=other)
    if det:
        assert sig == SK.sign(MSG, hash=hname, encoding=encoding, deterministic=True)


def test_hedged_signatures_differ():
    sigs = {SK.sign(MSG) for _ in range(20)}
    assert len(sigs) == 20


def test_sign_digest():
    d = hashlib.sha256(MSG).digest()
    assert SK.sign_digest(d, deterministic=True) == SK.sign(MSG, deterministic=True)
    assert PK.verify_digest(SK.sign_digest(d), d)
    with pytest.raises(TypeError):
        SK.sign_digest("abc")


@pytest.mark.parametrize("kw", [{"hash": "md5"}, {"hash": "sha1"}, {"hash": "SHA256"}, {"encoding": "pem"}])
def test_unknown_names(kw):
    with pytest.raises(ValueError):
        SK.sign(MSG, **kw)
    with pytest.raises(ValueError):
        PK.verify(b"", MSG, **kw)


@pytest.mark.parametrize("kw", [{"hash": None}, {"hash": 256}, {"encoding": None}])
def test_name_wrong_types(kw):
    with pytest.raises(TypeError):
        SK.sign(MSG, **kw)
    with pytest.raises(TypeError):
        PK.verify(b"", MSG, **kw)


@pytest.mark.parametrize("args", [("sig", MSG), (b"", "msg"), (None, MSG), (b"", None)])
def test_verify_wrong_types(args):
    with pytest.raises(TypeError):
        PK.verify(*args)


def _rs(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def test_verify_rejects_out_of_range_raw():
    sig = SK.sign(MSG, encoding="raw")
    r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
    assert PK.verify(sig, MSG, encoding="raw")
    for bad in (_rs(0, s), _rs(r, 0), _rs(r + N, s) if r + N < 2**256 else _rs(N, s),
                _rs(r, N), _rs(N, N), sig[:-1], sig + b"\x00", b""):
        assert PK.verify(bad, MSG, encoding="raw") is False
    # s and n - s are both valid (no low-s rule in ECDSA)
    assert PK.verify(_rs(r, N - s), MSG, encoding="raw")


def test_verify_rejects_malformed_der():
    der = SK.sign(MSG)
    assert PK.verify(der, MSG)
    cases = [
        der + b"\x00",                      # trailing data
        der[:-1],                           # truncated
        b"\x31" + der[1:],                  # SET instead of SEQUENCE
        der[:1] + b"\x81" + der[1:],        # long-form length
        b"",
        b"\x30\x00",
    ]
    for bad in cases:
        assert PK.verify(bad, MSG) is False


# -- ECDH and low level ---------------------------------------------------------------------


def test_exchange_types():
    with pytest.raises(TypeError):
        SK.exchange(PK.to_bytes())
    with pytest.raises(TypeError):
        SK.exchange(None)


def test_low_level_errors():
    with pytest.raises(ValueError):
        p256.scalar_base_mult(b"\x01" * 31)
    with pytest.raises(ValueError):
        p256.scalar_base_mult(bytes(32))
    with pytest.raises(ValueError):
        p256.scalar_base_mult(N.to_bytes(32, "big"))
    with pytest.raises(TypeError):
        p256.scalar_base_mult(1)
    with pytest.raises(TypeError):
        p256.scalar_mult(b"\x01" * 32, None)
    assert p256.scalar_base_mult((N + 1).to_bytes(32, "big")) == G_BYTES
    assert p256.scalar_mult((1).to_bytes(32, "big"), G_BYTES) == G_BYTES


# -- digests, RFC 6979, flags and error messages ----------------------------------------------

SIZES = {"sha224": 28, "sha256": 32, "sha384": 48, "sha512": 64,
         "sha3_256": 32, "sha3_384": 48, "sha3_512": 64}
# cryptography's hash classes, by name (imported where used: the rest of this file runs
# without cryptography)
CRYPTO = {"sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384", "sha512": "SHA512",
          "sha3_256": "SHA3_256", "sha3_384": "SHA3_384", "sha3_512": "SHA3_512"}


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
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")
    from cryptography.hazmat.primitives.asymmetric.utils import Prehashed
    key = ec.derive_private_key(d, ec.SECP256R1())
    digest = hashlib.new(hname, MSG).digest()
    try:
        theirs = key.sign(digest, ec.ECDSA(Prehashed(getattr(hashes, CRYPTO[hname])()), deterministic_signing=True))
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


def test_rfc6979_vectors():
    """RFC 6979 A.2.5 through sign(..., deterministic=True); SHA-1 is not offered."""
    with open(VECTORS / "rfc6979_p256.json") as f:
        v = json.load(f)
    sk = p256.PrivateKey.from_bytes(bytes.fromhex(v["private_key"]))
    assert sk.public_key.to_bytes().hex() == v["public_key"]["uncompressed"]
    done = 0
    for t in v["tests"]:
        msg = t["message"].encode()
        if t["hash"] == "sha1":
            with pytest.raises(ValueError):
                sk.sign(msg, hash="sha1", deterministic=True)
            continue
        der = sk.sign(msg, hash=t["hash"], deterministic=True)
        raw = sk.sign(msg, hash=t["hash"], encoding="raw", deterministic=True)
        assert der.hex() == t["sig_der"]
        assert raw.hex() == t["sig_raw"] == t["r"] + t["s"]
        assert sk.public_key.verify(der, msg, hash=t["hash"])
        if t["hash"] == "sha256":
            digest = bytes.fromhex(t["digest"])
            assert sk.sign_digest(digest, deterministic=True).hex() == t["sig_der"]
        done += 1
    assert done == 8
