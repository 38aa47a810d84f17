# SPDX-License-Identifier: Apache-2.0
"""A batch verified by other processes (concurrent.futures and a local
Dask cluster), PublicKeys shipped pickled, gives exactly verify_many's results
(docs/scale-out.md)."""

from __future__ import annotations

import functools
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

import p256

VERIFY = functools.partial(p256.verify_many, hash="sha256", encoding="der", threads=1)
TIMEOUT = 120  # seconds, for the whole distributed part of a test (a loaded 2-core machine)


def _batch(n: int = 120):
    """Items from several keys with a few bad ones of different kinds."""
    keys = [p256.PrivateKey.from_int(i + 1000) for i in range(4)]
    items = []
    for i in range(n):
        sk = keys[i % len(keys)]
        msg = b"scale-out %d" % i
        items.append((sk.public_key, sk.sign(msg), msg))
    items[5] = (items[5][0], items[5][1], b"other message")  # wrong message
    items[17] = (keys[0].public_key if items[17][0] != keys[0].public_key
                 else keys[1].public_key, items[17][1], items[17][2])  # wrong key
    items[33] = (items[33][0], b"\x30\x00", items[33][2])  # malformed DER
    return items


def _chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)]


def _flatten(parts):
    return [ok for part in parts for ok in part]


def test_public_keys_pickle_and_are_revalidated():
    pk = p256.PrivateKey.from_int(7).public_key
    assert pickle.loads(pickle.dumps(pk)) == pk
    blob = bytearray(pickle.dumps(pk))
    at = blob.index(pk.to_bytes())
    blob[at + 64] ^= 1  # y no longer on the curve
    with pytest.raises(ValueError):
        pickle.loads(bytes(blob))
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(p256.PrivateKey.from_int(7))


def test_process_pool_matches_verify_many():
    items = _batch()
    want = p256.verify_many(items)
    assert want.count(False) == 3 and not want[5] and not want[17] and not want[33]
    with ProcessPoolExecutor(max_workers=2) as pool:
        got = _flatten(pool.map(VERIFY, _chunks(items, 25), timeout=TIMEOUT))
    assert got == want


def test_dask_local_cluster_matches_verify_many():
    from dask import distributed  # the test extra installs it (no skip: a missing one fails)
    items = _batch()
    want = p256.verify_many(items)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=40) as cluster, \
            distributed.Client(cluster, timeout=TIMEOUT) as client:
        futures = client.map(VERIFY, _chunks(items, 25))
        distributed.wait(futures, timeout=TIMEOUT)  # raises TimeoutError rather than hang
        got = _flatten(client.gather(futures, errors="raise"))
        # the workers really are other processes that unpickled the keys
        pids = set(client.run(lambda: __import__("os").getpid()).values())
    assert got == want
    assert len(pids) == 2 and __import__("os").getpid() not in pids
