# SPDX-License-Identifier: Apache-2.0
"""The one argument normalizer of the sign, verify and recover entry points.

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

from ._common import DIGESTS, ENCODINGS, HASHES, byte_length, flag_error, lookup

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
