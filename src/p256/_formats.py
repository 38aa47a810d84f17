# SPDX-License-Identifier: Apache-2.0
"""Key formats: which encoding a DER or PEM input is, and the one entry point per
direction over the per-format modules. Everything here is on bytes: scalars (32 bytes)
and SEC1 points in, DER/PEM out; DER/PEM in, the fields out (checked by the key classes
in _keys, which wrap these functions).

The formats, one module each over the strict DER reader (_der) and the EC algorithm
identifier (_ecparams): _pkcs8 (PrivateKeyInfo / OneAsymmetricKey), _sec1 (ECPrivateKey),
_spki (SubjectPublicKeyInfo), _pbes2 (EncryptedPrivateKeyInfo around a PKCS#8, with a
password), _pem (the armor), _jwk. A new format is a new module plus
its lines here (a PEM label, a sniffed shape).

Every problem raises ValueError (TypeError for an argument of the wrong type) with a
message naming it: another curve (by name when its OID is known), explicit curve
parameters, an encrypted key, malformed DER; input of the wrong kind (a public key given
to a private-key reader, PEM given to a DER reader) says which reader would take it,
and only when that reader would.

Side channels: the container is parsed with ordinary Python (branches on tags and
lengths, which are public); the private scalar's bytes are only sliced and copied, and
base64 decoding of a private PEM/JWK uses the interpreter's table-driven decoder, as
most libraries do. The range check 1 <= d < n is done by the constant-time core.
"""

from __future__ import annotations

from typing import List, Optional, Union

from . import _der as der
from . import _pbes2, _pem, _pkcs8, _sec1, _spki
from ._common import Buffer, as_bytes, lookup
from ._der import Reader
from ._ecparams import OID_EC_PUBLIC_KEY
from ._sec1 import Parts

__all__ = [
    "private_to_der", "private_to_pem", "private_from_der", "private_from_pem",
    "public_to_der", "public_to_pem", "public_from_der", "public_from_pem", "sniff",
]

PEM_PKCS8 = "PRIVATE KEY"
PEM_SEC1 = "EC PRIVATE KEY"
PEM_SPKI = "PUBLIC KEY"
PRIVATE_LABELS = (PEM_PKCS8, PEM_SEC1)
PRIVATE_FORMATS = {"pkcs8": PEM_PKCS8, "sec1": PEM_SEC1}  # format name -> PEM label

# ---------------------------------------------------------------------------------------
# Which shape is this (only to choose a reader or word a hint; the reader checks all)
# ---------------------------------------------------------------------------------------


CERTIFICATE_HINT = ("this is an X.509 certificate, not a key: read the key it holds with "
                    "PublicKey.from_certificate(data)")


def sniff(data: bytes) -> Optional[str]:
    """"spki", "pkcs8", "sec1", "encrypted" (EncryptedPrivateKeyInfo), "certificate" or
    "pem" by the first elements inside an outer SEQUENCE (or PEM text), else None."""
    if data[:1] != b"\x30":
        text = data.lstrip(b"\xef\xbb\xbf \t\r\n")
        return "pem" if text.startswith(b"-----BEGIN ") else None
    try:
        top = Reader(data, "key")
        r = top.enter(der.SEQUENCE, "SEQUENCE")
        first = r.peek()
        _, start, end = r.read_tlv()
        second = r.peek()
        if first == der.SEQUENCE and second == der.OCTET_STRING:
            # EncryptedPrivateKeyInfo { AlgorithmIdentifier (PBES2, ...), OCTET STRING }
            scheme = Reader(data, "key", start, end).oid("encryptionAlgorithm")
            return None if scheme == OID_EC_PUBLIC_KEY else "encrypted"
        if first == second == der.SEQUENCE:
            # Certificate { TBSCertificate, AlgorithmIdentifier, BIT STRING }
            r.read_tlv()
            return "certificate" if r.peek() == der.BIT_STRING else None
    except ValueError:
        return None
    if first == der.SEQUENCE:
        return "spki" if second == der.BIT_STRING else None
    if first == der.INTEGER:
        return "sec1" if second == der.OCTET_STRING else "pkcs8" if second == der.SEQUENCE else None
    return None


def _pem_hint(reader: str) -> str:
    return "this is PEM text, not DER: use %s.from_pem()" % reader


# ---------------------------------------------------------------------------------------
# Private keys
# ---------------------------------------------------------------------------------------


def private_to_der(d: bytes, q: bytes, format: str, password: object = None) -> bytes:
    """DER PKCS#8 or SEC1 of the scalar d and its 65-byte public point q; with a
    password, PKCS#8 EncryptedPrivateKeyInfo (_pbes2)."""
    if lookup(PRIVATE_FORMATS, format, "format") == PEM_SEC1:
        if password is not None:
            raise ValueError("a password needs format=\"pkcs8\" (SEC1 ECPrivateKey has no "
                             "standard encryption; its legacy PEM one is not written)")
        return _sec1.encode(d, q)
    if password is not None:
        return _pbes2.encrypt(_pkcs8.encode(d, q), password)
    return _pkcs8.encode(d, q)


def private_to_pem(d: bytes, q: bytes, format: str, password: object = None) -> bytes:
    label = lookup(PRIVATE_FORMATS, format, "format")
    if password is not None and label == PEM_PKCS8:
        label = _pem.ENCRYPTED_LABEL
    return _pem.encode(label, private_to_der(d, q, format, password))


def _private_fast(data: bytes, expect: Optional[str]) -> Optional[Parts]:
    """The parts when data is exactly our SEC1 or PKCS#8 encoding, else None."""
    if expect != "pkcs8":
        parts = _sec1.fast(data)
        if parts is not None:
            return parts
    if expect != "sec1":
        return _pkcs8.fast(data)
    return None


def _private_from_der(data: bytes, expect: Optional[str]) -> Parts:
    """PKCS#8 or SEC1 (expect = None detects which, else the format the PEM label named)."""
    parts = _private_fast(data, expect)
    return _private_from_der_full(data, expect) if parts is None else parts


def _private_from_der_full(data: bytes, expect: Optional[str]) -> Parts:
    top = Reader(data, "private key")
    if data[:1] != b"\x30" and sniff(data) == "pem":
        raise ValueError(_pem_hint("PrivateKey"))
    r = top.enter(der.SEQUENCE, "the outer element")
    top.finish()
    first = r.peek()
    if first == der.SEQUENCE:  # SubjectPublicKeyInfo or EncryptedPrivateKeyInfo
        kind = sniff(data)
        if kind == "spki":
            raise ValueError(_instead("public key (SubjectPublicKeyInfo)", "PublicKey",
                                      "from_der", data, "a private key"))
        if kind == "encrypted" and expect is not None:
            raise ValueError("the PEM label %r does not fit its contents, an encrypted "
                             "PKCS#8 key (labelled %r)" % (PRIVATE_FORMATS[expect],
                                                           _pem.ENCRYPTED_LABEL))
        if kind == "encrypted":
            raise ValueError(_pbes2.MISSING_PASSWORD)
        if kind == "certificate":
            raise ValueError(CERTIFICATE_HINT)
        Reader(data, r.what, r.pos, r.end).read_tlv()  # the precise error if it is malformed
        raise r.error("neither PKCS#8 nor SEC1 ECPrivateKey")
    if first != der.INTEGER:
        r.integer("version")  # raises: neither format starts with anything else
    # Both start with an INTEGER version; PKCS#8 continues with its AlgorithmIdentifier
    # (a SEQUENCE), SEC1 with the privateKey OCTET STRING.
    found = sniff(data)
    if found not in ("sec1", "pkcs8"):
        r.integer("version")  # the precise error when the version itself is malformed
        raise r.error("neither PKCS#8 (INTEGER, SEQUENCE, ...) nor SEC1 ECPrivateKey "
                      "(INTEGER, OCTET STRING, ...)")
    if expect is not None and found != expect:
        raise ValueError("the PEM label %r does not fit its contents, which are %s"
                         % (PRIVATE_FORMATS[expect],
                            "a SEC1 ECPrivateKey" if found == "sec1" else "PKCS#8"))
    if found == "sec1":
        r.what = "SEC1 ECPrivateKey"
        return _sec1.load(r)
    r.what = "PKCS#8 PrivateKeyInfo"
    return _pkcs8.load(r)


def _decrypt(data: bytes) -> Parts:
    """The parts of the PrivateKeyInfo inside a decrypted EncryptedPrivateKeyInfo."""
    return _private_from_der(data, "pkcs8")


def _with_password(data: bytes, expect: Optional[str], password: object) -> Parts:
    """A private key in DER, EncryptedPrivateKeyInfo when password is not None."""
    if password is None:
        return _private_from_der(data, expect)
    _pbes2.password_bytes(password)  # TypeError first
    if expect == "encrypted" or (expect is None and sniff(data) == "encrypted"):
        return _pbes2.decrypt(data, password, _decrypt)
    _private_from_der(data, expect)  # its own error when it is not a key at all
    raise ValueError(_pbes2.NOT_ENCRYPTED)


def private_from_der(data: object, password: object = None) -> Parts:
    """The parts of a DER PKCS#8 or SEC1 private key (told apart by their structure), or
    of an encrypted PKCS#8 one given its password."""
    if isinstance(data, str):
        raise TypeError("DER data must be bytes, not str%s"
                        % (" (" + _pem_hint("PrivateKey") + ")" if "-----BEGIN " in data else ""))
    return _with_password(as_bytes(data, "DER data"), None, password)


def _certificate_hint(seen: List[str]) -> str:
    return "; " + CERTIFICATE_HINT if "CERTIFICATE" in seen else ""


def private_from_pem(data: Union[str, Buffer], password: object = None) -> Parts:
    """The parts of the first PEM "PRIVATE KEY" (PKCS#8), "EC PRIVATE KEY" (SEC1) or, given
    its password, "ENCRYPTED PRIVATE KEY"."""

    def hint(seen: List[str]) -> str:
        if PEM_SPKI in seen:
            return "; " + _instead("public key", "PublicKey", "from_pem", data, "a private key")
        return _certificate_hint(seen)

    label, body = _pem.decode(data, PRIVATE_LABELS + (_pem.ENCRYPTED_LABEL,), hint)
    if label == _pem.ENCRYPTED_LABEL:
        if password is None:
            raise ValueError(_pbes2.MISSING_PASSWORD)
        return _with_password(body, "encrypted", password)
    return _with_password(body, "pkcs8" if label == PEM_PKCS8 else "sec1", password)


# ---------------------------------------------------------------------------------------
# Public keys
# ---------------------------------------------------------------------------------------


def public_to_der(point: bytes) -> bytes:
    return _spki.encode(point)


def public_to_pem(point: bytes) -> bytes:
    return _pem.encode(PEM_SPKI, _spki.encode(point))


def _instead(what: str, cls: str, reader: str, attempt: Union[str, Buffer], instead_of: str) -> str:
    """The message for a key of the other kind (what: "private key" or "public key"):
    use cls.reader, when it reads this input; else why it would not either."""
    try:
        if (cls, reader) == ("PrivateKey", "from_der"):
            _private_from_der(as_bytes(attempt, "data"), None)
        elif cls == "PrivateKey":
            private_from_pem(attempt)
        elif reader == "from_der":
            _public_from_der(as_bytes(attempt, "data"))
        else:
            public_from_pem(attempt)
    except ValueError as exc:
        if str(exc) == _pbes2.MISSING_PASSWORD:
            return ("this is an encrypted private key, not %s; use %s.%s(data, "
                    "password=...).public_key" % (instead_of, cls, reader))
        return ("this is a %s, not %s, and not one that %s.%s reads either: %s"
                % (what, instead_of, cls, reader, exc))
    tail = ".public_key" if what == "private key" else ""
    return "this is a %s, not %s; use %s.%s(data)%s" % (what, instead_of, cls, reader, tail)


def _public_from_der_full(data: bytes) -> bytes:
    kind = sniff(data)
    if kind == "pem":
        raise ValueError(_pem_hint("PublicKey"))
    if kind in ("sec1", "pkcs8"):
        raise ValueError(_instead("private key", "PrivateKey", "from_der", data,
                                  "a SubjectPublicKeyInfo"))
    if kind == "certificate":
        raise ValueError(CERTIFICATE_HINT)
    if kind == "encrypted":
        raise ValueError("this is an encrypted private key (PKCS#8 EncryptedPrivateKeyInfo), "
                         "not a public key; use PrivateKey.from_der(data, password=...)"
                         ".public_key")
    return _spki.decode_full(data)


def _public_from_der(data: bytes) -> bytes:
    point = _spki.fast(data)
    return _public_from_der_full(data) if point is None else point


def public_from_der(data: object) -> bytes:
    """The SEC1 point (not yet validated) of a DER SubjectPublicKeyInfo."""
    if isinstance(data, str):
        raise TypeError("DER data must be bytes, not str%s"
                        % (" (" + _pem_hint("PublicKey") + ")" if "-----BEGIN " in data else ""))
    return _public_from_der(as_bytes(data, "DER data"))


def public_from_pem(data: Union[str, Buffer]) -> bytes:
    """The SEC1 point (not yet validated) of a PEM "PUBLIC KEY"."""

    def hint(seen: List[str]) -> str:
        if {PEM_PKCS8, PEM_SEC1, _pem.ENCRYPTED_LABEL} & set(seen):
            return "; " + _instead("private key", "PrivateKey", "from_pem", data, "a public key")
        return _certificate_hint(seen)

    return _public_from_der(_pem.decode(data, (PEM_SPKI,), hint)[1])
