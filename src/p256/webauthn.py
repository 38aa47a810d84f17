# SPDX-License-Identifier: Apache-2.0
"""WebAuthn assertions (W3C WebAuthn Level 3, section 7.2) for an ES256 credential, and the
strict reader of authenticator data (6.1).

:func:`verify_assertion` is the relying party's check of an assertion, safe by default:
it takes what the relying party expects (its RP ID, its origin or origins, the challenge
it issued, whether user verification is required, and the credential's stored signature
counter) and performs every step of 7.2 that concerns the assertion itself, in the
specification's order:

- the client data (``clientDataJSON``, read by the strict JOSE JSON reader: UTF-8, one
  object, no member twice): ``type`` is "webauthn.get"; ``challenge`` is the base64url
  encoding of the challenge issued; ``origin`` is one of the expected origins;
  ``topOrigin`` (and ``crossOrigin`` true) only when the caller names the top origins it
  expects to be framed in;
- the authenticator data, read by :func:`parse_authenticator_data` (strict: attested
  credential data exactly when AT is set, extensions exactly when ED is, each CBOR map
  delimited by its encoding, nothing after them): ``rpIdHash`` is SHA-256 of the RP ID;
  UP (user present) is set; UV (user verified) is set when required; BS (backup state)
  is not set without BE (backup eligible);
- the signature: ECDSA P-256 / SHA-256 over ``authenticatorData || SHA-256(clientDataJSON)``,
  X9.62 DER (6.5.6), with the COSE_Key stored at registration
  (``p256.PublicKey.from_cose``);
- the signature counter: if the stored or the new count is nonzero, the new one must be
  greater, else the authenticator may be cloned (:class:`PossibleClone`).

It returns the new signature count, to store; any failed step raises
:class:`AssertionRejected` (a ``ValueError``) whose ``step`` names it. The relying
party's own steps come before and after (7.2 steps 1-6: choosing the credential by its
id and user handle; storing the count; its policy on backup state and extensions).

:func:`verify_assertion_signature` checks the signature alone (7.2's signature step),
for callers that make every other check themselves; its name says that it is not the
whole verification.
"""
# This module imports _keys at module level; _keys never imports it.

from __future__ import annotations

import hashlib as _hashlib
import hmac as _hmac
import typing as _typing

from . import _attestation, _cose
from ._common import as_bytes as _as_bytes
from ._jose import b64url_encode as _b64url_encode, parse_json_object as _parse_json_object
from . import _keys

if _typing.TYPE_CHECKING:  # names of annotations only: the namespace holds the public ones
    from typing import Any, Collection, Dict, Optional, Sequence, Tuple, Union

    from ._common import Buffer
    from ._keys import PublicKey

__all__ = ["AuthenticatorData", "AssertionRejected", "PossibleClone", "Registration",
           "AttestationCertificate", "RegistrationRejected", "UnsupportedAttestation",
           "parse_authenticator_data", "verify_assertion", "verify_assertion_signature",
           "verify_registration"]

#: Flags of authenticator data (WebAuthn 6.1).
_UP, _UV, _BE, _BS, _AT, _ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


class AssertionRejected(ValueError):
    """An assertion that the relying party must refuse (a ``ValueError``).

    ``step`` names the check of WebAuthn 7.2 that failed: "clientDataJSON", "type",
    "challenge", "origin", "tokenBinding" (an object whose status is not
    "present" or "supported"), "topOrigin", "authenticatorData", "rpIdHash", "UP", "UV",
    "BS", "signature" or "signCount"."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__("WebAuthn assertion refused at %s: %s" % (step, message))
        self.step = step
        self.reason = message


class PossibleClone(AssertionRejected):
    """The signature counter did not increase although the stored or the new count is
    nonzero (7.2: "a signal that the authenticator may be cloned"). The signature was
    valid; what to do next (refuse, flag the credential) is the relying party's policy."""

    def __init__(self, stored: int, received: int) -> None:
        super().__init__("signCount", "the signature counter went from %d to %d; if either is "
                                      "nonzero the new one must be greater: the authenticator "
                                      "may be cloned" % (stored, received))
        self.stored_sign_count = stored
        self.received_sign_count = received


#: The fixed part of authenticator data: rpIdHash (32), flags (1), signCount (4).
_FIXED_LENGTH = 37
#: The longest credential ID (WebAuthn 6.1: credentialIdLength "MUST be <= 1023").
_MAX_CREDENTIAL_ID_LENGTH = 1023
_COSE_KTY, _COSE_ALG = 1, 3


def _has_label(pairs: _cose.CborMap, label: int) -> bool:
    """Whether a decoded COSE_Key has the integer label (CBOR true is not 1)."""
    return any(type(key) is int and key == label for key, _ in pairs)


class AuthenticatorData(_typing.NamedTuple):
    """Authenticator data (WebAuthn Level 3 6.1), as :func:`parse_authenticator_data`
    reads it: the fixed fields, then the attested credential data (present exactly when
    the AT flag is set) and the extensions (exactly when ED is set). Immutable."""

    rp_id_hash: bytes
    """SHA-256 of the RP ID the credential is scoped to (32 bytes)."""
    flags: int
    """The flags byte: bit 0 UP, bit 2 UV, bit 3 BE, bit 4 BS, bit 6 AT, bit 7 ED."""
    sign_count: int
    """The signature counter (big-endian uint32; 0 when the authenticator keeps none)."""
    aaguid: Optional[bytes] = None
    """The authenticator's AAGUID (16 bytes) when AT is set, else None."""
    credential_id: Optional[bytes] = None
    """The credential ID (at most 1023 bytes) when AT is set, else None."""
    credential_public_key: Optional[bytes] = None
    """The credential's COSE_Key, its exact CBOR bytes (one map, with kty and alg), when
    AT is set, else None; :attr:`public_key` reads an ES256 one."""
    extensions: Optional[bytes] = None
    """The authenticator extension outputs, the exact CBOR bytes of their map (keyed by
    extension identifier), when ED is set, else None."""

    @property
    def user_present(self) -> bool:
        """The UP flag (bit 0): the user was present."""
        return bool(self.flags & _UP)

    @property
    def user_verified(self) -> bool:
        """The UV flag (bit 2): the user was verified."""
        return bool(self.flags & _UV)

    @property
    def backup_eligible(self) -> bool:
        """The BE flag (bit 3): the credential may be backed up (a multi-device one)."""
        return bool(self.flags & _BE)

    @property
    def backed_up(self) -> bool:
        """The BS flag (bit 4): the credential is backed up now."""
        return bool(self.flags & _BS)

    @property
    def attested_credential_data(self) -> bool:
        """The AT flag (bit 6): attested credential data follows the fixed fields."""
        return bool(self.flags & _AT)

    @property
    def extension_data(self) -> bool:
        """The ED flag (bit 7): extensions end the authenticator data."""
        return bool(self.flags & _ED)

    @property
    def public_key(self) -> PublicKey:
        """The credential's public key, when it is an ES256 one: COSE kty 2 (EC2), crv 1
        (P-256), alg -7 (ES256).

        Raises:
            ValueError: there is no attested credential data (AT is not set), or its
                COSE_Key is another kind of key (the message names the parameter), or
                its point is not on the curve.
        """
        if self.credential_public_key is None:
            raise ValueError("this authenticator data has no attested credential data (the AT "
                             "flag is not set), so no credential public key")
        key = _keys.PublicKey.from_cose(self.credential_public_key)  # kty, crv and alg if present
        pairs = _typing.cast(_cose.CborMap, _cose.loads(self.credential_public_key))
        if not _has_label(pairs, _COSE_ALG):
            raise ValueError("the credential's COSE_Key has no alg (3); WebAuthn keys carry "
                             "one, and this reads alg -7 (ES256) only")
        return key


def _malformed(problem: str) -> ValueError:
    return ValueError("malformed authenticator data: %s" % problem)


def _fixed_fields(raw: bytes) -> None:
    """Refuse authenticator data shorter than its fixed fields."""
    if len(raw) < _FIXED_LENGTH:
        raise _malformed("%d bytes; it has at least 37 (rpIdHash 32, flags 1, signCount 4)"
                         % len(raw))


def _cbor_map(raw: bytes, pos: int, what: str) -> Tuple[_cose.CborMap, int]:
    """The CBOR map that starts at pos, delimited by its own encoding: (map, end)."""
    if raw[pos] >> 5 != 5:
        raise _malformed("the %s at offset %d must be a CBOR map, and starts with 0x%02x "
                         "(major type %d)" % (what, pos, raw[pos], raw[pos] >> 5))
    value, end = _cose.read_item(raw, pos, "authenticator data: the %s at offset %d"
                                 % (what, pos))
    return _typing.cast(_cose.CborMap, value), end  # major type 5: a map


def parse_authenticator_data(data: Buffer) -> AuthenticatorData:
    """Authenticator data (WebAuthn Level 3 6.1), read strictly: the one reader of it.

    After rpIdHash (32 bytes), flags (1) and signCount (4, big-endian) come, in this
    order, the attested credential data exactly when the AT flag is set (aaguid, 16
    bytes; credentialIdLength, 2 bytes big-endian, at most 1023; credentialId; the
    credential's COSE_Key, one CBOR map with kty and alg) and the extensions exactly when
    ED is set (one CBOR map keyed by text strings), then nothing. Each CBOR map is
    delimited by its own encoding, read as strictly as ``PublicKey.from_cose`` reads a
    key (deterministic encoding; nesting, item count and every length bounded by the
    input).

    Args:
        data: authenticatorData as the client returned it (decoded from base64url).

    Returns:
        The fields, with ``aaguid``, ``credential_id`` and ``credential_public_key`` None
        without AT and ``extensions`` None without ED.

    Raises:
        TypeError: data is not bytes-like.
        ValueError: data breaks a rule above; the message says which and at which offset.
    """
    raw = _as_bytes(data, "authenticator data")
    _fixed_fields(raw)
    flags, end = raw[32], len(raw)
    pos, after = _FIXED_LENGTH, "signCount"
    aaguid = credential_id = credential_key = extensions = None
    if flags & _AT:
        if end - pos < 18:
            raise _malformed("the AT flag is set, and the attested credential data at offset %d "
                             "has %d bytes where aaguid (16) and credentialIdLength (2) take 18"
                             % (pos, end - pos))
        aaguid = raw[pos:pos + 16]
        length = int.from_bytes(raw[pos + 16:pos + 18], "big")
        if length > _MAX_CREDENTIAL_ID_LENGTH:
            raise _malformed("credentialIdLength %d at offset %d; at most %d"
                             % (length, pos + 16, _MAX_CREDENTIAL_ID_LENGTH))
        pos += 18
        if end - pos < length:
            raise _malformed("the credentialId of %d bytes at offset %d runs past the end of "
                             "the data (%d bytes left)" % (length, pos, end - pos))
        credential_id, pos = raw[pos:pos + length], pos + length
        if pos == end:
            raise _malformed("the AT flag is set, and no credentialPublicKey follows the "
                             "credentialId (offset %d)" % pos)
        key, key_end = _cbor_map(raw, pos, "credentialPublicKey")
        for label, name in ((_COSE_KTY, "kty (1)"), (_COSE_ALG, "alg (3)")):
            if not _has_label(key, label):
                raise _malformed("the credentialPublicKey at offset %d has no %s; a "
                                 "credential's COSE_Key has both" % (pos, name))
        credential_key, pos, after = raw[pos:key_end], key_end, "credentialPublicKey"
    if flags & _ED:
        if pos == end:
            raise _malformed("the ED flag is set, and no extensions follow the %s (offset %d)"
                             % (after, pos))
        outputs, ext_end = _cbor_map(raw, pos, "extensions")
        for identifier, _ in outputs:
            if not isinstance(identifier, str):
                raise _malformed("the extensions at offset %d are keyed by %s; extension "
                                 "identifiers are text strings"
                                 % (pos, type(identifier).__name__))
        extensions, pos, after = raw[pos:ext_end], ext_end, "extensions"
    if pos != end:
        unset = [name for flag, name in ((_AT, "AT"), (_ED, "ED")) if not flags & flag]
        hint = "; %s%s is not set" % ("neither " if len(unset) == 2 else "", " nor ".join(unset))
        raise _malformed("%d byte%s at offset %d after the %s%s" % (
            end - pos, "s" if end - pos > 1 else "", pos, after, hint if unset else ""))
    return AuthenticatorData(raw[:32], flags, int.from_bytes(raw[33:37], "big"), aaguid,
                             credential_id, credential_key, extensions)


def verify_assertion_signature(public_key: PublicKey, authenticator_data: Buffer,
                               client_data_json: Buffer, signature: Buffer) -> bool:
    """Whether ``signature`` is the credential's ES256 signature of this assertion: the
    signature step of WebAuthn 7.2 and nothing else.

    This is not a verification of the assertion: a replayed assertion, one for another
    relying party or origin, one made without the user present or from a cloned
    authenticator all pass. Use :func:`verify_assertion` unless every other step is made
    by the caller.

    Args:
        public_key: the credential's key (``PublicKey.from_cose(stored_cose_key)``).
        authenticator_data: ``response.authenticatorData``, decoded from base64url.
        client_data_json: ``response.clientDataJSON``, decoded from base64url (the exact
            bytes: never re-serialize the JSON).
        signature: ``response.signature``, decoded from base64url (X9.62 DER).

    Returns:
        True when the DER ECDSA signature over ``authenticator_data ||
        SHA-256(client_data_json)`` verifies, False for any invalid signature (malformed
        DER included).

    Raises:
        TypeError: public_key is not a PublicKey, or an argument is not bytes-like.
        ValueError: authenticator_data is shorter than its 37 fixed bytes (what follows
            them is not read: :func:`parse_authenticator_data` reads it).
    """
    if not isinstance(public_key, _keys.PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth = _as_bytes(authenticator_data, "authenticator_data")
    _fixed_fields(auth)
    client = _hashlib.sha256(_as_bytes(client_data_json, "client_data_json")).digest()
    return public_key.verify(_as_bytes(signature, "signature"), auth + client,
                             hash="sha256", encoding="der")


def _expected(value: Union[str, Collection[str], None], what: str) -> Collection[str]:
    """The expected origins as a collection of str (a str is one origin)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (bytes, bytearray, memoryview)) or not all(
            isinstance(v, str) for v in value):
        raise TypeError("%s must be a str or a collection of str" % what)
    return tuple(value)


def _unicode_problem(text: str) -> Optional[str]:
    """Why text is not Unicode text (a lone surrogate, which a JSON escape such as
    "\\ud800" can write and UTF-8 cannot encode), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return "a lone surrogate (U+%04X at index %d)" % (ord(text[exc.start]), exc.start)
    return None


_Rejected = _typing.Callable[[str, str], ValueError]


def _member(client_data: Dict[str, Any], name: str) -> str:
    """The client data's member name: a string of Unicode text, else AssertionRejected."""
    value = client_data.get(name)
    if not isinstance(value, str):
        raise AssertionRejected(name, "the client data's %r must be a string, not %s"
                                % (name, "absent" if value is None else type(value).__name__))
    problem = _unicode_problem(value)
    if problem:
        raise AssertionRejected(name, "the client data's %r is not Unicode text: it holds %s"
                                % (name, problem))
    return value


def _sign_count(value: object) -> int:
    """The stored signature counter argument, checked: an int in 0..2^32-1."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("sign_count must be an int (the stored counter), not %s"
                        % type(value).__name__)
    if not 0 <= value < 1 << 32:
        shown = str(value) if value.bit_length() <= 64 else "a %d-bit integer" % value.bit_length()
        raise ValueError("sign_count must be in 0..2^32-1 (the stored counter, a uint32), "
                         "not %s" % shown)
    return value


class _Expected(_typing.NamedTuple):
    """What the relying party expects of a ceremony, its arguments checked."""

    rp_id: str
    origins: Collection[str]
    top_origins: Collection[str]
    challenge: bytes
    require_user_verification: bool


def _expectations(rp_id: object, origin: object, top_origin: object, challenge: object,
                  require_user_verification: object) -> _Expected:
    """The arguments both ceremonies share, checked (TypeError, ValueError)."""
    expected_challenge = _as_bytes(challenge, "challenge")
    if not isinstance(rp_id, str):
        raise TypeError("rp_id must be a str, not %s" % type(rp_id).__name__)
    if _unicode_problem(rp_id):
        raise ValueError("rp_id is not Unicode text: it holds %s" % _unicode_problem(rp_id))
    origins = _expected(origin, "origin")  # type: ignore[arg-type]
    top_origins = _expected(top_origin, "top_origin")  # type: ignore[arg-type]
    if type(require_user_verification) is not bool:
        raise TypeError("require_user_verification must be True or False, not %s"
                        % type(require_user_verification).__name__)
    return _Expected(rp_id, origins, top_origins, expected_challenge, require_user_verification)


def _check_client_data(raw: bytes, ceremony: str, expect: _Expected,
                       rejected: _Rejected) -> None:
    """The client data's steps (7.1 steps 5-10, 7.2 steps 9-14): read strictly; type,
    challenge, origin, topOrigin. A failed step is AssertionRejected, made ``rejected``'s
    error for a registration."""
    try:
        _client_data_steps(raw, ceremony, expect)
    except AssertionRejected as exc:
        if rejected is AssertionRejected:
            raise
        raise rejected(exc.step, exc.reason) from None


def _client_data_steps(raw: bytes, ceremony: str, expect: _Expected) -> None:
    try:
        c = _parse_json_object(raw, "clientDataJSON")
    except ValueError as exc:
        raise AssertionRejected("clientDataJSON", str(exc)) from None
    other = {"webauthn.get": "an assertion", "webauthn.create": "a registration"}
    if _member(c, "type") != ceremony:
        raise AssertionRejected("type", "the client data's type is %r, not %r (%s)" % (
            c["type"][:40], ceremony, other.get(c["type"], "a different ceremony")))
    if not _hmac.compare_digest(_member(c, "challenge").encode("utf-8"),
                                _b64url_encode(expect.challenge).encode("ascii")):
        raise AssertionRejected("challenge", "the client data's challenge is not the one "
                                "issued (a replayed or foreign %s)"
                                % other[ceremony].split(" ", 1)[1])
    if _member(c, "origin") not in expect.origins:
        raise AssertionRejected("origin", "the client data's origin %r is not an expected "
                                "origin" % c["origin"][:80])
    binding = c.get("tokenBinding")  # reserved in Level 3; old U2F clients wrote a string
    if isinstance(binding, dict) and not (binding.get("status") in ("present", "supported")
                                          and isinstance(binding.get("id", ""), str)):
        raise AssertionRejected("tokenBinding", "the client data's tokenBinding object must "
                                "have status 'present' or 'supported' (WebAuthn "
                                "TokenBindingStatus), not %.80r" % (binding,))
    if "topOrigin" in c or c.get("crossOrigin", False) is not False:
        if not expect.top_origins:
            raise AssertionRejected("topOrigin", "the ceremony was made in a cross-origin frame "
                                    "(crossOrigin/topOrigin), which the relying party does "
                                    "not expect (top_origin=None)")
        if _member(c, "topOrigin") not in expect.top_origins:
            raise AssertionRejected("topOrigin", "the client data's topOrigin %r is not an "
                                    "expected top origin" % c["topOrigin"][:80])


def _check_flags(auth: AuthenticatorData, expect: _Expected, rejected: _Rejected) -> None:
    """rpIdHash, UP, UV and BS (7.1 steps 13-16, 7.2 steps 15-18)."""
    if not _hmac.compare_digest(auth.rp_id_hash,
                                _hashlib.sha256(expect.rp_id.encode("utf-8")).digest()):
        raise rejected("rpIdHash", "rpIdHash is not SHA-256 of the RP ID %r (a ceremony for "
                       "another relying party)" % expect.rp_id[:80])
    if not auth.flags & _UP:
        raise rejected("UP", "the UP flag is not set: the user was not present")
    if expect.require_user_verification and not auth.flags & _UV:
        raise rejected("UV", "the UV flag is not set, and user verification is required")
    if auth.flags & _BS and not auth.flags & _BE:
        raise rejected("BS", "the BS flag (backed up) is set without BE (backup eligible)")


def verify_assertion(public_key: PublicKey, authenticator_data: Buffer, client_data_json: Buffer,
                     signature: Buffer, *, rp_id: str, origin: Union[str, Collection[str]],
                     challenge: Buffer, require_user_verification: bool, sign_count: int,
                     top_origin: Union[str, Collection[str], None] = None) -> int:
    """Verify a WebAuthn assertion as a relying party (WebAuthn 7.2) and return the new
    signature count.

    Every step of 7.2 that concerns the assertion, in order (see the module docstring):
    the client data's type, challenge, origin and topOrigin; the authenticator data's
    rpIdHash, UP, UV and backup flags; the signature; the signature counter.

    Args:
        public_key: the credential's key (``PublicKey.from_cose(stored_cose_key)``).
        authenticator_data: ``response.authenticatorData``, decoded from base64url.
        client_data_json: ``response.clientDataJSON``, decoded from base64url (the exact
            bytes the authenticator's signature covers).
        signature: ``response.signature``, decoded from base64url (X9.62 DER).
        rp_id: the relying party's RP ID (for instance "example.com").
        origin: the expected origin ("https://example.com"), or a collection of them.
        challenge: the challenge issued for this ceremony (the bytes, not base64url).
        require_user_verification: whether the UV flag must be set (the ceremony asked
            for userVerification "required").
        sign_count: the credential's stored signature counter (0 for a new credential or
            an authenticator without a counter).
        top_origin: the top-level origins under which the relying party expects to be
            framed cross-origin, or None (then an assertion with a topOrigin, or
            crossOrigin true, is refused).

    Returns:
        The new signature count (store it; 0 when the authenticator keeps none).

    Raises:
        AssertionRejected: a step failed; its ``step`` names which (a ValueError).
        PossibleClone: the signature is valid but the counter did not increase (an
            AssertionRejected with step "signCount").
        TypeError: an argument of the wrong type (the message names it and its type;
            a bool is not an int).
        ValueError: sign_count outside 0..2^32-1, or rp_id not Unicode text (a lone
            surrogate); the message names the argument and its value.
    """
    if not isinstance(public_key, _keys.PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth_raw = _as_bytes(authenticator_data, "authenticator_data")
    client_raw = _as_bytes(client_data_json, "client_data_json")
    sig = _as_bytes(signature, "signature")
    expect = _expectations(rp_id, origin, top_origin, challenge, require_user_verification)
    sign_count = _sign_count(sign_count)

    # 7.2: JSONtext = UTF-8 decode(clientDataJSON); C = parse JSON (strictly).
    _check_client_data(client_raw, "webauthn.get", expect, AssertionRejected)
    try:
        auth = parse_authenticator_data(auth_raw)
    except ValueError as exc:
        raise AssertionRejected("authenticatorData", str(exc)) from None
    _check_flags(auth, expect, AssertionRejected)

    if not public_key.verify(sig, auth_raw + _hashlib.sha256(client_raw).digest(),
                             hash="sha256", encoding="der"):
        raise AssertionRejected("signature", "the signature does not verify under the "
                                "credential's public key")

    if auth.sign_count or sign_count:
        if auth.sign_count <= sign_count:
            raise PossibleClone(sign_count, auth.sign_count)
    return auth.sign_count


# -- registration (7.1) ---------------------------------------------------------------------


class RegistrationRejected(ValueError):
    """A registration that the relying party must refuse (a ``ValueError``).

    ``step`` names the check of WebAuthn 7.1 that failed: "clientDataJSON", "type",
    "challenge", "origin", "tokenBinding", "topOrigin", "attestationObject",
    "authenticatorData", "rpIdHash", "UP", "UV", "BS", "alg" (the credential is not an
    ES256 one), "fmt" (an unknown attestation statement format), "attStmt" (a statement
    of the wrong shape),
    "x5c" (an attestation certificate: malformed, breaking WebAuthn 8.2.1, or a chain
    link whose ECDSA signature does not verify), "signature" (the attestation signature)
    or "attestation" (:class:`UnsupportedAttestation`)."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__("WebAuthn registration refused at %s: %s" % (step, message))
        self.step = step
        self.reason = message


class UnsupportedAttestation(RegistrationRejected):
    """The relying party asked for verified attestation (``require_verified_attestation
    =True``) and the attestation holds a signature that p256 does not verify: a chain
    link or a statement signed with RSA or EdDSA, a statement format p256 does not
    implement (tpm, android-key, android-safetynet, apple, compound). Its ``step`` is
    "attestation"; its ``registration`` is what :func:`verify_registration` would have
    returned, for a relying party that finishes the check with its own X.509 stack."""

    def __init__(self, message: str, registration: Registration) -> None:
        super().__init__("attestation", message)
        self.registration = registration


class AttestationCertificate(_typing.NamedTuple):
    """One certificate of an attestation's trust path (x5c, the attestation certificate
    first) and what p256 made of its signature."""

    certificate: bytes
    """The certificate, DER (``p256.x509.parse`` reads it)."""
    status: str
    """"verified": its signature verified under the next certificate's P-256 key;
    "unverified": its issuer's key or signature algorithm is one p256 does not verify
    (RSA, EdDSA; ``reason`` names it), so that link is the relying party's to check;
    "last": the chain's last certificate, whose issuer is not in x5c (the relying
    party's trust anchors decide)."""
    reason: str
    """Why, in words."""

    @property
    def verified(self) -> bool:
        """Whether p256 verified this certificate's signature (status "verified")."""
        return self.status == "verified"


class Registration(_typing.NamedTuple):
    """A verified registration (WebAuthn 7.1): what the relying party stores, and what it
    may decide on (backup flags, attestation). Immutable."""

    credential_id: bytes
    """The credential ID (at most 1023 bytes): the key to store the credential under."""
    public_key: PublicKey
    """The credential's ES256 public key (a p256.PublicKey)."""
    credential_public_key: bytes
    """The credential's COSE_Key, its exact CBOR bytes from the authenticator data: what
    to store (``PublicKey.from_cose`` reads it back for :func:`verify_assertion`)."""
    sign_count: int
    """The signature counter at registration: the first stored ``sign_count``."""
    aaguid: bytes
    """The authenticator's AAGUID (16 bytes; zeros when it gives none)."""
    user_verified: bool
    """The UV flag: the user was verified."""
    backup_eligible: bool
    """The BE flag: a multi-device credential (for instance a synced passkey)."""
    backed_up: bool
    """The BS flag: the credential is backed up now."""
    attestation_format: str
    """The attestation statement format (fmt): "none", "packed", "fido-u2f", ..."""
    attestation_type: str
    """"none"; "self" (packed, signed by the credential's own key); "x5c" (Basic or
    AttCA: signed by the attestation certificate, trust_path[0]); "unverified" (a
    statement p256 does not verify: see ``attestation_reason``)."""
    trust_path: _typing.Tuple[AttestationCertificate, ...]
    """The x5c certificates, each marked verified or not (empty without x5c)."""
    attestation_reason: str
    """What the attestation type rests on, or why the statement is unverified."""
    extensions: Optional[bytes] = None
    """The authenticator extension outputs (CBOR bytes) when the ED flag is set."""
    transports: Optional[_typing.Tuple[str, ...]] = None
    """The transports given to :func:`verify_registration` (``getTransports()``)."""


def verify_registration(attestation_object: Buffer, client_data_json: Buffer, *, rp_id: str,
                        origin: Union[str, Collection[str]], challenge: Buffer,
                        require_user_verification: bool,
                        top_origin: Union[str, Collection[str], None] = None,
                        require_verified_attestation: bool = False,
                        transports: Optional[Sequence[str]] = None) -> Registration:
    """Verify a WebAuthn registration as a relying party (WebAuthn Level 3, 7.1) and
    return what to store.

    The steps of 7.1 that concern the response, in order: the client data (type
    "webauthn.create", challenge, origin, topOrigin, read strictly as for assertions);
    the attestationObject (one CBOR map of fmt, attStmt and authData, read by the strict
    CBOR reader); the authenticator data (:func:`parse_authenticator_data`; attested
    credential data required): rpIdHash, UP, UV when required, BS not without BE; the
    credential's algorithm, ES256 only; the attestation statement: "none", "packed"
    (self attestation, or x5c with the certificate requirements of 8.2.1) and
    "fido-u2f" are verified; the x5c chain's links are checked where the issuer's key is
    P-256 and the rest marked (:class:`AttestationCertificate`). Left to the relying
    party: that the credential ID is not registered yet (7.1 step 26), its policy on
    backup flags, extensions and attestation (which trust anchors; whether "none" or
    "unverified" attestation is acceptable).

    Args:
        attestation_object: ``response.attestationObject``, decoded from base64url.
        client_data_json: ``response.clientDataJSON``, decoded from base64url.
        rp_id: the relying party's RP ID (for instance "example.com").
        origin: the expected origin, or a collection of them.
        challenge: the challenge issued for this ceremony (the bytes, not base64url).
        require_user_verification: whether the UV flag must be set.
        top_origin: the expected top-level origins of a cross-origin frame, or None (then
            a response with topOrigin, or crossOrigin true, is refused).
        require_verified_attestation: when True, an attestation holding a signature
            p256 does not verify (an RSA or EdDSA link inside x5c, a statement signed
            other than ES256, the formats tpm, android-key, android-safetynet, apple and
            compound) raises :class:`UnsupportedAttestation` instead of being returned
            marked. It does not demand attestation: "none" and self attestation pass.
        transports: ``response.getTransports()``, returned in ``transports`` to store.

    Returns:
        The :class:`Registration`: credential ID, public key and its COSE_Key bytes, sign
        count, AAGUID, flags, the attestation's format, type and trust path.

    Raises:
        RegistrationRejected: a step failed; its ``step`` names which (a ValueError).
        UnsupportedAttestation: see ``require_verified_attestation``.
        TypeError: an argument of the wrong type (the message names it).
        ValueError: rp_id not Unicode text (a lone surrogate).
    """
    att_raw = _as_bytes(attestation_object, "attestation_object")
    client_raw = _as_bytes(client_data_json, "client_data_json")
    transport_list = _attestation.transports(transports)
    expect = _expectations(rp_id, origin, top_origin, challenge, require_user_verification)
    if type(require_verified_attestation) is not bool:
        raise TypeError("require_verified_attestation must be True or False, not %s"
                        % type(require_verified_attestation).__name__)

    _check_client_data(client_raw, "webauthn.create", expect, RegistrationRejected)
    client_hash = _hashlib.sha256(client_raw).digest()
    try:
        obj = _attestation.parse_attestation_object(att_raw)
        auth = parse_authenticator_data(obj.auth_data)
    except _attestation.Refusal as exc:
        raise RegistrationRejected(exc.step, str(exc)) from None
    except ValueError as exc:
        raise RegistrationRejected("authenticatorData", str(exc)) from None
    _check_flags(auth, expect, RegistrationRejected)
    if auth.aaguid is None or auth.credential_id is None or auth.credential_public_key is None:
        raise RegistrationRejected("authenticatorData", "the AT flag is not set: a "
                                   "registration's authenticator data holds the attested "
                                   "credential data")
    try:
        key = _attestation.credential_key(auth.credential_public_key)
        attestation = _attestation.verify_statement(obj.fmt, obj.statement, obj.auth_data,
                                                    client_hash, auth.aaguid,
                                                    auth.credential_id, key)
    except _attestation.Refusal as exc:
        raise RegistrationRejected(exc.step, str(exc)) from None
    trust_path = tuple(AttestationCertificate(*link) for link in attestation.trust_path)
    registration = Registration(
        auth.credential_id, key, auth.credential_public_key,
        auth.sign_count, auth.aaguid, auth.user_verified, auth.backup_eligible,
        auth.backed_up, obj.fmt, attestation.type, trust_path, attestation.reason,
        auth.extensions, transport_list)
    if require_verified_attestation:
        unverified = [i for i, c in enumerate(trust_path) if c.status == "unverified"]
        if attestation.type == "unverified":
            raise UnsupportedAttestation(attestation.reason, registration)
        if unverified:
            raise UnsupportedAttestation(
                "the signature of x5c certificate %d is not one p256 verifies (%s)"
                % (unverified[0], trust_path[unverified[0]].reason), registration)
    return registration


del annotations  # the __future__ feature's name: the namespace holds the public names
