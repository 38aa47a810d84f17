# SPDX-License-Identifier: Apache-2.0
"""WebAuthn attestation (W3C WebAuthn Level 3, sections 6.5 and 8) on bytes: the
attestationObject's CBOR map, and the statements of the formats ``none``, ``packed``
(self attestation and x5c) and ``fido-u2f``, for ``p256.webauthn.verify_registration``.

What is verified, per format:

- ``none`` (8.7): attStmt is the empty map;
- ``packed`` self attestation (8.2, no x5c): alg is the credential's (-7, ES256), and
  sig verifies under the credential's key over ``authenticatorData || clientDataHash``;
- ``packed`` with x5c (8.2): the certificate requirements of 8.2.1 on the attestation
  certificate (version 3; subject C, O, OU "Authenticator Attestation" and CN; Basic
  Constraints CA false; the id-fido-gen-ce-aaguid extension, when present, not critical
  and equal to the authenticator data's AAGUID), then sig under its key when the key is
  P-256 and alg is ES256;
- ``fido-u2f`` (8.6): one certificate with a P-256 key, whose signature over
  ``0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F`` verifies.

Each x5c link (certificate i signed by certificate i+1) is checked with p256 when the
issuer's key is P-256 and the signature ECDSA; a link signed otherwise (RSA, EdDSA: the
roots of many vendors) is not guessed at but marked "unverified" with the reason, and the
last certificate, whose issuer is outside x5c, is marked "last": the relying party's own
trust anchors and X.509 stack decide about it. A statement whose own signature p256
cannot check (an attestation key that is not P-256, an alg other than ES256, the formats
tpm, android-key, android-safetynet, apple and compound) is returned as attestation type
"unverified". An unknown fmt is refused.

Refusals are :class:`Refusal` (a ValueError with the WebAuthn step), which
``p256.webauthn`` turns into its public errors. Public data only: nothing here needs
constant time. This module never imports ``p256.webauthn`` (which imports it).
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, cast

from . import _cose, _x509
from . import _der as der
from ._keys import PublicKey

__all__ = ["Refusal", "Link", "Attestation", "AttestationObject", "parse_attestation_object",
           "verify_statement", "credential_key", "transports", "FORMATS", "UNVERIFIED_FORMATS"]

#: The formats whose statement is verified here.
FORMATS = ("none", "packed", "fido-u2f")
#: The registered formats (IANA "WebAuthn Attestation Statement Format Identifiers") whose
#: statement p256 does not check: accepted as attestation type "unverified".
UNVERIFIED_FORMATS = ("tpm", "android-key", "android-safetynet", "apple", "compound")
#: How many certificates an x5c may hold (real chains have 1 to 3).
MAX_CHAIN = 8

_ES256 = -7
_ALG_NAMES = {-7: "ES256", -35: "ES384", -36: "ES512", -8: "EdDSA", -257: "RS256",
              -258: "RS384", -259: "RS512", -37: "PS256", -65535: "RS1"}
_OID_C, _OID_O, _OID_OU, _OID_CN = (der.oid_from_str("2.5.4.%d" % n) for n in (6, 10, 11, 3))
_OID_BASIC_CONSTRAINTS = der.oid_from_str("2.5.29.19")
_OID_FIDO_AAGUID = der.oid_from_str("1.3.6.1.4.1.45724.1.1.4")
#: DirectoryString's choices and IA5String: the string types an attribute value may be.
_TEXT_TAGS = {0x0C: "utf-8", 0x13: "ascii", 0x16: "ascii", 0x14: "latin-1", 0x1E: "utf-16-be"}


class Refusal(ValueError):
    """A registration to refuse, at the WebAuthn step ``step``."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__(message)
        self.step = step


class Link(NamedTuple):
    """One certificate of x5c and what became of its signature."""

    certificate: bytes
    status: str  # "verified", "unverified" or "last"
    reason: str


class Attestation(NamedTuple):
    """The attestation type ("none", "self", "x5c" or "unverified") and the trust path."""

    type: str
    trust_path: Tuple[Link, ...]
    reason: str


class AttestationObject(NamedTuple):
    """The three members of an attestationObject (6.5.4)."""

    fmt: str
    statement: Dict[str, _cose.Value]
    auth_data: bytes


def _alg_name(alg: object) -> str:
    if type(alg) is int:
        return "%d (%s)" % (alg, _ALG_NAMES[alg]) if alg in _ALG_NAMES else str(alg)
    return type(alg).__name__


def _text_map(value: _cose.Value, what: str, step: str) -> Dict[str, _cose.Value]:
    """A CBOR map keyed by text strings, as a dict (the reader refused duplicates)."""
    if not isinstance(value, _cose.CborMap):
        raise Refusal(step, "the %s must be a CBOR map, not %s" % (what, _kind(value)))
    out: Dict[str, _cose.Value] = {}
    for key, item in value:
        if not isinstance(key, str):
            raise Refusal(step, "the %s is keyed by %s; its keys are text strings"
                          % (what, _kind(key)))
        out[key] = item
    return out


def _kind(value: object) -> str:
    if isinstance(value, _cose.CborMap):
        return "a map"
    return {bytes: "a byte string", str: "a text string", list: "an array", bool: "a bool",
            int: "an integer", type(None): "null"}.get(type(value), type(value).__name__)


def parse_attestation_object(raw: bytes) -> AttestationObject:
    """The attestationObject (6.5.4): one CBOR map of exactly "fmt" (text), "attStmt" (a
    map keyed by text) and "authData" (bytes), read by _cose's strict reader, nothing
    after it."""
    step = "attestationObject"
    if not raw:
        raise Refusal(step, "the attestationObject is empty")
    if raw[0] >> 5 != 5:
        raise Refusal(step, "the attestationObject must be a CBOR map, and starts with 0x%02x "
                      "(major type %d)" % (raw[0], raw[0] >> 5))
    try:
        value, end = _cose.read_item(raw, 0, "attestationObject")
    except ValueError as exc:
        raise Refusal(step, str(exc)) from None
    if end != len(raw):
        raise Refusal(step, "%d bytes after the attestationObject's map" % (len(raw) - end))
    members = _text_map(value, "attestationObject", step)
    for name in members:
        if name not in ("fmt", "attStmt", "authData"):
            raise Refusal(step, "the attestationObject has a member %r; WebAuthn defines fmt, "
                          "attStmt and authData" % name[:40])
    for name, want in (("fmt", str), ("authData", bytes)):
        if name not in members:
            raise Refusal(step, "the attestationObject has no %s" % name)
        if not isinstance(members[name], want):
            raise Refusal(step, "the attestationObject's %s must be %s, not %s"
                          % (name, _kind(want()), _kind(members[name])))
    if "attStmt" not in members:
        raise Refusal(step, "the attestationObject has no attStmt")
    statement = _text_map(members["attStmt"], "attStmt", step)
    return AttestationObject(cast(str, members["fmt"]), statement, cast(bytes, members["authData"]))


def _members(statement: Dict[str, _cose.Value], fmt: str, required: Sequence[str],
             optional: Sequence[str] = ()) -> None:
    for name in statement:
        if name not in required and name not in optional:
            raise Refusal("attStmt", "the %s attStmt has a member %r; it has %s" % (
                fmt, name[:40], ", ".join(list(required) + list(optional))))
    for name in required:
        if name not in statement:
            raise Refusal("attStmt", "the %s attStmt has no %s" % (fmt, name))


def _signature(statement: Dict[str, _cose.Value], fmt: str) -> bytes:
    sig = statement["sig"]
    if not isinstance(sig, bytes):
        raise Refusal("attStmt", "the %s attStmt's sig must be a byte string, not %s"
                      % (fmt, _kind(sig)))
    return sig


def _chain(statement: Dict[str, _cose.Value], fmt: str) -> List[bytes]:
    x5c = statement["x5c"]
    if not isinstance(x5c, list) or not x5c or not all(isinstance(c, bytes) for c in x5c):
        raise Refusal("attStmt", "the %s attStmt's x5c must be a non-empty array of byte "
                      "strings (DER certificates)" % fmt)
    if len(x5c) > MAX_CHAIN:
        raise Refusal("x5c", "x5c holds %d certificates; at most %d are read"
                      % (len(x5c), MAX_CHAIN))
    return cast(List[bytes], x5c)


def _parse(cert: bytes, index: int) -> _x509.Certificate:
    try:
        return _x509.parse(cert)
    except ValueError as exc:
        raise Refusal("x5c", "x5c certificate %d: %s" % (index, exc)) from None


def _p256_key(c: _x509.Certificate) -> Tuple[Optional[PublicKey], str]:
    """(the certificate's key, "") when it is P-256, else (None, why not)."""
    try:
        return PublicKey.from_der(c.subject_public_key_info), ""
    except ValueError as exc:
        return None, str(exc)


def _links(chain: List[bytes], certs: List[_x509.Certificate]) -> Tuple[Link, ...]:
    """Each certificate's signature, checked under the next certificate's key when p256
    can (a P-256 key and an ECDSA signature); the last one is the relying party's."""
    out = []
    for i, c in enumerate(certs):
        if i + 1 == len(certs):
            out.append(Link(chain[i], "last", "its issuer is not in x5c: verify it against "
                            "the relying party's trust anchors"))
            continue
        issuer, why = _p256_key(certs[i + 1])
        if issuer is None:
            out.append(Link(chain[i], "unverified", "certificate %d's key is not one p256 "
                            "verifies with (%s)" % (i + 1, why)))
            continue
        try:
            hash_name = _x509.signature_hash(c)
        except ValueError as exc:
            out.append(Link(chain[i], "unverified", str(exc)))
            continue
        if not issuer.verify(c.signature, c.tbs_certificate, hash=hash_name, encoding="der"):
            raise Refusal("x5c", "x5c certificate %d's signature does not verify under the key "
                          "of certificate %d, its issuer in the chain" % (i, i + 1))
        out.append(Link(chain[i], "verified", "signed by certificate %d (ECDSA, P-256)" % (i + 1)))
    return tuple(out)


def _text(value: bytes) -> Optional[str]:
    """An attribute value's text when it is one of the string types, else None."""
    encoding = _TEXT_TAGS.get(value[0]) if value else None
    if encoding is None:
        return None
    r = der.Reader(value, "attribute value")
    start, stop = r.read_tlv()[1:]
    try:
        return value[start:stop].decode(encoding)
    except UnicodeDecodeError:
        return None


def certificate_problem(c: _x509.Certificate, aaguid: bytes) -> Optional[str]:
    """Why the packed attestation certificate breaks WebAuthn 8.2.1, or None."""
    if c.version != 2:
        return "it is a v%d certificate; 8.2.1 requires version 3" % (c.version + 1)
    subject: Dict[bytes, bytes] = {}
    for kind, value in c.subject:
        subject.setdefault(kind, value)
    for oid, name in ((_OID_C, "C (country)"), (_OID_O, "O (organization)"),
                      (_OID_OU, "OU (organizational unit)"), (_OID_CN, "CN (common name)")):
        if oid not in subject:
            return "its subject has no %s; 8.2.1 requires C, O, OU and CN" % name
    ou = _text(subject[_OID_OU])
    if ou != "Authenticator Attestation":
        return ("its subject's OU is %r; 8.2.1 requires the literal 'Authenticator "
                "Attestation'" % (ou[:60] if ou is not None else "(not a string)"))
    for ext in c.extensions:
        if ext.oid == _OID_BASIC_CONSTRAINTS:
            r = der.Reader(ext.value, "Basic Constraints")
            seq = r.enter(der.SEQUENCE, "BasicConstraints")
            r.finish()
            if seq.optional(der.BOOLEAN) and seq.boolean("cA"):
                return "its Basic Constraints say CA true; 8.2.1 requires CA false"
        elif ext.oid == _OID_FIDO_AAGUID:
            if ext.critical:
                return ("its id-fido-gen-ce-aaguid extension (1.3.6.1.4.1.45724.1.1.4) is "
                        "critical; 8.2.1 requires it not to be")
            r = der.Reader(ext.value, "id-fido-gen-ce-aaguid")
            value = r.octet_string("the AAGUID")
            r.finish()
            if value != aaguid:
                return ("its id-fido-gen-ce-aaguid extension holds %s, and the authenticator "
                        "data's AAGUID is %s" % (value.hex()[:64], aaguid.hex()))
    return None


def _packed(statement: Dict[str, _cose.Value], signed: bytes, aaguid: bytes,
            credential_key: PublicKey) -> Attestation:
    _members(statement, "packed", ("alg", "sig"), ("x5c",))
    alg, sig = statement["alg"], _signature(statement, "packed")
    if type(alg) is not int:
        raise Refusal("attStmt", "the packed attStmt's alg must be an integer, not %s"
                      % _kind(alg))
    if "x5c" not in statement:  # self attestation: the credential's own key signs
        if alg != _ES256:
            raise Refusal("attStmt", "self attestation with alg %s; it must be the credential's "
                          "algorithm, -7 (ES256)" % _alg_name(alg))
        if not credential_key.verify(sig, signed, hash="sha256", encoding="der"):
            raise Refusal("signature", "the self attestation's signature does not verify "
                          "under the credential's key")
        return Attestation("self", (), "signed by the credential's own key")
    chain = _chain(statement, "packed")
    certs = [_parse(cert, i) for i, cert in enumerate(chain)]
    try:
        problem = certificate_problem(certs[0], aaguid)
    except ValueError as exc:
        problem = str(exc)
    if problem:
        raise Refusal("x5c", "the attestation certificate breaks WebAuthn 8.2.1: %s" % problem)
    links = _links(chain, certs)
    key, why = _p256_key(certs[0])
    if key is None or alg != _ES256:
        return Attestation("unverified", links, "the statement is signed with alg %s by a "
                           "certificate key %s; p256 verifies ES256 with P-256 keys only"
                           % (_alg_name(alg), "of P-256" if key is not None else
                              "that is not P-256 (%s)" % why))
    if not key.verify(sig, signed, hash="sha256", encoding="der"):
        raise Refusal("signature", "the packed attestation's signature does not verify under "
                      "the attestation certificate's key")
    return Attestation("x5c", links, "signed by the attestation certificate (x5c[0])")


def _fido_u2f(statement: Dict[str, _cose.Value], rp_id_hash: bytes, client_hash: bytes,
              credential_id: bytes, credential_key: PublicKey) -> Attestation:
    _members(statement, "fido-u2f", ("sig", "x5c"))
    sig, chain = _signature(statement, "fido-u2f"), _chain(statement, "fido-u2f")
    if len(chain) != 1:
        raise Refusal("attStmt", "the fido-u2f attStmt's x5c holds %d certificates; it holds "
                      "exactly one (8.6)" % len(chain))
    certs = [_parse(chain[0], 0)]
    key, why = _p256_key(certs[0])
    if key is None:
        raise Refusal("x5c", "the fido-u2f attestation certificate's key is not a P-256 key, "
                      "as 8.6 requires (%s)" % why)
    signed = b"\x00" + rp_id_hash + client_hash + credential_id + credential_key.to_bytes()
    if not key.verify(sig, signed, hash="sha256", encoding="der"):
        raise Refusal("signature", "the fido-u2f attestation's signature does not verify "
                      "under the attestation certificate's key")
    return Attestation("x5c", _links(chain, certs),
                       "signed by the attestation certificate (x5c[0])")


def verify_statement(fmt: str, statement: Dict[str, _cose.Value], auth_raw: bytes,
                     client_hash: bytes, aaguid: bytes, credential_id: bytes,
                     credential_key: PublicKey) -> Attestation:
    """The attestation statement of ``fmt`` verified (8.2, 8.6, 8.7); see the module
    docstring for what each format checks and what is returned unverified."""
    if fmt == "none":
        if statement:
            raise Refusal("attStmt", "fmt 'none' has an empty attStmt (8.7), this one has %s"
                          % ", ".join(repr(k[:40]) for k in statement))
        return Attestation("none", (), "no attestation")
    if fmt == "packed":
        return _packed(statement, auth_raw + client_hash, aaguid, credential_key)
    if fmt == "fido-u2f":
        return _fido_u2f(statement, auth_raw[:32], client_hash, credential_id, credential_key)
    if fmt in UNVERIFIED_FORMATS:
        return Attestation("unverified", (), "p256 does not verify %r attestation statements"
                           % fmt)
    raise Refusal("fmt", "unknown attestation statement format %r (p256 verifies %s)"
                  % (fmt[:40], ", ".join(FORMATS)))



def _cose_number(value: object) -> str:
    """A COSE_Key parameter's value for a message: the integer, or what it is instead."""
    if type(value) is int and -2**31 <= value < 2**31:
        return str(value)
    return "absent" if value is None else "(%s)" % type(value).__name__


def credential_key(cose_key: bytes) -> PublicKey:
    """The credential's key when it is an ES256 one (7.1 step 19), else Refusal at "alg"
    naming its algorithm. cose_key: the credentialPublicKey the strict authenticator data
    reader delimited (one map, with kty and alg)."""
    pairs = cast(_cose.CborMap, _cose.loads(cose_key))
    params = dict((k, v) for k, v in pairs if type(k) is int)
    alg, kty, crv = (_cose_number(params.get(label)) for label in (3, 1, -1))
    if alg != "-7" or kty != "2" or crv != "1":
        raise Refusal("alg", "the credential's key is COSE alg %s, kty %s, crv %s; p256 registers "
                      "ES256 credentials (alg -7, kty 2, crv 1) only: list only ES256 in "
                      "pubKeyCredParams, or verify other algorithms with another library"
                      % (alg, kty, crv))
    try:
        return PublicKey.from_cose(cose_key)
    except ValueError as exc:
        raise Refusal("alg", str(exc)) from None


def transports(value: object) -> Optional[Tuple[str, ...]]:
    """The transports argument (getTransports()) as a tuple of str, or None."""
    if value is None:
        return None
    if isinstance(value, (str, bytes, bytearray, memoryview)) or not all(
            isinstance(t, str) for t in value):  # type: ignore[attr-defined]
        raise TypeError("transports must be a collection of str (getTransports()) or None")
    return tuple(value)  # type: ignore[arg-type]
