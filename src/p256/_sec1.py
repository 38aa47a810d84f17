# SPDX-License-Identifier: Apache-2.0
"""SEC1 ``ECPrivateKey`` (RFC 5915, SEC 1 v2 C.4), on bytes: the 32-byte scalar and the
65-byte SEC1 public point in, DER out, and back.

Read: version 1; privateKey an OCTET STRING of exactly 32 bytes (RFC 5915 3:
ceiling(log2(n)/8) octets; pyca/cryptography also insists; OpenSSL before 1.1 wrote
shorter ones, `openssl ec` rewrites them); parameters [0] optional and, when present, the
namedCurve prime256v1; publicKey [1] optional (returned, to be checked against d*G by the
caller). Written: {1, d, [0] prime256v1, [1] publicKey}, or without [0] inside PKCS#8:
byte for byte what OpenSSL and pyca/cryptography write.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from . import _der as der
from ._common import small
from ._der import Reader
from ._ecparams import P256_PARAMS, read_curve

__all__ = ["encode", "read", "Parts", "WHERE"]

#: What a private-key reader returns: the 32-byte scalar (range not yet checked) and the
#: public keys stored beside it, each with where it was found, all to equal d*G.
Parts = Tuple[bytes, List[Tuple[bytes, str]]]
WHERE = "the ECPrivateKey"

VERSION_1 = der.integer(1)
_D0, _Q0 = b"\x00" * 32, b"\x04" + b"\x00" * 64


def encode(d: bytes, q: bytes, with_curve: bool = True) -> bytes:
    """ECPrivateKey {1, d, [0] prime256v1 (if with_curve), [1] q}."""
    parts = [VERSION_1, der.octet_string(d)]
    if with_curve:
        parts.append(der.explicit(0, P256_PARAMS))
    parts.append(der.explicit(1, der.bit_string(q)))
    return der.sequence(*parts)


def read(r: Reader) -> Tuple[bytes, Optional[bytes]]:
    """ECPrivateKey (RFC 5915 3) after its SEQUENCE header -> (32-byte scalar, publicKey
    bytes or None)."""
    version = r.integer("version")
    if version != 1:
        raise ValueError("unsupported ECPrivateKey version %s (RFC 5915 requires 1)"
                         % small(version))
    d = r.octet_string("privateKey")
    if r.optional(0xA0):
        params = r.enter(0xA0, "parameters [0]")
        read_curve(params)
        params.finish()
    point = None
    if r.optional(0xA1):
        p = r.enter(0xA1, "publicKey [1]")
        point = p.bit_string("publicKey")
        p.finish()
    r.finish()
    if len(d) != 32:
        raise ValueError(
            "the ECPrivateKey privateKey must be a 32-byte OCTET STRING for P-256 (RFC 5915), "
            "got %d bytes%s" % (len(d), "; `openssl ec -in key.pem -out fixed.pem` rewrites "
                                "an old OpenSSL key with a short one" if len(d) < 32 else ""))
    return d, point


def load(r: Reader) -> Parts:
    """A whole ECPrivateKey (after its SEQUENCE header) as Parts."""
    d, point = read(r)
    return d, [] if point is None else [(point, WHERE)]


# Fast path for the exact encoding that we, OpenSSL and cryptography write: when every
# framing byte equals the template's, the strict parse would accept it and read the same
# fields (DER is unique), so the fields are sliced out directly; the caller then checks
# them exactly as after the full parse.
def template(t: bytes) -> Tuple[int, bytes, int, bytes, int]:
    """(length, head, d offset, middle, point offset) of a template with d then Q."""
    d_at = t.index(_D0)
    q_at = t.rindex(_Q0)
    return len(t), t[:d_at], d_at, t[d_at + 32:q_at], q_at


FAST = template(encode(_D0, _Q0))
EMPTY_KEY = (_D0, _Q0)  # the scalar and point the templates are made of


def fast(data: bytes, layout: Tuple[int, bytes, int, bytes, int] = FAST) -> Optional[Parts]:
    """Parts when data is exactly a template's encoding, else None."""
    size, head, d_at, mid, q_at = layout
    if len(data) == size and data.startswith(head) and data[d_at + 32:q_at] == mid:
        return data[d_at:d_at + 32], [(data[q_at:], WHERE)]
    return None
