# SPDX-License-Identifier: Apache-2.0
"""Key formats: PKCS#8, SEC1, SubjectPublicKeyInfo (DER/PEM), JWK, pickle rules.

Interop with pyca/cryptography in both directions (and exact bytes), round trips on random
keys, and strictness: every malformed or unsupported input is a ValueError whose message
names the problem. The openssl command line is in test_interop_openssl.py.
"""

import base64
import copy
import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p256
from p256 import reference as ref

ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402

N, P = p256.N, p256.P
scalars = st.one_of(
    st.integers(min_value=1, max_value=N - 1),
    st.integers(min_value=1, max_value=2**64),
    st.integers(min_value=N - 2**64, max_value=N - 1),
)
fast = settings(max_examples=60, deadline=None)

# -- a tiny DER writer of the tests' own, to craft inputs independently of p256._der ----------


def tlv(tag, body, long_len=False):
    n = len(body)
    if n < 0x80 and not long_len:
        return bytes([tag, n]) + body
    lb = n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big")
    return bytes([tag, 0x80 | len(lb)]) + lb + body


def seq(*parts):
    return tlv(0x30, b"".join(parts))


def uint(v):
    b = v.to_bytes(v.bit_length() // 8 + 1, "big")
    return tlv(0x02, b)


OID_EC = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
ALG = seq(OID_EC, OID_P256)
SPKI_PREFIX = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")
SPKI_PREFIX_COMPRESSED = bytes.fromhex("3039301306072a8648ce3d020106082a8648ce3d030107032200")


def sec1(d32, pub=None, params=OID_P256, version=1, pub_unused=0):
    parts = [uint(version), tlv(0x04, d32)]
    if params is not None:
        parts.append(tlv(0xA0, params))
    if pub is not None:
        parts.append(tlv(0xA1, tlv(0x03, bytes([pub_unused]) + pub)))
    return seq(*parts)


def pkcs8(inner, version=0, alg=ALG, extra=b""):
    return seq(uint(version), alg, tlv(0x04, inner), extra)


def spki(point, alg=ALG, unused=0):
    return seq(alg, tlv(0x03, bytes([unused]) + point))


def pem(label, der, width=64, eol="\n"):
    b = base64.b64encode(der).decode()
    lines = [b[i:i + width] for i in range(0, len(b), width)]
    return eol.join([f"-----BEGIN {label}-----"] + lines + [f"-----END {label}-----", ""])


def crypto_key(d, curve=None):
    return ec.derive_private_key(d, curve or ec.SECP256R1())


def d32(d):
    return d.to_bytes(32, "big")


def pub_of(d):
    return p256.PrivateKey.from_int(d).public_key.to_bytes()


def raises(fragment, fn, *args, exc=ValueError):
    with pytest.raises(exc) as info:
        fn(*args)
    assert fragment.lower() in str(info.value).lower(), str(info.value)
    return info.value


NO_ENC = ser.NoEncryption()
PKCS8 = ser.PrivateFormat.PKCS8
TRAD = ser.PrivateFormat.TraditionalOpenSSL
DER = ser.Encoding.DER
PEM = ser.Encoding.PEM
SPKI = ser.PublicFormat.SubjectPublicKeyInfo

# -- interop with cryptography: exact bytes and both directions ------------------------------


@fast
@given(scalars)
def test_private_formats_equal_cryptography_bytes(d):
    ours, theirs = p256.PrivateKey.from_int(d), crypto_key(d)
    assert ours.to_der() == theirs.private_bytes(DER, PKCS8, NO_ENC)
    assert ours.to_der("pkcs8") == theirs.private_bytes(DER, PKCS8, NO_ENC)
    assert ours.to_pem() == theirs.private_bytes(PEM, PKCS8, NO_ENC)
    assert ours.to_der("sec1") == theirs.private_bytes(DER, TRAD, NO_ENC)
    assert ours.to_pem("sec1") == theirs.private_bytes(PEM, TRAD, NO_ENC)


@fast
@given(scalars)
def test_public_formats_equal_cryptography_bytes(d):
    ours, theirs = p256.PrivateKey.from_int(d).public_key, crypto_key(d).public_key()
    assert ours.to_der() == theirs.public_bytes(DER, SPKI)
    assert ours.to_pem() == theirs.public_bytes(PEM, SPKI)
    compressed = theirs.public_bytes(ser.Encoding.X962, ser.PublicFormat.CompressedPoint)
    assert ours.to_der(compressed=True) == SPKI_PREFIX_COMPRESSED + compressed
    # cryptography reads the compressed SPKI as the same key
    assert ser.load_der_public_key(ours.to_der(compressed=True)) == theirs
    assert ser.load_pem_public_key(ours.to_pem(compressed=True)) == theirs


@fast
@given(scalars)
def test_cryptography_keys_load_here(d):
    theirs = crypto_key(d)
    for enc, fmt in [(DER, PKCS8), (DER, TRAD)]:
        assert p256.PrivateKey.from_der(theirs.private_bytes(enc, fmt, NO_ENC)).to_bytes() == d32(d)
    for fmt in (PKCS8, TRAD):
        data = theirs.private_bytes(PEM, fmt, NO_ENC)
        assert p256.PrivateKey.from_pem(data).to_bytes() == d32(d)
        assert p256.PrivateKey.from_pem(data.decode()).to_bytes() == d32(d)
    pub = theirs.public_key()
    expected = pub.public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)
    assert p256.PublicKey.from_der(pub.public_bytes(DER, SPKI)).to_bytes() == expected
    assert p256.PublicKey.from_pem(pub.public_bytes(PEM, SPKI)).to_bytes() == expected


@fast
@given(scalars)
def test_our_keys_load_in_cryptography(d):
    sk = p256.PrivateKey.from_int(d)
    for fmt in ("pkcs8", "sec1"):
        for key in (ser.load_der_private_key(sk.to_der(fmt), None),
                    ser.load_pem_private_key(sk.to_pem(fmt), None)):
            assert key.private_numbers().private_value == d
            assert isinstance(key.curve, ec.SECP256R1)
    for compressed in (False, True):
        for key in (ser.load_der_public_key(sk.public_key.to_der(compressed)),
                    ser.load_pem_public_key(sk.public_key.to_pem(compressed))):
            nums = key.public_numbers()
            assert (nums.x, nums.y) == (sk.public_key.x, sk.public_key.y)


@fast
@given(scalars)
def test_round_trips(d):
    sk = p256.PrivateKey.from_int(d)
    pk = sk.public_key
    for fmt in ("pkcs8", "sec1"):
        assert p256.PrivateKey.from_der(sk.to_der(fmt)).to_bytes() == sk.to_bytes()
        assert p256.PrivateKey.from_pem(sk.to_pem(fmt)).to_bytes() == sk.to_bytes()
    for compressed in (False, True):
        assert p256.PublicKey.from_der(pk.to_der(compressed)) == pk
        assert p256.PublicKey.from_pem(pk.to_pem(compressed)) == pk
        assert p256.PublicKey.from_pem(pk.to_pem(compressed).decode()) == pk
    assert p256.PrivateKey.from_jwk(sk.to_jwk()).to_bytes() == sk.to_bytes()
    assert p256.PublicKey.from_jwk(pk.to_jwk()) == pk
    assert p256.PublicKey.from_jwk(json.dumps(pk.to_jwk())) == pk
    assert pickle.loads(pickle.dumps(pk)) == pk


def test_output_types_and_shapes():
    sk = p256.PrivateKey.from_int(12345)
    for out in (sk.to_der(), sk.to_pem(), sk.to_der("sec1"), sk.to_pem("sec1"),
                sk.public_key.to_der(), sk.public_key.to_pem()):
        assert type(out) is bytes
    assert sk.to_pem().startswith(b"-----BEGIN PRIVATE KEY-----\n")
    assert sk.to_pem("sec1").startswith(b"-----BEGIN EC PRIVATE KEY-----\n")
    assert sk.public_key.to_pem().startswith(b"-----BEGIN PUBLIC KEY-----\n")
    assert sk.public_key.to_pem().endswith(b"-----END PUBLIC KEY-----\n")
    assert len(sk.public_key.to_der()) == 91 and len(sk.public_key.to_der(True)) == 59
    assert sk.public_key.to_der() == SPKI_PREFIX + sk.public_key.to_bytes()


def test_accepted_variants():
    """Inputs outside what we write but inside the standards: all load to the same key."""
    d = 0xC0FFEE
    pub = pub_of(d)
    comp = p256.PrivateKey.from_int(d).public_key.to_bytes(compressed=True)
    bare = sec1(d32(d), params=None)
    cases = [
        sec1(d32(d)),                                  # SEC1 without publicKey
        sec1(d32(d), pub, params=None),                # without parameters
        bare,                                          # neither (RFC 5915 allows it)
        sec1(d32(d), comp),                            # compressed embedded point
        pkcs8(bare),                                   # Wycheproof's PKCS#8 shape
        pkcs8(sec1(d32(d), pub)),                      # inner parameters present
        pkcs8(bare, extra=tlv(0xA0, seq(OID_EC, tlv(0x31, b"")))),    # attributes ignored
        pkcs8(bare, version=1, extra=tlv(0x81, b"\x00" + pub)),       # RFC 5958 v2 publicKey
        pkcs8(bare, version=1, extra=tlv(0xA0, b"") + tlv(0x81, b"\x00" + comp)),
        pkcs8(bare, version=1),                        # v2 without publicKey
    ]
    for data in cases:
        assert p256.PrivateKey.from_der(data).to_bytes() == d32(d), data.hex()
    for data in (bytearray(cases[0]), memoryview(cases[0])):
        assert p256.PrivateKey.from_der(data).to_bytes() == d32(d)
    assert p256.PublicKey.from_der(bytearray(spki(pub))).to_bytes() == pub
    assert p256.PublicKey.from_der(memoryview(spki(comp))).to_bytes() == pub


# -- strictness: private keys ----------------------------------------------------------------

D = 0x1234567890ABCDEF
PUB = pub_of(D)
OTHER_PUB = pub_of(D + 1)
GOOD_SEC1 = sec1(d32(D), PUB)


def _non_minimal_outer(der):
    """Re-encode the outer SEQUENCE's length in long form (BER, not DER)."""
    assert der[1] < 0x80
    return bytes([der[0], 0x81, der[1]]) + der[2:]


def _explicit_p256_params():
    """SpecifiedECDomain for P-256 itself (SEC 1 C.2): explicit, not named."""
    c = ref.P256
    fe = lambda v: v.to_bytes(32, "big")  # noqa: E731
    field = seq(bytes.fromhex("06072a8648ce3d0101"), uint(c.p))  # prime-field
    curve = seq(tlv(0x04, fe(c.p - 3)), tlv(0x04, fe(c.b)))
    base = tlv(0x04, b"\x04" + fe(c.gx) + fe(c.gy))
    return seq(uint(1), field, curve, base, uint(c.n), uint(1))


PRIVATE_BAD = [
    ("empty", b"", "data ends where the outer element"),
    ("not a sequence", tlv(0x04, d32(D)), "expected the outer element (SEQUENCE)"),
    ("trailing byte", GOOD_SEC1 + b"\x00", "1 unexpected octet after"),
    ("trailing bytes", GOOD_SEC1 + b"\x05\x00", "2 unexpected octets after"),
    ("trailing byte pkcs8", pkcs8(GOOD_SEC1) + b"\x00", "unexpected octet"),
    ("inner trailing", pkcs8(GOOD_SEC1 + b"\x00"), "unexpected octet"),
    ("non-minimal length", _non_minimal_outer(GOOD_SEC1), "non-minimal length"),
    ("indefinite length", b"\x30\x80" + GOOD_SEC1[2:] + b"\x00\x00", "indefinite"),
    ("truncated", GOOD_SEC1[:-1], "past the end"),
    ("non-minimal version", b"\x30\x78\x02\x02\x00\x01" + GOOD_SEC1[5:], "non-minimal INTEGER"),
    ("sec1 version 0", sec1(d32(D), PUB, version=0), "version 0"),
    ("sec1 version 2", sec1(d32(D), PUB, version=2), "version 2"),
    ("pkcs8 version 2", pkcs8(GOOD_SEC1, version=2), "version 2"),
    ("pkcs8 version -1", seq(tlv(0x02, b"\xff"), ALG, tlv(0x04, GOOD_SEC1)), "version -1"),
    ("huge version", seq(tlv(0x02, b"\x01" * 3000), ALG, tlv(0x04, GOOD_SEC1)),
     "version out of range"),
    ("pkcs8 v1 with publicKey", pkcs8(GOOD_SEC1, extra=tlv(0x81, b"\x00" + PUB)), "requires version 1"),
    ("d = 0", sec1(d32(0)), "[1, n-1]"),
    ("d = n", sec1(d32(N)), "[1, n-1]"),
    ("d = n + 1", sec1(d32(N + 1)), "[1, n-1]"),
    ("d = 2^256 - 1", sec1(b"\xff" * 32), "[1, n-1]"),
    ("d = 0 pkcs8", pkcs8(sec1(d32(0), params=None)), "[1, n-1]"),
    ("short d", sec1(d32(D)[1:]), "32-byte"),
    ("long d", sec1(b"\x00" + d32(D)), "32-byte"),
    ("empty d", sec1(b""), "32-byte"),
    ("mismatched public key", sec1(d32(D), OTHER_PUB), "does not match"),
    ("mismatched public key pkcs8", pkcs8(sec1(d32(D), OTHER_PUB, params=None)), "does not match"),
    ("mismatched v2 publicKey", pkcs8(GOOD_SEC1, version=1, extra=tlv(0x81, b"\x00" + OTHER_PUB)),
     "does not match"),
    ("invalid embedded point", sec1(d32(D), b"\x04" + b"\x00" * 64), "invalid public key"),
    ("infinity embedded", sec1(d32(D), b"\x00"), "invalid public key"),
    ("unused bits", sec1(d32(D), PUB, pub_unused=1), "unused bits"),
    ("explicit params sec1", sec1(d32(D), PUB, params=_explicit_p256_params()), "explicit curve parameters"),
    ("explicit params pkcs8", pkcs8(sec1(d32(D), params=None), alg=seq(OID_EC, _explicit_p256_params())),
     "explicit curve parameters"),
    ("implicitCA", sec1(d32(D), params=b"\x05\x00"), "implicitCA"),
    ("no params in pkcs8", pkcs8(GOOD_SEC1, alg=seq(OID_EC)), "without curve parameters"),
    ("wrong curve OID", sec1(d32(D), params=bytes.fromhex("06082a8648ce3d030108")),
     "unknown curve (OID 1.2.840.10045.3.1.8)"),
    ("secp256k1 params", sec1(d32(D), params=bytes.fromhex("06052b8104000a")), "secp256k1"),
    ("inner curve differs", pkcs8(sec1(d32(D), params=bytes.fromhex("06052b81040022"))), "secp384r1"),
    ("rsa algorithm", pkcs8(GOOD_SEC1, alg=seq(bytes.fromhex("06092a864886f70d010101"), b"\x05\x00")),
     "rsaEncryption"),
    ("ed25519 algorithm", pkcs8(GOOD_SEC1, alg=seq(bytes.fromhex("06032b6570"))), "Ed25519"),
    ("id-ecDH algorithm", pkcs8(GOOD_SEC1, alg=seq(bytes.fromhex("06052b8104010c"), OID_P256)), "id-ecDH"),
    ("unknown algorithm", pkcs8(GOOD_SEC1, alg=seq(bytes.fromhex("06032a0304"), OID_P256)), "OID 1.2.3.4"),
    ("public key given", spki(PUB), "PublicKey.from_der"),
    ("encrypted pkcs8 der", seq(seq(bytes.fromhex("06092a864886f70d01050d"), seq()), tlv(0x04, b"x" * 16)),
     "openssl pkey"),
    ("params tag [2]", seq(uint(1), tlv(0x04, d32(D)), tlv(0xA2, OID_P256)), "starting with [2]"),
    ("publicKey [1] primitive", seq(uint(1), tlv(0x04, d32(D)), tlv(0x81, b"\x00" + PUB)), "starting with [1] primitive"),
    ("pkcs8 privateKey not octet string", seq(uint(0), ALG, GOOD_SEC1), "expected privateKey (OCTET STRING)"),
    ("neither format", seq(uint(1), uint(1)), "neither PKCS#8"),
    ("high tag", b"\x1f\x01\x00", "high tag"),
    ("long length", b"\x30\x85\x01\x00\x00\x00\x00", "length of 5 octets"),
    ("leading zero length", b"\x30\x82\x00\x80" + b"\x00" * 128, "leading zero"),
]


@pytest.mark.parametrize("name,data,fragment", PRIVATE_BAD, ids=[c[0] for c in PRIVATE_BAD])
def test_private_der_rejected(name, data, fragment):
    raises(fragment, p256.PrivateKey.from_der, data)


def test_private_der_rejected_cases_are_otherwise_valid():
    """The mutations above break one thing each: the unmutated bases load."""
    assert p256.PrivateKey.from_der(GOOD_SEC1).to_bytes() == d32(D)
    assert p256.PrivateKey.from_der(pkcs8(GOOD_SEC1)).to_bytes() == d32(D)
    assert p256.PrivateKey.from_der(b"\x30\x77\x02\x01\x01" + GOOD_SEC1[5:]).to_bytes() == d32(D)
    assert GOOD_SEC1 == p256.PrivateKey.from_int(D).to_der("sec1")


OTHER_CURVES = [
    (ec.SECP384R1(), "secp384r1"),
    (ec.SECP521R1(), "secp521r1"),
    (ec.SECP224R1(), "secp224r1"),
    (ec.SECP256K1(), "secp256k1"),
    (ec.BrainpoolP256R1(), "brainpoolP256r1"),
    (ec.SECP192R1(), "secp192r1"),
]


@pytest.mark.parametrize("curve,name", OTHER_CURVES, ids=[c[1] for c in OTHER_CURVES])
def test_other_curves_are_named(curve, name):
    try:
        key = ec.generate_private_key(curve)
    except Exception as exc:  # a curve this OpenSSL build lacks
        pytest.skip(f"cryptography cannot generate {name}: {exc}")
    for fmt in (PKCS8, TRAD):
        raises(name, p256.PrivateKey.from_der, key.private_bytes(DER, fmt, NO_ENC))
        raises(name, p256.PrivateKey.from_pem, key.private_bytes(PEM, fmt, NO_ENC))
    raises(name, p256.PublicKey.from_der, key.public_key().public_bytes(DER, SPKI))
    raises(name, p256.PublicKey.from_pem, key.public_key().public_bytes(PEM, SPKI))


def test_other_algorithms_are_named():
    from cryptography.hazmat.primitives.asymmetric import ed25519, rsa

    for key, name in [(rsa.generate_private_key(65537, 1024), "rsaEncryption"),
                      (ed25519.Ed25519PrivateKey.generate(), "Ed25519")]:
        raises(name, p256.PrivateKey.from_der, key.private_bytes(DER, PKCS8, NO_ENC))
        raises(name, p256.PrivateKey.from_pem, key.private_bytes(PEM, PKCS8, NO_ENC))
        raises(name, p256.PublicKey.from_der, key.public_key().public_bytes(DER, SPKI))


def test_encrypted_keys():
    key = crypto_key(D)
    enc = ser.BestAvailableEncryption(b"passphrase")
    pk8 = key.private_bytes(PEM, PKCS8, enc)
    assert b"ENCRYPTED PRIVATE KEY" in pk8
    e = raises("openssl pkey -in key.pem -out plain.pem", p256.PrivateKey.from_pem, pk8)
    assert "encrypted" in str(e)
    assert p256.PrivateKey.from_pem(pk8, password=b"passphrase").to_bytes() == D.to_bytes(32, "big")
    trad = key.private_bytes(PEM, TRAD, enc)
    assert b"Proc-Type: 4,ENCRYPTED" in trad
    for password in (None, b"passphrase"):  # legacy encryption: how to convert it
        raises("openssl pkcs8 -topk8", p256.PrivateKey.from_pem, trad, password)
    raises("encrypted", p256.PrivateKey.from_der, key.private_bytes(DER, PKCS8, enc))


# -- strictness: public keys -----------------------------------------------------------------

PUBLIC_BAD = [
    ("empty", b"", "data ends where the outer element"),
    ("trailing byte", spki(PUB) + b"\x00", "unexpected octet"),
    ("non-minimal length", _non_minimal_outer(spki(PUB)), "non-minimal length"),
    ("unused bits", spki(PUB, unused=1), "unused bits"),
    ("empty bit string", seq(ALG, tlv(0x03, b"")), "empty BIT STRING"),
    ("octet string key", seq(ALG, tlv(0x04, PUB)), "expected subjectPublicKey"),
    ("explicit params", spki(PUB, alg=seq(OID_EC, _explicit_p256_params())), "explicit curve parameters"),
    ("no params", spki(PUB, alg=seq(OID_EC)), "without curve parameters"),
    ("NULL params", spki(PUB, alg=seq(OID_EC, b"\x05\x00")), "implicitCA"),
    ("two params", spki(PUB, alg=seq(OID_EC, OID_P256, b"\x05\x00")), "unexpected octet"),
    ("secp384r1", spki(PUB, alg=seq(OID_EC, bytes.fromhex("06052b81040022"))), "secp384r1"),
    ("bad OID encoding", spki(PUB, alg=seq(OID_EC, bytes.fromhex("0603808001"))), "non-minimal sub-identifier"),
    ("truncated OID", spki(PUB, alg=seq(OID_EC, bytes.fromhex("06022a86"))), "ends inside a sub-identifier"),
    ("empty OID", spki(PUB, alg=seq(OID_EC, b"\x06\x00")), "empty OBJECT IDENTIFIER"),
    ("off curve", spki(b"\x04" + PUB[1:64] + bytes([PUB[64] ^ 1])), "invalid public key"),
    ("x >= p", spki(b"\x04" + P.to_bytes(32, "big") + PUB[33:]), "invalid public key"),
    ("infinity", spki(b"\x00"), "point at infinity"),
    ("hybrid", spki(b"\x06" + PUB[1:]), "invalid public key"),
    ("bad compressed", spki(b"\x02" + b"\xff" * 32), "invalid public key"),
    ("private key given", GOOD_SEC1, "PrivateKey.from_der"),
    ("pkcs8 given", pkcs8(GOOD_SEC1), "PrivateKey.from_der"),
]


@pytest.mark.parametrize("name,data,fragment", PUBLIC_BAD, ids=[c[0] for c in PUBLIC_BAD])
def test_public_der_rejected(name, data, fragment):
    raises(fragment, p256.PublicKey.from_der, data)


def test_oid_text():
    from p256 import _der

    for dotted in ["1.2.840.10045.3.1.7", "1.3.132.0.10", "2.999.1", "0.39", "1.2.3.4"]:
        assert _der.oid_to_str(_der.oid_from_str(dotted)) == dotted
    assert _der.oid_from_str("1.2.840.10045.3.1.7") == OID_P256[2:]
    assert _der.oid_to_str(bytes.fromhex("808001")) is None  # non-minimal
    assert _der.oid_to_str(bytes.fromhex("2a86")) is None  # truncated


def test_der_writer_integers():
    from p256 import _der

    for v in [0, 1, 127, 128, 255, 256, -1, -128, -129, 2**255, N]:
        enc = _der.integer(v)
        r = _der.Reader(enc, "t")
        assert r.integer("v") == v and r.at_end()
    assert _der.integer(128) == b"\x02\x02\x00\x80"
    assert _der.tlv(0x04, b"x" * 200)[:3] == b"\x04\x81\xc8"
    for bad in [b"\x02\x02\xff\x80", b"\x02\x00"]:
        with pytest.raises(ValueError):
            _der.Reader(bad, "t").integer("v")


# -- PEM -------------------------------------------------------------------------------------

SK = p256.PrivateKey.from_int(D)
PK = SK.public_key


def test_pem_tolerated_layouts():
    for data in [
        SK.to_pem().decode().replace("\n", "\r\n"),            # CRLF
        "Bag Attributes\n  friendlyName: x\n" + SK.to_pem().decode() + "trailing text\n",
        "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
        + SK.to_pem("sec1").decode(),                          # openssl ecparam -genkey
        pem("PRIVATE KEY", SK.to_der(), width=76),             # other line widths
        pem("PRIVATE KEY", SK.to_der(), width=10000),
        SK.to_pem().decode().replace("\n", " \t\n"),           # trailing blanks
        SK.to_pem().decode().rstrip("\n"),                     # no final newline
        SK.to_pem() + SK.to_pem("sec1"),                       # the first block is used
    ]:
        assert p256.PrivateKey.from_pem(data).to_bytes() == SK.to_bytes()
    assert p256.PrivateKey.from_pem(bytearray(SK.to_pem())).to_bytes() == SK.to_bytes()
    assert p256.PublicKey.from_pem(PK.to_pem().replace(b"\n", b"\r\n")) == PK
    cert_and_key = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" + PK.to_pem()
    assert p256.PublicKey.from_pem(cert_and_key) == PK


def _pad_bits(text):
    """Set a pad bit of the base64 character before '==' (its value changes, the bytes not)."""
    i = text.index("==")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    c = alphabet.index(text[i - 1])
    assert c & 0xF == 0
    out = text[:i - 1] + alphabet[c | 1] + text[i:]
    assert base64.b64decode(out.split("\n")[-3]) == base64.b64decode(text.split("\n")[-3])
    return out


def _flip_b64(text, old, new):
    assert old in text
    return text.replace(old, new, 1)


PEM_BAD = [
    ("mismatched END", SK.to_pem().decode().replace("END PRIVATE KEY", "END EC PRIVATE KEY"), "does not match"),
    ("no END", SK.to_pem().decode().split("-----END")[0], "no END line"),
    ("no block", "hello", "no PEM block"),
    ("public label", PK.to_pem(), "PublicKey.from_pem"),
    ("sec1 under PRIVATE KEY", pem("PRIVATE KEY", SK.to_der("sec1")), "does not fit"),
    ("pkcs8 under EC PRIVATE KEY", pem("EC PRIVATE KEY", SK.to_der()), "does not fit"),
    ("bad base64 char", _flip_b64(SK.to_pem().decode(), "MIGH", "MI*H"), "not valid base64"),
    ("space in base64", _flip_b64(SK.to_pem().decode(), "MIGH", "MI H"), "not valid base64"),
    ("missing padding", pem("PRIVATE KEY", SK.to_der("sec1")).replace("==", ""), "not valid base64"),
    ("non-canonical pad bits", _pad_bits(pem("EC PRIVATE KEY", SK.to_der("sec1"))), "canonical"),
    ("empty line inside", _flip_b64(SK.to_pem().decode(), "\nMIGH", "\n\nMIGH"), "empty line"),
    ("headers", _flip_b64(SK.to_pem().decode(), "\nMIGH", "\nComment: x\n\nMIGH"), "headers"),
    ("empty body", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n", "empty PEM block"),
    ("non-ascii", _flip_b64(SK.to_pem().decode(), "MIGH", "MIGé"), "base64"),
    ("rsa label", "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
     "only 'RSA PRIVATE KEY'"),
    ("openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
     "OPENSSH"),
    ("trailing DER", pem("PRIVATE KEY", SK.to_der() + b"\x00"), "unexpected octet"),
]


@pytest.mark.parametrize("name,data,fragment", PEM_BAD, ids=[c[0] for c in PEM_BAD])
def test_private_pem_rejected(name, data, fragment):
    raises(fragment, p256.PrivateKey.from_pem, data)


def test_public_pem_rejected():
    raises("PrivateKey.from_pem(data).public_key", p256.PublicKey.from_pem, SK.to_pem())
    raises("PrivateKey.from_pem(data).public_key", p256.PublicKey.from_pem, SK.to_pem("sec1"))
    cert = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
    raises("PublicKey.from_certificate(data)", p256.PublicKey.from_pem, cert)
    raises("does not match", p256.PublicKey.from_pem,
           PK.to_pem().replace(b"END PUBLIC KEY", b"END PUBLIC  KEY"))
    raises("unused bits", p256.PublicKey.from_pem, pem("PUBLIC KEY", spki(PUB, unused=3)))
    raises("explicit curve", p256.PublicKey.from_pem,
           pem("PUBLIC KEY", spki(PUB, alg=seq(OID_EC, _explicit_p256_params()))))


@pytest.mark.parametrize("bad", [None, 1, 1.5, ["x"], {"a": 1}])
def test_wrong_types(bad):
    for fn in (p256.PrivateKey.from_der, p256.PublicKey.from_der, p256.PrivateKey.from_pem,
               p256.PublicKey.from_pem):
        with pytest.raises(TypeError):
            fn(bad)
    if not isinstance(bad, dict):
        for fn in (p256.PrivateKey.from_jwk, p256.PublicKey.from_jwk):
            with pytest.raises(TypeError):
                fn(bad)


def test_der_refuses_str_and_format_names():
    with pytest.raises(TypeError):
        p256.PrivateKey.from_der(SK.to_der().hex())
    with pytest.raises(TypeError):
        p256.PublicKey.from_der(PK.to_der().hex())
    for fn in (SK.to_der, SK.to_pem):
        raises("unknown format 'PKCS8'", fn, "PKCS8")
        raises("expected one of pkcs8, sec1", fn, "der")
        with pytest.raises(TypeError):
            fn(8)


# -- JWK -------------------------------------------------------------------------------------

# RFC 7517 appendix A.1 (public) and A.2 (private): the P-256 example key.
RFC7517_A1 = {"kty": "EC", "crv": "P-256",
              "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
              "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
              "use": "enc", "kid": "1"}
RFC7517_A2 = {"kty": "EC", "crv": "P-256",
              "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
              "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
              "d": "870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE",
              "use": "enc", "kid": "1"}
RFC7517_X = 0x30A0424CD21C2944838A2D75C92B37E76EA20D9F00893A3B4EEE8A3C0AAFEC3E
RFC7517_Y = 0xE04B65E92456D9888B52B379BDFBD51EE869EF1F0FC65B6659695B6CCE081723
RFC7517_D = 0xF3BD0C07A81FB932781ED52752F60CC89A6BE5E51934FE01938DDB55D8F77801


def test_rfc7517_example():
    pk = p256.PublicKey.from_jwk(RFC7517_A1)
    assert (pk.x, pk.y) == (RFC7517_X, RFC7517_Y)
    assert ref.P256.scalar_base_mult(RFC7517_D) == (RFC7517_X, RFC7517_Y)
    sk = p256.PrivateKey.from_jwk(RFC7517_A2)
    assert sk.to_bytes() == d32(RFC7517_D)
    assert sk.public_key == pk
    # "use" and "kid" are ignored; what we write is the key members only.
    members = {k: RFC7517_A2[k] for k in ("kty", "crv", "x", "y", "d")}
    assert sk.to_jwk() == members
    assert list(sk.to_jwk()) == ["kty", "crv", "x", "y", "d"]
    assert pk.to_jwk() == {k: RFC7517_A1[k] for k in ("kty", "crv", "x", "y")}
    assert p256.PrivateKey.from_jwk(json.dumps(RFC7517_A2)).to_bytes() == d32(RFC7517_D)
    assert p256.PublicKey.from_jwk(json.dumps(RFC7517_A1)) == pk
    extra = dict(RFC7517_A2, alg="ES256", key_ops=["sign"], x5c=[], ext=True)
    assert p256.PrivateKey.from_jwk(extra).to_bytes() == d32(RFC7517_D)


def _jwk(**changes):
    j = dict(RFC7517_A2)
    for k, v in changes.items():
        if v is None:
            del j[k]
        else:
            j[k] = v
    return j


def _b64u(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


JWK_PRIVATE_BAD = [
    ("mismatched d", _jwk(d=_b64u(d32(RFC7517_D + 1))), "does not match"),
    ("mismatched y (-Q)", _jwk(y=_b64u(d32(P - RFC7517_Y))), "does not match"),
    ("off-curve y", _jwk(y=_b64u(d32(RFC7517_Y - 1))), "invalid public key in the JWK"),
    ("padding", _jwk(d=RFC7517_A2["d"] + "="), "padding"),
    ("standard alphabet", _jwk(d=RFC7517_A2["d"].replace("_", "/") + "/"), "not base64url"),
    ("bad char", _jwk(x="MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D!"), "not base64url"),
    ("non-canonical", _jwk(d="870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAF"), "canonical"),
    ("31-byte d", _jwk(d=_b64u(d32(RFC7517_D)[1:])), "exactly 32 bytes"),
    ("33-byte d", _jwk(d=_b64u(b"\x00" + d32(RFC7517_D))), "exactly 32 bytes"),
    ("33-byte x", _jwk(x=_b64u(b"\x00" + d32(RFC7517_X))), "exactly 32 bytes"),
    ("31-byte y", _jwk(y=_b64u(d32(RFC7517_Y)[1:])), "exactly 32 bytes"),
    ("length 1 mod 4", _jwk(d="A" * 41), "not base64url"),
    ("d = 0", _jwk(d=_b64u(d32(0))), "[1, n-1]"),
    ("d = n", _jwk(d=_b64u(d32(N))), "[1, n-1]"),
    ("no d", _jwk(d=None), "no 'd' member"),
    ("no x", _jwk(x=None), "no 'x' member"),
    ("no y", _jwk(y=None), "no 'y' member"),
    ("kty RSA", _jwk(kty="RSA"), "kty 'RSA'"),
    ("kty lower", _jwk(kty="ec"), "kty 'ec'"),
    ("no kty", _jwk(kty=None), "no 'kty'"),
    ("crv P-384", _jwk(crv="P-384"), "'P-384'"),
    ("crv secp256k1", _jwk(crv="secp256k1"), "'secp256k1'"),
    ("no crv", _jwk(crv=None), "no 'crv'"),
    ("d not str", _jwk(d=12345), "must be a string"),
    ("invalid json", '{"kty": "EC",', "not valid JSON"),
    ("json array", "[1, 2]", "JSON object"),
]


@pytest.mark.parametrize("name,jwk,fragment", JWK_PRIVATE_BAD, ids=[c[0] for c in JWK_PRIVATE_BAD])
def test_private_jwk_rejected(name, jwk, fragment):
    raises(fragment, p256.PrivateKey.from_jwk, jwk)


JWK_PUBLIC_BAD = [
    ("has d", RFC7517_A2, "PrivateKey.from_jwk"),
    ("off curve", dict(RFC7517_A1, y=_b64u(d32(RFC7517_Y - 1))), "invalid public key"),
    ("x = p", dict(RFC7517_A1, x=_b64u(d32(P))), "invalid public key"),
    ("zero point", dict(RFC7517_A1, x=_b64u(bytes(32)), y=_b64u(bytes(32))), "invalid public key"),
    ("padding", dict(RFC7517_A1, x=RFC7517_A1["x"] + "="), "padding"),
    ("short x", dict(RFC7517_A1, x=_b64u(d32(RFC7517_X)[1:])), "exactly 32 bytes"),
    ("truncated x", dict(RFC7517_A1, x=RFC7517_A1["x"][:-1]), "canonical"),
    ("crv P-521", dict(RFC7517_A1, crv="P-521"), "'P-521'"),
    ("kty OKP", dict(RFC7517_A1, kty="OKP"), "kty 'OKP'"),
    ("x not str", dict(RFC7517_A1, x=None), "must be a string"),
]


@pytest.mark.parametrize("name,jwk,fragment", JWK_PUBLIC_BAD, ids=[c[0] for c in JWK_PUBLIC_BAD])
def test_public_jwk_rejected(name, jwk, fragment):
    raises(fragment, p256.PublicKey.from_jwk, jwk)


@fast
@given(scalars)
def test_jwk_random_keys(d):
    sk = p256.PrivateKey.from_int(d)
    j = sk.to_jwk()
    assert set(j) == {"kty", "crv", "x", "y", "d"}
    assert all(len(j[k]) == 43 and "=" not in j[k] for k in "xyd")
    assert base64.urlsafe_b64decode(j["d"] + "=") == d32(d)
    assert base64.urlsafe_b64decode(j["x"] + "=") == sk.public_key.to_bytes()[1:33]
    assert p256.PrivateKey.from_jwk(j).to_bytes() == d32(d)
    assert p256.PublicKey.from_jwk(sk.public_key.to_jwk()) == sk.public_key


# -- pickle and copy -------------------------------------------------------------------------


def test_public_key_pickle_and_copy():
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(PK, protocol=proto))
        assert back == PK and type(back) is p256.PublicKey and back.to_bytes() == PK.to_bytes()
    assert copy.copy(PK) == PK and copy.deepcopy(PK) == PK
    assert copy.deepcopy({"k": [PK]}) == {"k": [PK]}
    # The pickle carries the SEC1 bytes and is re-validated on load.
    blob = pickle.dumps(PK, protocol=4)
    assert PK.to_bytes() in blob
    tampered = blob.replace(PK.to_bytes(), PK.to_bytes()[:-1] + bytes([PK.to_bytes()[-1] ^ 1]))
    with pytest.raises(ValueError):
        pickle.loads(tampered)


def test_private_key_refuses_pickle_and_copy():
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        e = raises("to_pem()", pickle.dumps, SK, proto, exc=TypeError)
        assert "to_bytes()" in str(e)
    for fn in (copy.copy, copy.deepcopy):
        raises("to_bytes()", fn, SK, exc=TypeError)
    with pytest.raises(TypeError):
        copy.deepcopy({"key": SK})
    with pytest.raises(TypeError):
        pickle.dumps(p256._core.SecretKey._load(SK.to_bytes()))


# -- mutations: only ValueError, and accepted SPKIs are canonical ----------------------------

_BASE_KEY = p256.PrivateKey.from_int(0xDEADBEEF_0123456789)
BASES = [
    ("private", _BASE_KEY.to_der("pkcs8")),
    ("private", _BASE_KEY.to_der("sec1")),
    ("private", pkcs8(sec1(_BASE_KEY.to_bytes(), params=None), version=1,
                      extra=tlv(0x81, b"\x00" + _BASE_KEY.public_key.to_bytes()))),
    ("public", _BASE_KEY.public_key.to_der()),
    ("public", _BASE_KEY.public_key.to_der(compressed=True)),
]


@st.composite
def field_mutated(draw):
    """Our exact encodings with only the key bytes changed: these take the fast paths."""
    d = draw(st.sampled_from([0, 1, N - 1, N, 2**256 - 1, draw(st.integers(1, N - 1))]))
    other = draw(st.integers(1, N - 1))
    sk = p256.PrivateKey.from_int(draw(st.integers(1, N - 1)))
    out = []
    for fmt in ("sec1", "pkcs8"):
        der = sk.to_der(fmt)
        out.append(("private", der))
        q = p256.PrivateKey.from_int(other).public_key.to_bytes()
        q = draw(st.sampled_from([q, sk.public_key.to_bytes(), b"\x04" + bytes(64),
                                  b"\x02" + q[1:33] + q[1:33]]))
        out.append(("private", der.replace(sk.to_bytes(), d.to_bytes(32, "big"))
                    .replace(sk.public_key.to_bytes(), q)))
    pub = draw(st.sampled_from([b"\x04" + bytes(64), b"\x04" + P.to_bytes(32, "big") * 2,
                                sk.public_key.to_bytes()]))
    out.append(("public", _BASE_KEY.public_key.to_der().replace(_BASE_KEY.public_key.to_bytes(), pub)))
    return draw(st.sampled_from(out))


@settings(max_examples=150, deadline=None)
@given(field_mutated())
def test_fast_paths_agree_with_full_parse(case):
    kind, data = case
    _fast_equals_full(kind, data)


@st.composite
def mutated(draw):
    kind, data = draw(st.sampled_from(BASES))
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "append"]))
        i = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and data:
            data[i] = draw(st.sampled_from([0x00, 0x01, 0x7F, 0x80, 0x81, 0x82, 0xFF]))
        elif op == "insert":
            data.insert(i, draw(st.integers(0, 255)))
        elif op == "delete" and data:
            del data[i]
        elif op == "truncate":
            del data[i:]
        elif op == "append":
            data += draw(st.binary(min_size=1, max_size=3))
    return kind, bytes(data)


def _fast_equals_full(kind, data):
    """The fast paths for the exact encodings we write give what the full parse gives,
    the key classes' checks of the fields included."""
    from p256 import _formats

    if kind == "public":
        def load(parse):
            return lambda b: p256.PublicKey._from_point(parse(b), "the SubjectPublicKeyInfo")
        assert _outcome(load(_formats._public_from_der), data) == \
            _outcome(load(_formats._public_from_der_full), data)
    else:
        for expect in (None, "pkcs8", "sec1"):
            def load(parse):
                return lambda b: p256.PrivateKey._from_parts(parse(b, expect))
            assert _outcome(load(_formats._private_from_der), data) == \
                _outcome(load(_formats._private_from_der_full), data)


def _outcome(fn, data):
    try:
        return fn(data).to_bytes()
    except ValueError as exc:
        return "ValueError: " + str(exc)


@settings(max_examples=400, deadline=None)
@given(mutated())
def test_mutations_raise_only_valueerror(case):
    kind, data = case
    # the fast paths for the exact encodings we write agree with the full parse
    _fast_equals_full(kind, data)
    if kind == "public":
        try:
            pk = p256.PublicKey.from_der(data)
        except ValueError:
            return
        # strict DER: the only SPKIs accepted are exactly the two we write for the point
        assert data in (pk.to_der(), pk.to_der(compressed=True))
    else:
        try:
            sk = p256.PrivateKey.from_der(data)
        except ValueError:
            return
        assert 1 <= int.from_bytes(sk.to_bytes(), "big") < N
        # the scalar was taken from the data as is
        assert sk.to_bytes() in data
        for text in (pem("PRIVATE KEY", data), pem("EC PRIVATE KEY", data)):
            try:
                assert p256.PrivateKey.from_pem(text).to_bytes() == sk.to_bytes()
            except ValueError as exc:
                assert "does not fit" in str(exc)


# -- BOM, and hints that name a reader only when it would work -----------------------------

BOM = b"\xef\xbb\xbf"


def test_pem_with_a_utf8_bom_is_read_as_cryptography_reads_it():
    from cryptography.hazmat.primitives.serialization import load_pem_private_key, load_pem_public_key

    for data in (BOM + SK.to_pem(), BOM + SK.to_pem("sec1"), BOM + SK.to_pem().replace(b"\n", b"\r\n")):
        theirs = load_pem_private_key(data, None).private_numbers().private_value
        assert p256.PrivateKey.from_pem(data).to_int() == theirs
        assert p256.PrivateKey.from_pem(data.decode("utf-8")).to_int() == theirs  # str: U+FEFF
    data = BOM + PK.to_pem()
    assert load_pem_public_key(data).public_numbers().x == PK.x
    assert p256.PublicKey.from_pem(data) == PK == p256.PublicKey.from_pem(data.decode("utf-8"))
    # only at the very start, as editors write it: elsewhere it is text before a BEGIN
    # (cryptography would take that block, OpenSSL would not): refused as ambiguous
    raises("ambiguous PEM", p256.PrivateKey.from_pem, b"comment\n" + BOM + SK.to_pem())
    raises("ambiguous PEM", p256.PrivateKey.from_pem, BOM + BOM + SK.to_pem())


def _other_keys():
    from cryptography.hazmat.primitives.asymmetric import ed25519, rsa

    enc = ser.BestAvailableEncryption(b"passphrase")
    rsa_key = rsa.generate_private_key(65537, 1024)
    ed = ed25519.Ed25519PrivateKey.generate()
    ours = crypto_key(D)
    return [
        ("rsa pkcs8", rsa_key.private_bytes(PEM, PKCS8, NO_ENC), "rsaEncryption"),
        ("ed25519 pkcs8", ed.private_bytes(PEM, PKCS8, NO_ENC), "Ed25519"),
        ("encrypted sec1", ours.private_bytes(PEM, TRAD, enc), "encrypted"),
    ]


@pytest.mark.parametrize("name,data,reason", _other_keys(), ids=lambda v: v if isinstance(v, str) and len(v) < 20 else "")
def test_public_from_pem_of_an_unreadable_private_key_does_not_send_you_there(name, data, reason):
    e = raises(reason, p256.PublicKey.from_pem, data)
    assert "use PrivateKey.from_pem" not in str(e) and "this is a private key" in str(e)
    with pytest.raises(ValueError):  # indeed it would fail
        p256.PrivateKey.from_pem(data)
    if name.endswith("pkcs8") and "encrypted" not in name:
        der_data = ser.load_pem_private_key(data, None).private_bytes(DER, PKCS8, NO_ENC)
        e = raises(reason, p256.PublicKey.from_der, der_data)
        assert "use PrivateKey.from_der" not in str(e)


def test_public_from_pem_of_a_readable_private_key_says_how():
    for data in (SK.to_pem(), SK.to_pem("sec1")):
        raises("use PrivateKey.from_pem(data).public_key", p256.PublicKey.from_pem, data)
        assert p256.PrivateKey.from_pem(data).public_key == PK  # and that works
    # an encrypted PKCS#8 (written by cryptography): readable with its password
    enc = crypto_key(D).private_bytes(PEM, PKCS8, ser.BestAvailableEncryption(b"pw"))
    raises("use PrivateKey.from_pem(data, password=...).public_key", p256.PublicKey.from_pem, enc)
    assert p256.PrivateKey.from_pem(enc, password=b"pw").public_key == p256.PrivateKey.from_int(D).public_key
    enc_der = crypto_key(D).private_bytes(DER, PKCS8, ser.BestAvailableEncryption(b"pw"))
    raises("use PrivateKey.from_der(data, password=...).public_key", p256.PublicKey.from_der, enc_der)
    raises("use PrivateKey.from_der(data).public_key", p256.PublicKey.from_der, SK.to_der())


def test_encrypted_pkcs8_der_is_named_not_its_oid():
    enc = crypto_key(D).private_bytes(DER, PKCS8, ser.BestAvailableEncryption(b"pw"))
    for fn in (p256.PublicKey.from_der, p256.PrivateKey.from_der):
        e = raises("encrypted private key", fn, enc)
        assert "1.2.840.113549.1.5.13" not in str(e)


def test_der_readers_given_pem_say_so():
    for fn, data, reader in ((p256.PrivateKey.from_der, SK.to_pem(), "PrivateKey.from_pem"),
                             (p256.PublicKey.from_der, PK.to_pem(), "PublicKey.from_pem"),
                             (p256.PrivateKey.from_der, BOM + SK.to_pem(), "PrivateKey.from_pem"),
                             (p256.PublicKey.from_der, b"\n" + PK.to_pem(), "PublicKey.from_pem")):
        raises("this is PEM text, not DER: use %s()" % reader, fn, data)
        raises("use %s()" % reader, fn, data.decode(), exc=TypeError)


def test_private_readers_given_another_curves_public_key_do_not_send_you_there():
    from cryptography.hazmat.primitives.asymmetric import rsa

    for key, reason in ((rsa.generate_private_key(65537, 1024).public_key(), "rsaEncryption"),
                        (ec.generate_private_key(ec.SECP384R1()).public_key(), "secp384r1")):
        for fn, data, reader in ((p256.PrivateKey.from_pem, key.public_bytes(PEM, SPKI), "from_pem"),
                                 (p256.PrivateKey.from_der, key.public_bytes(DER, SPKI), "from_der")):
            e = raises(reason, fn, data)
            assert "use PublicKey.%s" % reader not in str(e) and "this is a public key" in str(e)
    raises("use PublicKey.from_pem(data)", p256.PrivateKey.from_pem, PK.to_pem())
    raises("use PublicKey.from_der(data)", p256.PrivateKey.from_der, PK.to_der())


# -- the error a reader raises is public ------------------------------------------------------

def _malformed_calls():
    sk = p256.PrivateKey.from_int(7)
    pk = sk.public_key
    spki, pkcs8 = pk.to_der(), sk.to_der()
    bad_sig = b"\x30\x06\x02\x01\x01\x02\x01"  # truncated
    return [
        ("PublicKey.from_der, trailing data", p256.PublicKey.from_der, spki + b"\x00"),
        ("PublicKey.from_der, BER length", p256.PublicKey.from_der,
         b"\x30\x81" + spki[1:2] + spki[2:]),
        ("PrivateKey.from_der, truncated", p256.PrivateKey.from_der, pkcs8[:-1]),
        ("PrivateKey.from_pem, bad DER", p256.PrivateKey.from_pem,
         "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----\n"
         % base64.b64encode(pkcs8[:-3]).decode()),
        ("normalize_s, malformed DER", p256.normalize_s, bad_sig),
        ("recover, malformed DER", lambda s: p256.PublicKey.recover(
            s, b"\x00" * 32, 0, encoding="der"), bad_sig),
        ("x509.parse, not a certificate", p256.x509.parse, spki),
    ]


@pytest.mark.parametrize("what,fn,data", _malformed_calls(), ids=[c[0] for c in _malformed_calls()])
def test_malformed_der_raises_a_public_error(what, fn, data):
    """A traceback names the error class: malformed DER is a ValueError of a public name
    (docs/api.md), never a class of a private module such as p256._der."""
    with pytest.raises(ValueError) as info:
        fn(data)
    cls = info.type
    assert cls is ValueError or not cls.__module__.startswith("p256._"), "%s raised %s.%s" % (
        what, cls.__module__, cls.__qualname__)
    assert "malformed" in str(info.value) or "DER" in str(info.value), str(info.value)
