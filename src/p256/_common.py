# SPDX-License-Identifier: Apache-2.0
"""What every module of p256 shares: the curve constants, the hash and encoding tables,
argument checks and the error texts built from them. Imports nothing of p256 but the
native core, so any module may import it without a cycle."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Literal, Mapping, NoReturn, Optional, Tuple, TypeVar, Union

from . import _core

if TYPE_CHECKING:
    from hashlib import _Hash

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
#: The curve's b (y^2 = x^3 - 3x + b).
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B

# hash name -> (hashlib constructor, the core's RFC 6979 id for that hash)
HASHES: Dict[str, Tuple[Callable[[Buffer], _Hash], int]] = {
    name: (getattr(hashlib, name), ident) for name, ident in _core.NONCE_HASH.items()}
# hash name (None: any length, the explicit opt-in) -> (digest size, or -1 for any
# non-empty length; the RFC 6979 id)
DIGESTS: Dict[Optional[str], Tuple[int, int]] = {
    name: (hashlib.new(name).digest_size, ident) for name, ident in _core.NONCE_HASH.items()}
DIGESTS[None] = (-1, _core.NONCE_HASH["sha256"])
ENCODINGS: Dict[str, bool] = {"der": False, "raw": True}  # name -> the core's `raw` flag
HEDGED: int = _core.NONCE_HEDGED

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


def buffer_error(what: str, value: object) -> TypeError:
    """The TypeError for a non-bytes argument, naming it and what came."""
    hint = " (encode text first, e.g. msg.encode())" if isinstance(value, str) else ""
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


def byte_length(data: object, what: str) -> int:
    """The size in bytes of a bytes-like argument (a memoryview of wide items counts its
    bytes), else TypeError naming it."""
    if isinstance(data, (bytes, bytearray)):
        return len(data)
    try:
        return memoryview(data).nbytes  # type: ignore[arg-type]
    except TypeError:
        raise buffer_error(what, data) from None


def point_problem(data: Buffer) -> str:
    """Why SEC1 bytes that the core refused are not a public key (only on the error path:
    the core's answer is the check, this names the reason). Public data only."""
    b = bytes(data)
    n = len(b)
    head = b[0] if b else None
    if b == b"\x00":
        return "the point at infinity is not a valid public key"
    if head in (6, 7) and n == 65:
        return ("hybrid SEC1 encoding (prefix 0x%02x) is not supported; use 04||X||Y or "
                "02/03||X" % head)
    if head == 4 and n == 65:
        x, y = int.from_bytes(b[1:33], "big"), int.from_bytes(b[33:], "big")
        if x >= P or y >= P:
            return "invalid public key: coordinate %s >= p" % ("x" if x >= P else "y")
        if (y * y - (x * x * x - 3 * x + B)) % P:
            return "invalid public key: the point (x, y) is not on the curve"
        return "invalid public key"
    if head in (2, 3) and n == 33:
        if int.from_bytes(b[1:], "big") >= P:
            return "invalid compressed public key: coordinate x >= p"
        return "invalid compressed public key: no point of the curve has this x"
    return ("invalid SEC1 public key: expected 65 bytes 04||X||Y or 33 bytes 02/03||X, got %d "
            "byte%s%s" % (n, "" if n == 1 else "s",
                          " starting with 0x%02x" % head if head is not None else ""))


def small(value: int) -> str:
    """An integer from the input for a message (huge ones are not worth printing)."""
    return str(value) if -10**6 < value < 10**6 else "out of range"
