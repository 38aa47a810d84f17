# SPDX-License-Identifier: Apache-2.0
"""A process forked while another thread is inside p256 works in the child.

os.fork() copies only the thread that calls it, as multiprocessing's fork start method
and prefork servers (gunicorn or celery with --preload) do: a lock that another thread
held at that moment stays held in the child, where nobody will release it. Each scenario
here puts another thread of this process inside an entry point on purpose (a table
builder that blocks while it holds its build lock, a thread that holds a
PublicKeyCache's lock, a batch whose item stream blocks in the middle while its helper
thread works), forks, and has the child do the same operation and check its answers.
The child reports through a pipe and its exit status; one that has not finished within
a timeout is killed, so a hang fails its test and never the run.

Negative controls: with the package's renewal of its locks in the child replaced by a
no-op, the child hangs and the same scenario says so; a batch function that holds a
process-wide lock while it works makes the batch scenario hang.

Randomness: keys, hedged nonces (the r of signing one message with one key) and batch
draws made in the child after the fork never repeat those the parent makes after it.
The core keeps no random state in user space (csrc/random_impl.h asks the kernel for
every byte), so there is nothing to reseed. Negative control: a generator whose state
the child inherits is flagged.

The batch scenarios run after the batch engine's first use in this process, which
builds its tables: a fork during that first build is not covered here.
"""

import contextlib
import hashlib
import multiprocessing as mp
import os
import pickle
import random
import select
import signal
import subprocess
import sys
import threading
import time
import traceback
import warnings

import pytest

import p256
import p256._cache as cache_module
import p256._keys as keys_module
import p256._many as many_module

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX-only")

# A child that works finishes in well under a second; this only bounds a broken one.
TIMEOUT = 20.0
# What a negative control waits before it calls its (deadlocked) child hung.
HANG_TIMEOUT = 0.5
MSG = b"forked"


def run_in_child(work, timeout=TIMEOUT):
    """Runs work() in a forked child: ("ok", its result), ("raised", the child's
    traceback), ("died", its exit status) or ("hung", ...) if it had not finished within
    timeout seconds (it is then killed)."""
    r, w = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: a fork with threads
        pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(r)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.alarm(int(timeout) + 10)  # should the parent be gone
            out = ("ok", work())
            code = 0
        except BaseException:
            out = ("raised", traceback.format_exc())
        try:
            with os.fdopen(w, "wb") as f:
                f.write(pickle.dumps(out))
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return ("hung", "still running after %.1f s: killed" % timeout)
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return ("died", os.waitstatus_to_exitcode(status))
    return pickle.loads(b"".join(chunks))


def expect_ok(outcome):
    kind, detail = outcome
    assert kind == "ok", "the child %s: %s" % (kind, detail)
    return detail


@contextlib.contextmanager
def another_thread_inside(target):
    """Runs target(entered, release) on another thread, which sets `entered` once it is
    inside what the scenario needs and then waits for `release`; the body runs while it is
    there (the fork), after which the thread is released and joined."""
    entered, release = threading.Event(), threading.Event()
    errors = []

    def run():
        try:
            target(entered, release)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
            entered.set()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        assert entered.wait(TIMEOUT), "the other thread never got inside"
        assert not errors, errors
        yield
    finally:
        release.set()
        t.join(TIMEOUT)
    assert not t.is_alive() and not errors, errors


def block_builds(monkeypatch, entered, release):
    """precompute()'s builder, in this process only, announces that it is inside (its
    build lock held) and waits for release; a forked child gets the real one."""
    real, parent = keys_module._build_table, os.getpid()

    def blocking(key, bits):
        if os.getpid() == parent:
            entered.set()
            release.wait(TIMEOUT)
        return real(key, bits)

    monkeypatch.setattr(keys_module, "_build_table", blocking)


def keys_in_every_bucket():
    """Keys whose hashes cover all of precompute()'s lock buckets."""
    keys = {}
    while len(keys) < 16:
        pk = p256.PrivateKey.generate().public_key
        keys.setdefault(hash(pk) & 15, pk)
    return list(keys.values())


# ---- PublicKey.precompute -------------------------------------------------------------


def precompute_while_another_builds(monkeypatch, timeout=TIMEOUT):
    """Forks while another thread builds a key's table (its build lock held); the child
    precomputes that key (no table in the child: it builds it) and a key of every lock
    bucket, and verifies through them."""
    sk = p256.PrivateKey.generate()
    held = p256.PublicKey.from_bytes(sk.public_key.to_bytes())
    sig = sk.sign(MSG)
    others = keys_in_every_bucket()

    def child():
        assert not held.is_precomputed
        assert held.precompute() is held and held.is_precomputed
        assert held.verify(sig, MSG) and not held.verify(sig, MSG + b"!")
        for pk in others:
            assert pk.precompute(window=4).is_precomputed
        return True

    def inside(entered, release):
        block_builds(monkeypatch, entered, release)
        held.precompute()

    with another_thread_inside(inside):
        outcome = run_in_child(child, timeout)
    assert held.is_precomputed and held.verify(sig, MSG)  # the parent's build completed
    return outcome


def test_fork_while_another_thread_builds_a_table(monkeypatch):
    assert expect_ok(precompute_while_another_builds(monkeypatch)) is True


def test_fork_while_building_hangs_without_new_build_locks(monkeypatch):
    """Negative control: without the child's new build locks, the child waits forever
    for the lock of the key the parent's thread was building."""
    monkeypatch.setattr(keys_module, "_new_build_locks", lambda: None)
    kind, _ = precompute_while_another_builds(monkeypatch, HANG_TIMEOUT)
    assert kind == "hung"


def test_multiprocessing_fork_while_another_thread_builds_a_table(monkeypatch):
    """The same through multiprocessing's fork start method (a prefork worker pool)."""
    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork start method")
    sk = p256.PrivateKey.generate()
    held = p256.PublicKey.from_bytes(sk.public_key.to_bytes())

    def inside(entered, release):
        block_builds(monkeypatch, entered, release)
        held.precompute()

    with another_thread_inside(inside):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            proc = mp.get_context("fork").Process(target=_precompute_and_verify,
                                                  args=(held, sk.sign(MSG)))
            proc.start()
        proc.join(TIMEOUT)
        if proc.is_alive():
            proc.kill()
            proc.join()
            pytest.fail("the worker hung")
    assert proc.exitcode == 0


def _precompute_and_verify(pk, sig):
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(TIMEOUT) + 10)
    ok = pk.precompute().is_precomputed and pk.verify(sig, MSG)
    os._exit(0 if ok else 1)


# ---- PublicKeyCache -------------------------------------------------------------------


def cache_get_while_others_inside(monkeypatch, timeout=TIMEOUT):
    """Forks while one thread is inside cache.get(a new key) building its table and
    another is inside the cache's lock, having added a key and not yet evicted one (as
    get does); the child gets the key being built (the same object, which it
    precomputes) and a new one, by every encoding, and the cache is back to its bound."""
    cache = p256.PublicKeyCache(max_keys=1)
    sk, sk2, sk3 = (p256.PrivateKey.generate() for _ in range(3))
    sig = sk.sign(MSG)
    got = []

    def child():
        building = cache.get(sk.public_key.to_bytes(compressed=True))
        assert building is got[0] and building.is_precomputed
        assert building.verify(sig, MSG)
        new = cache.get(sk2.public_key)
        assert new.is_precomputed and cache.get(sk2.public_key.to_bytes()) is new
        assert sk2.public_key.to_bytes(compressed=True) in cache and len(cache) == 1
        return True

    def building(entered, release):
        block_builds(monkeypatch, entered, release)
        got.append(cache.get(sk.public_key))

    def holding(entered, release):
        with cache._lock:
            cache._keys[sk3.public_key.to_bytes()] = sk3.public_key
            entered.set()
            release.wait(TIMEOUT)

    with another_thread_inside(building), another_thread_inside(holding):
        assert len(cache._keys) == 2  # not len(cache): the other thread holds its lock
        got.append(cache._keys[sk.public_key.to_bytes()])  # the object the builder has
        outcome = run_in_child(child, timeout)
    assert got[1] is got[0] and cache.get(sk.public_key) is got[0]
    return outcome


def test_fork_while_other_threads_are_inside_the_cache(monkeypatch):
    assert expect_ok(cache_get_while_others_inside(monkeypatch)) is True


def test_fork_inside_the_cache_hangs_without_new_cache_locks(monkeypatch):
    """Negative control: without the child's new cache locks, the child's get waits
    forever for the lock the parent's other thread held."""
    monkeypatch.setattr(cache_module, "_new_locks", lambda: None)
    kind, _ = cache_get_while_others_inside(monkeypatch, HANG_TIMEOUT)
    assert kind == "hung"


# ---- The batch functions --------------------------------------------------------------


@pytest.fixture(scope="module")
def batch_world():
    """Inputs of every batch function and their answers, computed one at a time."""
    rng = random.Random(11)
    sks = [p256.PrivateKey.from_int(rng.randrange(1, p256.N)) for _ in range(48)]
    msgs = [b"m%d" % i for i in range(48)]
    sigs = [sk.sign(m, deterministic=True) for sk, m in zip(sks, msgs)]
    w = {"sks": sks, "msgs": msgs}
    w["verify"] = [(sk.public_key, s, m if i % 5 else m + b"!")
                   for i, (sk, s, m) in enumerate(zip(sks, sigs, msgs))]
    w["verify_want"] = [i % 5 != 0 for i in range(48)]
    w["eip"] = []
    for sk, m in zip(sks, msgs):
        rs = sk.sign(m, encoding="raw", deterministic=True)
        w["eip"].append(hashlib.sha256(m).digest() + rs + sk.public_key.to_bytes()[1:])
    w["eip_want"] = [p256.p256verify(x) for x in w["eip"]]
    w["pairs"] = [(sk, sks[(i + 1) % 48].public_key) for i, sk in enumerate(sks)]
    w["pairs_want"] = [sk.exchange(pk) for sk, pk in w["pairs"]]
    w["scalars"] = [sk.to_bytes() for sk in sks]
    w["scalars_want"] = [sk.public_key.to_bytes() for sk in sks]
    p256.verify_many(w["verify"], threads=2)  # the batch engine's tables are built here
    return w


def every_batch_call(w):
    """Each batch function with threads=2 on the world's inputs, checked; their draws."""
    assert p256.verify_many(w["verify"], threads=2) == w["verify_want"]
    assert p256.p256verify_many(w["eip"], threads=2) == w["eip_want"]
    assert p256.exchange_many(w["pairs"], threads=2) == w["pairs_want"]
    assert p256.scalar_base_mult_many(w["scalars"], threads=2) == w["scalars_want"]
    items = list(zip(w["sks"], w["msgs"]))
    sigs = p256.sign_many(items, threads=2)
    assert all(sk.public_key.verify(s, m) for (sk, m), s in zip(items, sigs))
    keys = p256.PrivateKey.generate_many(40, threads=2)
    assert all(k.public_key.to_bytes() == p256.scalar_base_mult(k.to_bytes()) for k in keys)
    assert (p256.backend(), p256.batch_backend()) == STATE
    return True


STATE = (p256.backend(), p256.batch_backend())

# The streaming batch functions, each fed a stream that blocks inside its second chunk
# (the first one being worked by the helper thread).
STREAMS = {
    "verify_many": (lambda it: p256.verify_many(it, threads=2), lambda w: w["verify"][1]),
    "p256verify_many": (lambda it: p256.p256verify_many(it, threads=2), lambda w: w["eip"][0]),
    "sign_many": (lambda it: p256.sign_many(it, threads=2),
                  lambda w: (w["sks"][0], w["msgs"][0])),
    "exchange_many": (lambda it: p256.exchange_many(it, threads=2), lambda w: w["pairs"][0]),
    "scalar_base_mult_many": (lambda it: p256.scalar_base_mult_many(it, threads=2),
                              lambda w: w["scalars"][0]),
}


def batch_while_another_streams(w, name, timeout=TIMEOUT):
    call, item = STREAMS[name]

    def stream(entered, release):
        x = item(w)
        for _ in range(many_module.CHUNK + 5):
            yield x
        entered.set()  # the second chunk is being read; the helper has the first
        release.wait(TIMEOUT)
        yield x

    def inside(entered, release):
        assert len(call(stream(entered, release))) == many_module.CHUNK + 6

    with another_thread_inside(inside):
        return run_in_child(lambda: every_batch_call(w), timeout)


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_fork_while_another_thread_runs_a_batch(batch_world, name):
    assert expect_ok(batch_while_another_streams(batch_world, name)) is True


def test_fork_while_batches_run_in_c(batch_world):
    """Forks while another thread loops over the batch functions (in the core, without
    the GIL, at whatever point the fork finds it): every child's batches are right."""
    stop = threading.Event()
    errors = []

    def loop():
        try:
            while not stop.is_set():
                every_batch_call(batch_world)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    try:
        for delay in (0.0, 0.003, 0.011, 0.023):
            time.sleep(delay)
            assert expect_ok(run_in_child(lambda: every_batch_call(batch_world))) is True
    finally:
        stop.set()
        t.join(TIMEOUT)
    assert not errors, errors


def test_a_batch_that_holds_a_shared_lock_is_caught(batch_world, monkeypatch):
    """Negative control: batch machinery that keeps a process-wide lock while it works
    (a shared pool's lock, say) hangs the child, and the scenario says so."""
    shared, real = threading.Lock(), many_module.run

    def run_locked(*args, **kwargs):
        with shared:
            return real(*args, **kwargs)

    monkeypatch.setattr(many_module, "run", run_locked)
    kind, _ = batch_while_another_streams(batch_world, "verify_many", HANG_TIMEOUT)
    assert kind == "hung"


# ---- Randomness ----------------------------------------------------------------------


SIGNER = p256.PrivateKey.from_int(0xC0FFEE)


def draws():
    """Everything p256 draws from the OS: keys (one by one and in a batch) and hedged
    nonces, as the r of signing one message with one key (by each signing function)."""
    digest = hashlib.sha256(MSG).digest()
    keys = [p256.PrivateKey.generate().to_bytes() for _ in range(8)]
    keys += [k.to_bytes() for k in p256.PrivateKey.generate_many(16, threads=2)]
    rs = [SIGNER.sign(MSG, encoding="raw")[:32] for _ in range(8)]
    rs += [SIGNER.sign_digest(digest, encoding="raw")[:32] for _ in range(4)]
    rs += [SIGNER.sign_recoverable(MSG)[0][:32] for _ in range(4)]
    rs += [s[:32] for s in p256.sign_many([(SIGNER, MSG)] * 16, encoding="raw", threads=2)]
    return {"keys": keys, "r": rs}


def repeats(parent, child):
    """The draws that occur twice among the parent's and the child's, by kind."""
    found = {}
    for kind in parent:
        seen, twice = set(), set()
        for x in parent[kind] + child[kind]:
            (twice if x in seen else seen).add(x)
        if twice:
            found[kind] = len(twice)
    return found


def draws_across_a_fork():
    child = run_in_child(draws)
    return draws(), expect_ok(child)


def test_draws_after_a_fork_never_repeat():
    parent, child = draws_across_a_fork()
    assert len(parent["keys"]) == 24 and len(parent["r"]) == 32
    assert repeats(parent, child) == {}


def test_inherited_random_state_is_flagged(monkeypatch):
    """Negative control: a generator with state in user space, which the child inherits
    (a DRBG never reseeded after the fork), repeats the parent's keys and nonces."""
    rng = random.Random(2024)
    sign = p256.PrivateKey.sign

    def inherited_hedge(self, msg, **kwargs):
        kwargs["deterministic"] = True
        return sign(self, msg + rng.getrandbits(128).to_bytes(16, "big"), **kwargs)

    monkeypatch.setattr(p256.PrivateKey, "generate", classmethod(
        lambda cls: cls.from_bytes(rng.getrandbits(255).to_bytes(32, "big"))))
    monkeypatch.setattr(p256.PrivateKey, "sign", inherited_hedge)
    parent, child = draws_across_a_fork()
    assert repeats(parent, child) == {"keys": 8, "r": 8}


# The IFMA engine's tables: built at import under the GIL, so a fork taken while another
# thread makes the first batch call cannot find them half built. Each trial is a fresh
# interpreter (the tables are built once per process), which imports p256, starts a
# batch on a thread and forks at a random moment of it; the grandchild's batch must
# return. Before the tables were built at import, about one trial in five hung.
IFMA_TRIAL = r"""
import os, random, signal, sys, threading, time
import p256
random.seed(int(sys.argv[1]))
sk = p256.PrivateKey.from_int(5)
items = [(sk.public_key, sk.sign(b"m"), b"m")] * 64
t = threading.Thread(target=p256.verify_many, args=(items,), kwargs={"threads": 1})
t.start()
time.sleep(random.random() * 1e-4)
pid = os.fork()
if pid == 0:
    signal.alarm(5)
    os._exit(0 if p256.verify_many(items, threads=1) == [True] * 64 else 3)
t.join()
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""


@pytest.mark.skipif(p256.batch_backend() != "avx512-ifma", reason="the IFMA engine does not run here")
def test_fork_during_the_first_ifma_batch():
    for seed in range(40):
        proc = subprocess.run([sys.executable, "-c", IFMA_TRIAL, str(seed)], capture_output=True,
                              timeout=60)
        assert proc.returncode == 0, (seed, proc.returncode, proc.stderr[-500:])
