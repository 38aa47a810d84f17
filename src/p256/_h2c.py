# SPDX-License-Identifier: Apache-2.0
"""Hashing to P-256 (RFC 9380) and to its scalars (RFC 9497's HashToScalar).

expand_message_xmd is here, on hashlib (SHA-256 with the state after RFC 9380's Z_pad
kept, as 5.3.1 suggests, and the tails of each tag's hashes); the map to the curve and the reduction mod n are the native
group's (_core.h2c_map: the simplified SWU map in constant time; Scalar.from_bytes_reduce).
"""

from __future__ import annotations

import hashlib
from typing import Dict, Tuple

from ._common import Buffer, as_bytes, small
from ._core import h2c_map
from ._group import Point, Scalar, multi_mult_vartime

__all__ = ["expand_message_xmd", "hash_to_curve", "encode_to_curve", "hash_to_scalar",
           "Point", "Scalar", "multi_mult_vartime"]

_OVERSIZE = b"H2C-OVERSIZE-DST-"
_HASH_BYTES = 32                    # b_in_bytes of SHA-256
_MAX_LENGTH = 255 * _HASH_BYTES     # ell <= 255
_ZPAD_STATE = hashlib.sha256(bytes(64))  # SHA-256 after Z_pad = I2OSP(0, s_in_bytes = 64)
_sha256 = hashlib.sha256

# What follows msg and each b_i in the hashes, per (dst, length): I2OSP(length, 2) ||
# I2OSP(0, 1) || DST_prime, and I2OSP(i, 1) || DST_prime for i = 1..ell. A protocol
# uses a few tags and lengths, so they are kept (for tags of at most 255 bytes, the
# cache cleared when it reaches _TAILS_MAX entries).
_TAILS: Dict[Tuple[bytes, int], Tuple[bytes, Tuple[bytes, ...]]] = {}
_TAILS_MAX = 64


def _tails(dst: bytes, length: int) -> Tuple[bytes, Tuple[bytes, ...]]:
    found = _TAILS.get((dst, length))
    if found is not None:
        return found
    if not dst:
        raise ValueError("dst must not be empty (RFC 9380 3.1: a tag has nonzero length)")
    d = dst if len(dst) <= 255 else _sha256(_OVERSIZE + dst).digest()  # RFC 9380 5.3.3
    dst_prime = d + bytes((len(d),))
    tails = (length.to_bytes(2, "big") + b"\x00" + dst_prime,
             tuple(bytes((i,)) + dst_prime for i in range(1, -(-length // _HASH_BYTES) + 1)))
    if len(dst) <= 255:
        if len(_TAILS) >= _TAILS_MAX:
            _TAILS.clear()
        _TAILS[(dst, length)] = tails
    return tails


def expand_message_xmd(msg: Buffer, dst: Buffer, length: int) -> bytes:
    """RFC 9380 5.3.1 expand_message_xmd with SHA-256.

    Args:
        msg: bytes-like, any length.
        dst: bytes-like domain separation tag, not empty; one longer than 255 bytes is
            replaced by SHA-256("H2C-OVERSIZE-DST-" || dst), as RFC 9380 5.3.3 says.
        length: the number of bytes wanted, 1 to 8160 (ell = ceil(length / 32) <= 255).

    Returns:
        `length` uniform bytes.

    Raises:
        TypeError: msg or dst not bytes-like, length not an int.
        ValueError: an empty dst, or a length outside 1..8160.
    """
    if not isinstance(length, int) or isinstance(length, bool):
        raise TypeError("length must be an int, not %s" % type(length).__name__)
    if not 1 <= length <= _MAX_LENGTH:
        as_bytes(msg, "msg")  # a wrong type is reported first, whatever the length
        as_bytes(dst, "dst")
        raise ValueError("length must be 1 to 8160 bytes (RFC 9380 5.3.1: ell = ceil(length / 32) "
                         "<= 255), not %s" % small(length))
    return _expand(msg, dst, length)


def _expand(msg: object, dst: object, length: int) -> bytes:
    """expand_message_xmd for a length known to be in range."""
    data = msg if type(msg) is bytes else as_bytes(msg, "msg")
    tag = dst if type(dst) is bytes else as_bytes(dst, "dst")
    first, rest = _tails(tag, length)
    h = _ZPAD_STATE.copy()
    h.update(data)
    h.update(first)
    b0 = h.digest()
    bi = _sha256(b0 + rest[0]).digest()
    if length <= _HASH_BYTES:
        return bi[:length]
    blocks = [bi]
    x0 = int.from_bytes(b0, "big")
    for tail in rest[1:]:
        bi = _sha256((x0 ^ int.from_bytes(bi, "big")).to_bytes(_HASH_BYTES, "big") + tail).digest()
        blocks.append(bi)
    out = b"".join(blocks)
    return out if len(out) == length else out[:length]


def hash_to_curve(msg: Buffer, dst: Buffer) -> Point:
    """RFC 9380 hash_to_curve, suite P256_XMD:SHA-256_SSWU_RO_.

    Two field elements from expand_message_xmd (96 bytes), each mapped by the simplified
    SWU map, the two points added: a random oracle to the group. Constant time in msg
    beyond its length (the hashing is SHA-256's, the map the core's).

    Args:
        msg: bytes-like, any length.
        dst: bytes-like domain separation tag, not empty (longer than 255 bytes: hashed).

    Returns:
        A Point (the identity only with probability about 2^-256).

    Raises:
        TypeError: msg or dst not bytes-like.
        ValueError: an empty dst.
    """
    return h2c_map(_expand(msg, dst, 96))


def encode_to_curve(msg: Buffer, dst: Buffer) -> Point:
    """RFC 9380 encode_to_curve, suite P256_XMD:SHA-256_SSWU_NU_.

    One field element (48 bytes of expand_message_xmd), mapped by the simplified SWU map:
    cheaper than hash_to_curve, but its points are not uniform over the group (a
    "nonuniform encoding", RFC 9380 2.2.2); use hash_to_curve unless a protocol says so.

    Args:
        msg: bytes-like, any length.
        dst: bytes-like domain separation tag, not empty.

    Returns:
        A Point, never the identity.

    Raises:
        TypeError: msg or dst not bytes-like.
        ValueError: an empty dst.
    """
    return h2c_map(_expand(msg, dst, 48))


def hash_to_scalar(msg: Buffer, dst: Buffer) -> Scalar:
    """A scalar from a message: RFC 9380 hash_to_field over the group order n, one element
    of L = 48 bytes (RFC 9497's HashToScalar for P-256), reduced in constant time.

    Args:
        msg: bytes-like, any length.
        dst: bytes-like domain separation tag, not empty.

    Returns:
        A Scalar in [0, n-1] (zero with probability about 2^-256).

    Raises:
        TypeError: msg or dst not bytes-like.
        ValueError: an empty dst.
    """
    return Scalar.from_bytes_reduce(_expand(msg, dst, 48))


def __dir__() -> list[str]:
    return sorted(__all__)
