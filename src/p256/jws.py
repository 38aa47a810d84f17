# SPDX-License-Identifier: Apache-2.0
"""JWS ES256 in compact serialization (RFC 7515, RFC 7518 section 3.4).

``sign`` makes ``BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(r || s)``;
``verify`` checks one and returns its payload. Only ES256 exists here: a token whose
``alg`` is "none", "ES384", "HS256" or anything else is refused before any key is
touched, so neither the unsecured-JWS nor the algorithm-confusion attack applies.

What ``verify`` refuses, each with its own ``ValueError``:

- anything but three base64url parts separated by two dots (the JSON serialization and
  JWE are other formats); base64url that is padded, has characters outside
  [A-Za-z0-9_-] or non-zero unused bits (RFC 7515 section 2 defines it without padding);
- a header that is not a UTF-8 JSON object, or has a member twice (RFC 7515 section 4
  lets a parser refuse duplicates: p256 does, so no two readers see different headers);
- ``alg`` other than "ES256"; ``crit`` in any form (RFC 7515 4.1.11: a recipient MUST
  refuse a token whose critical extensions it does not understand, and p256 implements
  none; a malformed ``crit`` gets its own message); ``b64`` other than true (RFC 7797
  unencoded payloads are not supported);
- a signature that is not exactly 64 bytes (r || s, RFC 7518 3.4: a DER signature is
  the usual mistake, and is named in the message), or that does not verify.

Keys in the header (``jwk``, ``jku``, ``x5c``, ``x5u``) are never used: the caller
says which keys to trust. Choosing the key (``key_or_jwks``):

- a :class:`p256.PublicKey`: that key, whatever the header's ``kid``;
- a JWK (a mapping with "kty"): that key; if both it and the header carry a ``kid``,
  they must be equal;
- a JWK set ``{"keys": [...]}`` (RFC 7517 section 5): with a ``kid`` in the header, the
  one key of the set with that ``kid`` (none, or more than one, is an error); without a
  ``kid``, the set must hold exactly one key. p256 never tries every key of a set: the
  result would depend on the set's order and size, and a token would verify under a key
  its issuer never named.

A JWK used to verify must be fit for it: ``use`` if present is "sig", ``alg`` if
present is "ES256", ``key_ops`` if present contains "verify" (RFC 7517 4.2-4.4).
"""
# This module imports _keys at module level; _keys never imports it (the one method that
# shares code with it, PublicKey.jwk_thumbprint, goes through the bytes-level _jose), so
# there is no cycle.

from __future__ import annotations

from collections.abc import Mapping as _Mapping
from typing import Any, Dict, List, Mapping, Optional, Union

from ._common import Buffer, text_hint
from ._jose import b64url_decode, b64url_encode, parse_json_object
from ._keys import PrivateKey, PublicKey

__all__ = ["sign", "verify", "KeyOrJwks"]

#: What :func:`verify` takes as its key: a PublicKey, a JWK, a JWK set, or either as JSON text.
KeyOrJwks = Union[PublicKey, Mapping[str, Any], str]

#: Header names RFC 7515 4.1 and RFC 7518 define; RFC 7515 4.1.11 forbids them in crit.
_REGISTERED = frozenset(("alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ",
                         "cty", "crit", "enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s",
                         "p2c"))


def _as_bytes(data: object, what: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    hint = text_hint(what, data)
    raise TypeError("%s must be bytes, bytearray or memoryview, not %s%s"
                    % (what, type(data).__name__, hint))


def sign(payload: Buffer, key: PrivateKey, header: Optional[Mapping[str, Any]] = None) -> str:
    """A JWS ES256 compact serialization of ``payload``, signed with ``key``.

    The protected header is ``{"alg": "ES256"}`` followed by the members of ``header``
    (for instance ``{"kid": "2024-1", "typ": "JWT"}``), as compact JSON. The signature
    is hedged ECDSA (see ``PrivateKey.sign``) in the 64-byte r || s form of RFC 7518 3.4.

    Args:
        payload: the bytes to sign (a JWT's claims are ``json.dumps(claims).encode()``).
        key: the P-256 private key.
        header: extra protected header members; its "alg", if any, must be "ES256".

    Returns:
        The token, ``header.payload.signature`` in base64url (ASCII text).

    Raises:
        TypeError: payload not bytes-like, key not a PrivateKey, header not a mapping
            with str keys, or a header value JSON cannot encode.
        ValueError: an "alg" other than "ES256", a "crit" member (p256 implements no
            extension, so its own verify would refuse the token), "b64" other than true,
            or a non-finite float.
    """
    data = _as_bytes(payload, "payload")
    if not isinstance(key, PrivateKey):
        raise TypeError("jws.sign() signs with a p256.PrivateKey, not %s" % type(key).__name__)
    members: Dict[str, Any] = {"alg": "ES256"}
    if header is not None:
        if not isinstance(header, _Mapping):
            raise TypeError("header must be a mapping, not %s" % type(header).__name__)
        for name, value in header.items():
            if not isinstance(name, str):
                raise TypeError("header member names must be str, not %s" % type(name).__name__)
            if name == "alg" and value != "ES256":
                raise ValueError("header alg %r: p256.jws signs ES256 only" % (value,))
            if name == "crit":
                raise ValueError("header 'crit': p256.jws implements no JWS extension, and "
                                 "its verify refuses tokens that name one")
            if name == "b64" and value is not True:
                raise ValueError("header b64 %r: RFC 7797 unencoded payloads are not supported"
                                 % (value,))
            members[name] = value
    import json  # only when needed: json costs ~1 ms of `import p256`

    protected = json.dumps(members, separators=(",", ":"), ensure_ascii=False,
                           allow_nan=False).encode("utf-8")
    signing_input = b64url_encode(protected) + "." + b64url_encode(data)
    sig = key.sign(signing_input.encode("ascii"), hash="sha256", encoding="raw")
    return signing_input + "." + b64url_encode(sig)


def _check_header(header: Mapping[str, Any]) -> None:
    if "alg" not in header:
        raise ValueError("the JWS header has no 'alg'")
    alg = header["alg"]
    if alg != "ES256":
        if alg == "none":
            raise ValueError("the JWS has alg 'none' (an unsecured JWS); p256.jws verifies "
                             "ES256 signatures only")
        if isinstance(alg, str):
            raise ValueError("the JWS has alg %r; p256.jws verifies ES256 only" % alg[:40])
        raise ValueError("the JWS header's 'alg' must be a string, not %s" % type(alg).__name__)
    if "crit" in header:
        crit = header["crit"]
        if (not isinstance(crit, list) or not crit or not all(isinstance(c, str) for c in crit)
                or len(set(crit)) != len(crit)):
            raise ValueError("the JWS header's 'crit' must be a non-empty array of distinct "
                             "strings (RFC 7515 4.1.11)")
        for name in crit:
            if name in _REGISTERED:
                raise ValueError("the JWS header's 'crit' lists %r, a name RFC 7515/7518 "
                                 "define (RFC 7515 4.1.11 forbids that)" % name)
            if name not in header:
                raise ValueError("the JWS header's 'crit' lists %r, which the header "
                                 "does not have (RFC 7515 4.1.11)" % name[:40])
        raise ValueError("the JWS header marks the extension%s %s critical; p256.jws "
                         "implements none, and RFC 7515 4.1.11 requires refusing the token"
                         % ("" if len(crit) == 1 else "s", ", ".join(repr(c[:40]) for c in crit)))
    if "b64" in header and header["b64"] is not True:
        raise ValueError("the JWS header has b64 %r; RFC 7797 unencoded payloads are not "
                         "supported" % (header["b64"],))
    if "kid" in header and not isinstance(header["kid"], str):
        raise ValueError("the JWS header's 'kid' must be a string, not %s"
                         % type(header["kid"]).__name__)


def _jwk_for_verify(jwk: Mapping[str, Any], where: str) -> PublicKey:
    use = jwk.get("use")
    if use is not None and use != "sig":
        raise ValueError("%s has use %s; a key that verifies signatures has use 'sig'"
                         % (where, _shown(use)))
    alg = jwk.get("alg")
    if alg is not None and alg != "ES256":
        raise ValueError("%s has alg %s; p256.jws verifies ES256 only" % (where, _shown(alg)))
    ops = jwk.get("key_ops")
    if ops is not None:
        if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
            raise ValueError("%s's key_ops must be an array of strings such as [\"verify\"] "
                             "(RFC 7517 4.3), not %s" % (where, _shown(ops)))
        if "verify" not in ops:
            raise ValueError("%s has key_ops %s, without 'verify'" % (where, _shown(ops)))
    return PublicKey.from_jwk(jwk)


def _shown(value: object) -> str:
    """A member's value for a message, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _select_key(key_or_jwks: KeyOrJwks, kid: Optional[str]) -> PublicKey:
    """The key to verify with: see the module docstring for the rules."""
    if isinstance(key_or_jwks, PublicKey):
        return key_or_jwks
    if isinstance(key_or_jwks, PrivateKey):
        raise TypeError("jws.verify() takes a public key: pass sk.public_key")
    keys: Any = key_or_jwks
    if isinstance(keys, str):
        keys = parse_json_object(keys.encode("utf-8"), "the JWK (set) text")
    if not isinstance(keys, _Mapping):
        raise TypeError("jws.verify() takes a PublicKey, a JWK or a JWK set {'keys': [...]}, "
                        "not %s" % type(key_or_jwks).__name__)
    if "keys" not in keys:
        own = keys.get("kid")
        if kid is not None and own is not None and own != kid:
            raise ValueError("the token's kid %r is not the JWK's kid %s" % (kid[:80], _shown(own)))
        return _jwk_for_verify(keys, "the JWK")
    members = keys["keys"]
    if not isinstance(members, list) or not all(isinstance(k, _Mapping) for k in members):
        raise ValueError("the JWK set's 'keys' must be an array of JWK objects")
    chosen: List[Mapping[str, Any]]
    if kid is None:
        if len(members) != 1:
            raise ValueError("the token has no kid and the JWK set holds %d keys; p256.jws "
                             "does not try every key (give tokens a kid, or pass the key)"
                             % len(members))
        chosen = members
    else:
        chosen = [k for k in members if k.get("kid") == kid]
        if not chosen:
            raise ValueError("no key in the JWK set has the token's kid %r" % kid[:80])
        if len(chosen) > 1:
            raise ValueError("%d keys in the JWK set have the kid %r; kids must be unique in "
                             "a set" % (len(chosen), kid[:80]))
    return _jwk_for_verify(chosen[0], "the JWK set's key" if kid is None
                           else "the JWK set's key %r" % kid[:80])


def verify(token: Union[str, bytes], key_or_jwks: KeyOrJwks) -> bytes:
    """Check a JWS ES256 compact serialization and return its payload.

    Args:
        token: ``header.payload.signature`` (str, or ASCII bytes).
        key_or_jwks: a :class:`p256.PublicKey`, a JWK (mapping), a JWK set
            ``{"keys": [...]}``, or the JSON text of either; see the module docstring
            for how the key is chosen by ``kid``.

    Returns:
        The payload bytes, only when the signature verifies under the chosen key.

    Raises:
        TypeError: token not str/bytes, or key_or_jwks of another type.
        ValueError: a malformed token, a refused header (alg not ES256, crit, ...), no
            usable key for the token, or a signature that does not verify. The message
            says which.
    """
    if isinstance(token, (bytes, bytearray, memoryview)):
        try:
            text = bytes(token).decode("ascii")
        except UnicodeDecodeError:
            raise ValueError("the JWS is not ASCII text") from None
    elif isinstance(token, str):
        text = token
    else:
        raise TypeError("the JWS token must be str or bytes, not %s" % type(token).__name__)
    parts = text.split(".")
    if len(parts) != 3:
        raise ValueError("a JWS compact serialization has 3 parts separated by '.', this "
                         "has %d%s" % (len(parts), " (a JWE has 5)" if len(parts) == 5 else ""))
    header_b64, payload_b64, sig_b64 = parts
    header = parse_json_object(b64url_decode(header_b64, "the JWS header"), "the JWS header")
    _check_header(header)
    payload = b64url_decode(payload_b64, "the JWS payload")
    sig = b64url_decode(sig_b64, "the JWS signature")
    if len(sig) != 64:
        der = " (this looks like DER; JWS uses r || s)" if sig[:1] == b"\x30" else ""
        raise ValueError("an ES256 signature is 64 bytes (r || s, RFC 7518 3.4), this one "
                         "is %d%s" % (len(sig), der))
    pk = _select_key(key_or_jwks, header.get("kid"))
    signing_input = (header_b64 + "." + payload_b64).encode("ascii")
    if not pk.verify(sig, signing_input, hash="sha256", encoding="raw"):
        raise ValueError("the JWS signature does not verify under the chosen key")
    return payload


def __dir__() -> list[str]:
    """What dir() shows of this module: its public names (PEP 562), not its imports."""
    return sorted(__all__)
