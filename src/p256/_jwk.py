# SPDX-License-Identifier: Apache-2.0
"""JWK (RFC 7517, RFC 7518 6.2) of a P-256 key, on bytes: kty "EC", crv "P-256", x and y
(and d for a private key), base64url without padding of exactly 32 bytes each.

Other members ("kid", "use", "alg", "key_ops", ...) are accepted and ignored. A JSON
text (str) is accepted as well as a mapping, read by the one JOSE JSON reader
(``_jose.parse_json_text``, as jws.verify reads a JWK): a member given twice is refused,
so the two readers never see different keys. The caller checks that x, y is a valid point
and, for a private key, equals d*G; a public read refuses a JWK that carries "d", so a
private key never passes silently through a public-key path. Base64url of a private d
is decoded with the interpreter's table-driven decoder, as most libraries do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Tuple, Union

from ._jose import b64url_decode, b64url_encode, parse_json_text

if TYPE_CHECKING:
    from ._sec1 import Parts

__all__ = ["encode", "read", "member_bytes", "WHERE"]

WHERE = "the JWK"
# Where a private JWK's point is, for the message when it is not d*G.
WHERE_PRIVATE = "the JWK (x, y)"


def encode(point: bytes, d: Union[bytes, None] = None) -> Dict[str, str]:
    """{"kty", "crv", "x", "y"[, "d"]} of the 65-byte uncompressed point (and scalar)."""
    jwk = {"kty": "EC", "crv": "P-256", "x": b64url_encode(point[1:33]),
           "y": b64url_encode(point[33:])}
    if d is not None:
        jwk["d"] = b64url_encode(d)
    return jwk


def member_bytes(jwk: Mapping[str, Any], member: str) -> bytes:
    """A 32-byte value in base64url without padding (RFC 7515 2, RFC 7518 6.2.1.2)."""
    try:
        value = jwk[member]
    except KeyError:
        raise ValueError("the JWK has no %r member" % member) from None
    if not isinstance(value, str):
        raise ValueError("the JWK member %r must be a string, not %s"
                         % (member, type(value).__name__))
    raw = b64url_decode(value, "the JWK member %r" % member)
    if len(raw) != 32:
        raise ValueError("the JWK member %r must encode exactly 32 bytes for P-256, got %d"
                         % (member, len(raw)))
    return raw


def _shown(value: object) -> str:
    """A member's value for a message, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read(jwk: object) -> Tuple[Mapping[str, Any], bytes]:
    """(the JWK as a mapping, the 65-byte SEC1 encoding of x, y, not yet validated),
    after checking kty and crv; a JSON str is parsed first."""
    if isinstance(jwk, str):
        jwk = parse_json_text(jwk, "the JWK")  # the one JOSE JSON reader: no duplicates
    elif not isinstance(jwk, dict):
        from collections.abc import Mapping as _Mapping  # lazily: ~1.5 ms to import

        if not isinstance(jwk, _Mapping):
            raise TypeError("a JWK must be a dict or a JSON str, not %s" % type(jwk).__name__)
    mapping: Mapping[str, Any] = jwk
    kty = mapping.get("kty")
    if kty != "EC":
        if kty is None:
            raise ValueError("the JWK has no 'kty' member")
        raise ValueError("the JWK has kty %s; a P-256 key has kty 'EC'" % _shown(kty))
    crv = mapping.get("crv")
    if crv != "P-256":
        if crv is None:
            raise ValueError("the JWK has no 'crv' member")
        raise ValueError("the JWK has crv %s: the key is not on the curve 'P-256'" % _shown(crv))
    return mapping, b"\x04" + member_bytes(mapping, "x") + member_bytes(mapping, "y")


def read_public(jwk: object) -> bytes:
    """The point of a public JWK; ValueError for one holding "d"."""
    mapping, point = read(jwk)
    if "d" in mapping:
        raise ValueError("this JWK holds a private key ('d'); load it with "
                         "PrivateKey.from_jwk(jwk) and take its .public_key")
    return point


def read_private(jwk: object) -> Parts:
    """A private JWK's parts, as the other private formats give them: d, and its point
    x, y to check against d*G."""
    mapping, point = read(jwk)
    return member_bytes(mapping, "d"), [(point, WHERE_PRIVATE)]
