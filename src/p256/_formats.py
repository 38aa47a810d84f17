"""Key formats: PKCS#8, SEC1 ECPrivateKey, SubjectPublicKeyInfo (DER and PEM) and JWK.

The methods of PrivateKey and PublicKey (``to_der``, ``from_pem``, ``to_jwk``, ...) call
the functions here. What is accepted, and why:

Private keys, DER (``PrivateKey.from_der`` tells the two apart by their structure):

- PKCS#8 ``PrivateKeyInfo`` (RFC 5208) and RFC 5958 ``OneAsymmetricKey``: version 0 (v1)
  or 1 (v2); algorithm id-ecPublicKey (1.2.840.10045.2.1) with the namedCurve parameter
  prime256v1 (1.2.840.10045.3.1.7); privateKey an OCTET STRING holding an ECPrivateKey;
  then optionally attributes [0] (accepted when they are strict DER, X.501 Attributes in
  DER order; not interpreted) and, in v2 only, publicKey
  [1] (checked against the scalar like SEC1's).
- SEC1 ``ECPrivateKey`` (RFC 5915, SEC 1 v2 C.4): version 1; privateKey an OCTET STRING
  of exactly 32 bytes (RFC 5915 3: ceiling(log2(n)/8) octets; pyca/cryptography also
  insists; OpenSSL before 1.1 wrote shorter ones, `openssl ec` rewrites them); parameters
  [0] optional on input and, when present, the namedCurve prime256v1; publicKey [1]
  optional and, when present, a valid point equal to d*G.

Public keys: ``SubjectPublicKeyInfo`` (RFC 5280 4.1.2.7, RFC 5480) with id-ecPublicKey,
namedCurve prime256v1 and the point compressed or uncompressed (validated fully).

Written: PKCS#8 v1 holding ECPrivateKey {1, d, [1] publicKey} (no inner parameters);
SEC1 {1, d, [0] prime256v1, [1] publicKey}; SPKI with the uncompressed point unless asked
otherwise. These are byte for byte what OpenSSL and pyca/cryptography write.

PEM (RFC 7468): the first block whose label fits is used ("PRIVATE KEY" = PKCS#8,
"EC PRIVATE KEY" = SEC1, "PUBLIC KEY" = SPKI); text before, between and after blocks
is ignored, as OpenSSL does (`openssl ecparam -genkey` writes an "EC PARAMETERS" block
first). Lines may end in CRLF and trailing blanks; the base64 must be canonical; BEGIN
and END labels must match; headers are refused (an encrypted "Proc-Type: 4,ENCRYPTED"
key gets a message saying how to decrypt it). Up to the end of the block used, a
"-----BEGIN " anywhere but at the start of a well-formed BEGIN line that opens a block
is refused: OpenSSL ignores it, cryptography's reader takes it as a block, so such a file
holds different keys for different readers (found by tests/fuzz, pub_pem).

JWK (RFC 7517, RFC 7518 6.2): kty "EC", crv "P-256", x and y (and d for a private key)
base64url without padding of exactly 32 bytes each. Other members ("kid", "use", "alg",
"key_ops", ...) are accepted and ignored. A JSON text (str) is accepted as well as a
dict. A private JWK's x and y must equal d*G; ``PublicKey.from_jwk`` refuses a JWK that
carries "d", so a private key never passes silently through a public-key path.

Every problem raises ValueError (TypeError for an argument of the wrong type) with a
message naming it: another curve (by name when its OID is known), explicit curve
parameters, an encrypted key, a public key that does not match, malformed DER.

Side channels: the container is parsed with ordinary Python (branches on tags and
lengths, which are public); the private scalar's bytes are only sliced and copied, and
base64 decoding of a private PEM/JWK uses the interpreter's table-driven decoder, as
most libraries do. The range check 1 <= d < n is done by the constant-time core.
"""

from __future__ import annotations

import binascii

from . import _core
from . import _der as der
from ._der import Reader
from ._keys import PrivateKey, PublicKey, _lookup

__all__ = [
    "private_to_der",
    "private_to_pem",
    "private_from_der",
    "private_from_pem",
    "public_to_der",
    "public_to_pem",
    "public_from_der",
    "public_from_pem",
    "private_to_jwk",
    "public_to_jwk",
    "private_from_jwk",
    "public_from_jwk",
]

# ---------------------------------------------------------------------------------------
# Object identifiers
# ---------------------------------------------------------------------------------------

OID_EC_PUBLIC_KEY = der.oid_from_str("1.2.840.10045.2.1")  # RFC 5480 2.1.1
OID_PRIME256V1 = der.oid_from_str("1.2.840.10045.3.1.7")  # RFC 5480 2.1.1.1 (secp256r1)

# Named curves we recognise only to say which curve a rejected key is on
# (SEC 2 v2 A.2, RFC 5480 2.1.1.1, RFC 5639 4.1, GM/T 0006, ANSSI), by dotted OID:
# oid_to_str gives the text only for a valid minimal encoding, so a lookup is exact.
_OTHER_CURVES = dict(
    [
        ("1.2.840.10045.3.1.1", "secp192r1 (P-192)"),
        ("1.2.840.10045.3.1.2", "prime192v2"),
        ("1.2.840.10045.3.1.3", "prime192v3"),
        ("1.2.840.10045.3.1.4", "prime239v1"),
        ("1.2.840.10045.3.1.5", "prime239v2"),
        ("1.2.840.10045.3.1.6", "prime239v3"),
        ("1.3.132.0.6", "secp112r1"),
        ("1.3.132.0.7", "secp112r2"),
        ("1.3.132.0.28", "secp128r1"),
        ("1.3.132.0.29", "secp128r2"),
        ("1.3.132.0.9", "secp160k1"),
        ("1.3.132.0.8", "secp160r1"),
        ("1.3.132.0.30", "secp160r2"),
        ("1.3.132.0.31", "secp192k1"),
        ("1.3.132.0.32", "secp224k1"),
        ("1.3.132.0.33", "secp224r1 (P-224)"),
        ("1.3.132.0.10", "secp256k1"),
        ("1.3.132.0.34", "secp384r1 (P-384)"),
        ("1.3.132.0.35", "secp521r1 (P-521)"),
        ("1.3.132.0.1", "sect163k1"),
        ("1.3.132.0.15", "sect163r2"),
        ("1.3.132.0.26", "sect233k1"),
        ("1.3.132.0.27", "sect233r1"),
        ("1.3.132.0.16", "sect283k1"),
        ("1.3.132.0.17", "sect283r1"),
        ("1.3.132.0.36", "sect409k1"),
        ("1.3.132.0.37", "sect409r1"),
        ("1.3.132.0.38", "sect571k1"),
        ("1.3.132.0.39", "sect571r1"),
        ("1.3.36.3.3.2.8.1.1.1", "brainpoolP160r1"),
        ("1.3.36.3.3.2.8.1.1.3", "brainpoolP192r1"),
        ("1.3.36.3.3.2.8.1.1.5", "brainpoolP224r1"),
        ("1.3.36.3.3.2.8.1.1.7", "brainpoolP256r1"),
        ("1.3.36.3.3.2.8.1.1.8", "brainpoolP256t1"),
        ("1.3.36.3.3.2.8.1.1.9", "brainpoolP320r1"),
        ("1.3.36.3.3.2.8.1.1.11", "brainpoolP384r1"),
        ("1.3.36.3.3.2.8.1.1.13", "brainpoolP512r1"),
        ("1.2.156.10197.1.301", "SM2"),
        ("1.2.250.1.223.101.256.1", "FRP256v1"),
    ]
)

# Key algorithms we recognise only to name them in an error (RFC 8017, RFC 8410, RFC 5480).
_OTHER_ALGORITHMS = dict(
    [
        ("1.2.840.113549.1.1.1", "rsaEncryption (RSA)"),
        ("1.2.840.113549.1.1.10", "id-RSASSA-PSS (RSA-PSS)"),
        ("1.2.840.10040.4.1", "id-dsa (DSA)"),
        ("1.2.840.10046.2.1", "dhpublicnumber (DH)"),
        ("1.3.101.110", "X25519"),
        ("1.3.101.111", "X448"),
        ("1.3.101.112", "Ed25519"),
        ("1.3.101.113", "Ed448"),
        ("1.3.132.1.12", "id-ecDH (EC restricted to ECDH, RFC 5480 2.1.2)"),
        ("1.3.132.1.13", "id-ecMQV (EC restricted to ECMQV, RFC 5480 2.1.2)"),
    ]
)

_ENCRYPTED = (
    "encrypted private keys are not supported; decrypt the key first, for instance "
    "with `openssl pkey -in key.pem -out plain.pem` (it asks for the passphrase)"
)
_EXPLICIT = "explicit curve parameters are not supported; use a named curve (prime256v1)"

# Encodings that never change.
_P256_PARAMS = der.oid(OID_PRIME256V1)
_ALGORITHM_ID = der.sequence(der.oid(OID_EC_PUBLIC_KEY), _P256_PARAMS)
_VERSION_0 = der.integer(0)
_VERSION_1 = der.integer(1)

# Fast paths for the exact encodings that we, OpenSSL and cryptography write: when every
# framing byte equals the template's, the strict parse of that one structure would accept
# it and read the same fields (DER is unique), so the fields are sliced out directly and
# then checked exactly as the full parse checks them.
_D0, _Q0 = b"\x00" * 32, b"\x04" + b"\x00" * 64
_SEC1_T = der.sequence(_VERSION_1, der.octet_string(_D0), der.explicit(0, _P256_PARAMS),
                       der.explicit(1, der.bit_string(_Q0)))
_PKCS8_T = der.sequence(_VERSION_0, _ALGORITHM_ID, der.octet_string(der.sequence(
    _VERSION_1, der.octet_string(_D0), der.explicit(1, der.bit_string(_Q0)))))


def _template(t: bytes):
    """(length, head, d offset, middle, middle offset) of a template with d then Q."""
    d_at = t.index(_D0)
    q_at = t.rindex(_Q0)
    return len(t), t[:d_at], d_at, t[d_at + 32:q_at], q_at


_SEC1_FAST = _template(_SEC1_T)
_PKCS8_FAST = _template(_PKCS8_T)
_SPKI_U_HEAD = der.sequence(_ALGORITHM_ID, der.bit_string(_Q0))[:-65]
_SPKI_C_HEAD = der.sequence(_ALGORITHM_ID, der.bit_string(b"\x02" + _D0))[:-33]

_PEM_PKCS8 = "PRIVATE KEY"
_PEM_SEC1 = "EC PRIVATE KEY"
_PEM_SPKI = "PUBLIC KEY"
_PRIVATE_FORMATS = {"pkcs8": _PEM_PKCS8, "sec1": _PEM_SEC1}


def _oid_text(contents: bytes) -> str:
    """An OID for an error message: dotted, or hex when malformed; long ones cut short."""
    text = der.oid_to_str(contents) or "0x" + contents.hex()
    return text if len(text) <= 64 else text[:60] + "..."


def _small(value: int) -> str:
    """An integer from the input for a message (huge ones are not worth printing)."""
    return str(value) if -10**6 < value < 10**6 else "out of range"


def _as_bytes(data, what: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError("%s must be bytes, not %s" % (what, type(data).__name__))


# ---------------------------------------------------------------------------------------
# DER pieces
# ---------------------------------------------------------------------------------------


def _read_curve(r: Reader) -> None:
    """ECParameters (RFC 5480 2.1.1): must be the namedCurve prime256v1."""
    tag = r.peek()
    if tag == der.SEQUENCE:
        raise ValueError(_EXPLICIT)
    if tag == der.NULL:
        raise ValueError("implicitCA curve parameters (NULL) are not supported; "
                         "use a named curve (prime256v1)")
    curve = r.oid("namedCurve")
    if curve == OID_PRIME256V1:
        return
    name = _OTHER_CURVES.get(der.oid_to_str(curve))
    if name is not None:
        raise ValueError("the key is on the curve %s, not P-256 (prime256v1)" % name)
    raise ValueError("the key is on an unknown curve (OID %s), not P-256 (prime256v1)"
                     % _oid_text(curve))


def _read_algorithm(r: Reader) -> None:
    """AlgorithmIdentifier: id-ecPublicKey with namedCurve prime256v1."""
    a = r.enter(der.SEQUENCE, "AlgorithmIdentifier")
    algorithm = a.oid("algorithm")
    if algorithm != OID_EC_PUBLIC_KEY:
        name = _OTHER_ALGORITHMS.get(der.oid_to_str(algorithm)) or "OID " + _oid_text(algorithm)
        raise ValueError("not an EC key: the algorithm is %s, expected id-ecPublicKey "
                         "(1.2.840.10045.2.1)" % name)
    if a.at_end():
        raise ValueError("malformed %s: id-ecPublicKey without curve parameters" % r.what)
    _read_curve(a)
    a.finish()


def _check_public(sk: PrivateKey, point: bytes, where: str) -> None:
    """The public key stored beside a scalar must be a valid point equal to d*G."""
    try:
        stored = _core.point_decode(point)
    except ValueError as exc:
        raise ValueError("invalid public key in %s: %s" % (where, exc)) from None
    if stored != sk.public_key._b:
        raise ValueError("the public key in %s does not match the private key" % where)


def _read_ec_private_key(r: Reader) -> tuple:
    """ECPrivateKey (RFC 5915 3) -> (32-byte scalar, publicKey bytes or None)."""
    version = r.integer("version")
    if version != 1:
        raise ValueError("unsupported ECPrivateKey version %s (RFC 5915 requires 1)"
                         % _small(version))
    d = r.octet_string("privateKey")
    have_curve = r.optional(0xA0)
    if have_curve:
        params = r.enter(0xA0, "parameters [0]")
        _read_curve(params)
        params.finish()
    point = None
    if r.optional(0xA1):
        p = r.enter(0xA1, "publicKey [1]")
        point = p.bit_string("publicKey")
        p.finish()
    r.finish()
    if len(d) != 32:
        raise ValueError(
            "the ECPrivateKey privateKey must be a 32-byte OCTET STRING for P-256 (RFC 5915), "
            "got %d bytes%s" % (len(d), "; `openssl ec -in key.pem -out fixed.pem` rewrites "
                                "an old OpenSSL key with a short one" if len(d) < 32 else ""))
    return d, point


def _load_sec1(r: Reader) -> PrivateKey:
    d, point = _read_ec_private_key(r)
    sk = PrivateKey.from_bytes(d)
    if point is not None:
        _check_public(sk, point, "the ECPrivateKey")
    return sk


def _read_attributes(a: Reader) -> None:
    """PKCS#8 attributes (RFC 5958 2): a SET OF X.501 Attribute, each a SEQUENCE { type
    OBJECT IDENTIFIER, values SET OF ANY }. Not interpreted, but held to strict DER like
    the rest of the key (found by the fuzzer, tests/fuzz: they used to be skipped
    unread): every value is DER all the way down (Reader.any_der) and both SET OFs are in
    ascending order (X.690 11.6)."""
    previous = None
    while not a.at_end():
        start = a.pos
        attribute = a.enter(der.SEQUENCE, "Attribute")
        if der.oid_to_str(attribute.oid("Attribute type")) is None:
            raise a.error("malformed OBJECT IDENTIFIER (Attribute type)")
        if attribute.peek() != 0x31:
            attribute.read(0x31, "Attribute values (SET OF)")  # raises, naming what is there
        attribute.any_der("Attribute values")
        attribute.finish()
        encoding = a.buf[start:a.pos]
        if previous is not None and encoding < previous:
            raise a.error("attributes not in ascending order (X.690 11.6)")
        previous = encoding


def _load_pkcs8(r: Reader) -> PrivateKey:
    """PrivateKeyInfo / OneAsymmetricKey after its SEQUENCE header (RFC 5208, RFC 5958)."""
    version = r.integer("version")
    if version not in (0, 1):
        raise ValueError("unsupported PKCS#8 version %s (0 = v1, 1 = v2 of RFC 5958)"
                         % _small(version))
    _read_algorithm(r)
    inner = r.octet_string_reader("privateKey", "ECPrivateKey inside PKCS#8")
    if r.optional(0xA0):  # attributes [0] IMPLICIT SET OF Attribute: checked, not used
        _read_attributes(r.enter(0xA0, "attributes [0]"))
    outer_point = None
    if r.optional(0x81):  # publicKey [1] IMPLICIT BIT STRING, v2 only
        if version != 1:
            raise ValueError("malformed PKCS#8: a publicKey [1] field requires version 1 "
                             "(v2, RFC 5958)")
        outer_point = r.bit_string("publicKey [1]", tag=0x81)
    r.finish()
    ec = inner.enter(der.SEQUENCE, "ECPrivateKey")
    inner.finish()
    d, point = _read_ec_private_key(ec)
    sk = PrivateKey.from_bytes(d)
    if point is not None:
        _check_public(sk, point, "the ECPrivateKey")
    if outer_point is not None:
        _check_public(sk, outer_point, "the PKCS#8 publicKey field")
    return sk


def _private_fast(data: bytes, expect):
    """The key when data is exactly our SEC1 or PKCS#8 encoding, else None."""
    for fmt, (size, head, d_at, mid, q_at) in (("sec1", _SEC1_FAST), ("pkcs8", _PKCS8_FAST)):
        if len(data) == size and data.startswith(head) and data[d_at + 32:q_at] == mid \
                and expect in (None, fmt):
            sk = PrivateKey.from_bytes(data[d_at:d_at + 32])
            _check_public(sk, data[q_at:], "the ECPrivateKey")
            return sk
    return None


def _private_from_der(data: bytes, expect) -> PrivateKey:
    """PKCS#8 or SEC1 (expect = None detects which, else the format the PEM label named)."""
    sk = _private_fast(data, expect)
    if sk is not None:
        return sk
    return _private_from_der_full(data, expect)


def _private_from_der_full(data: bytes, expect) -> PrivateKey:
    top = Reader(data, "private key")
    r = top.enter(der.SEQUENCE, "the outer element")
    top.finish()
    first = r.peek()
    if first == der.SEQUENCE:  # SubjectPublicKeyInfo or EncryptedPrivateKeyInfo
        probe = Reader(data, r.what, r.pos, r.end)
        probe.read_tlv()
        second = probe.peek()
        if second == der.BIT_STRING:
            raise ValueError("this is a public key (SubjectPublicKeyInfo), not a private key; "
                             "use PublicKey.from_der()")
        if second == der.OCTET_STRING:
            raise ValueError(_ENCRYPTED + " (this is a PKCS#8 EncryptedPrivateKeyInfo)")
        raise r.error("neither PKCS#8 nor SEC1 ECPrivateKey")
    if first != der.INTEGER:
        r.integer("version")  # raises: neither format starts with anything else
    # Both start with an INTEGER version; PKCS#8 continues with its AlgorithmIdentifier
    # (a SEQUENCE), SEC1 with the privateKey OCTET STRING.
    probe = Reader(data, r.what, r.pos, r.end)
    probe.read_tlv()
    second = probe.peek()
    if second == der.OCTET_STRING:
        found = "sec1"
    elif second == der.SEQUENCE:
        found = "pkcs8"
    else:
        r.integer("version")  # the precise error when the version itself is malformed
        raise r.error("neither PKCS#8 (INTEGER, SEQUENCE, ...) nor SEC1 ECPrivateKey "
                      "(INTEGER, OCTET STRING, ...)")
    if expect is not None and found != expect:
        raise ValueError("the PEM label %r does not fit its contents, which are %s"
                         % (_PRIVATE_FORMATS[expect],
                            "a SEC1 ECPrivateKey" if found == "sec1" else "PKCS#8"))
    if found == "sec1":
        r.what = "SEC1 ECPrivateKey"
        return _load_sec1(r)
    r.what = "PKCS#8 PrivateKeyInfo"
    return _load_pkcs8(r)


def _public_from_der(data: bytes) -> PublicKey:
    n = len(data)
    if (n == 91 and data.startswith(_SPKI_U_HEAD)) or (n == 59 and data.startswith(_SPKI_C_HEAD)):
        point = data[26:]  # the exact SPKI we write: only the point is left to check
        try:
            return PublicKey.from_bytes(point)
        except ValueError as exc:
            raise ValueError("invalid public key in the SubjectPublicKeyInfo: %s" % exc) from None
    return _public_from_der_full(data)


def _public_from_der_full(data: bytes) -> PublicKey:
    top = Reader(data, "SubjectPublicKeyInfo")
    r = top.enter(der.SEQUENCE, "the outer element")
    top.finish()
    if r.peek() == der.INTEGER:
        raise ValueError("this is a private key, not a SubjectPublicKeyInfo; "
                         "use PrivateKey.from_der(data).public_key")
    _read_algorithm(r)
    point = r.bit_string("subjectPublicKey")
    r.finish()
    try:
        return PublicKey.from_bytes(point)
    except ValueError as exc:
        raise ValueError("invalid public key in the SubjectPublicKeyInfo: %s" % exc) from None


def _ec_private_key(sk: PrivateKey, with_curve: bool) -> bytes:
    parts = [_VERSION_1, der.octet_string(sk._sk.to_bytes())]
    if with_curve:
        parts.append(der.explicit(0, _P256_PARAMS))
    parts.append(der.explicit(1, der.bit_string(sk.public_key._b)))
    return der.sequence(*parts)


# ---------------------------------------------------------------------------------------
# PEM (RFC 7468)
# ---------------------------------------------------------------------------------------

_B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_DELETE = str.maketrans("", "", _B64_ALPHABET)
_B64URL_DELETE = str.maketrans("", "", _B64_ALPHABET[:62] + "-_")
_B64URL_TO_STD = str.maketrans("-_", "+/")
_B64_TO_URL = bytes.maketrans(b"+/", b"-_")


def _b64_decode_strict(text: str, what: str) -> bytes:
    """Canonical base64 (RFC 4648 4): alphabet, padding and zero pad bits all checked."""
    body = text.rstrip("=")
    if len(text) % 4 or len(text) - len(body) > 2 or body.translate(_B64_DELETE):
        raise ValueError("%s is not valid base64" % what)
    raw = binascii.a2b_base64(text)
    if binascii.b2a_base64(raw, newline=False).decode("ascii") != text:
        raise ValueError("%s is not canonical base64 (non-zero pad bits)" % what)
    return raw


def _pem_encode(label: str, data: bytes) -> bytes:
    b64 = binascii.b2a_base64(data, newline=False)
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    head = ("-----BEGIN %s-----\n" % label).encode("ascii")
    tail = ("-----END %s-----\n" % label).encode("ascii")
    return head + b"\n".join(lines) + b"\n" + tail


def _pem_decode(data, labels: tuple, kind: str):
    """(label, DER bytes) of the first PEM block whose label is in labels."""
    if isinstance(data, str):
        text = data
    elif isinstance(data, (bytes, bytearray, memoryview)):
        text = bytes(data).decode("latin-1")  # surrounding text may be anything
    else:
        raise TypeError("PEM data must be str or bytes, not %s" % type(data).__name__)
    lines = text.split("\n")
    seen = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.rstrip(" \t\r")
        i += 1
        if raw.find("-----BEGIN ", 1) >= 0:
            raise ValueError("ambiguous PEM: a '-----BEGIN ' boundary that does not start "
                             "its line (readers disagree on where such a block starts)")
        if not (line.startswith("-----BEGIN ") and line.endswith("-----") and len(line) > 16):
            if raw.startswith("-----BEGIN "):
                raise ValueError("malformed PEM BEGIN line %r" % line[:80])
            continue
        label = line[11:-5]
        start = i
        while i < len(lines) and not lines[i].startswith("-----END "):
            if "-----BEGIN " in lines[i]:
                raise ValueError("ambiguous PEM: a '-----BEGIN ' inside the block %r (readers "
                                 "disagree on where a block starts)" % label)
            i += 1
        if i == len(lines):
            raise ValueError("PEM block %r has no END line" % label)
        end = lines[i].rstrip(" \t\r")
        i += 1
        if end != "-----END %s-----" % label:
            raise ValueError("PEM END line %r does not match its BEGIN label %r" % (end, label))
        body = [x.rstrip(" \t\r") for x in lines[start:i - 1]]
        if label == "ENCRYPTED PRIVATE KEY" and kind == "private":
            raise ValueError(_ENCRYPTED)
        if label not in labels:
            seen.append(label)
            continue
        if body and ":" in body[0]:  # RFC 1421 headers: only for legacy encryption
            headers = body[:body.index("")] if "" in body else body
            if any(h.startswith("Proc-Type:") and "ENCRYPTED" in h for h in headers):
                raise ValueError(_ENCRYPTED)
            raise ValueError("PEM headers are not supported (%r)" % body[0])
        if "" in body:
            raise ValueError("empty line inside the PEM block %r" % label)
        b64 = "".join(body)
        if not b64:
            raise ValueError("empty PEM block %r" % label)
        if not b64.isascii():
            raise ValueError("the PEM block %r is not valid base64" % label)
        return label, _b64_decode_strict(b64, "the PEM block %r" % label)
    wanted = " or ".join(repr(x) for x in labels)
    if not seen:
        raise ValueError("no PEM block found (expected %s)" % wanted)
    hint = ""
    if kind == "public" and (_PEM_PKCS8 in seen or _PEM_SEC1 in seen):
        hint = "; this is a private key: use PrivateKey.from_pem(data).public_key"
    elif kind == "public" and "CERTIFICATE" in seen:
        hint = "; extract the key of a certificate with `openssl x509 -pubkey -noout -in cert.pem`"
    elif kind == "private" and _PEM_SPKI in seen:
        hint = "; this is a public key: use PublicKey.from_pem()"
    raise ValueError("no %s PEM block found, only %s%s"
                     % (wanted, ", ".join(repr(x) for x in seen), hint))


# ---------------------------------------------------------------------------------------
# JWK (RFC 7517, RFC 7518 6.2)
# ---------------------------------------------------------------------------------------


def _b64url(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).rstrip(b"=").translate(_B64_TO_URL).decode()


def _jwk_bytes(jwk, member: str) -> bytes:
    """A 32-byte value in base64url without padding (RFC 7515 2, RFC 7518 6.2.1.2)."""
    try:
        value = jwk[member]
    except KeyError:
        raise ValueError("the JWK has no %r member" % member) from None
    if not isinstance(value, str):
        raise ValueError("the JWK member %r must be a string, not %s"
                         % (member, type(value).__name__))
    if "=" in value:
        raise ValueError("the JWK member %r has base64 padding; JWK base64url has none" % member)
    if not value.isascii() or value.translate(_B64URL_DELETE) or len(value) % 4 == 1:
        raise ValueError("the JWK member %r is not base64url" % member)
    std = value.translate(_B64URL_TO_STD) + "=" * (-len(value) % 4)
    raw = binascii.a2b_base64(std)
    if binascii.b2a_base64(raw, newline=False).decode("ascii") != std:
        raise ValueError("the JWK member %r is not canonical base64url (non-zero pad bits)"
                         % member)
    if len(raw) != 32:
        raise ValueError("the JWK member %r must encode exactly 32 bytes for P-256, got %d"
                         % (member, len(raw)))
    return raw


def _jwk_point(jwk) -> tuple:
    """(the JWK as a mapping, the 65-byte SEC1 encoding of x, y, not yet validated),
    after checking kty and crv; a JSON str is parsed first."""
    if isinstance(jwk, str):
        import json  # only when needed: json costs a few ms of import time

        try:
            jwk = json.loads(jwk)
        except ValueError as exc:
            raise ValueError("the JWK is not valid JSON: %s" % exc) from None
        except RecursionError:  # "[[[[..." 1000 deep; found writing tests/fuzz (pub_jwk)
            raise ValueError("the JWK is not valid JSON: nested too deeply") from None
        if not isinstance(jwk, dict):
            raise ValueError("the JWK must be a JSON object, not %s" % type(jwk).__name__)
    elif not isinstance(jwk, dict):
        from collections.abc import Mapping  # lazily: collections costs ~1.5 ms to import

        if not isinstance(jwk, Mapping):
            raise TypeError("a JWK must be a dict or a JSON str, not %s" % type(jwk).__name__)
    kty = jwk.get("kty")
    if kty != "EC":
        if kty is None:
            raise ValueError("the JWK has no 'kty' member")
        raise ValueError("the JWK has kty %r; a P-256 key has kty 'EC'" % (kty,))
    crv = jwk.get("crv")
    if crv != "P-256":
        if crv is None:
            raise ValueError("the JWK has no 'crv' member")
        raise ValueError("the JWK is on the curve %r, not 'P-256'" % (crv,))
    return jwk, b"\x04" + _jwk_bytes(jwk, "x") + _jwk_bytes(jwk, "y")


# ---------------------------------------------------------------------------------------
# Entry points (called by the PrivateKey / PublicKey methods)
# ---------------------------------------------------------------------------------------


def private_to_der(sk: PrivateKey, format: str) -> bytes:
    label = _lookup(_PRIVATE_FORMATS, format, "format")
    if label == _PEM_SEC1:
        return _ec_private_key(sk, True)
    return der.sequence(_VERSION_0, _ALGORITHM_ID, der.octet_string(_ec_private_key(sk, False)))


def private_to_pem(sk: PrivateKey, format: str) -> bytes:
    label = _lookup(_PRIVATE_FORMATS, format, "format")
    return _pem_encode(label, private_to_der(sk, format))


def private_from_der(data) -> PrivateKey:
    return _private_from_der(_as_bytes(data, "DER data"), None)


def private_from_pem(data) -> PrivateKey:
    label, body = _pem_decode(data, (_PEM_PKCS8, _PEM_SEC1), "private")
    return _private_from_der(body, "pkcs8" if label == _PEM_PKCS8 else "sec1")


def public_to_der(pk: PublicKey, compressed: bool) -> bytes:
    return der.sequence(_ALGORITHM_ID, der.bit_string(pk.to_bytes(compressed)))


def public_to_pem(pk: PublicKey, compressed: bool) -> bytes:
    return _pem_encode(_PEM_SPKI, public_to_der(pk, compressed))


def public_from_der(data) -> PublicKey:
    return _public_from_der(_as_bytes(data, "DER data"))


def public_from_pem(data) -> PublicKey:
    return _public_from_der(_pem_decode(data, (_PEM_SPKI,), "public")[1])


def public_to_jwk(pk: PublicKey) -> dict:
    b = pk._b
    return {"kty": "EC", "crv": "P-256", "x": _b64url(b[1:33]), "y": _b64url(b[33:])}


def private_to_jwk(sk: PrivateKey) -> dict:
    jwk = public_to_jwk(sk.public_key)
    jwk["d"] = _b64url(sk._sk.to_bytes())
    return jwk


def public_from_jwk(jwk) -> PublicKey:
    jwk, point = _jwk_point(jwk)
    if "d" in jwk:
        raise ValueError("this JWK holds a private key ('d'); load it with "
                         "PrivateKey.from_jwk(jwk) and take its .public_key")
    try:
        return PublicKey.from_bytes(point)
    except ValueError as exc:
        raise ValueError("invalid public key in the JWK: %s" % exc) from None


def private_from_jwk(jwk) -> PrivateKey:
    jwk, point = _jwk_point(jwk)
    sk = PrivateKey.from_bytes(_jwk_bytes(jwk, "d"))
    _check_public(sk, point, "the JWK (x, y)")
    return sk
