# SPDX-License-Identifier: Apache-2.0
"""What every module of p256 shares: the curve constants, the hash and encoding tables,
argument checks and the error texts built from them. Imports nothing of p256 but the
native core, so any module may import it without a cycle."""

from __future__ import annotations

from typing import Any, Dict, Literal, Mapping, NoReturn, TypeVar, Union

from . import _core

#: The hash names of ``sign``/``verify`` (``hash=``).
HashName = Literal["sha256", "sha224", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
#: Signature encodings: X9.62 DER or r||s (64 bytes).
SigEncoding = Literal["der", "raw"]
#: Private-key container formats.
PrivateFormat = Literal["pkcs8", "sec1"]
#: A JWK: its members by name (all str in what p256 writes).
JWK = Dict[str, str]

#: What the API takes wherever it reads bytes.
Buffer = Union[bytes, bytearray, memoryview]
Password = Union[str, bytes, bytearray, memoryview]  # str is encoded as UTF-8

#: The field prime p and the group order n of P-256 (FIPS 186-5, SEC 2).
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551

# hash name -> the core's id for that hash (the core hashes every message, and keys RFC
# 6979's HMAC with it)
HASHES: Dict[str, int] = dict(_core.NONCE_HASH)
ENCODINGS: Dict[str, bool] = {"der": False, "raw": True}  # name -> the core's `raw` flag

_V = TypeVar("_V")


def lookup(table: Mapping[Any, _V], name: object, what: str) -> _V:
    """table[name], or TypeError for a non-str name and ValueError for an unknown one.
    The dict lookup comes first so the common case costs one hash probe."""
    try:
        return table[name]
    except (KeyError, TypeError):
        pass
    if not isinstance(name, str):
        extra = " or None" if None in table else ""
        raise TypeError("%s must be a str%s, not %s" % (what, extra, type(name).__name__))
    names = ", ".join(sorted(k for k in table if k is not None))
    raise ValueError("unknown %s %r; expected one of %s" % (what, name, names))


def flag_error(what: str, value: object) -> NoReturn:
    """The TypeError for a flag that is not a bool (``deterministic="yes"``)."""
    raise TypeError("%s must be True or False, not %s" % (what, type(value).__name__))


# The arguments that are text to be signed: a str there wants encoding. Every other
# bytes argument (a signature, a digest, DER, WebAuthn's fields) is binary, and a str
# there is most likely its hex or base64 form, which wants decoding instead.
_TEXT_ARGUMENTS = frozenset(("msg", "payload"))
# WebAuthn's response fields arrive in base64url.
_BASE64URL_ARGUMENTS = frozenset(("authenticator_data", "authenticator data", "client_data_json",
                                  "signature", "challenge"))


def text_hint(what: str, value: object) -> str:
    """The hint for a str passed where the argument `what` takes bytes ("" otherwise)."""
    if not isinstance(value, str):
        return ""
    if what in _TEXT_ARGUMENTS:
        return " (encode text first, e.g. %s.encode())" % what
    if what in _BASE64URL_ARGUMENTS:
        return " (%s is binary: decode it from base64url first)" % what
    return (" (%s is binary: decode its text form first, e.g. bytes.fromhex(s) or "
            "base64.b64decode(s))" % what)


def buffer_error(what: str, value: object) -> TypeError:
    """The TypeError for a non-bytes argument, naming it and what came."""
    hint = text_hint(what, value)
    return TypeError("%s must be bytes-like (bytes, bytearray, memoryview), not %s%s"
                     % (what, type(value).__name__, hint))


def as_bytes(data: object, what: str) -> bytes:
    """data as bytes (a copy for bytearray/memoryview; a non-contiguous view is read in C
    order, as bytes() and the native core read it), else TypeError naming it."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise buffer_error(what, data)


#: Why the core refuses a SEC1 point, by its reason (p256.h, P256_POINT_*; POINT_ENCODING,
#: a wrong length or prefix, is worded from the data by point_problem). %(what)s is what
#: the bytes were to be: a public key, or a point of the group (p256.Point).
POINT_PROBLEMS: Dict[int, str] = {
    _core.POINT_INFINITY: "the point at infinity is not a valid %(what)s",
    _core.POINT_HYBRID: "hybrid SEC1 encoding (prefix 0x%(prefix)02x) is not supported; use 04||X||Y "
                        "or 02/03||X",
    _core.POINT_X_RANGE: "invalid %(what)s: coordinate x >= p",
    _core.POINT_Y_RANGE: "invalid %(what)s: coordinate y >= p",
    _core.POINT_NOT_ON_CURVE: "invalid %(what)s: the point (x, y) is not on the curve",
    _core.POINT_COMPRESSED_RANGE: "invalid compressed %(what)s: coordinate x >= p",
    _core.POINT_NO_POINT: "invalid compressed %(what)s: no point of the curve has this x",
}


def point_problem(reason: int, data: Buffer, what: str = "public key",
                  forms: str = "65 bytes 04||X||Y or 33 bytes 02/03||X") -> str:
    """The message for SEC1 bytes that the core refused for `reason` (P256_POINT_*), as
    `what` (whose encodings are `forms`)."""
    b = bytes(data)
    if reason in POINT_PROBLEMS:
        return POINT_PROBLEMS[reason] % {"what": what, "prefix": b[0] if b else 0}
    n = len(b)
    return ("invalid SEC1 %s: expected %s, got %d byte%s%s"
            % (what, forms, n, "" if n == 1 else "s", " starting with 0x%02x" % b[0] if n else ""))


def small(value: int) -> str:
    """An integer from the input for a message (huge ones are not worth printing)."""
    return str(value) if -10**6 < value < 10**6 else "out of range"
