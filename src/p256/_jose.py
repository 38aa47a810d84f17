# SPDX-License-Identifier: Apache-2.0
"""JOSE helpers on bytes, shared by ``_jwk``, ``p256.jws`` and ``PublicKey.jwk_thumbprint``:
strict base64url (RFC 7515 section 2: the URL-safe alphabet, no padding, no other
characters, canonical: the unused low bits of the last character are zero), and the
RFC 7638 JWK thumbprint of a P-256 point. Imports nothing of p256, so ``_keys`` may
import it without a cycle.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from itertools import accumulate
from typing import Any, Callable, Dict, List, Tuple

__all__ = ["b64url_encode", "b64url_decode", "thumbprint", "parse_json_object", "parse_json_text",
           "MAX_NUMBER_LENGTH", "MAX_MEMBERS", "MAX_DEPTH"]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_DELETE = str.maketrans("", "", _ALPHABET)
_TO_STD = str.maketrans("-_", "+/")
_TO_URL = bytes.maketrans(b"+/", b"-_")


def b64url_encode(data: bytes) -> str:
    """base64url without padding (RFC 7515 2)."""
    return binascii.b2a_base64(data, newline=False).rstrip(b"=").translate(_TO_URL).decode("ascii")


def b64url_decode(text: str, what: str) -> bytes:
    """Strict base64url without padding; ValueError naming ``what`` otherwise.

    Refused: "=" padding, any character outside [A-Za-z0-9_-] (whitespace, "+", "/"
    included), a length of 1 mod 4, and non-zero unused bits in the last character (so
    every byte string has exactly one encoding)."""
    if "=" in text:
        raise ValueError("%s has base64 padding ('='); base64url in JOSE has none" % what)
    if not text.isascii() or text.translate(_DELETE):
        raise ValueError("%s is not base64url (characters outside A-Z a-z 0-9 - _)" % what)
    if len(text) % 4 == 1:
        raise ValueError("%s is not base64url (its length is 1 mod 4)" % what)
    std = text.translate(_TO_STD) + "=" * (-len(text) % 4)
    raw = binascii.a2b_base64(std)
    if binascii.b2a_base64(raw, newline=False).decode("ascii") != std:
        raise ValueError("%s is not canonical base64url (non-zero unused bits at the end)" % what)
    return raw


def thumbprint(point: bytes) -> str:
    """RFC 7638 thumbprint of a 65-byte uncompressed P-256 point: base64url(SHA-256) of
    {"crv","kty","x","y"} in that (lexicographic) order, without whitespace (3.2)."""
    canonical = '{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}' % (
        b64url_encode(point[1:33]), b64url_encode(point[33:65]))
    return b64url_encode(hashlib.sha256(canonical.encode("ascii")).digest())


#: The longest JSON number read (in characters): no JOSE member needs more (NumericDate,
#: "p2c" and the like fit in 20), and int() of a long digit string is quadratic.
MAX_NUMBER_LENGTH = 64
#: The most name/value pairs in one JSON text, counted before parsing as its ":"
#: characters (an upper bound: a ":" inside a string counts too). A JWK set of a thousand
#: keys fits; a million members would be a dict of 100 MB, built at the speed of cache misses.
MAX_MEMBERS = 10_000
#: The deepest nesting of arrays and objects read. JOSE texts nest three or four levels
#: (a JWK set's "keys" array of objects, a header's "jwk"); the bound is p256's own, not
#: the interpreter's (json's C scanner recurses on the C stack, and how deep it may go
#: differs between CPython versions).
MAX_DEPTH = 32

# Outside the strings: escapes first (an escaped quote does not end a string; outside a
# string a backslash is invalid JSON, which json.loads refuses anyway), then each string,
# closed or not, then all but the brackets. Each pattern repeats one character class, so
# the re engine keeps no state per character: linear time, and no memory beyond the copy.
_ESCAPES = re.compile(r"\\.", re.S)
_STRINGS = re.compile(r'"[^"]*"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _too_deep(text: str) -> bool:
    """Whether [ and { nest deeper than MAX_DEPTH outside strings (linear in the text)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # most texts, long members included: no scan needed
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", _ESCAPES.sub("", text)))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0) > MAX_DEPTH


def _no_duplicates(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        for name, _ in pairs:
            if name in seen:
                raise ValueError("duplicate member %r" % name[:40])
            seen.add(name)
    return out


def _no_constant(name: str) -> None:
    raise ValueError("%s is not JSON (RFC 8259 has no NaN or Infinity)" % name)


def _number(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_LENGTH:
            raise ValueError("a number of %d characters (at most %d are read)"
                             % (len(text), MAX_NUMBER_LENGTH))
        return convert(text)
    return parse


_INT, _FLOAT = _number(int), _number(float)


def parse_json_text(text: str, what: str) -> Dict[str, Any]:
    """A JSON object from text, strictly: the one JSON reader of JWK, JWK sets, the JWS
    header and WebAuthn's client data. Duplicate member names are refused at every level
    (RFC 7515 4 and RFC 7517 4 allow refusing them; p256 does, so no two readers see
    different values), NaN/Infinity refused, numbers longer than MAX_NUMBER_LENGTH and
    more than MAX_MEMBERS members refused before they are built (so the work and memory
    stay linear in the text), nesting deeper than MAX_DEPTH refused before parsing;
    ValueError naming ``what``."""
    import json  # only when needed: json costs ~1 ms of `import p256`

    if text.count(":") > MAX_MEMBERS:
        raise ValueError("%s has more than %d members (':' characters); JOSE objects have a few"
                         % (what, MAX_MEMBERS))
    if _too_deep(text):
        raise ValueError("%s is not valid JSON: nested too deeply (more than %d levels)"
                         % (what, MAX_DEPTH))
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                           parse_int=_INT, parse_float=_FLOAT)
    except RecursionError:
        raise ValueError("%s is not valid JSON: nested too deeply" % what) from None
    except ValueError as exc:
        raise ValueError("%s is not valid JSON: %s" % (what, exc)) from None
    if not isinstance(value, dict):
        raise ValueError("%s must be a JSON object, not %s" % (what, _json_type(value)))
    return value


def parse_json_object(raw: bytes, what: str) -> Dict[str, Any]:
    """:func:`parse_json_text` of UTF-8 bytes (RFC 8259 8.1)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("%s is not UTF-8" % what) from None
    return parse_json_text(text, what)


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type, for messages."""
    if isinstance(value, bool) or value is None:
        return "true/false" if value is not None else "null"
    names: Dict[type, str] = {dict: "an object", list: "an array", str: "a string"}
    return names.get(type(value), "a number")
