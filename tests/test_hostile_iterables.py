# SPDX-License-Identifier: Apache-2.0
"""Hostile iterables and counts against every call that takes them (docs/api.md, "Batch").

Every *_many call reads a stream of items, and some items are themselves iterables (the
(PublicKey, signature, message) triples, the (PrivateKey, x) pairs). Each is given what a
careless or hostile caller can give:

- an item that never ends (``itertools.repeat``): a TypeError naming its index, after
  reading at most one element more than the item's size;
- an item, or the stream, that raises midway: that exception, unchanged, and no helper
  thread left behind;
- absurd counts: ``generate_many(n)`` beyond its documented maximum is a ValueError naming
  `n` and the maximum before any key is drawn; ``threads=`` beyond 4 per CPU starts no
  more than that.

How much of an endless item was read is measured, not trusted: ``Endless`` counts the
elements taken and raises ``TooFar`` (a BaseException, which no code path may swallow)
once a bound that no bounded reader reaches is passed, so the old unbounded behaviour
fails fast here instead of exhausting memory. ``test_endless_reader_is_caught`` is the
negative control: a reader that turns the whole item into a tuple is caught by it.
"""

import itertools
import threading
import time

import pytest

import p256
from p256 import _core, _many

SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
SIG = SK.sign(b"m", deterministic=True)
# An item never needs more than its size + 1 elements read to be told apart.
PULL_BOUND = 1000


class TooFar(BaseException):
    """An endless item was read further than any bounded reader reads."""


class Endless:
    """An iterator of `value` forever, counting what was read; TooFar past PULL_BOUND."""

    def __init__(self, value):
        self.value = value
        self.pulled = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.pulled += 1
        if self.pulled > PULL_BOUND:
            raise TooFar(self.pulled)
        return self.value


class Boom(Exception):
    """What a hostile iterable raises midway."""


def raising_after(values, count):
    """A generator of `values`' first `count` items, then Boom."""
    yield from itertools.islice(values, count)
    raise Boom("midway")


# Each call that takes items, with one good item, the shape of a good item and how an
# endless one is built from the good item's first element.
CALLS = {
    "verify_many": (lambda items, **kw: p256.verify_many(items, **kw), (PK, SIG, b"m")),
    "sign_many": (lambda items, **kw: p256.sign_many(items, **kw), (SK, b"m")),
    "exchange_many": (lambda items, **kw: p256.exchange_many(items, **kw), (SK, PK)),
}
# The calls whose items are bytes-like objects themselves (an iterable is not one).
FLAT_CALLS = {
    "p256verify_many": (lambda items, **kw: p256.p256verify_many(items, **kw), bytes(160)),
    "scalar_base_mult_many": (lambda items, **kw: p256.scalar_base_mult_many(items, **kw),
                              (7).to_bytes(32, "big")),
}


def helper_threads():
    return [t for t in threading.enumerate() if t.name.startswith("p256.")]


def no_helpers_left():
    """True once every helper thread of a *_many call has ended (they are joined on the
    way out; a short grace for the interpreter's bookkeeping)."""
    deadline = time.monotonic() + 5
    while helper_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not helper_threads()


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("at", [0, 5, 4100])
def test_endless_item(name, at):
    """An endless item at index `at` (in the first chunk or a later one): TypeError naming
    the index, after at most size + 1 elements of it were read."""
    call, good = CALLS[name]
    endless = Endless(good[0])
    items = [good] * at + [endless] + [good] * 3
    for stream in (items, iter(items)):
        endless.pulled = 0
        with pytest.raises(TypeError, match=r"(items|pairs)\[%d\]" % at):
            call(stream, threads=2)
        assert endless.pulled <= len(good) + 1, endless.pulled


@pytest.mark.parametrize("name", sorted(FLAT_CALLS))
def test_endless_item_where_bytes_are_expected(name):
    call, good = FLAT_CALLS[name]
    endless = Endless(good)
    with pytest.raises(TypeError, match=r"\[3\]"):
        call(iter([good] * 3 + [endless]))
    assert endless.pulled == 0


def test_endless_reader_is_caught():
    """The negative control: a reader that takes a whole item (as tuple() does) is stopped
    by the bound, with TooFar, long before memory runs short."""
    endless = Endless(PK)
    with pytest.raises(TooFar):
        tuple(endless)
    assert endless.pulled == PULL_BOUND + 1


@pytest.mark.parametrize("name", sorted(CALLS))
def test_item_raising_midway(name):
    """An item that raises while it is read: that exception, not a TypeError."""
    call, good = CALLS[name]
    item = raising_after(good, len(good) - 1)
    with pytest.raises(Boom):
        call([good, item], threads=2)
    assert no_helpers_left()


@pytest.mark.parametrize("name", sorted(CALLS) + sorted(FLAT_CALLS))
@pytest.mark.parametrize("count", [3, 5000])
def test_stream_raising_midway(name, count):
    """The stream raises after `count` items (within the first chunk, or after a chunk
    was handed to the helper threads): that exception, no answers, no helper left."""
    call, good = {**CALLS, **FLAT_CALLS}[name]
    with pytest.raises(Boom):
        call(raising_after(itertools.repeat(good), count), threads=2)
    assert no_helpers_left()


@pytest.mark.parametrize("n", [_many.GENERATE_MAX + 1, 2**63 - 1, 10**20, 2**1000],
                         ids=["maximum+1", "2**63-1", "10**20", "2**1000"])
def test_generate_many_count_beyond_maximum(n, monkeypatch):
    """Refused with a ValueError naming n and the maximum, before any key is drawn."""

    def no_batch(*args):
        raise AssertionError("a batch was made for n=%d" % n)

    monkeypatch.setattr(_core, "Batch", no_batch)
    with pytest.raises(ValueError, match=r"n must be in 0\.\.%d, got %d" % (_many.GENERATE_MAX, n)):
        p256.PrivateKey.generate_many(n)


def test_generate_many_maximum_is_documented():
    assert _many.GENERATE_MAX == 2**24
    assert "2**24" in p256.PrivateKey.generate_many.__doc__


class CountingThread(threading.Thread):
    started = 0

    def start(self):
        type(self).started += 1
        super().start()


@pytest.mark.parametrize("threads", [10**12, 2**63, 10**100], ids=["10**12", "2**63", "10**100"])
def test_absurd_thread_counts_are_clamped(threads, monkeypatch):
    """threads= beyond 4 per CPU starts at most that many (this thread included), and the
    answers are right."""
    monkeypatch.setattr(_many.threading, "Thread", CountingThread)
    CountingThread.started = 0
    items = [(PK, SIG, b"m")] * 4096
    assert p256.verify_many(items, threads=threads) == [True] * 4096
    assert 1 <= CountingThread.started + 1 <= _many.threads_max()
    assert _many.thread_count(threads) == _many.threads_max() == 4 * _many.os.cpu_count()


def test_thread_count_checker_sees_many_threads(monkeypatch):
    """The negative control of the clamp's test: without the clamp, a large request on a
    batch this size starts more threads than the bound allows, and the counter sees them."""
    monkeypatch.setattr(_many.threading, "Thread", CountingThread)
    monkeypatch.setattr(_many, "threads_max", lambda: 10**12)
    CountingThread.started = 0
    assert p256.verify_many([(PK, SIG, b"m")] * 4096, threads=10**12) == [True] * 4096
    assert CountingThread.started + 1 > 4 * _many.os.cpu_count()
