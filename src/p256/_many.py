# SPDX-License-Identifier: Apache-2.0
"""The machinery of every *_many function: a stream of items taken in chunks into the
native _core.Batch, each chunk worked off the GIL on several threads that claim groups of
it (verify_many, p256verify_many, PrivateKey.generate_many, scalar_base_mult_many,
sign_many, exchange_many)."""

from __future__ import annotations

import os
import queue
import threading

from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

from . import _core

# Below this many items per extra thread, starting a thread (~50-100 us) costs about what
# it saves (a verification is ~10-45 us): such batches use fewer threads, or run inline.
MIN_ITEMS_PER_THREAD = 4
# Items taken from the input at a time: what the core holds of a stream (~280 B each, plus
# the bytes messages it references). Small enough for constant memory on any stream,
# large enough that a chunk's work (~40 ms on one core) dwarfs its hand-over (~10 us).
CHUNK = 4096
# The most items a thread claims at once (the batch engine works 8 lanes at a time; a
# claim of several eights keeps the lanes full around a malformed item or a precomputed
# key, which leave the engine's call).
GROUP = 32


# The work is CPU-bound: threads beyond a few per CPU only add start-up cost and stacks.
THREADS_PER_CPU_MAX = 4
# The most items PrivateKey.generate_many makes in one call (its list holds them all:
# about 300 bytes a key, so 5 GB at this bound).
GENERATE_MAX = 1 << 24


def thread_count(threads: Optional[int]) -> int:
    """`threads=` as every *_many function takes it: None is os.cpu_count(); an int >= 1,
    clamped to THREADS_PER_CPU_MAX times the CPU count (threads_max())."""
    if threads is None:
        return os.cpu_count() or 1
    if not isinstance(threads, int) or isinstance(threads, bool):
        raise TypeError("threads must be an int or None, not %s" % type(threads).__name__)
    if threads < 1:
        raise ValueError("threads must be at least 1, got %d" % threads)
    return min(threads, threads_max())


def threads_max() -> int:
    """The most threads a *_many call starts (this one included): THREADS_PER_CPU_MAX per
    CPU that os.cpu_count() counts."""
    return THREADS_PER_CPU_MAX * (os.cpu_count() or 1)


def plan(n: int, threads: int, lanes: int) -> Tuple[int, int]:
    """(threads, items per claim) for a chunk of n items and at most `threads` threads, on
    an engine of `lanes` lanes (1: the scalar loop, 8: the IFMA engine).

    The scalar engine: at least MIN_ITEMS_PER_THREAD items per thread, claims small
    enough that each thread gets two. The 8-lane engine: claims are whole eights (a
    shorter claim leaves lanes idle), so a thread needs two eights to be worth starting.
    One thread claims GROUP at a time (no one to share with)."""
    threads = max(1, min(threads, n // max(MIN_ITEMS_PER_THREAD, 2 * lanes)))
    if threads == 1:
        return 1, GROUP
    g = n // (2 * threads)
    if g >= 8:
        return threads, min(GROUP, g - g % 8)
    return threads, max(lanes, g, 1)


class _Workers:
    """Helper threads kept for one call: each runs every batch (chunk) handed to it, so a
    stream of chunks starts its threads once. Nobody waits for a helper as such: the
    batch's results() waits for the groups still being worked, so a helper that the OS
    schedules late (a loaded machine) finds nothing left and costs nothing."""

    def __init__(self, count: int, lanes: int, name: str) -> None:
        self._lanes = lanes
        self._queues: List[queue.SimpleQueue[Optional[_core.Batch]]] = []
        self._threads: List[threading.Thread] = []
        for _ in range(count):
            q: queue.SimpleQueue[Optional[_core.Batch]] = queue.SimpleQueue()
            t = threading.Thread(target=self._work, args=(q,), name=name, daemon=True)
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
        batch.group = plan(len(batch), len(self._threads) + 1, self._lanes)[1]
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


class Job(NamedTuple):
    """One *_many call's work: its items and kind (_core.BATCH_*) with the kind's Batch
    parameters, how many threads, the engine's lanes; `what` and `shape` name the items
    in the TypeError of a non-iterable, `name` the helper threads."""

    items: object
    kind: int
    params: Dict[str, Any]
    threads: int
    lanes: int
    what: str
    shape: str
    name: str


def chunks(job: Job) -> Iterator[List[Any]]:
    """The answers of a job's stream of items, a list per chunk of CHUNK items, in order.
    The checks come first, when this is called: a list or tuple is checked whole
    (batch_check: every error of its items before any work), anything else must be
    iterable. Then each chunk is ``_core.Batch(kind, items, offset=..., limit=CHUNK,
    **params)``, worked by this thread and the helpers while the next is taken; the
    helpers end when the stream does, fails, or the returned generator is closed."""
    if isinstance(job.items, (list, tuple)):
        _core.batch_check(job.kind, job.items, **job.params)  # an error before any work
    try:
        it = iter(job.items)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError("%s must be an iterable of %s, not %s" % (
            job.what, job.shape, type(job.items).__name__)) from None
    return _chunks(job, it)


def _chunks(job: Job, it: Iterator[Any]) -> Iterator[List[Any]]:
    offset = 0

    def take() -> _core.Batch:
        nonlocal offset
        batch = _core.Batch(job.kind, it, offset=offset, limit=CHUNK, group=1, **job.params)
        offset += len(batch)
        return batch
    batch = take()
    workers = _Workers(plan(len(batch), job.threads, job.lanes)[0] - 1, job.lanes, job.name)
    try:  # the helpers are sized by the first chunk
        workers.give(batch)
        while True:
            nxt = None
            if len(batch) == CHUNK and len(workers):
                nxt = take()  # while the helpers work on this one
                workers.give(nxt)  # they start on it when this one has nothing left
            answers = batch.results()  # works on what is unclaimed, waits for the rest
            if nxt is None and len(batch) == CHUNK:
                nxt = take()
                workers.give(nxt)
            yield answers
            error = batch.pop_error()  # a bad item, or the stream's own exception,
            if error is not None:      # after the answers of the items before it
                try:
                    raise error
                finally:  # else this frame and the error's traceback hold each other
                    del error
            if nxt is None:
                return
            batch = nxt
    finally:
        workers.close()


def run(job: Job) -> List[Any]:
    """Every answer of the job, in one list (a *_many call)."""
    out: List[Any] = []
    for answers in chunks(job):
        out.extend(answers)
    return out


def stream(job: Job) -> Iterator[Any]:
    """The job's answers one at a time, in order, holding at most two chunks (an *_iter
    call): the checks run now, the work as the answers are asked for."""
    return _answers(chunks(job))


def _answers(parts: Iterator[List[Any]]) -> Iterator[Any]:
    try:
        for answers in parts:
            yield from answers
    finally:
        parts.close()  # type: ignore[attr-defined]


def lanes_of(engine: str) -> int:
    """The lanes an engine named as batch_backend names it works at once."""
    return 8 if engine == "avx512-ifma" else 1
