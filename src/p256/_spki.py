# SPDX-License-Identifier: Apache-2.0
"""``SubjectPublicKeyInfo`` (RFC 5280 4.1.2.7, RFC 5480) of a P-256 key, on bytes: the
SEC1 point in, DER out, and back. id-ecPublicKey, namedCurve prime256v1, the point
compressed or uncompressed (validated by the caller); what we write is the uncompressed
point unless asked otherwise, as OpenSSL writes it."""

from __future__ import annotations

from typing import Optional

from . import _der as der
from ._der import Reader
from ._ecparams import ALGORITHM_ID, read_algorithm

__all__ = ["encode", "decode", "decode_full", "WHERE"]

WHERE = "the SubjectPublicKeyInfo"
_U_HEAD = der.sequence(ALGORITHM_ID, der.bit_string(b"\x04" + bytes(64)))[:-65]
_C_HEAD = der.sequence(ALGORITHM_ID, der.bit_string(b"\x02" + bytes(32)))[:-33]


def encode(point: bytes) -> bytes:
    return der.sequence(ALGORITHM_ID, der.bit_string(point))


def fast(data: bytes) -> Optional[bytes]:
    """The point when data is exactly an SPKI we write (the point not checked), else None."""
    n = len(data)
    if (n == 91 and data.startswith(_U_HEAD)) or (n == 59 and data.startswith(_C_HEAD)):
        return data[26:]
    return None


def decode_full(data: bytes) -> bytes:
    """The subjectPublicKey bytes (a SEC1 point, not yet validated) after the strict parse."""
    top = Reader(data, "SubjectPublicKeyInfo")
    r = top.enter(der.SEQUENCE, "the outer element")
    top.finish()
    read_algorithm(r)
    point = r.bit_string("subjectPublicKey")
    r.finish()
    return point


def decode(data: bytes) -> bytes:
    point = fast(data)
    return decode_full(data) if point is None else point
