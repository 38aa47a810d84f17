# SPDX-License-Identifier: Apache-2.0
"""The one argument normalizer of the sign, verify and recover entry points, and the
checks of the key layer's other arguments (a scalar or coordinates as ints, a table
window, a recovery id).

Every entry point passes its arguments straight to the native core through the fast
tables below (a hash name to its id or digest size, an encoding name to the core's
`raw` flag); the core takes exactly the normalized values and refuses anything else
with a bare TypeError or ValueError. On that path only, the entry point calls
:func:`normalize`, which checks the arguments in one order for all of them (hash,
encoding, the data, deterministic, low_s) and raises the documented error; when it
finds nothing wrong (the refusal was about another argument, such as a signature
that is not bytes-like) it returns the normalized values and the entry point calls the
core again, which raises its own error."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from . import _sig
from ._common import (
    DIGESTS,
    ENCODINGS,
    HASHES,
    N,
    P,
    as_bytes,
    byte_length,
    flag_error,
    lookup,
    small,
)

# hash name or None -> the digest size (-1: any non-empty length, hash=None)
DIGEST_SIZES: Dict[Optional[str], int] = {name: size for name, (size, _) in DIGESTS.items()}
# hash name or None -> the RFC 6979 id of a digest's signature (None: HMAC-SHA-256)
DIGEST_NONCES: Dict[Optional[str], int] = {name: ident for name, (_, ident) in DIGESTS.items()}

#: What the core's sign takes for a message: the hash id and, as `size`, this.
MESSAGE = -1


def check_digest(digest: object, size: int, hash: Optional[str]) -> None:
    """TypeError unless digest is bytes-like, ValueError unless it is `size` bytes (-1: any
    length but 0)."""
    n = byte_length(digest, "digest")
    if size < 0:
        if n == 0:
            raise ValueError("digest must not be empty")
        return
    if n == size:
        return
    raise ValueError("digest must be %d bytes for hash=%r (the size of its output), got %d; "
                     "name the hash that made it, or use sign()/verify() on the message"
                     % (size, hash, n))


def normalize(data: object, is_digest: bool, hash: object, encoding: object,
              deterministic: object = False, low_s: object = False
              ) -> Tuple[int, int, int, bool, bool, bool]:
    """(hash id, digest size, RFC 6979 id, raw, deterministic, low_s) for the core, or the
    documented error for the first argument that is wrong. For a message the hash id is
    the message's hash and the size MESSAGE; for a digest the hash id is -1."""
    if is_digest:
        size, nonce = lookup(DIGESTS, hash, "hash")
        ident = -1
    else:
        ident = nonce = lookup(HASHES, hash, "hash")
        size = MESSAGE
    raw = lookup(ENCODINGS, encoding, "encoding")
    if is_digest:
        check_digest(data, size, hash)  # type: ignore[arg-type]
    else:
        byte_length(data, "msg")
    for what, flag in (("deterministic", deterministic), ("low_s", low_s)):
        if flag is not True and flag is not False:
            flag_error(what, flag)
    return ident, size, nonce, raw, deterministic is True, low_s is True


def recovery_input(sig: object, digest: object, hash: object, encoding: object
                   ) -> Tuple[bytes, bytes]:
    """recover's checks: (r||s, the digest as bytes), or the error for the first argument
    that is wrong (hash, encoding, the digest, then the signature)."""
    raw = normalize(digest, True, hash, encoding)[3]
    r, s = _sig.decode(sig, raw)
    return _sig.encode(r, s, True), as_bytes(digest, "digest")


def int_arg(value: object, what: str) -> int:
    """value if it is an int (a bool is not one), else the TypeError naming `what`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    return value


def recovery_id(value: object) -> int:
    """A recovery id, 0..3."""
    rid = int_arg(value, "recovery_id")
    if not 0 <= rid <= 3:
        raise ValueError("recovery_id must be 0, 1, 2 or 3, not %s" % small(rid))
    return rid


def scalar(d: object) -> bytes:
    """The 32 big-endian bytes of a private scalar given as an int in [1, n-1]."""
    d = int_arg(d, "private key")
    if not 1 <= d < N:
        raise ValueError("private key must be an integer in [1, n-1]")
    return d.to_bytes(32, "big")


def point_xy(x: object, y: object) -> bytes:
    """The uncompressed SEC1 bytes of affine coordinates given as ints in [0, p-1] (the
    core then checks that the point is on the curve)."""
    out = [b"\x04"]
    for name, v in (("x", x), ("y", y)):
        c = int_arg(v, name)
        if not 0 <= c < P:
            raise ValueError("invalid public key: coordinate %s %s" % (name, "< 0" if c < 0 else ">= p"))
        out.append(c.to_bytes(32, "big"))
    return b"".join(out)


def window_type(window: object) -> int:
    """A table window's type: exactly an int (not a bool, not a subclass)."""
    if type(window) is not int:
        raise TypeError("window must be an int, not %s" % type(window).__name__)
    return window


def window_range(window: int) -> int:
    """A table window's range, 4 to 8 bits."""
    if not 4 <= window <= 8:
        raise ValueError("window must be 4 to 8 bits, got %d" % window)
    return window
