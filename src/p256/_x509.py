# SPDX-License-Identifier: Apache-2.0
"""X.509 certificates (RFC 5280) on bytes, for P-256 keys: the parts that the subject's
key and the issuer's ECDSA signature need. No chain building, no validity dates, names, extensions or policy:
``verify_signature`` answers only "did this key sign this certificate's
TBSCertificate?", which is one step of path validation (RFC 5280 section 6), not all
of it. Use a full X.509 library (pyca/cryptography's verification API, OpenSSL) to
decide whether to trust a certificate.

Input is DER, or PEM with a "CERTIFICATE" block (the first one; text around it is
ignored). The certificate is read by its grammar (RFC 5280 4.1), with the strict DER
reader (p256._der) at every position: each field's tag is the one the grammar names
(class, form and number), Names are SEQUENCE OF SET OF {OID, value}, Validity two
UTCTime/GeneralizedTime in DER form, and only ASN.1 ANY (attribute values, algorithm
parameters) is checked generically (``Reader.any_der``: DER all the way down, string
and time types primitive, SET OF sorted). The structure: an explicit version only for
v2/v3 (DER leaves out the default v1), unique identifiers from v2 and extensions only in
v3, and the signature algorithm inside the TBSCertificate equal to the outer one
(4.1.1.2). Extensions are read far enough to refuse what DER and RFC 5280 4.2 refuse: an
empty list, one extension twice, ``critical`` written out as FALSE (the DEFAULT, which DER
omits, X.690 11.5); their ``critical`` flags and values are returned, not interpreted.
Signature algorithms: ecdsa-with-SHA256, -SHA384, -SHA512 (RFC 5758 3.2, parameters
absent); a digest longer than 256 bits is truncated to its leftmost 256 bits (FIPS
186-5), as every ECDSA P-256 verifier does. The work is linear in the certificate's
length (extensions are kept in a set by OID).

This module works on bytes and never imports the key classes: ``p256._keys``
(``PublicKey.from_certificate``) and the public ``p256.x509`` (``verify_signature``)
build on it.
"""

from __future__ import annotations

from typing import Dict, List, Literal, NamedTuple, Set, Tuple, Union

from . import _der as der
from . import _pem
from ._der import Reader

__all__ = ["Certificate", "Extension", "parse", "subject_public_key_info", "signature_hash",
           "SIGNATURE_HASHES"]

#: ecdsa-with-SHA256/384/512 (RFC 5758 3.2) -> the hash= name for PublicKey.verify.
SIGNATURE_HASHES: Dict[bytes, Literal["sha256", "sha384", "sha512"]] = {
    der.oid_from_str("1.2.840.10045.4.3.2"): "sha256",
    der.oid_from_str("1.2.840.10045.4.3.3"): "sha384",
    der.oid_from_str("1.2.840.10045.4.3.4"): "sha512",
}
_OTHER_SIGNATURES = der.oid_table((
    ("1.2.840.113549.1.1.11", "sha256WithRSAEncryption"),
    ("1.2.840.113549.1.1.12", "sha384WithRSAEncryption"),
    ("1.2.840.113549.1.1.13", "sha512WithRSAEncryption"),
    ("1.2.840.113549.1.1.5", "sha1WithRSAEncryption"),
    ("1.2.840.113549.1.1.10", "RSASSA-PSS"),
    ("1.2.840.10045.4.1", "ecdsa-with-SHA1"),
    ("1.2.840.10045.4.3.1", "ecdsa-with-SHA224"),
    ("1.3.101.112", "Ed25519"),
    ("1.3.101.113", "Ed448")))

Data = Union[bytes, bytearray, memoryview, str]


class Extension(NamedTuple):
    """One extension of a v3 certificate (RFC 5280 4.2), as read: not interpreted."""

    oid: bytes
    """The contents octets of extnID (compare them with ``der.oid_from_str(...)``)."""
    critical: bool
    """The critical flag (False when absent: the DEFAULT)."""
    value: bytes
    """The extnValue OCTET STRING's contents (the extension's own DER)."""


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
    extensions: Tuple[Extension, ...] = ()
    """The extensions in their order (none before v3)."""
    version: int = 0
    """The version field's value: 0 for v1 (absent), 1 for v2, 2 for v3."""
    subject: Tuple[Tuple[bytes, bytes], ...] = ()
    """The subject's attributes in their order: (attribute type OID contents, the value's
    complete DER encoding), every RelativeDistinguishedName's in turn."""


def _der_of(data: Data) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if raw[:1] == b"\x30":
            return raw
    elif not isinstance(data, str):
        raise TypeError("a certificate must be bytes (DER or PEM) or str (PEM), not %s"
                        % type(data).__name__)
    return _pem.decode(data, ("CERTIFICATE",))[1]


def _algorithm(r: Reader, name: str) -> Tuple[bytes, bytes]:
    """(complete encoding, OID contents) of an AlgorithmIdentifier: SEQUENCE { algorithm
    OBJECT IDENTIFIER, parameters ANY OPTIONAL } (RFC 5280 4.1.1.2)."""
    start = r.pos
    alg = r.enter(der.SEQUENCE, name)
    oid = alg.oid(name)
    if not alg.at_end():
        if oid in SIGNATURE_HASHES:
            raise r.error("ECDSA signature algorithm with parameters (RFC 5758 3.2: absent)")
        alg.any_der("the parameters of %s" % name)
    alg.finish()
    return r.buf[start:r.pos], oid


def _name(r: Reader, name: str) -> Tuple[Tuple[bytes, bytes], ...]:
    """Name (RFC 5280 4.1.2.4): SEQUENCE OF RelativeDistinguishedName, each a non-empty
    SET OF AttributeTypeAndValue { type OBJECT IDENTIFIER, value ANY }, in DER order.
    Returns the (type, value encoding) pairs in order."""
    attributes: List[Tuple[bytes, bytes]] = []
    rdns = r.enter(der.SEQUENCE, name)
    while not rdns.at_end():
        rdn = rdns.enter(der.SET, "a RelativeDistinguishedName of the %s" % name)
        if rdn.at_end():
            raise rdn.error("an empty RelativeDistinguishedName in the %s (SIZE (1..MAX))"
                            % name)
        previous = None
        while not rdn.at_end():
            start = rdn.pos
            atv = rdn.enter(der.SEQUENCE, "an AttributeTypeAndValue of the %s" % name)
            kind = atv.oid("an attribute type of the %s" % name)
            attributes.append((kind, atv.any_der("an attribute value of the %s" % name)))
            atv.finish()
            encoding = r.buf[start:rdn.pos]
            if previous is not None and encoding < previous:
                raise rdn.error("a RelativeDistinguishedName of the %s not in DER order "
                                "(SET OF, X.690 11.6)" % name)
            previous = encoding
    return tuple(attributes)


def _validity(r: Reader) -> None:
    """Validity: SEQUENCE { notBefore Time, notAfter Time }, Time a UTCTime or a
    GeneralizedTime, each in its DER form (X.690 11.7, 11.8)."""
    v = r.enter(der.SEQUENCE, "validity")
    for name in ("notBefore", "notAfter"):
        tag = v.peek()
        if tag is not None and tag not in (der.UTC_TIME, der.GENERALIZED_TIME):
            raise v.error("%s must be a UTCTime or a GeneralizedTime, not %s"
                          % (name, der.tag_name(tag)))
        v.any_der(name)
    v.finish()


def _subject_public_key_info(r: Reader) -> bytes:
    """SubjectPublicKeyInfo: SEQUENCE { AlgorithmIdentifier, BIT STRING }, any key type
    (``PublicKey.from_der`` then says whether it is a P-256 key)."""
    start = r.pos
    spki = r.enter(der.SEQUENCE, "subjectPublicKeyInfo")
    _algorithm(spki, "the subject's key algorithm")
    if spki.peek() != der.BIT_STRING:
        spki.read(der.BIT_STRING, "subjectPublicKey")  # raises, naming what is there
    spki.any_der("subjectPublicKey")
    spki.finish()
    return r.buf[start:r.pos]


def _extensions(r: Reader) -> Tuple[Extension, ...]:
    """extensions [3] EXPLICIT SEQUENCE SIZE (1..MAX) OF Extension, each SEQUENCE {
    extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }."""
    outer = r.enter(0xA3, "extensions [3]")
    seq = outer.enter(der.SEQUENCE, "Extensions")
    outer.finish()
    if seq.at_end():
        raise seq.error("an empty extensions list (RFC 5280 4.1: SIZE (1..MAX))")
    out: List[Extension] = []
    seen: Set[bytes] = set()
    while not seq.at_end():
        e = seq.enter(der.SEQUENCE, "Extension")
        oid = e.oid("extnID")
        if oid in seen:
            raise e.error("the extension %s appears twice (RFC 5280 4.2: at most once)"
                          % der.oid_text(oid))
        seen.add(oid)
        critical = False
        tag = e.peek()
        if tag is not None and tag & 0xDF == der.BOOLEAN:  # either form: boolean() says which
            critical = e.boolean("critical")
            if not critical:
                raise e.error("the extension %s has critical FALSE written out (the DEFAULT, "
                              "which DER omits, X.690 11.5)" % der.oid_text(oid))
        value = e.octet_string("extnValue")
        e.finish()
        out.append(Extension(oid, critical, value))
    return tuple(out)


def parse(data: Data) -> Certificate:
    """Split a certificate into the parts p256 uses, after the strict checks above.

    Args:
        data: DER bytes, or PEM (str or bytes) with a "CERTIFICATE" block.

    Returns:
        The TBSCertificate, signature algorithm OID, signature, SubjectPublicKeyInfo and
        extensions.

    Raises:
        TypeError: data is not bytes-like or str.
        ValueError: not a certificate in strict DER with the RFC 5280 structure (the
            message says what and where).
    """
    raw = _der_of(data)
    top = Reader(raw, "certificate")
    cert = top.enter(der.SEQUENCE, "Certificate")
    top.finish()
    tbs_start = cert.pos
    tbs = cert.enter(der.SEQUENCE, "tbsCertificate", "TBSCertificate")
    tbs_der = raw[tbs_start:cert.pos]
    outer_der, oid = _algorithm(cert, "signatureAlgorithm")
    start, stop = cert.read(der.BIT_STRING, "signatureValue")
    if start == stop or raw[start] != 0:
        raise cert.error("signatureValue BIT STRING with %s; a signature is whole octets"
                         % ("no contents" if start == stop else "%d unused bits" % raw[start]))
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
    tbs.integer("serialNumber")
    inner_alg, _ = _algorithm(tbs, "signature")
    _name(tbs, "issuer")
    _validity(tbs)
    subject = _name(tbs, "subject")
    spki = _subject_public_key_info(tbs)
    for tag, name in ((0x81, "issuerUniqueID"), (0x82, "subjectUniqueID")):
        if tbs.optional(tag):
            if version < 1:
                raise tbs.error("%s in a v%d certificate" % (name, version + 1))
            start, stop = tbs.read(tag, name)  # [n] IMPLICIT BIT STRING
            problem = der.primitive_problem(der.BIT_STRING, raw[start:stop])
            if problem:
                raise tbs.error("%s: %s" % (name, problem))
    extensions: Tuple[Extension, ...] = ()
    if tbs.optional(0xA3):
        if version < 2:
            raise tbs.error("extensions in a v%d certificate" % (version + 1))
        extensions = _extensions(tbs)
    tbs.finish()
    if inner_alg != outer_der:
        raise tbs.error("the signature algorithm inside the TBSCertificate differs from the "
                        "certificate's (RFC 5280 4.1.1.2)")
    return Certificate(tbs_der, oid, signature, spki, extensions, version, subject)


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
        name = _OTHER_SIGNATURES.get(c.signature_algorithm) or der.oid_text(c.signature_algorithm)
        raise ValueError("the certificate is signed with %s; p256 verifies "
                         "ecdsa-with-SHA256/384/512 only" % name)
    return hash_name
