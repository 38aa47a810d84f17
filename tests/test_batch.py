# SPDX-License-Identifier: Apache-2.0
"""p256.verify_many and p256verify_many (API.md "Batch") and the batch engine behind them.

verify_many gives the same answers as a loop of PublicKey.verify, in input order, for
valid, invalid and malformed items, every hash, both encodings and any number of threads;
TypeError/ValueError up front for bad arguments; the GIL released. The engine: P256_BATCH
and p256.batch_backend(); the IFMA engine and the scalar engine give identical answers on
random mixed items and on every batch length 1..17; p256verify_many equals p256verify;
streams run in chunks, in bounded memory. (Every Wycheproof vector at every lane of each
engine: tests/test_wycheproof.py.)

Tests that need the IFMA engine run where the core says it can run here
(_core.batch_engines()), and skip with the reason elsewhere.
"""

import hashlib
import os
import random
import subprocess
import sys
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import p256
from p256 import _core
from p256 import reference as ref
from test_p256verify import key_for, lift_x
from vectors_util import der_sig_decode, eip7951_inputs

C = ref.P256
N, P = C.n, C.p
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
    assert "p256verify_many" in p256.__all__ and "batch_backend" in p256.__all__
    assert p256.batch_backend is p256._batch.batch_backend


# -- the engine ------------------------------------------------------------------------------

IFMA = "avx512-ifma"
ONE = bytes(31) + b"\x01"
HAVE_IFMA = IFMA in _core.batch_engines()
needs_ifma = pytest.mark.skipif(
    not HAVE_IFMA, reason="the avx512-ifma batch engine does not run here (this build or CPU "
    "lacks it, or it runs under valgrind): p256._core.batch_engines() = %r"
    % (_core.batch_engines(),))


def with_engine(name, fn):
    """fn() with the batch engine forced to `name`, then the import's choice again."""
    _core._batch_select(name)
    try:
        assert p256.batch_backend() == name
        return fn()
    finally:
        _core._batch_select(os.environ.get("P256_BATCH") or None)


def both_engines(fn):
    """fn() on the scalar and on the IFMA engine, which must agree; the common answer."""
    scalar = with_engine("scalar", fn)
    ifma = with_engine(IFMA, fn)
    assert len(ifma) == len(scalar)
    diff = [i for i, (a, b) in enumerate(zip(scalar, ifma)) if a != b]
    assert not diff, "engines disagree at %d items, first %s" % (len(diff), diff[:10])
    return scalar


# -- choosing the engine ---------------------------------------------------------------------


def _import_with(value):
    env = dict(os.environ)
    if value is None:
        env.pop("P256_BATCH", None)
    else:
        env["P256_BATCH"] = value
    code = "import p256; print(p256.batch_backend())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)


def test_batch_backend_names_an_engine_that_runs_here():
    engines = _core.batch_engines()
    assert engines[-1] == "scalar" and set(engines) <= {IFMA, "scalar"}
    assert p256.batch_backend() in engines


def test_env_forces_scalar_and_auto_prefers_ifma():
    out = _import_with("scalar")
    assert out.returncode == 0 and out.stdout.strip() == "scalar", out.stderr
    auto = _import_with(None)
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout.strip() == _core.batch_engines()[0]  # the preferred one that runs
    assert _import_with("").stdout.strip() == auto.stdout.strip()


@pytest.mark.parametrize("value", ["bogus", "SCALAR", "avx512", "scalar ", "ifma"])
def test_env_unknown_name_is_an_import_error_listing_the_valid_ones(value):
    out = _import_with(value)
    assert out.returncode != 0
    assert "ImportError: P256_BATCH=%s: unknown batch engine; valid values: avx512-ifma, scalar" \
        % value in out.stderr, out.stderr


def test_env_ifma_where_it_cannot_run_is_an_import_error():
    out = _import_with(IFMA)
    if HAVE_IFMA:
        assert out.returncode == 0 and out.stdout.strip() == IFMA, out.stderr
    else:
        assert out.returncode != 0
        assert "ImportError: P256_BATCH=avx512-ifma: the avx512-ifma batch engine does not run " \
            "here" in out.stderr and "valid values here: scalar" in out.stderr, out.stderr


def test_private_hook_follows_the_env_rules():
    before = p256.batch_backend()
    with pytest.raises(ValueError, match="unknown batch engine; valid values: avx512-ifma, scalar"):
        _core._batch_select("bogus")
    assert p256.batch_backend() == before  # a refused name changes nothing
    if not HAVE_IFMA:
        with pytest.raises(ValueError, match="does not run here"):
            _core._batch_select(IFMA)
    with pytest.raises(TypeError):
        _core._batch_select(1)
    assert with_engine("scalar", p256.batch_backend) == "scalar"
    assert p256.batch_backend() == before


# -- random mixed items ------------------------------------------------------------------------


def e_of(msg):
    return int.from_bytes(hashlib.sha256(msg).digest(), "big")


def pub(point):
    return p256.PublicKey.from_xy(*point)


def crafted(rng):
    """(item, expected) for the engine's corner cases, built with p256.reference."""
    cases = []
    for i in range(6):
        msg = b"crafted %d" % i
        e = e_of(msg) % N
        k = rng.randrange(1, N)
        R = C.scalar_base_mult(k)
        r = R[0] % N
        # u1*G == u2*Q: d = e/r, s = 2e/k; the sum is a doubling, R = kG: valid
        d = e * pow(r, -1, N) % N
        s = 2 * e * pow(k, -1, N) % N
        Q = C.scalar_base_mult(d)
        cases.append(((pub(Q), der(r, s), msg), True))
        cases.append(((pub(Q), der(r, N - s), msg), True))          # its high/low s twin
        cases.append(((pub(Q), der(r, s), msg + b"!"), False))
        # u1*G == -u2*Q: d = -e/r, the sum is the point at infinity: invalid for any s
        Q = C.scalar_base_mult((N - d) % N)
        cases.append(((pub(Q), der(r, s), msg), False))
        cases.append(((pub(Q), der(r, rng.randrange(1, N)), msg), False))
    # n <= x(R) < p: r = x(R) - n is valid (r + n < p), r = x(R) is out of range
    ts = [t for t in range(1, 80) if lift_x(N + t)][:4]
    for t in ts:
        msg = b"large x %d" % t
        R = lift_x(N + t)
        for s in (1, 3, rng.randrange(1, N), N - 1):
            Q = key_for(R, t, s, e_of(msg))
            cases.append(((pub(Q), der(t, s), msg), True))
            cases.append(((pub(Q), der(t + 1, s), msg), False))
            cases.append(((pub(Q), der(N + t, s), msg), False))
            cases.append(((pub((Q[0], P - Q[1])), der(t, s), msg), False))  # -Q
    return cases


def pool(rng):
    """(item, expected) pairs of every kind, DER and SHA-256."""
    keys = [p256.PrivateKey.from_int(d) for d in (1, N - 1)]                # keys = +-G
    keys += [p256.PrivateKey.from_int(rng.randrange(1, N)) for _ in range(6)]
    out = crafted(rng)
    for i in range(240):
        sk = keys[i % len(keys)]
        pk = sk.public_key
        msg = os.urandom(rng.randrange(0, 80))
        sig = sk.sign(msg)
        r, s = split(sig, "der")
        out += [
            ((pk, sig, msg), True),
            ((pk, der(r, N - s), msg), True),                                  # high s
            ((pk, sig, msg + b"x"), False),                                    # message tampered
            ((keys[(i + 1) % len(keys)].public_key, sig, msg), False),         # other key
            ((pk, der(r, (s * 7) % N or 1), msg), False),
        ]
        if i % 4 == 0:
            bad = rng.choice([(0, s), (r, 0), (N, s), (r, N), (N + 1, s), (r, N + 5),
                              (2**256 - 1, s), (r, 2**256 - 1), (r + N if r + N < 2**256 else N, s)])
            out.append(((pk, der(*bad), msg), False))                          # r/s out of range
            out.append(((pk, rng.choice([sig[:-1], sig + b"\x00", b"\x31" + sig[1:], b"",
                                         sig[:1] + b"\x81" + sig[1:], bytes(200)]), msg), False))
    return out


def mixed_items(count, seed):
    rng = random.Random(seed)
    base = pool(rng)
    picks = [rng.choice(base) for _ in range(count)]
    return [item for item, _ in picks], [want for _, want in picks]


def test_pool_is_what_it_says_on_the_scalar_engine():
    """The pool's expected answers hold for single verify calls and on the scalar engine
    (whatever the CPU), so the IFMA comparison below compares against a right answer."""
    items, want = mixed_items(3000, seed=1)
    assert [pk.verify(sig, msg) for pk, sig, msg in items] == want
    assert with_engine("scalar", lambda: p256.verify_many(items, threads=2)) == want
    assert 0.3 < sum(want) / len(want) < 0.7


@needs_ifma
def test_engines_agree_on_random_mixed_items():
    items, want = mixed_items(100_000, seed=13)
    assert both_engines(lambda: p256.verify_many(items, threads=2)) == want
    # a stream on one thread: several chunks, whole claims of 32 (a slice keeps it short)
    assert both_engines(lambda: p256.verify_many(iter(items[:20_000]), threads=1)) == want[:20_000]


# -- lanes ------------------------------------------------------------------------------------


def at_every_lane(cases):
    """Eight lists: the cases in blocks of eight (the last one padded with the first
    cases), each block rotated by 0..7, so every case takes every lane position 0..7 of
    a block of eight consecutive items."""
    cases = list(cases)
    cases += cases[:(-len(cases)) % 8]
    blocks = [cases[i:i + 8] for i in range(0, len(cases), 8)]
    return [[c for b in blocks for c in b[k:] + b[:k]] for k in range(8)]


def test_at_every_lane_places_every_case_at_every_lane():
    cases = list(range(21))
    seen = {c: set() for c in cases}
    for rotation in at_every_lane(cases):
        assert len(rotation) == 24
        for i, c in enumerate(rotation):
            seen[c].add(i % 8)
    assert all(lanes == set(range(8)) for lanes in seen.values())


# -- batch lengths and p256verify_many -----------------------------------------------------


@pytest.mark.parametrize("threads", [1, 2])
def test_every_batch_length_1_to_17(threads):
    items, want = mixed_items(17 * 18 // 2, seed=17)
    engines = _core.batch_engines()
    pos = 0
    for n in range(1, 18):
        chunk, expected = items[pos:pos + n], want[pos:pos + n]
        pos += n
        for engine in engines:
            assert with_engine(engine, lambda: p256.verify_many(chunk, threads=threads)) == expected
            eip = [eip_input(item) for item in chunk]
            got = with_engine(engine, lambda: p256.p256verify_many(eip, threads=threads))
            assert got == [p256.p256verify(x) for x in eip]


def eip_input(item):
    """A 160-byte P256VERIFY input carrying a DER item's key, hash and (r, s) (zeros for
    a signature that does not decode)."""
    pk, sig, msg = item
    rs = der_sig_decode(sig)
    r, s = rs if rs is not None and max(rs) < 2**256 else (0, 0)
    return (hashlib.sha256(msg).digest() + r.to_bytes(32, "big") + s.to_bytes(32, "big")
            + pk.to_bytes()[1:])


# P256VERIFY inputs of the EIP's own source file (every file through every engine:
# tests/test_wycheproof.py)
EIP_CASES = [(data, expected) for _, _, data, expected
             in eip7951_inputs("ecdsa_secp256r1_sha256_p1363_test.json")]


@pytest.mark.parametrize("engine", _core.batch_engines())
def test_p256verify_many_equals_p256verify_on_the_eip_case_list(engine):
    inputs = [data for data, _ in EIP_CASES]
    want = [p256.p256verify(x) for x in inputs]
    assert want == [expected for _, expected in EIP_CASES]
    extra = [b"", inputs[0][:159], inputs[0] + b"\x00", bytes(160), bytearray(inputs[0]),
             memoryview(inputs[1])]
    inputs += extra
    want += [p256.p256verify(x) for x in extra]
    for threads in (1, 2):
        assert with_engine(engine, lambda: p256.p256verify_many(inputs, threads=threads)) == want
        assert with_engine(engine, lambda: p256.p256verify_many(iter(inputs), threads=threads)) == want
    got = with_engine(engine, lambda: p256.p256verify_many(inputs))
    assert all(type(x) is bytes for x in got) and ONE in got and b"" in got


def test_p256verify_many_types():
    good = EIP_CASES[0][0]
    assert p256.p256verify_many([]) == [] and p256.p256verify_many(x for x in ()) == []
    for bad in ("00" * 160, None, 42, (good,)):
        with pytest.raises(TypeError, match=r"inputs\[1\]"):
            p256.p256verify_many([good, bad, good])
        with pytest.raises(TypeError, match=r"inputs\[1\]"):
            p256.p256verify_many(iter([good, bad, good]))
    with pytest.raises(TypeError, match="inputs must be an iterable"):
        p256.p256verify_many(42)
    for bad, exc in ((0, ValueError), (1.0, TypeError), (True, TypeError)):
        with pytest.raises(exc):
            p256.p256verify_many([good], threads=bad)
    with pytest.raises(TypeError):
        p256.p256verify_many([good], 2)  # threads is keyword-only


# -- streams: chunks, bounded memory, errors -----------------------------------------------

SK = p256.PrivateKey.from_int(0xB47C4)
PK = SK.public_key
VALID = (PK, SK.sign(b"good"), b"good")


def cheap_stream(n):
    """n items that are False without the engine (a malformed DER signature), each with
    a message of its own: what a copy of the stream would hold."""
    for i in range(n):
        yield (PK, b"\x30\x00", b"message number %08d" % i)


def peak_bytes(fn):
    """Peak traced memory (Python objects and PyMem, the core's batch included) during fn()."""
    import tracemalloc
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak, out


# What a generator's run may hold beyond its answers (the returned list, 8 bytes each):
# a chunk of 4096 items (~176 B each plus their messages), with room to spare. A copy of
# the whole stream, the old behaviour, holds ~300 B per item: 60 MB for 200,000.
STREAM_BOUND = 3 << 20


@pytest.mark.parametrize("threads", [1, 2])
def test_a_generator_runs_in_bounded_memory(threads):
    n = 200_000
    peak, out = peak_bytes(lambda: p256.verify_many(cheap_stream(n), threads=threads))
    assert len(out) == n and not any(out)
    assert peak - 9 * n < STREAM_BOUND, "peak %d bytes beyond the answers" % (peak - 9 * n)
    eip = (bytes(160) for _ in range(n))
    peak, out = peak_bytes(lambda: p256.p256verify_many(eip, threads=threads))
    assert len(out) == n and out[0] == b""
    assert peak - 9 * n < STREAM_BOUND, "peak %d bytes beyond the answers" % (peak - 9 * n)


def test_memory_bound_catches_a_copy_of_the_stream():
    """Negative control: the core's copy-everything mode (what verify_many did before
    chunking: Batch over the whole iterable) breaks the bound the test above holds."""
    n = 200_000
    hash_id = _core.NONCE_HASH["sha256"]

    def copy_all():
        batch = _core.Batch(_core.BATCH_VERIFY, cheap_stream(n), pk_type=p256.PublicKey,
                            hash=hash_id)
        return batch.results()
    peak, out = peak_bytes(copy_all)
    assert len(out) == n
    assert peak - 9 * n > 10 * STREAM_BOUND


def test_a_bad_item_in_a_later_chunk_stops_the_stream_right_there():
    def gen():
        for i in range(10_000):
            yield (VALID[0], VALID[1], 5) if i == 5000 else (PK, b"\x30\x00", b"m%d" % i)
    it = gen()
    with pytest.raises(TypeError, match=r"items\[5000\]\[?.*message must be bytes-like"):
        p256.verify_many(it, threads=2)
    assert next(it)[2] == b"m5001"  # read up to the bad item and no further
    eips = iter([bytes(160)] * 4500 + ["x"] + [b"after"])
    with pytest.raises(TypeError, match=r"inputs\[4500\]"):
        p256.p256verify_many(eips)
    assert next(eips) == b"after"


def test_a_bad_item_of_a_list_is_raised_before_any_verification():
    """A list or tuple is checked whole first: a bad last item costs no verification.
    An iterator of the same items verifies the chunks before it (the control)."""
    import time
    items = [VALID] * 3 * 4096
    bad = items + [(PK, VALID[1], None)]

    def seconds(fn):
        t = time.perf_counter()
        with pytest.raises(TypeError, match=r"items\[12288\]"):
            fn()
        return time.perf_counter() - t
    t0 = time.perf_counter()
    assert all(p256.verify_many(items, threads=1))
    full = time.perf_counter() - t0
    assert seconds(lambda: p256.verify_many(bad, threads=1)) < full / 4
    assert seconds(lambda: p256.verify_many(tuple(bad), threads=1)) < full / 4
    assert seconds(lambda: p256.verify_many(iter(bad), threads=1)) > full / 2


def test_worker_threads_are_kept_across_chunks_and_closed():
    import threading

    def helpers():
        return [t for t in threading.enumerate() if t.name == "p256.verify_many"]
    seen = []

    def gen():
        for i in range(5 * 4096):
            if i % 4096 == 0:
                seen.append(helpers())  # strong references: no object id is reused
            yield (PK, b"\x30\x00", b"m")
    assert helpers() == []
    out = p256.verify_many(gen(), threads=3)
    assert len(out) == 5 * 4096
    assert seen[0] == [] and len(seen[1]) == 2  # started once the first chunk was taken
    assert all(s == seen[1] for s in seen[2:]), "a chunk started threads of its own"
    assert helpers() == []  # joined before returning
    with pytest.raises(TypeError):
        p256.verify_many(list(gen())[:5000] + [None], threads=3)
    with pytest.raises(TypeError):
        p256.verify_many(iter(list(gen())[:5000] + [None]), threads=3)
    assert helpers() == []


@pytest.mark.parametrize("n", [4095, 4096, 4097, 8192, 8193])
def test_chunk_edges_keep_input_order(n):
    items, want = mixed_items(n, seed=n)
    assert p256.verify_many(iter(items), threads=2) == want


def test_no_reference_is_kept_after_a_call_or_an_error():
    """The core references bytes messages and key tables while a chunk lives: none of
    those references survives the call, answered or interrupted by a TypeError."""
    fast = p256.PublicKey.from_bytes(PK.to_bytes()).precompute(window=4)
    msgs = [b"held message %d" % i for i in range(9000)]
    table = fast._t
    before = [sys.getrefcount(m) for m in msgs], sys.getrefcount(table)
    items = [(fast if i % 2 else PK, VALID[1], m) for i, m in enumerate(msgs)]
    assert p256.verify_many(iter(items), threads=2) == [False] * 9000
    stream = iter(items[:8500] + [(PK, VALID[1], None)])
    with pytest.raises(TypeError, match=r"items\[8500\]"):
        p256.verify_many(stream, threads=2)
    del items, stream
    assert ([sys.getrefcount(m) for m in msgs], sys.getrefcount(table)) == before


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
