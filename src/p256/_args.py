# SPDX-License-Identifier: Apache-2.0
"""The checks of the key layer's arguments that the native core does not take: a scalar
or coordinates as ints, a table window, a recovery id, and recovery's signature and
digest. (The arguments of sign and verify go to the core as given: its one normalizer,
csrc/py_args.c, checks them and raises the documented errors; _core.sig_args is the same
for Python.)"""

from __future__ import annotations

from typing import Tuple

from . import _core, _sig
from ._common import N, P, as_bytes, small


def recovery_input(sig: object, digest: object, hash: object, encoding: object
                   ) -> Tuple[bytes, bytes]:
    """recover's checks: (r||s, the digest as bytes), or the error for the first argument
    that is wrong (hash, encoding, the digest, then the signature)."""
    raw = _core.sig_args(digest, True, hash, encoding)[3]
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
