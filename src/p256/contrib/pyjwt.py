# SPDX-License-Identifier: Apache-2.0
"""ES256 on p256 for PyJWT: ``p256.contrib.pyjwt.register()`` and every ``jwt.encode``
and ``jwt.decode`` with ES256 signs and verifies on p256.

:class:`ES256Algorithm` is a subclass of PyJWT's own ``jwt.algorithms.ECAlgorithm``
(SHA-256, the P-256 curve), so everything PyJWT documents stays: the keys it takes (PEM
and OpenSSH text, pyca/cryptography key objects, PyJWK), its errors (``InvalidKeyError``
for a key of another curve, such as a secp256k1 key for ES256; ``TypeError`` for a key
that is not text), ``to_jwk`` and ``from_jwk``, raw r || s signatures (a malformed one is
False, not an error), and the header handling (``kid``, ``crit``) of PyJWS around it.
What changes is underneath:

- p256 keys (``p256.PrivateKey``, ``p256.PublicKey``) are keys too;
- a P-256 key is read into p256 once: the p256 key of each pyca/cryptography key object
  and the pyca key of each public key text are kept in bounded tables (as many as the
  cache holds), public keys precomputed in a :class:`p256.PublicKeyCache`, so a key that
  comes back verifies with its precomputed table (private key text is not kept: PyJWT
  reads it on every call, as before);
- signatures are p256's: hedged ECDSA (fresh randomness mixed with the key and the
  message), verified in constant time.

A key on another curve, possible only when the class is made with another
``expected_curve``, and any other hash than SHA-256, stay PyJWT's own code.
"""

from __future__ import annotations

import threading as _threading
import typing as _typing
from collections import OrderedDict as _OrderedDict

from jwt import api_jwk as _api_jwk
from jwt import api_jws as _api_jws
from jwt.algorithms import ECAlgorithm as _ECAlgorithm
from cryptography.hazmat.primitives import serialization as _serialization
from cryptography.hazmat.primitives.asymmetric import ec as _ec

from .. import _keys
from . import _PublicKeys

if _typing.TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple

    from .._cache import PublicKeyCache

__all__ = ["ES256Algorithm", "register"]

_X962 = (_serialization.Encoding.X962, _serialization.PublicFormat.UncompressedPoint)


class ES256Algorithm(_ECAlgorithm):
    """PyJWT's ECAlgorithm for ES256, signing and verifying on p256 (see the module
    docstring). Thread-safe.

    Args:
        hash_alg: the hash; SHA-256 (ES256) is what p256 handles, any other stays PyJWT's.
        expected_curve: the curve keys must be on (PyJWT's argument; ``register`` gives
            P-256, as PyJWT's own ES256 has; None lets any curve through, keys of other
            curves then signing and verifying with PyJWT's code).
        cache: the PublicKeyCache to keep precomputed public keys in (a new one of 64
            keys by default).
    """

    def __init__(self, hash_alg: Any = _ECAlgorithm.SHA256,
                 expected_curve: Any = None, *,
                 cache: Optional[PublicKeyCache] = None) -> None:
        super().__init__(hash_alg, expected_curve)
        self._public = _PublicKeys(cache)
        self._cache = self._public.cache
        # Bounded as the cache is: the pyca key read from each public key text seen lately,
        # and the p256 key of each pyca key object seen lately (by identity, the object
        # held with it, so that its id stays its own while the entry lives).
        self._texts: _OrderedDict[bytes, Any] = _OrderedDict()
        self._objects: _OrderedDict[int, Tuple[Any, Any]] = _OrderedDict()
        self._lock = _threading.Lock()

    @property
    def cache(self) -> PublicKeyCache:
        """The PublicKeyCache of the precomputed public keys."""
        return self._cache

    def _p256(self) -> bool:
        return self.hash_alg is _ECAlgorithm.SHA256

    def _lookup(self, table: _OrderedDict[Any, Any], key: Any) -> Any:
        with self._lock:
            hit = table.get(key)
            if hit is not None:
                table.move_to_end(key)
            return hit

    def _store(self, table: _OrderedDict[Any, Any], key: Any, value: Any) -> None:
        with self._lock:
            table[key] = value
            if len(table) > self._cache.max_keys:
                table.popitem(last=False)

    def _of(self, key: Any) -> Any:
        """The p256 key of a P-256 key (p256's or pyca's; a public one precomputed), or
        None for any other key."""
        if isinstance(key, _keys.PrivateKey):
            return key
        if isinstance(key, _keys.PublicKey):
            return self._public.get(key)
        if not isinstance(key, (_ec.EllipticCurvePrivateKey, _ec.EllipticCurvePublicKey)) or \
                not isinstance(key.curve, _ec.SECP256R1):
            return None
        entry = self._lookup(self._objects, id(key))
        if entry is not None and entry[0] is key:
            ours: Any = entry[1]
            if isinstance(ours, _keys.PrivateKey) or ours.is_precomputed:
                return ours
        elif isinstance(key, _ec.EllipticCurvePrivateKey):
            ours = _keys.PrivateKey.from_cryptography(key)
        else:
            ours = _keys.PublicKey.from_bytes(key.public_bytes(*_X962))
        if isinstance(ours, _keys.PublicKey):
            ours = self._public.get(ours)
        self._store(self._objects, id(key), (key, ours))
        return ours

    def prepare_key(self, key: Any) -> Any:
        """PyJWT's prepare_key (the same keys, the same result, the same errors), for
        p256 keys too (returned as they are); a P-256 public key's text is read once."""
        if not self._p256():
            return super().prepare_key(key)
        if isinstance(key, (_keys.PrivateKey, _keys.PublicKey)):
            return key  # sign and verify read it (each verification is one sighting)
        if isinstance(key, (str, bytes)):
            text = key.encode("utf-8") if isinstance(key, str) else key
            hit = self._lookup(self._texts, text)
            if hit is not None:
                return hit
            prepared = super().prepare_key(key)  # PyJWT's reading, checks and errors
            if isinstance(prepared, _ec.EllipticCurvePublicKey) and isinstance(
                    prepared.curve, _ec.SECP256R1):
                self._store(self._texts, text, prepared)
            return prepared
        return super().prepare_key(key)

    def sign(self, msg: bytes, key: Any) -> bytes:
        """ES256: p256's hedged ECDSA, r || s (64 bytes)."""
        ours = self._of(key) if self._p256() else None
        if isinstance(ours, _keys.PrivateKey):
            return ours.sign(msg, hash="sha256", encoding="raw")
        return super().sign(msg, key)

    def verify(self, msg: bytes, key: Any, sig: bytes) -> bool:
        """Whether sig (r || s) verifies; False for any invalid signature."""
        ours = self._of(key) if self._p256() else None
        if isinstance(ours, _keys.PrivateKey):
            ours = self._public.get(ours.public_key)
        if ours is not None:
            return bool(ours.verify(sig, msg, hash="sha256", encoding="raw"))
        return bool(super().verify(msg, key, sig))

    @staticmethod
    def to_jwk(key_obj: Any, as_dict: bool = False) -> Any:
        """PyJWT's to_jwk, for p256 keys too (kty, crv, x, y and, for a private key, d)."""
        if isinstance(key_obj, (_keys.PrivateKey, _keys.PublicKey)):
            jwk: Dict[str, Any] = dict(key_obj.to_jwk())
            if as_dict:
                return jwk
            import json

            return json.dumps(jwk)
        if as_dict:
            return _ECAlgorithm.to_jwk(key_obj, True)
        return _ECAlgorithm.to_jwk(key_obj, False)


def register(pyjws: Optional[_api_jws.PyJWS] = None, *,
             cache: Optional[PublicKeyCache] = None) -> ES256Algorithm:
    """Make ES256 in PyJWT sign and verify on p256.

    Args:
        pyjws: the ``jwt.PyJWS`` to register on; None is PyJWT's default instance, the one
            ``jwt.encode``, ``jwt.decode`` and ``jwt.PyJWT()``'s default use. Then the
            ``PyJWK`` objects made afterwards (``PyJWKClient``'s signing keys) use it too.
        cache: the PublicKeyCache for the precomputed public keys (a new one by default).

    Returns:
        The registered ES256Algorithm.

    Raises:
        TypeError: pyjws is not a jwt.PyJWS.
    """
    if pyjws is None:
        pyjws = _api_jws._jws_global_obj
        default = True
    elif not isinstance(pyjws, _api_jws.PyJWS):
        raise TypeError("pyjws must be a jwt.PyJWS, not %s" % type(pyjws).__name__)
    else:
        default = False
    algorithm = ES256Algorithm(_ECAlgorithm.SHA256, _ec.SECP256R1, cache=cache)
    if "ES256" in pyjws.get_algorithms():
        pyjws.unregister_algorithm("ES256")
    pyjws.register_algorithm("ES256", algorithm)
    if default:
        _jwk_defaults(algorithm)
    return algorithm


def _jwk_defaults(algorithm: ES256Algorithm) -> None:
    """PyJWK picks its algorithm from jwt.api_jwk's get_default_algorithms when it is
    made: that name now gives the registered ES256."""
    current = getattr(_api_jwk, "get_default_algorithms")
    original = getattr(current, "_p256_original", current)

    def get_default_algorithms() -> Dict[str, Any]:
        algorithms = original()
        if "ES256" in algorithms:
            algorithms["ES256"] = algorithm
        return _typing.cast("Dict[str, Any]", algorithms)

    get_default_algorithms._p256_original = original  # type: ignore[attr-defined]
    setattr(_api_jwk, "get_default_algorithms", get_default_algorithms)


del annotations  # the __future__ feature's name: the namespace holds the public names
