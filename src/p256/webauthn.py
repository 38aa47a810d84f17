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

import hashlib
import hmac
from typing import Any, Collection, Dict, NamedTuple, Optional, Tuple, Union, cast

from . import _cose
from ._common import Buffer, as_bytes
from ._jose import b64url_encode, parse_json_object
from ._keys import PublicKey

__all__ = ["AuthenticatorData", "AssertionRejected", "PossibleClone", "parse_authenticator_data",
           "verify_assertion", "verify_assertion_signature"]

#: Flags of authenticator data (WebAuthn 6.1).
FLAG_UP, FLAG_UV, FLAG_BE, FLAG_BS, FLAG_AT, FLAG_ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


class AssertionRejected(ValueError):
    """An assertion that the relying party must refuse (a ``ValueError``).

    ``step`` names the check of WebAuthn 7.2 that failed: "clientDataJSON", "type",
    "challenge", "origin", "topOrigin", "authenticatorData", "rpIdHash", "UP", "UV",
    "BS", "signature" or "signCount"."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__("WebAuthn assertion refused at %s: %s" % (step, message))
        self.step = step


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
FIXED_LENGTH = 37
#: The longest credential ID (WebAuthn 6.1: credentialIdLength "MUST be <= 1023").
MAX_CREDENTIAL_ID_LENGTH = 1023
_COSE_KTY, _COSE_ALG = 1, 3


def _has_label(pairs: _cose.CborMap, label: int) -> bool:
    """Whether a decoded COSE_Key has the integer label (CBOR true is not 1)."""
    return any(type(key) is int and key == label for key, _ in pairs)


class AuthenticatorData(NamedTuple):
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
        return bool(self.flags & FLAG_UP)

    @property
    def user_verified(self) -> bool:
        """The UV flag (bit 2): the user was verified."""
        return bool(self.flags & FLAG_UV)

    @property
    def backup_eligible(self) -> bool:
        """The BE flag (bit 3): the credential may be backed up (a multi-device one)."""
        return bool(self.flags & FLAG_BE)

    @property
    def backed_up(self) -> bool:
        """The BS flag (bit 4): the credential is backed up now."""
        return bool(self.flags & FLAG_BS)

    @property
    def attested_credential_data(self) -> bool:
        """The AT flag (bit 6): attested credential data follows the fixed fields."""
        return bool(self.flags & FLAG_AT)

    @property
    def extension_data(self) -> bool:
        """The ED flag (bit 7): extensions end the authenticator data."""
        return bool(self.flags & FLAG_ED)

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
        key = PublicKey.from_cose(self.credential_public_key)  # kty, crv and alg if present
        if not _has_label(cast(_cose.CborMap, _cose.loads(self.credential_public_key)), _COSE_ALG):
            raise ValueError("the credential's COSE_Key has no alg (3); WebAuthn keys carry "
                             "one, and this reads alg -7 (ES256) only")
        return key


def _malformed(problem: str) -> ValueError:
    return ValueError("malformed authenticator data: %s" % problem)


def _fixed_fields(raw: bytes) -> None:
    """Refuse authenticator data shorter than its fixed fields."""
    if len(raw) < FIXED_LENGTH:
        raise _malformed("%d bytes; it has at least 37 (rpIdHash 32, flags 1, signCount 4)"
                         % len(raw))


def _cbor_map(raw: bytes, pos: int, what: str) -> Tuple[_cose.CborMap, int]:
    """The CBOR map that starts at pos, delimited by its own encoding: (map, end)."""
    if raw[pos] >> 5 != 5:
        raise _malformed("the %s at offset %d must be a CBOR map, and starts with 0x%02x "
                         "(major type %d)" % (what, pos, raw[pos], raw[pos] >> 5))
    value, end = _cose.read_item(raw, pos, "authenticator data: the %s at offset %d"
                                 % (what, pos))
    return cast(_cose.CborMap, value), end  # major type 5: a map


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
    raw = as_bytes(data, "authenticator data")
    _fixed_fields(raw)
    flags, end = raw[32], len(raw)
    pos, after = FIXED_LENGTH, "signCount"
    aaguid = credential_id = credential_key = extensions = None
    if flags & FLAG_AT:
        if end - pos < 18:
            raise _malformed("the AT flag is set, and the attested credential data at offset %d "
                             "has %d bytes where aaguid (16) and credentialIdLength (2) take 18"
                             % (pos, end - pos))
        aaguid = raw[pos:pos + 16]
        length = int.from_bytes(raw[pos + 16:pos + 18], "big")
        if length > MAX_CREDENTIAL_ID_LENGTH:
            raise _malformed("credentialIdLength %d at offset %d; at most %d"
                             % (length, pos + 16, MAX_CREDENTIAL_ID_LENGTH))
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
    if flags & FLAG_ED:
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
        unset = [name for flag, name in ((FLAG_AT, "AT"), (FLAG_ED, "ED")) if not flags & flag]
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
    if not isinstance(public_key, PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth = as_bytes(authenticator_data, "authenticator_data")
    _fixed_fields(auth)
    client = hashlib.sha256(as_bytes(client_data_json, "client_data_json")).digest()
    return public_key.verify(as_bytes(signature, "signature"), auth + client,
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
    if not isinstance(public_key, PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth_raw = as_bytes(authenticator_data, "authenticator_data")
    client_raw = as_bytes(client_data_json, "client_data_json")
    sig = as_bytes(signature, "signature")
    expected_challenge = as_bytes(challenge, "challenge")
    if not isinstance(rp_id, str):
        raise TypeError("rp_id must be a str, not %s" % type(rp_id).__name__)
    if _unicode_problem(rp_id):
        raise ValueError("rp_id is not Unicode text: it holds %s" % _unicode_problem(rp_id))
    origins = _expected(origin, "origin")
    top_origins = _expected(top_origin, "top_origin")
    if type(require_user_verification) is not bool:
        raise TypeError("require_user_verification must be True or False, not %s"
                        % type(require_user_verification).__name__)
    sign_count = _sign_count(sign_count)

    # 7.2: JSONtext = UTF-8 decode(clientDataJSON); C = parse JSON (strictly).
    try:
        c = parse_json_object(client_raw, "clientDataJSON")
    except ValueError as exc:
        raise AssertionRejected("clientDataJSON", str(exc)) from None
    if _member(c, "type") != "webauthn.get":
        raise AssertionRejected("type", "the client data's type is %r, not 'webauthn.get' (a "
                                "%s)" % (c["type"][:40], "registration" if c["type"] ==
                                         "webauthn.create" else "different ceremony"))
    if not hmac.compare_digest(_member(c, "challenge").encode("utf-8"),
                               b64url_encode(expected_challenge).encode("ascii")):
        raise AssertionRejected("challenge", "the client data's challenge is not the one "
                                "issued (a replayed or foreign assertion)")
    if _member(c, "origin") not in origins:
        raise AssertionRejected("origin", "the client data's origin %r is not an expected "
                                "origin" % c["origin"][:80])
    if "topOrigin" in c or c.get("crossOrigin", False) is not False:
        if not top_origins:
            raise AssertionRejected("topOrigin", "the assertion was made in a cross-origin "
                                    "frame (crossOrigin/topOrigin), which the relying party "
                                    "does not expect (top_origin=None)")
        if _member(c, "topOrigin") not in top_origins:
            raise AssertionRejected("topOrigin", "the client data's topOrigin %r is not an "
                                    "expected top origin" % c["topOrigin"][:80])

    try:
        auth = parse_authenticator_data(auth_raw)
    except ValueError as exc:
        raise AssertionRejected("authenticatorData", str(exc)) from None
    if not hmac.compare_digest(auth.rp_id_hash, hashlib.sha256(rp_id.encode("utf-8")).digest()):
        raise AssertionRejected("rpIdHash", "rpIdHash is not SHA-256 of the RP ID %r (an "
                                "assertion for another relying party)" % rp_id[:80])
    if not auth.flags & FLAG_UP:
        raise AssertionRejected("UP", "the UP flag is not set: the user was not present")
    if require_user_verification and not auth.flags & FLAG_UV:
        raise AssertionRejected("UV", "the UV flag is not set, and user verification is "
                                "required")
    if auth.flags & FLAG_BS and not auth.flags & FLAG_BE:
        raise AssertionRejected("BS", "the BS flag (backed up) is set without BE (backup "
                                "eligible)")

    if not public_key.verify(sig, auth_raw + hashlib.sha256(client_raw).digest(),
                             hash="sha256", encoding="der"):
        raise AssertionRejected("signature", "the signature does not verify under the "
                                "credential's public key")

    if auth.sign_count or sign_count:
        if auth.sign_count <= sign_count:
            raise PossibleClone(sign_count, auth.sign_count)
    return auth.sign_count
