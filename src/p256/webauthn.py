# SPDX-License-Identifier: Apache-2.0
"""The signature check of a WebAuthn assertion (W3C WebAuthn Level 2/3, section 7.2,
steps 19-20) for an ES256 credential, and a parser for authenticator data (6.1).

An authenticator signs ``authenticatorData || SHA-256(clientDataJSON)`` with ECDSA
P-256 / SHA-256 and returns the signature in X9.62 DER (WebAuthn 6.5.6, "packed" and
"none" attestation alike). The credential's public key is the COSE_Key the relying
party stored at registration (``p256.PublicKey.from_cose``).

This module checks the signature only. A relying party must also check, before
trusting an assertion (WebAuthn 7.2): clientData ``type`` is "webauthn.get", its
``challenge`` is the one it issued, its ``origin`` is expected; authenticatorData's
``rpIdHash`` is SHA-256 of its RP ID, the UP flag (and UV if required) is set, and the
signature counter moved forward. docs/integrations.md shows all of it in a recipe.

This module imports ``p256._keys`` at module level; ``_keys`` never imports it.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ._keys import PublicKey

__all__ = ["AuthenticatorData", "parse_authenticator_data", "verify_assertion"]

#: Flags of authenticator data (WebAuthn 6.1).
FLAG_UP, FLAG_UV, FLAG_AT, FLAG_ED = 0x01, 0x04, 0x40, 0x80


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


def _as_bytes(data: object, what: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError("%s must be bytes, bytearray or memoryview, not %s"
                    % (what, type(data).__name__))


def parse_authenticator_data(data: bytes) -> AuthenticatorData:
    """The fixed fields of authenticator data.

    Args:
        data: authenticatorData as the client returned it (decoded from base64url).

    Returns:
        rpIdHash, flags, signCount and the bytes after them.

    Raises:
        TypeError: data is not bytes-like.
        ValueError: data is shorter than the 37 fixed bytes.
    """
    raw = _as_bytes(data, "authenticator data")
    if len(raw) < 37:
        raise ValueError("authenticator data is %d bytes; it has at least 37 (rpIdHash 32, "
                         "flags 1, signCount 4)" % len(raw))
    return AuthenticatorData(raw[:32], raw[32], int.from_bytes(raw[33:37], "big"), raw[37:])


def verify_assertion(public_key: PublicKey, authenticator_data: bytes,
                     client_data_json: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the credential's ES256 signature of this assertion.

    Checks the DER ECDSA signature over ``authenticator_data || SHA-256(client_data_json)``
    (WebAuthn 7.2 steps 19-20). Nothing else: see the module docstring for the checks
    a relying party makes besides.

    Args:
        public_key: the credential's key (``PublicKey.from_cose(stored_cose_key)``).
        authenticator_data: ``response.authenticatorData``, decoded from base64url.
        client_data_json: ``response.clientDataJSON``, decoded from base64url (the exact
            bytes: never re-serialize the JSON).
        signature: ``response.signature``, decoded from base64url (X9.62 DER).

    Returns:
        True when the signature verifies, False for any invalid signature (malformed
        DER included).

    Raises:
        TypeError: public_key is not a PublicKey, or an argument is not bytes-like.
        ValueError: authenticator_data is shorter than its 37 fixed bytes.
    """
    if not isinstance(public_key, PublicKey):
        raise TypeError("public_key must be a p256.PublicKey, not %s" % type(public_key).__name__)
    auth = _as_bytes(authenticator_data, "authenticator_data")
    parse_authenticator_data(auth)
    client = hashlib.sha256(_as_bytes(client_data_json, "client_data_json")).digest()
    return public_key.verify(_as_bytes(signature, "signature"), auth + client,
                             hash="sha256", encoding="der")
