# SPDX-License-Identifier: Apache-2.0
"""PublicKeyCache: a bounded LRU of precomputed public keys."""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from typing import Any, Mapping, Union

from ._common import Buffer
from ._keys import PublicKey

__all__ = ["PublicKeyCache"]

# Every live cache, for a forked child's new locks (_new_locks).
_CACHES: weakref.WeakSet[PublicKeyCache] = weakref.WeakSet()


class PublicKeyCache:
    """At most `max_keys` precomputed public keys, the least recently used evicted first.

    For a JWKS or a set of issuer keys that verifies many tokens: `get` returns one
    precomputed `PublicKey` per point, built the first time it is asked for. Memory is
    bounded by `max_keys` tables (152 KB each at the default window). Thread-safe:
    threads asking for the same new key at once share one key object and one table build.
    A child forked while another thread was inside `get` gets a cache that works.
    """

    __slots__ = ("_keys", "_max", "_window", "_lock", "__weakref__")

    def __init__(self, max_keys: int = 64, *, window: int = 7) -> None:
        """Args:
            max_keys: How many keys to keep, >= 1.
            window: The table window of every key, as for PublicKey.precompute (4 to 8).

        Raises:
            TypeError: max_keys or window is not an int.
            ValueError: max_keys < 1 or window outside 4..8.
        """
        for name, value in (("max_keys", max_keys), ("window", window)):
            if type(value) is not int:
                raise TypeError("%s must be an int, not %s" % (name, type(value).__name__))
        if max_keys < 1:
            raise ValueError("max_keys must be at least 1, got %d" % max_keys)
        if not 4 <= window <= 8:
            raise ValueError("window must be 4 to 8 bits, got %d" % window)
        self._keys: OrderedDict[bytes, PublicKey] = OrderedDict()
        self._max = max_keys
        self._window = window
        self._lock = threading.Lock()
        _CACHES.add(self)

    def get(self, key: Union[PublicKey, Buffer]) -> PublicKey:
        """The cached precomputed key equal to `key`, made (and cached) if new.

        Args:
            key: A PublicKey, or its SEC1 encoding (compressed or uncompressed).

        Returns:
            A precomputed PublicKey equal to `key` (the same object on every hit).

        Raises:
            ValueError: The bytes are not a valid SEC1 point.
            TypeError: key is neither a PublicKey nor bytes-like.
        """
        pk = key if isinstance(key, PublicKey) else PublicKey.from_bytes(key)
        sec1 = pk.to_bytes()
        with self._lock:
            hit = self._keys.get(sec1)
            if hit is None:
                hit = self._keys[sec1] = PublicKey.from_bytes(sec1)
                while len(self._keys) > self._max:  # (a fork can leave one more: _new_locks)
                    self._keys.popitem(last=False)
            else:
                self._keys.move_to_end(sec1)
        # Outside the lock (other keys stay available); precompute() builds once per object.
        return hit.precompute(window=self._window)

    def from_jwk(self, jwk: Union[Mapping[str, Any], str]) -> PublicKey:
        """The cached precomputed key of a JWK, as PublicKey.from_jwk reads it.

        Args:
            jwk: As for PublicKey.from_jwk.

        Returns:
            A precomputed PublicKey.

        Raises:
            ValueError: Not a valid P-256 public JWK.
            TypeError: jwk has the wrong type.
        """
        return self.get(PublicKey.from_jwk(jwk))

    @property
    def max_keys(self) -> int:
        """The bound given to the constructor."""
        return self._max

    def __len__(self) -> int:
        with self._lock:
            return len(self._keys)

    def __contains__(self, key: object) -> bool:
        """Whether the cache holds `key`'s point; its place in the LRU order is unchanged.

        Args:
            key: What `get` takes: a PublicKey, or its SEC1 encoding (compressed or
                uncompressed, any bytes-like object).

        Returns:
            True if the point is cached; False otherwise, and for anything that is not a
            valid key (never an exception).
        """
        if not isinstance(key, PublicKey):
            try:
                key = PublicKey.from_bytes(key)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return False
        sec1 = key.to_bytes()
        with self._lock:
            return sec1 in self._keys

    def clear(self) -> None:
        """Forget every key.

        Returns:
            None.
        """
        with self._lock:
            self._keys.clear()


def _new_locks() -> None:
    """Gives every cache of a forked child a lock of its own. A lock that another thread of
    the parent held at the fork would stay held in the child, where that thread does not
    exist. That thread's dictionary operations were each complete (they run under the GIL);
    between two of them it may have left one key more than max_keys, which the child's
    next new key evicts."""
    for cache in list(_CACHES):
        cache._lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX; looked up at each fork, so tests can replace it
    os.register_at_fork(after_in_child=lambda: _new_locks())
