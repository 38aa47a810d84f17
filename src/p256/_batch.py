# SPDX-License-Identifier: Apache-2.0
"""verify_many and p256verify_many (many signatures in chunks, on several threads, on the
batch engine), p256verify (EIP-7951), the work with secrets many at a time
(scalar_base_mult_many, sign_many, exchange_many; PrivateKey.generate_many is _keys'),
each with its *_iter twin (the same answers as a stream), and batch_backend. Each call's
job is made (its arguments checked) in one place for both forms; the machinery they
share is _many's."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from . import _core, _many
from ._common import Buffer, HashName, SigEncoding
from ._common import lookup as _lookup
from ._keys import PrivateKey, PublicKey

__all__ = ["verify_many", "verify_iter", "p256verify", "p256verify_many", "p256verify_iter",
           "batch_backend", "scalar_base_mult_many", "scalar_base_mult_iter", "sign_many",
           "sign_iter", "exchange_many", "exchange_iter"]


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
            batches use fewer; at most 4 per CPU are started (a larger value is taken
            as that).

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
    return _many.run(_verify_job(items, hash, encoding, threads))


def verify_iter(items: Iterable[Tuple[PublicKey, Buffer, Buffer]], *, hash: HashName = "sha256",
                encoding: SigEncoding = "der", threads: Optional[int] = None) -> Iterator[bool]:
    """``verify_many`` as a stream: the same answers, one at a time, in input order.

    The arguments and errors are verify_many's; the arguments (and a list's or tuple's
    items) are checked when it is called, the rest as the answers are asked for. At most
    two chunks of a few thousand items are held at any time, whatever the length of
    `items`, so an endless or very long stream runs in constant memory; closing the
    iterator (or leaving a loop over it) ends the helper threads.

    Args:
        items: As for ``verify_many``: any iterable of ``(PublicKey, signature,
            message)`` triples.
        hash: The message hash, for all items.
        encoding: "der" or "raw", for all items.
        threads: As for ``verify_many``.

    Returns:
        An iterator of one bool per item.
    """
    return _many.stream(_verify_job(items, hash, encoding, threads))


def _verify_job(items: object, hash: object, encoding: object, threads: Optional[int]
                ) -> _many.Job:
    hash_id, _, _, raw, _, _ = _core.sig_args(b"", False, hash, encoding)
    return _many.Job(items, _core.BATCH_VERIFY, {"pk_type": PublicKey, "raw": raw, "hash": hash_id},
                     _many.thread_count(threads), _many.lanes_of(_core.batch_backend()),
                     "items", "(PublicKey, signature, message)", "p256.verify_many")


def p256verify_many(inputs: Iterable[Buffer], *, threads: Optional[int] = None) -> List[bytes]:
    """EIP-7951 P256VERIFY on many inputs at once: ``[p256verify(x) for x in inputs]``.

    Each answer is exactly what ``p256verify`` returns for that input
    (b"" for an input that is not 160 bytes, among every other failure); the work runs
    as verify_many's does: in chunks (constant memory for any iterable), with the GIL
    released, on the batch engine, on `threads` threads.

    Args:
        inputs: Any iterable of bytes-like inputs, hash || r || s || qx || qy.
        threads: How many threads (this one included); None: ``os.cpu_count()``;
            at most 4 per CPU are started (a larger value is taken as that).

    Returns:
        One bytes per input, in order: the 32-byte big-endian 1 or b"".

    Raises:
        TypeError: An input is not bytes-like (the message names its index), inputs is
            not iterable, or threads is not an int; for an iterator, as verify_many.
        ValueError: threads < 1.
    """
    return _many.run(_p256verify_job(inputs, threads))


def p256verify_iter(inputs: Iterable[Buffer], *, threads: Optional[int] = None
                    ) -> Iterator[bytes]:
    """``p256verify_many`` as a stream: the same answers, one at a time, in input order,
    with at most two chunks held (as ``verify_iter``); its arguments and errors.

    Args:
        inputs: Any iterable of bytes-like inputs, hash || r || s || qx || qy.
        threads: As for ``verify_many``.

    Returns:
        An iterator of one bytes per input: the 32-byte big-endian 1 or b"".
    """
    return _many.stream(_p256verify_job(inputs, threads))


def _p256verify_job(inputs: object, threads: Optional[int]) -> _many.Job:
    return _many.Job(inputs, _core.BATCH_EIP7951, {}, _many.thread_count(threads),
                     _many.lanes_of(_core.batch_backend()), "inputs", "bytes-like objects",
                     "p256.verify_many")


# batch_backend's operations: what runs each one's scalar multiplications.
_OPERATIONS = {"verify_many": None, "p256verify_many": None,
               "generate_many": _core.BATCH_OP_GEN, "scalar_base_mult_many": _core.BATCH_OP_GEN,
               "sign_many": _core.BATCH_OP_GEN, "exchange_many": _core.BATCH_OP_ECDH}


def batch_backend(operation: str = "verify_many") -> str:
    """The batch engine behind one of the *_many functions.

    Args:
        operation: "verify_many" (the default) or "p256verify_many"; or, for the work with
            secrets, "generate_many" (``PrivateKey.generate_many``),
            "scalar_base_mult_many", "sign_many" or "exchange_many".

    Returns:
        "avx512-ifma" (eight items at once with AVX-512 IFMA, where the CPU and the OS
        have it; for the work with secrets, where the engine also has the constant-time
        lanes of that operation's scalar multiplication) or "scalar" (one item at a
        time). Chosen at import: the environment variable ``P256_BATCH`` ("avx512-ifma"
        or "scalar") forces one for every operation; an unknown name, or one that cannot
        run here, makes the import fail with an ImportError listing the valid ones.

    Raises:
        ValueError: Unknown operation name.
        TypeError: operation is not a str.
    """
    op = _lookup(_OPERATIONS, operation, "operation")
    return _core.batch_backend() if op is None else _core.batch_secret_backend(op)


def _secret_job(items: object, kind: int, params: Dict[str, Any], threads: Optional[int],
                op: int, what: str, shape: str, name: str) -> _many.Job:
    """The job of a work with secrets, on the engine of its operation `op`."""
    return _many.Job(items, kind, params, _many.thread_count(threads),
                     _many.lanes_of(_core.batch_secret_backend(op)), what, shape, name)


def scalar_base_mult_many(scalars: Iterable[Buffer], *,
                          threads: Optional[int] = None) -> List[bytes]:
    """k*G for many scalars at once: ``[scalar_base_mult(k) for k in scalars]``.

    Constant time in every scalar. The scalars are taken in chunks of a few thousand
    (constant memory for any iterable) and multiplied off the GIL on `threads` threads,
    eight at a time on the batch engine (``batch_backend("scalar_base_mult_many")``),
    each group's conversions to affine sharing one field inversion.

    Args:
        scalars: Any iterable of 32-byte big-endian scalars (each reduced mod n).
        threads: How many threads (this one included); None: ``os.cpu_count()``;
            at most 4 per CPU are started (a larger value is taken as that).

    Returns:
        One 65-byte uncompressed SEC1 point per scalar, in order.

    Raises:
        TypeError: A scalar is not bytes-like (the message names its index), scalars is not
            iterable, or threads is not an int. For a list or tuple it is raised before
            any work; any other iterable is read up to the bad item (the chunks before it
            are computed and dropped).
        ValueError: A scalar is not 32 bytes (before any work, as TypeError), or is
            0 mod n (the point at infinity: the message names its index, and no list is
            returned), or threads < 1.
    """
    return _many.run(_base_mult_job(scalars, threads))


def scalar_base_mult_iter(scalars: Iterable[Buffer], *, threads: Optional[int] = None
                          ) -> Iterator[bytes]:
    """``scalar_base_mult_many`` as a stream: the same answers, one at a time, in input
    order, with at most two chunks held (as ``verify_iter``); its arguments and errors (a
    scalar 0 mod n raises when its answer is reached).

    Args:
        scalars: Any iterable of 32-byte big-endian scalars.
        threads: As for ``verify_many``.

    Returns:
        An iterator of one 65-byte uncompressed SEC1 point per scalar.
    """
    return _many.stream(_base_mult_job(scalars, threads))


def _base_mult_job(scalars: object, threads: Optional[int]) -> _many.Job:
    return _secret_job(scalars, _core.BATCH_BASE_MULT, {}, threads, _core.BATCH_OP_GEN,
                       "scalars", "32-byte scalars", "p256.scalar_base_mult_many")


def sign_many(items: Iterable[Tuple[PrivateKey, Buffer]], *, hash: HashName = "sha256",
              encoding: SigEncoding = "der", deterministic: bool = False, low_s: bool = False,
              threads: Optional[int] = None) -> List[bytes]:
    """ECDSA signatures of many messages at once: ``[sk.sign(msg, ...) for sk, msg in items]``.

    With ``deterministic=True`` each signature is byte for byte what
    ``sk.sign(msg, hash=hash, encoding=encoding, deterministic=True, low_s=low_s)``
    returns; hedged nonces (the default) draw fresh randomness per item, as sign does.
    Constant time in every key and nonce. The items are taken in chunks of a few
    thousand (constant memory for any iterable), hashed and signed off the GIL on
    `threads` threads; each group of eight computes its nonce points R = k*G on the
    batch engine (``batch_backend("sign_many")``) and shares one field inversion (the
    x of R) and one scalar inversion (the nonces' inverses) among its items.

    Args:
        items: Any iterable of ``(PrivateKey, message)`` pairs.
        hash: The message hash, for all items (as for ``PrivateKey.sign``).
        encoding: "der" or "raw" (r || s), for all items.
        deterministic: True: RFC 6979 nonces (HMAC with `hash`); False: hedged.
        low_s: True: every signature with s <= n/2.
        threads: How many threads (this one included); None: ``os.cpu_count()``;
            at most 4 per CPU are started (a larger value is taken as that).

    Returns:
        One signature per item, in order.

    Raises:
        TypeError: An item is not a (PrivateKey, bytes-like) pair (the message names its
            index), items is not iterable, a name is not a str, a flag is not a bool or
            threads is not an int. For a list or tuple it is raised before any key is
            used; any other iterable is read up to the bad item (the chunks before it
            are signed and dropped).
        ValueError: Unknown hash or encoding name (even for an empty batch), or
            threads < 1.
        OSError: The OS random generator failed (hedged nonces only).
    """
    return _many.run(_sign_job(items, hash, encoding, deterministic, low_s, threads))


def sign_iter(items: Iterable[Tuple[PrivateKey, Buffer]], *, hash: HashName = "sha256",
              encoding: SigEncoding = "der", deterministic: bool = False, low_s: bool = False,
              threads: Optional[int] = None) -> Iterator[bytes]:
    """``sign_many`` as a stream: the same signatures, one at a time, in input order, with
    at most two chunks held (as ``verify_iter``), so signing an endless stream of messages
    runs in constant memory; its arguments and errors.

    Args:
        items: Any iterable of ``(PrivateKey, message)`` pairs.
        hash: The message hash, for all items.
        encoding: "der" or "raw", for all items.
        deterministic: True: RFC 6979 nonces; False: hedged.
        low_s: True: every signature with s <= n/2.
        threads: As for ``verify_many``.

    Returns:
        An iterator of one signature per item.
    """
    return _many.stream(_sign_job(items, hash, encoding, deterministic, low_s, threads))


def _sign_job(items: object, hash: object, encoding: object, deterministic: object,
              low_s: object, threads: Optional[int]) -> _many.Job:
    hash_id, _, _, raw, deterministic, low_s = _core.sig_args(b"", False, hash, encoding,
                                                              deterministic, low_s)
    nonce = hash_id if deterministic else _core.NONCE_HEDGED
    return _secret_job(items, _core.BATCH_SIGN,
                       {"raw": raw, "hash": hash_id, "nonce": nonce, "low_s": low_s}, threads,
                       _core.BATCH_OP_GEN, "items", "(PrivateKey, message) pairs",
                       "p256.sign_many")


def exchange_many(pairs: Iterable[Tuple[PrivateKey, PublicKey]], *,
                  threads: Optional[int] = None) -> List[bytes]:
    """ECDH many times at once: ``[sk.exchange(pk) for sk, pk in pairs]``.

    Constant time in every key. The pairs are taken in chunks of a few thousand
    (constant memory for any iterable) and worked off the GIL on `threads` threads, eight
    at a time on the batch engine (``batch_backend("exchange_many")``), each group's
    conversions to affine sharing one field inversion. Feed each secret to a KDF.

    Args:
        pairs: Any iterable of ``(PrivateKey, PublicKey)`` pairs (the own key, the peer's).
        threads: How many threads (this one included); None: ``os.cpu_count()``;
            at most 4 per CPU are started (a larger value is taken as that).

    Returns:
        One 32-byte big-endian shared x coordinate per pair, in order.

    Raises:
        TypeError: A pair is not (PrivateKey, PublicKey) (the message names its index),
            pairs is not iterable, or threads is not an int; for a list or tuple before
            any key is used, for any other iterable as sign_many.
        ValueError: threads < 1.
    """
    return _many.run(_exchange_job(pairs, threads))


def exchange_iter(pairs: Iterable[Tuple[PrivateKey, PublicKey]], *,
                  threads: Optional[int] = None) -> Iterator[bytes]:
    """``exchange_many`` as a stream: the same shared secrets, one at a time, in input
    order, with at most two chunks held (as ``verify_iter``); its arguments and errors.

    Args:
        pairs: Any iterable of ``(PrivateKey, PublicKey)`` pairs.
        threads: As for ``verify_many``.

    Returns:
        An iterator of one 32-byte shared x coordinate per pair.
    """
    return _many.stream(_exchange_job(pairs, threads))


def _exchange_job(pairs: object, threads: Optional[int]) -> _many.Job:
    return _secret_job(pairs, _core.BATCH_EXCHANGE, {"pk_type": PublicKey}, threads,
                       _core.BATCH_OP_ECDH, "pairs", "(PrivateKey, PublicKey) pairs",
                       "p256.exchange_many")


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
