# SPDX-License-Identifier: Apache-2.0
"""The work with secrets many at a time: PrivateKey.generate_many, scalar_base_mult_many,
sign_many and exchange_many (docs/api.md, "Batch").

Each answer equals the single call's (sign with RFC 6979 nonces byte for byte, exchange,
scalar_base_mult; generate_many's keys agree with scalar_base_mult of their scalar), the
signatures verify under pyca/cryptography and the shared secrets are its ECDH's; every
batch length 1..17 and 1000 on one and two threads, generators as input, the edge scalars
at every position of a group, on every engine that runs here; wrong types are TypeErrors
before any key is used, a scalar 0 mod n a ValueError naming its index. (The core's
functions, with their invalid items and planted bug: tests/c/test_batch.c.)
"""

import hashlib
import os

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

import p256
from p256 import _core
from test_batch import _runs_without_the_gil

N = p256.N
HASHES = ["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
EDGES = [1, 2, N - 1, N - 2] + [2**i for i in (1, 7, 63, 64, 128, 200, 255)]
# The rows of a group and the next group's first: every position an item can take.
POSITIONS = range(9)
OPERATIONS = ["generate_many", "scalar_base_mult_many", "sign_many", "exchange_many"]


def keys(n, seed=0):
    """n distinct keys, reproducible (from_int of a hash), an edge key every so often."""
    out = []
    for i in range(n):
        d = int.from_bytes(hashlib.sha256(b"%d/%d" % (seed, i)).digest(), "big") % N
        out.append(p256.PrivateKey.from_int(EDGES[i % len(EDGES)] if i % 5 == 3 else d or 1))
    return out


def with_edge_at(position, edge, n=9):
    """n keys with the scalar `edge` at `position`."""
    ks = keys(n, seed=position)
    ks[position] = p256.PrivateKey.from_int(edge)
    return ks


def messages(n):
    return [b"message %d" % i * (i % 4) for i in range(n)]


def peers(n):
    return [k.public_key for k in keys(n, seed=99)]


def engines():
    """The batch engines that run here (the secret work follows the one chosen)."""
    return list(_core.batch_engines())


def on_engine(name, fn):
    _core._batch_select(name)
    try:
        return fn()
    finally:
        _core._batch_select(os.environ.get("P256_BATCH") or None)


# -- each operation against the single calls, per batch length ---------------------------

def run_and_expect(op, n, threads, iterator=False):
    """(what the batch gave, what the loop of single calls gives) for n items of op."""
    wrap = iter if iterator else list
    if op == "generate_many":
        ks = p256.PrivateKey.generate_many(n, threads=threads)
        return ([k.public_key.to_bytes() for k in ks],
                [p256.scalar_base_mult(k.to_bytes()) for k in ks])
    ks = keys(n)
    if op == "scalar_base_mult_many":
        sc = [k.to_bytes() for k in ks]
        return (p256.scalar_base_mult_many(wrap(sc), threads=threads),
                [p256.scalar_base_mult(k) for k in sc])
    if op == "sign_many":
        ms = messages(n)
        return (p256.sign_many(wrap(list(zip(ks, ms))), deterministic=True, threads=threads),
                [k.sign(m, deterministic=True) for k, m in zip(ks, ms)])
    ps = peers(n)
    return (p256.exchange_many(wrap(list(zip(ks, ps))), threads=threads),
            [k.exchange(p) for k, p in zip(ks, ps)])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("op", OPERATIONS)
def test_every_batch_length_1_to_17_equals_the_single_calls(op, threads):
    for n in range(1, 18):
        got, want = run_and_expect(op, n, threads)
        assert got == want, "%s of %d items on %d threads" % (op, n, threads)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("op", OPERATIONS)
def test_a_large_batch_equals_the_single_calls(op, threads):
    got, want = run_and_expect(op, 1000, threads)
    assert got == want


@pytest.mark.parametrize("op", OPERATIONS[1:])
def test_iterators_as_input(op):
    got, want = run_and_expect(op, 21, 2, iterator=True)
    assert got == want


def test_a_stream_across_chunks_keeps_input_order():
    sc = [(i + 1).to_bytes(32, "big") for i in range(4100)]  # past one chunk (4096)
    got = p256.scalar_base_mult_many((k for k in sc), threads=2)
    assert got[4090:] == [p256.scalar_base_mult(k) for k in sc[4090:]]
    assert got[:3] == [p256.scalar_base_mult(k) for k in sc[:3]]


def test_empty_batches():
    assert p256.PrivateKey.generate_many(0) == []
    assert p256.scalar_base_mult_many([]) == []
    assert p256.sign_many([]) == [] and p256.sign_many(iter(())) == []
    assert p256.exchange_many([]) == []


# -- edge scalars at every position --------------------------------------------------------

@pytest.mark.parametrize("position", POSITIONS)
def test_edge_scalars_at_every_position(position):
    for edge in EDGES:
        ks = with_edge_at(position, edge)
        ms, ps = messages(len(ks)), peers(len(ks))
        sc = [k.to_bytes() for k in ks]
        assert p256.scalar_base_mult_many(sc) == [p256.scalar_base_mult(k) for k in sc]
        assert (p256.sign_many(zip(ks, ms), deterministic=True, low_s=True)
                == [k.sign(m, deterministic=True, low_s=True) for k, m in zip(ks, ms)])
        assert p256.exchange_many(zip(ks, ps)) == [k.exchange(p) for k, p in zip(ks, ps)]


def test_scalars_are_reduced_mod_n_as_scalar_base_mult_does():
    sc = [(N + 1).to_bytes(32, "big"), (N + 2).to_bytes(32, "big"), b"\xff" * 32]
    assert p256.scalar_base_mult_many(sc) == [p256.scalar_base_mult(k) for k in sc]


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("zero", [0, N])
def test_a_scalar_0_mod_n_among_valid_ones_names_its_index(position, zero):
    sc = [k.to_bytes() for k in keys(9)]
    sc[position] = zero.to_bytes(32, "big")
    with pytest.raises(ValueError, match=r"scalars\[%d\]: scalar is 0 mod n" % position):
        p256.scalar_base_mult_many(sc)
    with pytest.raises(ValueError, match=r"scalars\[%d\]" % (4096 + position)):
        p256.scalar_base_mult_many(iter([b"\x01" * 32] * 4096 + sc), threads=1)


# -- signatures: every option, and pyca/cryptography as the verifier -----------------------

@pytest.mark.parametrize("low_s", [False, True])
@pytest.mark.parametrize("encoding", ["der", "raw"])
@pytest.mark.parametrize("hash", HASHES)
def test_deterministic_signatures_are_sign_byte_for_byte(hash, encoding, low_s):
    ks, ms = keys(11), messages(11)
    kw = dict(hash=hash, encoding=encoding, deterministic=True, low_s=low_s)
    assert p256.sign_many(zip(ks, ms), **kw) == [k.sign(m, **kw) for k, m in zip(ks, ms)]


def cryptography_verifies(pk, sig, msg, hash, encoding):
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pk.to_bytes())
    if encoding == "raw":
        sig = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
    algorithm = getattr(hashes, hash.upper())()
    key.verify(sig, msg, ec.ECDSA(algorithm))  # raises InvalidSignature
    return True


@pytest.mark.parametrize("deterministic", [False, True])
@pytest.mark.parametrize("encoding", ["der", "raw"])
@pytest.mark.parametrize("hash", ["sha256", "sha384", "sha3_256"])
def test_signatures_verify_under_cryptography(hash, encoding, deterministic):
    ks, ms = keys(12), messages(12)
    sigs = p256.sign_many(zip(ks, ms), hash=hash, encoding=encoding, deterministic=deterministic,
                          low_s=True)
    for k, sig, m in zip(ks, sigs, ms):
        assert cryptography_verifies(k.public_key, sig, m, hash, encoding)
        assert p256.normalize_s(sig, encoding=encoding) == sig  # low-s


def test_hedged_signatures_are_fresh():
    ks, ms = keys(9), messages(9)
    first, second = p256.sign_many(zip(ks, ms)), p256.sign_many(zip(ks, ms))
    assert all(a != b for a, b in zip(first, second))
    assert all(a != k.sign(m, deterministic=True) for a, k, m in zip(first, ks, ms))


# -- ECDH and key generation against pyca/cryptography and the single calls ------------------

def test_exchange_many_equals_cryptography_ecdh():
    ks, ps = keys(13), peers(13)
    for k, p, secret in zip(ks, ps, p256.exchange_many(zip(ks, ps))):
        mine = ec.derive_private_key(k.to_int(), ec.SECP256R1())
        theirs = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p.to_bytes())
        assert secret == mine.exchange(ec.ECDH(), theirs)


def test_precomputed_peers_mixed_with_plain_ones():
    """A peer with a table (precompute) is agreed with over it, the rest in the group."""
    ks = keys(17)
    ps = [p256.PublicKey.from_bytes(p.to_bytes()) for p in peers(17)]
    for p in ps[::3]:
        p.precompute(window=5)
    assert p256.exchange_many(zip(ks, ps)) == [k.exchange(p) for k, p in zip(ks, ps)]
    assert p256.exchange_many(zip(ks, ps)) == p256.exchange_many(zip(ks, peers(17)))


def test_generated_keys_come_with_their_public_key():
    ks = p256.PrivateKey.generate_many(19, threads=2)
    assert len({k.to_bytes() for k in ks}) == 19
    for k in ks:
        assert type(k) is p256.PrivateKey and 1 <= k.to_int() < N
        # made by the batch, not on first use: kept, so no class is needed to make it
        assert k._public_key(None) is k.public_key
        assert k.public_key == p256.PrivateKey.from_bytes(k.to_bytes()).public_key
        assert isinstance(k.public_key, p256.PublicKey)
        theirs = ec.derive_private_key(k.to_int(), ec.SECP256R1()).public_key()
        assert k.public_key.to_bytes() == theirs.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


# -- the engines ----------------------------------------------------------------------------

@pytest.mark.parametrize("engine", engines())
def test_every_engine_gives_the_single_calls_answers(engine):
    for op in OPERATIONS:
        got, want = on_engine(engine, lambda: run_and_expect(op, 17, 2))
        assert got == want, (engine, op)


def test_batch_backend_names_each_operation():
    for op in OPERATIONS + ["verify_many", "p256verify_many"]:
        assert p256.batch_backend(op) in ("avx512-ifma", "scalar")
    assert p256.batch_backend() == p256.batch_backend("verify_many")
    assert all(on_engine("scalar", lambda: [p256.batch_backend(op) == "scalar"
                                            for op in OPERATIONS]))
    with pytest.raises(ValueError, match="unknown operation 'bogus'"):
        p256.batch_backend("bogus")
    with pytest.raises(TypeError, match="operation must be a str"):
        p256.batch_backend(1)


# -- wrong types, before any key is used ---------------------------------------------------

K = keys(1)[0]
BAD_SIGN_ITEMS = [
    (5, r"items\[1\] must be a \(PrivateKey, message\) pair, not int"),
    ((K,), r"items\[1\] must be a \(PrivateKey, message\) pair, got a tuple of 1 item$"),
    ((K, b"m", b"x"), r"items\[1\] must be a \(PrivateKey, message\) pair, got a tuple of 3 items"),
    ((K.public_key, b"m"), r"items\[1\]\[0\] must be a PrivateKey, not PublicKey"),
    ((K.to_bytes(), b"m"), r"items\[1\]\[0\] must be a PrivateKey, not bytes"),
    ((K, "text"), r"items\[1\]: message must be bytes-like, not str"),
    ((K, 7), r"items\[1\]: message must be bytes-like, not int"),
]
BAD_EXCHANGE_ITEMS = [
    (None, r"pairs\[1\] must be a \(PrivateKey, PublicKey\) pair, not NoneType"),
    ((K, K), r"pairs\[1\]\[1\] must be a PublicKey, not PrivateKey"),
    ((K, K.public_key.to_bytes()), r"pairs\[1\]\[1\] must be a PublicKey, not bytes"),
    ((K.public_key, K.public_key), r"pairs\[1\]\[0\] must be a PrivateKey, not PublicKey"),
]
BAD_SCALARS = [
    ("k" * 32, TypeError, r"scalars\[1\]: scalar must be bytes-like, not str"),
    (12, TypeError, r"scalars\[1\]: scalar must be bytes-like, not int"),
    (b"\x01" * 31, ValueError, r"scalars\[1\]: scalar must be 32 bytes, got 31"),
]


@pytest.mark.parametrize("container", [list, tuple, iter])
@pytest.mark.parametrize("bad,message", BAD_SIGN_ITEMS)
def test_sign_many_wrong_items(container, bad, message):
    with pytest.raises(TypeError, match=message):
        p256.sign_many(container([(K, b"ok"), bad, (K, b"ok")]))


@pytest.mark.parametrize("container", [list, tuple, iter])
@pytest.mark.parametrize("bad,message", BAD_EXCHANGE_ITEMS)
def test_exchange_many_wrong_items(container, bad, message):
    with pytest.raises(TypeError, match=message):
        p256.exchange_many(container([(K, K.public_key), bad]))


@pytest.mark.parametrize("container", [list, tuple, iter])
@pytest.mark.parametrize("bad,exc,message", BAD_SCALARS)
def test_scalar_base_mult_many_wrong_scalars(container, bad, exc, message):
    with pytest.raises(exc, match=message):
        p256.scalar_base_mult_many(container([K.to_bytes(), bad]))


@pytest.mark.parametrize("call", [
    lambda: p256.sign_many(5),
    lambda: p256.exchange_many(None),
    lambda: p256.scalar_base_mult_many(3),
    lambda: p256.PrivateKey.generate_many("3"),
    lambda: p256.PrivateKey.generate_many(True),
    lambda: p256.PrivateKey.generate_many(3.0),
    lambda: p256.sign_many([], hash=5),
    lambda: p256.sign_many([], deterministic=1),
    lambda: p256.sign_many([], low_s="yes"),
    lambda: p256.sign_many([], threads=1.5),
    lambda: p256.exchange_many([], threads="2"),
    lambda: p256.PrivateKey.generate_many(2, threads="x"),
])
def test_wrong_argument_types(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("call", [
    lambda: p256.sign_many([], hash="md5"),
    lambda: p256.sign_many([], encoding="pem"),
    lambda: p256.PrivateKey.generate_many(-1),
    lambda: p256.scalar_base_mult_many([], threads=0),
    lambda: p256.PrivateKey.generate_many(1, threads=0),
])
def test_bad_argument_values(call):
    with pytest.raises(ValueError):
        call()


def test_keyword_only():
    with pytest.raises(TypeError):
        p256.sign_many([], "sha256")  # type: ignore[misc]
    with pytest.raises(TypeError):
        p256.PrivateKey.generate_many(2, 1)  # type: ignore[misc]


def test_a_bad_item_of_a_list_is_raised_before_any_key_is_used(monkeypatch):
    """The whole list is checked first: no batch of work (a native _core.Batch) is made
    before the TypeError. The negative control: the same list without the bad item does
    reach the work through the recorded constructor."""
    made = []

    class Core:
        """The native module, with Batch's construction recorded."""

        def __getattr__(self, name):
            return getattr(_core, name)

        def Batch(self, *args, **kwargs):  # noqa: N802 (the native type's name)
            made.append(len(args))
            return _core.Batch(*args, **kwargs)

    monkeypatch.setattr(p256._many, "_core", Core())
    items = list(zip(keys(8) * 250, messages(2000)))
    with pytest.raises(TypeError, match=r"items\[2000\]"):
        p256.sign_many(items + [(K, 5)], threads=1)
    assert made == []
    assert len(p256.sign_many(items, threads=1)) == 2000
    assert made


def test_gil_is_released_while_signing():
    items = list(zip(keys(8) * 500, messages(4000)))
    assert _runs_without_the_gil(lambda: p256.sign_many(items, threads=1))


def test_exported():
    for name in ("scalar_base_mult_many", "sign_many", "exchange_many"):
        assert name in p256.__all__ and callable(getattr(p256, name))
    assert callable(p256.PrivateKey.generate_many)
