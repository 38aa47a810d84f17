# SPDX-License-Identifier: Apache-2.0
"""verify_many (many signatures on several threads) and p256verify (EIP-7951)."""

from __future__ import annotations

import os
import threading

from typing import Iterable, List, Optional, Tuple

from . import _core
from ._common import Buffer, HashName, SigEncoding
from ._common import ENCODINGS as _ENCODINGS
from ._common import HASHES as _HASHES
from ._common import lookup as _lookup
from ._keys import PublicKey

__all__ = ["verify_many", "p256verify"]

# Below this many items per extra thread, starting a thread (~50-100 us) costs about what
# it saves (a verification is ~45 us): such batches use fewer threads, or run inline.
_MIN_ITEMS_PER_THREAD = 4


def verify_many(items: Iterable[Tuple[PublicKey, Buffer, Buffer]], *, hash: HashName = "sha256",
                encoding: SigEncoding = "der", threads: Optional[int] = None) -> List[bool]:
    """Verify many ECDSA signatures at once, on several threads.

    Each result is exactly what ``pk.verify(sig, msg, hash=hash, encoding=encoding)``
    returns: False for every invalid or malformed signature. The inputs are taken in (and
    their types checked) first, under the GIL; then hashing and verification run in the
    native core with the GIL released, on `threads` threads that share the items.

    Args:
        items: Any iterable of ``(PublicKey, signature, message)`` triples.
        hash: The message hash, for all items (as for
            [PublicKey.verify][p256.PublicKey.verify]).
        encoding: "der" or "raw", for all items.
        threads: How many threads (this one included); None: ``os.cpu_count()``. Small
            batches use fewer.

    Returns:
        One bool per item, in the order of `items`.

    Raises:
        TypeError: An item is not a (PublicKey, bytes-like, bytes-like) triple (the
            message names its index, and the size of a tuple of the wrong size), a name
            is not a str, or threads is not an int; raised before any verification.
        ValueError: Unknown hash or encoding name (even for an empty batch), or
            threads < 1.
    """
    hash_id = _lookup(_HASHES, hash, "hash")[1]
    raw = _lookup(_ENCODINGS, encoding, "encoding")
    if threads is None:
        threads = os.cpu_count() or 1
    elif not isinstance(threads, int) or isinstance(threads, bool):
        raise TypeError("threads must be an int or None, not %s" % type(threads).__name__)
    elif threads < 1:
        raise ValueError("threads must be at least 1, got %d" % threads)
    if not isinstance(items, (list, tuple)):
        try:  # keep what a generator gave, to name a bad item precisely below
            items = tuple(items)
        except TypeError:
            pass  # not iterable: the core says so
    try:
        batch = _core.Batch(items, PublicKey, raw, hash_id)
    except TypeError as exc:
        raise _item_error(items, exc) from None
    workers = min(threads, len(batch) // _MIN_ITEMS_PER_THREAD)
    helpers = []
    try:
        for _ in range(workers - 1):
            t = threading.Thread(target=batch.run, name="p256.verify_many", daemon=True)
            try:
                t.start()
            except RuntimeError:  # cannot start more threads: the others take the work
                break
            helpers.append(t)
        batch.run()  # this thread works too
    finally:
        for t in helpers:
            t.join()
    return batch.results()


def _item_error(items: object, exc: TypeError) -> TypeError:
    """The core's TypeError; for an item that is a tuple or list of the wrong size, one
    that says so (the core names only its type)."""
    import re

    m = re.match(r"items\[(\d+)\] must be a \(PublicKey, signature, message\) triple", str(exc))
    if m and isinstance(items, (list, tuple)):
        item = items[int(m.group(1))]
        if isinstance(item, (tuple, list)):
            return TypeError("%s, got a %s of %d item%s" % (
                m.group(0), type(item).__name__, len(item), "" if len(item) == 1 else "s"))
    return exc


_p256verify = _core.p256verify


def p256verify(data: Buffer) -> bytes:
    """EIP-7951 P256VERIFY: ``data`` = hash || r || s || qx || qy, 32 bytes each (160).

    Args:
        data: The precompile's input.

    Returns:
        The 32-byte big-endian integer 1 when the ECDSA signature (r, s) of the 32-byte
        hash is valid under the public key (qx, qy); b"" on any failure: input not
        exactly 160 bytes, r or s not in [1, n-1], qx or qy >= p, (qx, qy) not on the
        curve (the "point" (0, 0) included), R = u1*G + u2*Q at infinity, or
        r != x(R) mod n. As in the EIP, a high s is accepted (no malleability rule) and
        the hash is used as a 256-bit integer.

    Raises:
        TypeError: data is not bytes-like (the only exception).
    """
    return _p256verify(data)
