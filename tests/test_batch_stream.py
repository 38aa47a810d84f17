# SPDX-License-Identifier: Apache-2.0
"""The *_iter twins of the batch calls (docs/api.md, "Batch"): verify_iter,
p256verify_iter, sign_iter, exchange_iter, scalar_base_mult_iter and
PrivateKey.generate_iter.

Each yields exactly its *_many's answers, in input order (across chunks, on one and two
threads); its arguments are checked when it is called, with *_many's errors (a list's
items too), and a bad item of a stream raises where the stream reaches it, after the
answers before it; its memory does not grow with the stream (10^5 and 10^6 items peak
within 10% of each other, while the list form's grows tenfold: the control); and closing
it midway ends its helper threads.
"""

import itertools
import threading
import time

import pytest

import p256
from test_batch import cheap_stream, peak_bytes

SK = [p256.PrivateKey.from_int(1000 + i) for i in range(7)]
MSGS = [b"stream %d" % i for i in range(5000)]


def verify_items(n):
    sigs = {i: SK[i % 7].sign(b"m%d" % (i % 11), deterministic=True) for i in range(77)}
    return [(SK[i % 7].public_key, sigs[i % 77], b"m%d" % (i % 11 if i % 5 else 99))
            for i in range(n)]


PAIRS = {
    "verify": (lambda x, **kw: p256.verify_many(x, **kw), lambda x, **kw: p256.verify_iter(x, **kw),
               lambda: verify_items(4100)),
    "p256verify": (lambda x, **kw: p256.p256verify_many(x, **kw),
                   lambda x, **kw: p256.p256verify_iter(x, **kw),
                   lambda: [bytes(160), b"short"] * 2050),
    "sign": (lambda x, **kw: p256.sign_many(x, deterministic=True, **kw),
             lambda x, **kw: p256.sign_iter(x, deterministic=True, **kw),
             lambda: [(SK[i % 7], m) for i, m in enumerate(MSGS[:4100])]),
    "exchange": (lambda x, **kw: p256.exchange_many(x, **kw),
                 lambda x, **kw: p256.exchange_iter(x, **kw),
                 lambda: [(SK[i % 7], SK[(i + 1) % 7].public_key) for i in range(4100)]),
    "scalar_base_mult": (lambda x, **kw: p256.scalar_base_mult_many(x, **kw),
                         lambda x, **kw: p256.scalar_base_mult_iter(x, **kw),
                         lambda: [(i + 1).to_bytes(32, "big") for i in range(4100)]),
}


def helpers_alive():
    return [t for t in threading.enumerate() if t.name.startswith("p256.")]


def no_helpers_left():
    deadline = time.monotonic() + 5
    while helpers_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not helpers_alive()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_stream_gives_the_list_forms_answers(name, threads):
    many, stream, items = PAIRS[name]
    data = items()
    want = many(data, threads=threads)
    assert list(stream(data, threads=threads)) == want
    assert list(stream(iter(data), threads=threads)) == want  # a one-shot stream
    assert list(stream([], threads=threads)) == []


def test_generate_iter_makes_keys_with_their_public_keys():
    keys = list(p256.PrivateKey.generate_iter(4100, threads=2))
    assert len({k.to_bytes() for k in keys}) == 4100
    for k in keys[::500]:
        assert k.public_key == p256.PrivateKey.from_bytes(k.to_bytes()).public_key


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_arguments_and_a_lists_items_are_checked_when_called(name):
    """The list form's errors, raised by the call itself (before any next())."""
    many, stream, items = PAIRS[name]
    for bad in ([5], 7):
        with pytest.raises(TypeError) as want:
            many(bad)
        with pytest.raises(TypeError) as got:
            stream(bad)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        stream(items(), threads=0)
    with pytest.raises(ValueError, match=r"n must be in 0\.\.16777216, got -1"):
        p256.PrivateKey.generate_iter(-1)
    with pytest.raises(ValueError, match="unknown hash"):
        p256.verify_iter([], hash="md5")


def test_a_bad_item_of_a_stream_raises_where_it_is_reached():
    good = verify_items(6000)
    stream = iter(good[:5000] + [(SK[0].public_key, b"sig", 5)] + good[:10])
    answers = p256.verify_iter(stream, threads=2)
    got = list(itertools.islice(answers, 4096))  # the first chunk's answers come first
    assert got == p256.verify_many(good[:4096])
    with pytest.raises(TypeError, match=r"items\[5000\]"):
        list(answers)
    assert no_helpers_left()


def test_closing_the_stream_midway_ends_its_helpers():
    answers = p256.sign_iter(itertools.repeat((SK[0], b"forever")), deterministic=True,
                             threads=2)
    first = list(itertools.islice(answers, 10_000))
    assert len(set(first)) == 1
    answers.close()
    assert no_helpers_left()


def stream_peak(n, form):
    def run():
        if form == "stream":
            count = 0
            for _ in p256.verify_iter(cheap_stream(n), threads=2):
                count += 1
            return count
        return len(p256.verify_many(cheap_stream(n), threads=2))
    peak, count = peak_bytes(run)
    assert count == n
    return peak


def test_memory_does_not_grow_with_the_stream():
    small, large = stream_peak(100_000, "stream"), stream_peak(1_000_000, "stream")
    assert large < 1.1 * small, (small, large)


def test_memory_check_sees_the_list_grow():
    """Negative control: the list form's peak grows with its answers (a pointer each)."""
    small, large = stream_peak(100_000, "list"), stream_peak(1_000_000, "list")
    assert large > 1.1 * small and large - small > 8 * 900_000, (small, large)
