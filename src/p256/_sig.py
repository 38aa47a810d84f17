# SPDX-License-Identifier: Apache-2.0
"""ECDSA signature values: (r, s) from DER or raw r||s and back, the messages for the
core's reasons to refuse one, and the low-s form (s <= n/2, as Bitcoin's BIP 62/146
and Ethereum's EIP-2 require).

The one signature parser and DER writer are the native core's (p256_sig_parse: strict
DER, r and s in [1, n-1]; p256_sig_to_der); here the parser's reason codes become
messages, in one table. Signatures are public: ordinary variable-time code."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from . import _core
from ._common import ENCODINGS, Buffer, N, SigEncoding, as_bytes, lookup

#: The largest s of a low-s signature: floor(n/2) (n is odd).
HALF_N = N // 2

#: What is wrong with bytes that are not a strict DER SEQUENCE { INTEGER r, INTEGER s }, by
#: the core's reason (p256.h, P256_SIG_DER_*).
DER_PROBLEMS: Dict[int, str] = {
    _core.SIG_DER_EMPTY: "data ends where an element was expected",
    _core.SIG_DER_NOT_SEQUENCE: "it does not start with a SEQUENCE",
    _core.SIG_DER_LENGTH: "a length that is not DER (indefinite, not minimal, or cut short)",
    _core.SIG_DER_OVERRUN: "an element runs past the end of the data",
    _core.SIG_DER_TRAILING: "unexpected octets after the SEQUENCE",
    _core.SIG_DER_NOT_INTEGER: "expected two INTEGERs (r, s) in the SEQUENCE",
    _core.SIG_DER_INTEGER: "an empty or non-minimal INTEGER",
    _core.SIG_DER_EXTRA: "unexpected octets after s in the SEQUENCE",
}


def der_problem(sig: bytes) -> Optional[str]:
    """None if sig is a strict DER SEQUENCE of two INTEGERs (whatever their values), else
    what is wrong with it (the p256 command tells a malformed file from an invalid
    signature by this)."""
    got = _core.sig_parse(sig, False)
    return DER_PROBLEMS.get(got) if isinstance(got, int) else None


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
    got = _core.sig_parse(b, raw)
    if not isinstance(got, int):
        return int.from_bytes(got[:32], "big"), int.from_bytes(got[32:], "big")
    if got == _core.SIG_RAW_LENGTH:
        raise ValueError("a raw signature is r||s, 64 bytes; got %d byte%s%s"
                         % (len(b), "" if len(b) == 1 else "s",
                            ' (it looks like DER: encoding="der")' if b[:1] == b"\x30" else ""))
    if got in (_core.SIG_R_RANGE, _core.SIG_S_RANGE):
        raise ValueError("invalid signature: %s is not in [1, n-1]"
                         % ("r" if got == _core.SIG_R_RANGE else "s"))
    hint = '; a raw r||s signature? encoding="raw"' if len(b) == 64 else ""
    raise ValueError("malformed DER signature: %s%s" % (DER_PROBLEMS[got], hint))


def encode(r: int, s: int, raw: bool) -> bytes:
    """The signature (r, s) with r, s < 2^256: 32+32 bytes, or the core's minimal DER."""
    rs = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return rs if raw else _core.sig_encode(rs)


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
