# SPDX-License-Identifier: Apache-2.0
"""ECDSA signature values in Python: (r, s) from DER or raw r||s and back, and the low-s
form (s <= n/2, as Bitcoin's BIP 62/146 and Ethereum's EIP-2 require).

Signatures are public, so this is ordinary variable-time code. The native core stays
the judge of validity: what is decoded here is only used on signatures that the core
accepts, or to say why one is refused."""

from __future__ import annotations

from typing import Tuple

from . import _der
from ._common import ENCODINGS, Buffer, N, SigEncoding, as_bytes, lookup

#: The largest s of a low-s signature: floor(n/2) (n is odd).
HALF_N = N // 2


def decode(sig: object, raw: bool) -> Tuple[int, int]:
    """(r, s) of a signature, both in [1, n-1].

    Args:
        sig: The signature, bytes-like.
        raw: True for r||s (64 bytes), False for strict DER.

    Returns:
        The pair (r, s).

    Raises:
        ValueError: Malformed (the message says how), or r or s outside [1, n-1].
        TypeError: sig is not bytes-like.
    """
    b = as_bytes(sig, "sig")
    if raw:
        if len(b) != 64:
            raise ValueError("a raw signature is r||s, 64 bytes; got %d byte%s%s"
                             % (len(b), "" if len(b) == 1 else "s",
                                ' (it looks like DER: encoding="der")' if b[:1] == b"\x30" else ""))
        r, s = int.from_bytes(b[:32], "big"), int.from_bytes(b[32:], "big")
    else:
        try:
            top = _der.Reader(b, "DER signature")
            body = top.enter(_der.SEQUENCE, "SEQUENCE")
            top.finish()
            r, s = body.integer("r"), body.integer("s")
            body.finish()
        except _der.DerError as exc:
            if len(b) != 64:
                raise
            raise ValueError('%s; a raw r||s signature? encoding="raw"' % exc) from None
    for name, v in (("r", r), ("s", s)):
        if not 1 <= v < N:
            raise ValueError("invalid signature: %s is not in [1, n-1]" % name)
    return r, s


def encode(r: int, s: int, raw: bool) -> bytes:
    """The signature (r, s), as the core writes it (minimal DER, or 32+32 bytes)."""
    if raw:
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return _der.sequence(_der.integer(r), _der.integer(s))


def low(r: int, s: int) -> Tuple[int, int]:
    """The low-s twin of (r, s): (r, n - s) when s > n/2. Both verify under the same key
    (s and n - s sign with R and -R, which share their x)."""
    return (r, N - s) if s > HALF_N else (r, s)


def normalize_s(sig: Buffer, *, encoding: SigEncoding = "der") -> bytes:
    """The low-s form of a signature: s replaced by n - s when s > n/2.

    Both forms are valid for the same key and message; protocols that must not accept a
    second encoding of one signature (Bitcoin, Ethereum) require the low one. The result
    has the same encoding as the input; a low-s signature comes back unchanged.

    Args:
        sig: The signature: strict DER, or r||s (64 bytes) with ``encoding="raw"``.
        encoding: "der" or "raw".

    Returns:
        The signature with s <= n/2, in `encoding`.

    Raises:
        ValueError: Malformed, r or s outside [1, n-1], or an unknown encoding name.
        TypeError: sig is not bytes-like, or encoding is not a str.
    """
    raw = lookup(ENCODINGS, encoding, "encoding")
    r, s = decode(sig, raw)
    return encode(*low(r, s), raw)
