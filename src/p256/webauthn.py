# SPDX-License-Identifier: Apache-2.0
"""WebAuthn assertions (W3C WebAuthn Level 3, section 7.2) for an ES256 credential, and a
parser for authenticator data (6.1).

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
- the authenticator data: ``rpIdHash`` is SHA-256 of the RP ID; UP (user present) is
  set; UV (user verified) is set when required; BS (backup state) is not set without BE
  (backup eligible); nothing follows the 37 fixed bytes unless AT or ED says so;
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
from typing import Any, Collection, Dict, NamedTuple, Union

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


class AuthenticatorData(NamedTuple):
    """The fixed fields of authenticator data (WebAuthn 6.1)."""

    rp_id_hash: bytes
    """SHA-256 of the RP ID the credential is scoped to (32 bytes)."""
    flags: int
    """The flags byte: bit 0 UP (user present), bit 2 UV (user verified), bit 6 AT, bit 7 ED."""
    sign_count: int
    """The signature counter (big-endian uint32; 0 when the authenticator keeps none)."""
    extensions: bytes
    """What follows the 37 fixed bytes (attested credential data and extensions, CBOR)."""

    @property
    def user_present(self) -> bool:
        """The UP flag."""
        return bool(self.flags & FLAG_UP)

    @property
    def user_verified(self) -> bool:
        """The UV flag."""
        return bool(self.flags & FLAG_UV)


def parse_authenticator_data(data: Buffer) -> AuthenticatorData:
    """The fixed fields of authenticator data.

    Args:
        data: authenticatorData as the client returned it (decoded from base64url).

    Returns:
        rpIdHash, flags, signCount and the bytes after them.

    Raises:
        TypeError: data is not bytes-like.
        ValueError: data is shorter than the 37 fixed bytes.
    """
    raw = as_bytes(data, "authenticator data")
    if len(raw) < 37:
        raise ValueError("authenticator data is %d bytes; it has at least 37 (rpIdHash 32, "
                         "flags 1, signCount 4)" % len(raw))
    return AuthenticatorData(raw[:32], raw[32], int.from_bytes(raw[33:37], "big"), raw[37:])


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
        ValueError: authenticator_data is shorter than its 37 fixed bytes.
    """
    if not isinstance(public_key, PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth = as_bytes(authenticator_data, "authenticator_data")
    parse_authenticator_data(auth)
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


def _member(client_data: Dict[str, Any], name: str) -> str:
    value = client_data.get(name)
    if not isinstance(value, str):
        raise AssertionRejected(name, "the client data's %r must be a string, not %s"
                                % (name, "absent" if value is None else type(value).__name__))
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
        TypeError: an argument of the wrong type.
    """
    if not isinstance(public_key, PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth_raw = as_bytes(authenticator_data, "authenticator_data")
    client_raw = as_bytes(client_data_json, "client_data_json")
    sig = as_bytes(signature, "signature")
    expected_challenge = as_bytes(challenge, "challenge")
    if not isinstance(rp_id, str):
        raise TypeError("rp_id must be a str, not %s" % type(rp_id).__name__)
    origins = _expected(origin, "origin")
    top_origins = _expected(top_origin, "top_origin")
    if type(require_user_verification) is not bool:
        raise TypeError("require_user_verification must be True or False")
    if type(sign_count) is not int or not 0 <= sign_count < 1 << 32:
        raise TypeError("sign_count must be an int in 0..2^32-1 (the stored counter)")

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
    if auth.extensions and not auth.flags & (FLAG_AT | FLAG_ED):
        raise AssertionRejected("authenticatorData", "%d bytes after the 37 fixed ones, "
                                "with neither AT nor ED set" % len(auth.extensions))
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
