# SPDX-License-Identifier: Apache-2.0
"""verify_many and p256verify_many (many signatures in chunks, on several threads, on the
batch engine), p256verify (EIP-7951) and batch_backend."""

from __future__ import annotations

import os
import queue
import threading

from typing import Any, Iterable, List, Optional, Tuple

from . import _core
from ._common import Buffer, HashName, SigEncoding
from ._common import ENCODINGS as _ENCODINGS
from ._common import HASHES as _HASHES
from ._common import lookup as _lookup
from ._keys import PublicKey

__all__ = ["verify_many", "p256verify", "p256verify_many", "batch_backend"]

# Below this many items per extra thread, starting a thread (~50-100 us) costs about what
# it saves (a verification is ~10-45 us): such batches use fewer threads, or run inline.
_MIN_ITEMS_PER_THREAD = 4
# Items taken from the input at a time: what the core holds of a stream (~176 B each, plus
# the bytes messages it references). Small enough for constant memory on any stream,
# large enough that a chunk's work (~40 ms on one core) dwarfs its hand-over (~10 us).
_CHUNK = 4096
# The most items a thread claims at once (the batch engine verifies 8 lanes at a time; a
# claim of several eights keeps the lanes full around a malformed item or a precomputed
# key, which leave the engine's call).
_GROUP = 32


def verify_many(items: Iterable[Tuple[PublicKey, Buffer, Buffer]], *, hash: HashName = "sha256",
                encoding: SigEncoding = "der", threads: Optional[int] = None) -> List[bool]:
    """Verify many ECDSA signatures at once, on several threads.

    Each result is exactly what ``pk.verify(sig, msg, hash=hash, encoding=encoding)``
    returns: False for every invalid or malformed signature. The items are taken in
    chunks of a few thousand under the GIL; each chunk is then hashed and verified in the
    native core with the GIL released, on `threads` threads that share it, with the
    batch engine (see ``p256.batch_backend()``: eight signatures at once where
    the CPU has AVX-512 IFMA). So any iterable, a generator of millions of items too,
    runs in constant memory besides the returned list.

    Args:
        items: Any iterable of ``(PublicKey, signature, message)`` triples.
        hash: The message hash, for all items (as for
            ``PublicKey.verify``).
        encoding: "der" or "raw", for all items.
        threads: How many threads (this one included); None: ``os.cpu_count()``. Small
            batches use fewer.

    Returns:
        One bool per item, in the order of `items`.

    Raises:
        TypeError: An item is not a (PublicKey, bytes-like, bytes-like) triple (the
            message names its index, and the size of a tuple or list of the wrong size),
            items is not iterable, a name is not a str, or threads is not an int. For a
            list or tuple (of tuples or lists) it is raised before any verification; any
            other iterable is read up to the bad item and no further, and the answers for
            the items before it (some may have been verified) are dropped.
        ValueError: Unknown hash or encoding name (even for an empty batch), or
            threads < 1.
    """
    hash_id = _lookup(_HASHES, hash, "hash")
    raw = _lookup(_ENCODINGS, encoding, "encoding")
    return _run(items, PublicKey, raw, hash_id, _threads(threads), "items")


def p256verify_many(inputs: Iterable[Buffer], *, threads: Optional[int] = None) -> List[bytes]:
    """EIP-7951 P256VERIFY on many inputs at once: ``[p256verify(x) for x in inputs]``.

    Each answer is exactly what ``p256verify`` returns for that input
    (b"" for an input that is not 160 bytes, among every other failure); the work runs
    as verify_many's does: in chunks (constant memory for any iterable), with the GIL
    released, on the batch engine, on `threads` threads.

    Args:
        inputs: Any iterable of bytes-like inputs, hash || r || s || qx || qy.
        threads: How many threads (this one included); None: ``os.cpu_count()``.

    Returns:
        One bytes per input, in order: the 32-byte big-endian 1 or b"".

    Raises:
        TypeError: An input is not bytes-like (the message names its index), inputs is
            not iterable, or threads is not an int; for an iterator, as verify_many.
        ValueError: threads < 1.
    """
    return _run(inputs, None, True, _core.BATCH_EIP7951, _threads(threads), "inputs")


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return os.cpu_count() or 1
    if not isinstance(threads, int) or isinstance(threads, bool):
        raise TypeError("threads must be an int or None, not %s" % type(threads).__name__)
    if threads < 1:
        raise ValueError("threads must be at least 1, got %d" % threads)
    return threads


def batch_backend() -> str:
    """The batch engine behind verify_many and p256verify_many.

    Returns:
        "avx512-ifma" (eight signatures at once with AVX-512 IFMA, where the CPU and the OS
        have it) or "scalar" (one signature at a time). Chosen at import: the environment
        variable ``P256_BATCH`` ("avx512-ifma" or "scalar") forces one; an unknown name, or
        one that cannot run here, makes the import fail with an ImportError listing the
        valid ones.
    """
    return _core.batch_backend()


def _plan(n: int, threads: int) -> Tuple[int, int]:
    """(threads, items per claim) for a chunk of n items and at most `threads` threads.

    The scalar engine: at least _MIN_ITEMS_PER_THREAD items per thread, claims small
    enough that each thread gets two. The 8-lane engine: claims are whole eights (a
    shorter claim leaves lanes idle), so a thread needs two eights to be worth starting.
    One thread claims _GROUP at a time (no one to share with)."""
    lanes = 8 if _core.batch_backend() == "avx512-ifma" else 1
    threads = max(1, min(threads, n // max(_MIN_ITEMS_PER_THREAD, 2 * lanes)))
    if threads == 1:
        return 1, _GROUP
    g = n // (2 * threads)
    if g >= 8:
        return threads, min(_GROUP, g - g % 8)
    return threads, max(lanes, g, 1)


class _Workers:
    """Helper threads kept for one call: each runs every batch (chunk) handed to it, so a
    stream of chunks starts its threads once. Nobody waits for a helper as such: the
    batch's results() waits for the groups still being verified, so a helper that the OS
    schedules late (a loaded machine) finds nothing left and costs nothing."""

    def __init__(self, count: int) -> None:
        self._queues: List[queue.SimpleQueue[Optional[_core.Batch]]] = []
        self._threads: List[threading.Thread] = []
        for _ in range(count):
            q: queue.SimpleQueue[Optional[_core.Batch]] = queue.SimpleQueue()
            t = threading.Thread(target=self._work, args=(q,), name="p256.verify_many", daemon=True)
            try:
                t.start()
            except RuntimeError:  # cannot start more threads: the others take the work
                break
            self._queues.append(q)
            self._threads.append(t)

    @staticmethod
    def _work(q: queue.SimpleQueue[Optional[_core.Batch]]) -> None:
        while True:
            batch = q.get()
            if batch is None:
                return
            batch.run()

    def give(self, batch: _core.Batch) -> None:
        """Hand the batch to every helper that is not still behind (one the OS has not yet
        run for the batch before gets no new one: a queue never holds more than one), with
        its claim size."""
        batch.group = _plan(len(batch), len(self._threads) + 1)[1]
        for q in self._queues:
            if q.empty():
                q.put(batch)

    def __len__(self) -> int:
        return len(self._threads)

    def close(self) -> None:
        for q in self._queues:
            q.put(None)
        for t in self._threads:
            t.join()


def _run(items: object, pk_type: Optional[type], raw: bool, hash_id: int, threads: int,
         what: str) -> List[Any]:
    """The answers for a stream of items, taken _CHUNK at a time (see verify_many)."""
    if isinstance(items, (list, tuple)):
        _core.batch_check(items, pk_type, raw, hash_id)  # a TypeError before any work
    try:
        it = iter(items)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError("%s must be an iterable of %s, not %s" % (
            what, "bytes-like objects" if hash_id == _core.BATCH_EIP7951
            else "(PublicKey, signature, message)", type(items).__name__)) from None
    out: List[Any] = []
    offset = 0

    def take() -> _core.Batch:
        nonlocal offset
        batch = _core.Batch(it, pk_type, raw, hash_id, offset, 1, _CHUNK)
        offset += len(batch)
        return batch
    batch = take()
    workers = _Workers(_plan(len(batch), threads)[0] - 1)  # the first chunk sizes the pool
    try:
        workers.give(batch)
        while True:
            nxt = None
            if len(batch) == _CHUNK and len(workers):
                nxt = take()  # while the helpers verify this one
                workers.give(nxt)  # they start on it when this one has nothing left
            out.extend(batch.results())  # verifies what is unclaimed, waits for the rest
            if nxt is None and len(batch) == _CHUNK:
                nxt = take()
                workers.give(nxt)
            if nxt is None:
                return out
            batch = nxt
    finally:
        workers.close()


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
