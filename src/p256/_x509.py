# SPDX-License-Identifier: Apache-2.0
"""X.509 certificates (RFC 5280) on bytes, for P-256 keys: the parts that the subject's
key and the issuer's ECDSA signature need. No chain building, no validity dates, names, extensions or policy:
``verify_signature`` answers only "did this key sign this certificate's
TBSCertificate?", which is one step of path validation (RFC 5280 section 6), not all
of it. Use a full X.509 library (pyca/cryptography's verification API, OpenSSL) to
decide whether to trust a certificate.

Input is DER, or PEM with a "CERTIFICATE" block (the first one; text around it is
ignored). The certificate must be strict DER all the way down (minimal lengths and
INTEGERs, DER BOOLEAN and BIT STRING, SET OF sorted, nothing after the end), with the
RFC 5280 4.1 structure: an explicit version only for v2/v3 (DER leaves out the
default v1), extensions only in v3, and the signature algorithm inside the
TBSCertificate equal to the outer one (4.1.1.2). Signature algorithms:
ecdsa-with-SHA256, -SHA384, -SHA512 (RFC 5758 3.2, parameters absent); a digest
longer than 256 bits is truncated to its leftmost 256 bits (FIPS 186-5), as every
ECDSA P-256 verifier does.

This module works on bytes and never imports the key classes: ``p256._keys``
(``PublicKey.from_certificate``) and the public ``p256.x509`` (``verify_signature``)
build on it.
"""

from __future__ import annotations

from typing import Dict, Literal, NamedTuple, Union

from . import _der as der
from . import _pem
from ._der import Reader

__all__ = ["Certificate", "parse", "subject_public_key_info", "signature_hash", "SIGNATURE_HASHES"]

#: ecdsa-with-SHA256/384/512 (RFC 5758 3.2) -> the hash= name for PublicKey.verify.
SIGNATURE_HASHES: Dict[bytes, Literal["sha256", "sha384", "sha512"]] = {
    der.oid_from_str("1.2.840.10045.4.3.2"): "sha256",
    der.oid_from_str("1.2.840.10045.4.3.3"): "sha384",
    der.oid_from_str("1.2.840.10045.4.3.4"): "sha512",
}
_OTHER_SIGNATURES = {
    "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
    "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
    "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
    "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
    "1.2.840.113549.1.1.10": "RSASSA-PSS",
    "1.2.840.10045.4.1": "ecdsa-with-SHA1",
    "1.2.840.10045.4.3.1": "ecdsa-with-SHA224",
    "1.3.101.112": "Ed25519",
    "1.3.101.113": "Ed448",
}

Data = Union[bytes, bytearray, memoryview, str]


class Certificate(NamedTuple):
    """The parts of a certificate that p256 uses (all DER bytes, public data)."""

    tbs_certificate: bytes
    """The complete TBSCertificate encoding: what the issuer signed."""
    signature_algorithm: bytes
    """The contents octets of the signature algorithm's OBJECT IDENTIFIER."""
    signature: bytes
    """The signatureValue BIT STRING's bytes (for ECDSA, a DER Ecdsa-Sig-Value)."""
    subject_public_key_info: bytes
    """The complete SubjectPublicKeyInfo encoding (``PublicKey.from_der`` reads it)."""


def _der_of(data: Data) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if raw[:1] == b"\x30":
            return raw
    elif not isinstance(data, str):
        raise TypeError("a certificate must be bytes (DER or PEM) or str (PEM), not %s"
                        % type(data).__name__)
    return _pem.decode(data, ("CERTIFICATE",))[1]


def _algorithm(r: Reader, name: str) -> bytes:
    """The complete AlgorithmIdentifier encoding (compared as bytes)."""
    start = r.pos
    r.read(der.SEQUENCE, name)
    return r.buf[start:r.pos]


def parse(data: Data) -> Certificate:
    """Split a certificate into the parts p256 uses, after the strict checks above.

    Args:
        data: DER bytes, or PEM (str or bytes) with a "CERTIFICATE" block.

    Returns:
        The TBSCertificate, signature algorithm OID, signature and SubjectPublicKeyInfo.

    Raises:
        TypeError: data is not bytes-like or str.
        ValueError: not a certificate in strict DER with the RFC 5280 structure (the
            message says what and where).
    """
    raw = _der_of(data)
    whole = Reader(raw, "certificate")
    whole.any_der("the Certificate")  # strict DER at every level, before the structure
    whole.finish()
    top = Reader(raw, "certificate")
    cert = top.enter(der.SEQUENCE, "Certificate")
    top.finish()
    tbs_start = cert.pos
    tbs = cert.enter(der.SEQUENCE, "tbsCertificate", "TBSCertificate")
    tbs_der = raw[tbs_start:cert.pos]
    alg_start = cert.pos
    outer = cert.enter(der.SEQUENCE, "signatureAlgorithm")
    outer_der = raw[alg_start:outer.end]
    oid = outer.oid("the signature algorithm")
    if not outer.at_end():
        if oid in SIGNATURE_HASHES:
            raise cert.error("ECDSA signature algorithm with parameters (RFC 5758 3.2: absent)")
        outer.any_der("the signature algorithm parameters")
    outer.finish()
    start, stop = cert.read(der.BIT_STRING, "signatureValue")
    if raw[start] != 0:  # any_der has checked that the BIT STRING is not empty
        raise cert.error("signatureValue BIT STRING with %d unused bits; a signature is "
                         "whole octets" % raw[start])
    signature = raw[start + 1:stop]
    cert.finish()

    version = 0
    if tbs.optional(0xA0):
        v = tbs.enter(0xA0, "version")
        version = v.integer("version")
        v.finish()
        if version == 0:
            raise tbs.error("explicit version v1 (DER leaves out the DEFAULT)")
        if version not in (1, 2):
            raise tbs.error("unknown version %d (v1, v2 and v3 are 0, 1, 2)"
                            % version if -100 < version < 100 else "unknown version")
    tbs.read(der.INTEGER, "serialNumber")
    inner_alg = _algorithm(tbs, "signature")
    tbs.read(der.SEQUENCE, "issuer")
    tbs.read(der.SEQUENCE, "validity")
    tbs.read(der.SEQUENCE, "subject")
    spki = _algorithm(tbs, "subjectPublicKeyInfo")
    for tag, name, minimum in ((0x81, "issuerUniqueID", 1), (0x82, "subjectUniqueID", 1),
                               (0xA3, "extensions", 2)):
        if tbs.optional(tag):
            if version < minimum:
                raise tbs.error("%s in a v%d certificate" % (name, version + 1))
            tbs.read(tag, name)
    tbs.finish()
    if inner_alg != outer_der:
        raise tbs.error("the signature algorithm inside the TBSCertificate differs from the "
                        "certificate's (RFC 5280 4.1.1.2)")
    return Certificate(tbs_der, oid, signature, spki)


def subject_public_key_info(data: Data) -> bytes:
    """The certificate's SubjectPublicKeyInfo (DER), for ``PublicKey.from_der``.

    Args:
        data: the certificate, DER or PEM.

    Returns:
        The complete SubjectPublicKeyInfo encoding (any key type; from_der checks it).

    Raises:
        TypeError: data is not bytes-like or str.
        ValueError: the certificate is malformed.
    """
    return parse(data).subject_public_key_info


def signature_hash(c: Certificate) -> Literal["sha256", "sha384", "sha512"]:
    """The hash of the certificate's ECDSA signature algorithm.

    Raises:
        ValueError: an algorithm other than ecdsa-with-SHA256/384/512, named.
    """
    hash_name = SIGNATURE_HASHES.get(c.signature_algorithm)
    if hash_name is None:
        dotted = der.oid_to_str(c.signature_algorithm) or "?"
        name = _OTHER_SIGNATURES.get(dotted, dotted)
        raise ValueError("the certificate is signed with %s; p256 verifies "
                         "ecdsa-with-SHA256/384/512 only" % name)
    return hash_name
