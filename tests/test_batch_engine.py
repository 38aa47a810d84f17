# SPDX-License-Identifier: Apache-2.0
"""The batch engine behind verify_many and p256verify_many: P256_BATCH and
p256.batch_backend(); the IFMA engine and the scalar engine give identical answers on
random mixed items, on every secp256r1 Wycheproof ECDSA vector at every lane position of
a group of eight, and on every batch length 1..17; p256verify_many equals p256verify on
the EIP-7951 case list.

Tests that need the IFMA engine run where the core says it can run here
(_core.batch_engines()), and skip with the reason elsewhere.
"""

import hashlib
import os
import random
import subprocess
import sys

import pytest

import p256
from p256 import _core
from p256 import reference as ref
from test_batch import der
from test_p256verify import WYCHEPROOF, key_for, lift_x
from vectors_util import der_sig_decode, hash_name, load_wycheproof

C = ref.P256
N, P = C.n, C.p
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
    assert p256.batch_backend is p256._batch.batch_backend and "batch_backend" in p256.__all__
    assert "p256verify_many" in p256.__all__


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


def split_der(sig):
    rlen = sig[3]
    return int.from_bytes(sig[4:4 + rlen], "big"), int.from_bytes(sig[6 + rlen:], "big")


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
        r, s = split_der(sig)
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


# -- Wycheproof at every lane --------------------------------------------------------------


def _wycheproof_items():
    """{(hash, encoding): [(item, expected)]} of every secp256r1 ECDSA vector; DER vectors
    that decode to 32-byte r and s are given again as raw r||s (always a well-formed
    signature, so it reaches the engine; expected: what the single verify says)."""
    out = {}
    for name in ["ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha512_test.json",
                 "ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_secp256r1_sha512_p1363_test.json"]:
        encoding = "raw" if "p1363" in name else "der"
        for group in load_wycheproof(name)["testGroups"]:
            pk = p256.PublicKey.from_bytes(bytes.fromhex(group["publicKey"]["uncompressed"]))
            h = hash_name(group["sha"])
            for t in group["tests"]:
                sig, msg = bytes.fromhex(t["sig"]), bytes.fromhex(t["msg"])
                out.setdefault((h, encoding), []).append(((pk, sig, msg), t["result"] == "valid"))
                rs = der_sig_decode(sig) if encoding == "der" else None
                if rs is not None and max(rs) < 2**256:
                    raw = rs[0].to_bytes(32, "big") + rs[1].to_bytes(32, "big")
                    out.setdefault((h, "raw"), []).append(
                        ((pk, raw, msg), pk.verify(raw, msg, hash=h, encoding="raw")))
    return out


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


WYCHEPROOF_ITEMS = _wycheproof_items()


@needs_ifma
@pytest.mark.parametrize("hash,encoding", sorted(WYCHEPROOF_ITEMS))
def test_engines_agree_on_wycheproof_at_every_lane(hash, encoding):
    for rotation in at_every_lane(WYCHEPROOF_ITEMS[hash, encoding]):
        items = [item for item, _ in rotation]
        want = [expected for _, expected in rotation]
        # one thread, whole claims: blocks of eight stay blocks of eight in the engine's call
        got = both_engines(lambda: p256.verify_many(items, hash=hash, encoding=encoding, threads=1))
        assert got == want


def test_wycheproof_items_on_the_scalar_engine():
    for (hash, encoding), cases in WYCHEPROOF_ITEMS.items():
        items = [item for item, _ in cases]
        got = with_engine("scalar", lambda: p256.verify_many(items, hash=hash, encoding=encoding))
        assert got == [expected for _, expected in cases]
    assert len(WYCHEPROOF_ITEMS) == 4 and sum(map(len, WYCHEPROOF_ITEMS.values())) > 2000


EIP_CASES = [(c.values[0], c.values[1]) for c in WYCHEPROOF]


@needs_ifma
def test_engines_agree_on_eip7951_cases_at_every_lane():
    for rotation in at_every_lane(EIP_CASES):
        inputs = [data for data, _ in rotation]
        got = both_engines(lambda: p256.p256verify_many(inputs, threads=1))
        assert got == [expected for _, expected in rotation]


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
GOOD = (PK, SK.sign(b"good"), b"good")


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
        batch = _core.Batch(cheap_stream(n), p256.PublicKey, False, hash_id)
        return batch.results()
    peak, out = peak_bytes(copy_all)
    assert len(out) == n
    assert peak - 9 * n > 10 * STREAM_BOUND


def test_a_bad_item_in_a_later_chunk_stops_the_stream_right_there():
    def gen():
        for i in range(10_000):
            yield (GOOD[0], GOOD[1], 5) if i == 5000 else (PK, b"\x30\x00", b"m%d" % i)
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
    items = [GOOD] * 3 * 4096
    bad = items + [(PK, GOOD[1], None)]

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
    items = [(fast if i % 2 else PK, GOOD[1], m) for i, m in enumerate(msgs)]
    assert p256.verify_many(iter(items), threads=2) == [False] * 9000
    stream = iter(items[:8500] + [(PK, GOOD[1], None)])
    with pytest.raises(TypeError, match=r"items\[8500\]"):
        p256.verify_many(stream, threads=2)
    del items, stream
    assert ([sys.getrefcount(m) for m in msgs], sys.getrefcount(table)) == before
