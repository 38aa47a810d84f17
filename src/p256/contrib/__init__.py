# SPDX-License-Identifier: Apache-2.0
"""p256 inside the libraries its users already have: ``p256.contrib.pyjwt`` (PyJWT) and
``p256.contrib.joserfc`` (joserfc) register an ES256 on p256 in those libraries'
algorithm registries. Each is imported only when used, and needs that library (and
pyca/cryptography, which both use for their keys); p256 itself depends on neither.
"""

import threading as _threading
from collections import OrderedDict as _OrderedDict

from .. import _cache, _keys

__all__ = []  # type: list[str]  # each module imports its library: import it by name


class _PublicKeys:
    """The public keys of an ES256: a key seen for the first time verifies as it is; seen
    again while it is among the last ``4 * cache.max_keys`` first sightings, it is
    precomputed in the PublicKeyCache (its table costs about as much as 20 plain
    verifications, so a stream of keys that never come back builds none). Thread-safe."""

    def __init__(self, cache: "_cache.PublicKeyCache | None") -> None:
        self.cache = cache if cache is not None else _cache.PublicKeyCache()
        self._seen: "_OrderedDict[bytes, None]" = _OrderedDict()
        self._lock = _threading.Lock()

    def get(self, key: _keys.PublicKey) -> _keys.PublicKey:
        if key.is_precomputed:
            return key
        if key in self.cache:
            return self.cache.get(key)
        point = key.to_bytes()
        with self._lock:
            again = point in self._seen
            if again:
                del self._seen[point]
            else:
                self._seen[point] = None
                if len(self._seen) > 4 * self.cache.max_keys:
                    self._seen.popitem(last=False)
        return self.cache.get(key) if again else key
