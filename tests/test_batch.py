# SPDX-License-Identifier: Apache-2.0
"""p256.verify_many (API.md "Batch"): the same answers as a loop of PublicKey.verify, in
input order, for valid, invalid and malformed items, every hash, both encodings and any
number of threads; TypeError/ValueError up front for bad arguments; the GIL released."""

import hashlib
import sys
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import p256

N = p256.N
HASHES = ["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
KEYS = [p256.PrivateKey.from_int(d) for d in (1, 2, 0xC0FFEE, N - 1, 2**255 + 12345)]
PKS = [k.public_key for k in KEYS]
HYP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def loop(items, **kw):
    """What verify_many must equal: one verify call per item."""
    return [pk.verify(sig, msg, **kw) for pk, sig, msg in items]


def rs_bytes(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def der_int(v):
    b = v.to_bytes(33, "big").lstrip(b"\x00") or b"\x00"
    if b[0] & 0x80:
        b = b"\x00" + b
    return b"\x02" + bytes([len(b)]) + b


def der(r, s):
    body = der_int(r) + der_int(s)
    return b"\x30" + bytes([len(body)]) + body


def split(sig, encoding):
    """(r, s) of a signature in either encoding."""
    if encoding == "raw":
        return int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
    rlen = sig[3]
    r = int.from_bytes(sig[4:4 + rlen], "big")
    s = int.from_bytes(sig[6 + rlen:], "big")
    return r, s


def encode(r, s, encoding):
    return rs_bytes(r, s) if encoding == "raw" else der(r, s)


def catalogue(encoding, hash="sha256"):
    """(item, expected) pairs covering every kind of valid, invalid and malformed input."""
    sk, pk, other = KEYS[2], PKS[2], PKS[3]
    msg = b"batch message"
    sig = sk.sign(msg, hash=hash, encoding=encoding)
    r, s = split(sig, encoding)
    cases = [
        ((pk, sig, msg), True),
        ((pk, sig, msg + b"!"), False),                      # wrong message
        ((other, sig, msg), False),                          # wrong key
        ((pk, encode(r ^ 1, s, encoding), msg), False),      # tweaked r
        ((pk, encode(r, s ^ 1, encoding), msg), False),      # tweaked s
        ((pk, encode(r, N - s, encoding), msg), True),       # high/low s twin: ECDSA accepts both
        ((pk, encode(0, s, encoding), msg), False),          # r = 0
        ((pk, encode(r, 0, encoding), msg), False),          # s = 0
        ((pk, encode(N, s, encoding), msg), False),          # r = n
        ((pk, encode(r, N, encoding), msg), False),          # s = n
        ((pk, encode(r + N, s, encoding) if r + N < 2**256 else encode(N + 1, s, encoding), msg), False),
        ((pk, encode(r, s + N, encoding) if s + N < 2**256 else encode(r, N + 1, encoding), msg), False),
        ((pk, b"", msg), False),
        ((pk, sig + b"\x00", msg), False),                   # trailing byte / 65-byte raw
        ((pk, sig[:-1], msg), False),                        # truncated / 63-byte raw
        ((pk, b"\x00" * 200, msg), False),                   # far too long
        ((pk, sk.sign(b"", hash=hash, encoding=encoding), b""), True),  # empty message
    ]
    if encoding == "der":
        cases += [
            ((pk, b"\x31" + sig[1:], msg), False),                  # SET, not SEQUENCE
            ((pk, sig[:1] + b"\x81" + sig[1:], msg), False),        # long-form length
            ((pk, rs_bytes(r, s), msg), False),                     # raw given as DER
        ]
    else:
        cases.append(((pk, sk.sign(msg, hash=hash), msg), False))   # DER given as raw
    return cases


@pytest.mark.parametrize("encoding", ["der", "raw"])
@pytest.mark.parametrize("hash", HASHES)
def test_catalogue_in_order(encoding, hash):
    cases = catalogue(encoding, hash)
    items = [item for item, _ in cases]
    want = [expected for _, expected in cases]
    assert loop(items, hash=hash, encoding=encoding) == want  # the catalogue itself is right
    for threads in (1, 2, 7, None):
        got = p256.verify_many(items, hash=hash, encoding=encoding, threads=threads)
        assert got == want
        assert all(type(b) is bool for b in got)
    # every rotation: a result never depends on its position or neighbours
    for k in (1, 5, 11):
        rot = items[k:] + items[:k]
        assert p256.verify_many(rot * 3, hash=hash, encoding=encoding, threads=2) == (want[k:] + want[:k]) * 3


def _mixed(n, encoding="der"):
    items = []
    for i in range(n):
        sk, pk = KEYS[i % len(KEYS)], PKS[i % len(PKS)]
        msg = b"m%d" % i
        sig = sk.sign(msg, encoding=encoding)
        if i % 3 == 1:
            msg += b"x"
        elif i % 5 == 2:
            pk = PKS[(i + 1) % len(PKS)]
        items.append((pk, sig, msg))
    return items


@pytest.mark.parametrize("threads", [1, 2, 3, 7, 64, 1000])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 9, 40])
def test_thread_counts(threads, n):
    items = _mixed(n)
    want = loop(items)
    assert p256.verify_many(items, threads=threads) == want
    assert p256.verify_many(iter(items), threads=threads) == want
    assert p256.verify_many(tuple(items), threads=threads) == want


def test_empty():
    assert p256.verify_many([]) == []
    assert p256.verify_many(()) == []
    assert p256.verify_many(x for x in ()) == []
    assert p256.verify_many([], threads=1) == []


def test_generators_and_sequence_triples():
    items = _mixed(12)
    want = loop(items)
    assert p256.verify_many(item for item in items) == want
    assert p256.verify_many([list(item) for item in items]) == want          # lists as triples
    assert p256.verify_many([iter(item) for item in items]) == want          # any iterable triple
    assert p256.verify_many(map(tuple, items), threads=2) == want


def test_buffer_types_and_copies():
    """bytearray/memoryview signatures and messages work like bytes; mutating the caller's
    buffers after the call (or a message list) cannot change results already returned."""
    items = _mixed(10)
    want = loop(items)
    as_ba = [(pk, bytearray(sig), bytearray(msg)) for pk, sig, msg in items]
    as_mv = [(pk, memoryview(sig), memoryview(bytes(msg))) for pk, sig, msg in items]
    assert p256.verify_many(as_ba, threads=2) == want
    assert p256.verify_many(as_mv, threads=2) == want
    got = p256.verify_many(as_ba)
    for _, sig, msg in as_ba:
        sig[:] = b"garbage"
        msg += b"more"
    assert got == want


def test_messages_of_every_length_every_hash():
    """The batch hashes messages in C: block/rate boundaries of SHA-2 and SHA-3, and a long message."""
    sk, pk = KEYS[4], PKS[4]
    lengths = [0, 1, 55, 56, 63, 64, 65, 71, 72, 103, 104, 111, 112, 127, 128, 135, 136, 137, 1000, 100_000]
    for hash in HASHES:
        msgs = [bytes((i * 7 + n) & 0xFF for i in range(n)) for n in lengths]
        items = []
        for m in msgs:
            items.append((pk, sk.sign(m, hash=hash), m))
            items.append((pk, sk.sign(m, hash=hash), m + b"\x00"))  # wrong: one more byte
        want = [True, False] * len(msgs)
        assert loop(items, hash=hash) == want
        assert p256.verify_many(items, hash=hash, threads=2) == want


def test_digest_semantics_match_verify_digest():
    """SHA-384/512 digests are truncated to their leftmost 256 bits, SHA-224 used as is."""
    sk, pk = KEYS[1], PKS[1]
    for hash in HASHES:
        msg = b"digest semantics " + hash.encode()
        d = hashlib.new(hash, msg).digest()
        sig = sk.sign_digest(d, hash=hash)
        assert p256.verify_many([(pk, sig, msg)], hash=hash) == [True]
        assert pk.verify_digest(sig, d, hash=hash)
        assert sk.sign_digest(d, hash=None) != sig  # hedged, but also: hash=None takes any
        assert pk.verify_digest(sig, d, hash=None)  # length, with the same truncation
        assert pk.verify(sig, msg, hash=hash)


# -- property: equal to a loop of verify on random mixes --------------------------------------

MUTATIONS = ["none", "msg", "key", "r", "s", "r0", "s0", "rn", "sn", "trunc", "extend", "flipbyte"]


@st.composite
def batches(draw):
    encoding = draw(st.sampled_from(["der", "raw"]))
    hash = draw(st.sampled_from(HASHES))
    n = draw(st.integers(min_value=0, max_value=24))
    items = []
    for _ in range(n):
        k = draw(st.integers(min_value=0, max_value=len(KEYS) - 1))
        msg = draw(st.binary(max_size=150))
        sig = KEYS[k].sign(msg, hash=hash, encoding=encoding, deterministic=True)  # draws depend on len(sig)
        pk = PKS[k]
        r, s = split(sig, encoding)
        mut = draw(st.sampled_from(MUTATIONS))
        if mut == "msg":
            msg = msg + b"?"
        elif mut == "key":
            pk = PKS[(k + 1) % len(PKS)]
        elif mut == "r":
            sig = encode((r + 1) % N or 1, s, encoding)
        elif mut == "s":
            sig = encode(r, (s + 1) % N or 1, encoding)
        elif mut == "r0":
            sig = encode(0, s, encoding)
        elif mut == "s0":
            sig = encode(r, 0, encoding)
        elif mut == "rn":
            sig = encode(N, s, encoding)
        elif mut == "sn":
            sig = encode(r, N, encoding)
        elif mut == "trunc":
            sig = sig[:draw(st.integers(min_value=0, max_value=len(sig) - 1))]
        elif mut == "extend":
            sig = sig + draw(st.binary(min_size=1, max_size=4))
        elif mut == "flipbyte":
            i = draw(st.integers(min_value=0, max_value=len(sig) - 1))
            sig = sig[:i] + bytes([sig[i] ^ draw(st.integers(min_value=1, max_value=255))]) + sig[i + 1:]
        items.append((pk, sig, msg))
    threads = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=9)))
    return items, hash, encoding, threads


@HYP
@given(batches())
def test_equals_loop_of_verify(case):
    items, hash, encoding, threads = case
    want = loop(items, hash=hash, encoding=encoding)
    assert p256.verify_many(items, hash=hash, encoding=encoding, threads=threads) == want
    assert p256.verify_many(iter(items), hash=hash, encoding=encoding, threads=threads) == want


# -- argument errors ---------------------------------------------------------------------------

GOOD = (PKS[0], KEYS[0].sign(b"m"), b"m")


@pytest.mark.parametrize("bad_item,where", [
    ((PKS[0].to_bytes(), GOOD[1], GOOD[2]), "[0]"),        # SEC1 bytes, not a PublicKey
    ((KEYS[0], GOOD[1], GOOD[2]), "[0]"),                  # a PrivateKey
    ((None, GOOD[1], GOOD[2]), "[0]"),
    ((PKS[0], "sig", GOOD[2]), "signature"),
    ((PKS[0], None, GOOD[2]), "signature"),
    ((PKS[0], 123, GOOD[2]), "signature"),
    ((PKS[0], GOOD[1], "message"), "message"),
    ((PKS[0], GOOD[1], None), "message"),
    ((PKS[0], GOOD[1]), "triple"),                          # too short
    ((PKS[0], GOOD[1], GOOD[2], b""), "triple"),            # too long
    (None, "triple"),
    (42, "triple"),
])
def test_wrong_item_types_raise_type_error(bad_item, where):
    items = [GOOD, GOOD, bad_item, GOOD]
    with pytest.raises(TypeError) as info:
        p256.verify_many(items)
    assert "items[2]" in str(info.value) and where in str(info.value)
    with pytest.raises(TypeError):
        p256.verify_many(iter(items), threads=1)


def test_single_verify_raises_type_error_for_the_same_things():
    """verify_many's TypeErrors are the ones PublicKey.verify raises for the same arguments."""
    pk, sig, msg = GOOD
    for bad_sig in ("sig", None, 123):
        with pytest.raises(TypeError):
            pk.verify(bad_sig, msg)
    for bad_msg in ("message", None):
        with pytest.raises(TypeError):
            pk.verify(sig, bad_msg)


@pytest.mark.parametrize("items", [None, 42, GOOD[0]])
def test_items_not_iterable(items):
    with pytest.raises(TypeError):
        p256.verify_many(items)


@pytest.mark.parametrize("kw,exc", [
    ({"hash": "md5"}, ValueError),
    ({"hash": "SHA256"}, ValueError),
    ({"hash": None}, TypeError),
    ({"encoding": "pem"}, ValueError),
    ({"encoding": 1}, TypeError),
    ({"threads": 0}, ValueError),
    ({"threads": -1}, ValueError),
    ({"threads": 1.5}, TypeError),
    ({"threads": "2"}, TypeError),
    ({"threads": True}, TypeError),
])
def test_bad_options(kw, exc):
    for items in ([], [GOOD]):
        with pytest.raises(exc):
            p256.verify_many(items, **kw)


def test_error_is_raised_before_any_verification():
    """A bad item late in a generator: the generator is consumed, nothing is returned."""
    seen = []

    def gen():
        for i in range(6):
            seen.append(i)
            yield GOOD if i < 5 else (GOOD[0], GOOD[1], 5)
    with pytest.raises(TypeError, match=r"items\[5\]"):
        p256.verify_many(gen(), threads=2)
    assert seen == list(range(6))


def test_keyword_only():
    with pytest.raises(TypeError):
        p256.verify_many([GOOD], "sha256")


def test_exported():
    assert "verify_many" in p256.__all__ and "p256verify" in p256.__all__


# -- the GIL -------------------------------------------------------------------------------------


def _runs_without_the_gil(fn):
    """True iff another Python thread gets to run while fn() is busy in C.

    With the switch interval set very long, the interpreter never forces a thread switch,
    so the starting thread (blocked in Thread.start() until the new thread signals it)
    can only run again before fn() returns if fn releases the GIL. Deterministic; the work
    just has to outlast the moment the OS takes to wake the starting thread.
    """
    finished = threading.Event()

    def work():
        fn()
        finished.set()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=work)
        t.start()
        overlapped = not finished.is_set()
    finally:
        sys.setswitchinterval(old)
    t.join()
    return overlapped


def test_gil_is_released_while_verifying():
    items = _mixed(3000)  # ~0.15 s of work on one thread
    assert _runs_without_the_gil(lambda: p256.verify_many(items, threads=1))
    # negative control: C code that keeps the GIL is detected as such
    assert not _runs_without_the_gil(lambda: sum(range(30_000_000)))


def test_gil_is_released_by_single_verify_and_p256verify():
    """Each verify/verify_digest/p256verify call releases the GIL around the core's work:
    a loop of them lets another thread run (the loop's own bytecode never yields)."""
    pk, sig, msg = GOOD
    raw = KEYS[0].sign_digest(bytes(32), encoding="raw")
    eip = bytes(32) + raw + pk.to_bytes()[1:]
    assert p256.p256verify(eip) == bytes(31) + b"\x01"
    assert _runs_without_the_gil(lambda: [pk.verify(sig, msg) for _ in range(3000)])
    assert _runs_without_the_gil(lambda: [pk.verify_digest(raw, bytes(32), encoding="raw") for _ in range(3000)])
    assert _runs_without_the_gil(lambda: [p256.p256verify(eip) for _ in range(3000)])
