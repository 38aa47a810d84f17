# SPDX-License-Identifier: Apache-2.0
"""ES256 on p256 for joserfc: ``p256.contrib.joserfc.register()`` and every
``joserfc.jws`` and ``joserfc.jwt`` call with ES256 signs and verifies on p256.

:class:`ES256Algorithm` is a subclass of joserfc's own ``ESAlgorithm`` for ES256, so
what joserfc documents stays: keys are joserfc's (``ECKey``, ``KeySet``, imported from a
JWK, PEM or a pyca/cryptography key as joserfc imports them; :func:`import_key` adds p256
keys), and its checks run as before (the key's ``use``, ``alg`` and ``key_ops``, its
curve: ``InvalidKeyCurveError`` for a key that is not P-256), and the header handling of
``joserfc.jws`` around it. What changes is underneath: the key's P-256 private or public
key is read into p256 once per joserfc key object (held only as long as that object
lives), public keys through a bounded :class:`p256.PublicKeyCache`, so a key that comes
back verifies with its precomputed table; signatures are p256's hedged ECDSA, r || s.
"""

from __future__ import annotations

import threading as _threading
import typing as _typing
import weakref as _weakref

from cryptography.hazmat.primitives import serialization as _serialization
from cryptography.hazmat.primitives.asymmetric import ec as _ec
from joserfc import jwk as _jwk
from joserfc.jws import JWSRegistry as _JWSRegistry
from joserfc._rfc7518.jws_algs import ESAlgorithm as _ESAlgorithm

from .. import _keys
from . import _PublicKeys

if _typing.TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple, Union

    from .._cache import PublicKeyCache

__all__ = ["ES256Algorithm", "register", "import_key"]

_X962 = (_serialization.Encoding.X962, _serialization.PublicFormat.UncompressedPoint)


class _PerObject:
    """A value per live object, by identity (joserfc's keys compare by value and are not
    hashable): an entry goes when its object is collected. Thread-safe."""

    def __init__(self) -> None:
        self._entries: Dict[int, Tuple[Any, Any]] = {}
        self._lock = _threading.Lock()

    def get(self, obj: Any) -> Any:
        with self._lock:
            entry = self._entries.get(id(obj))
        return entry[1] if entry is not None and entry[0]() is obj else None

    def put(self, obj: Any, value: Any) -> None:
        ident, entries, lock = id(obj), self._entries, self._lock

        def forget(ref: Any) -> None:
            with lock:
                if entries.get(ident, (None,))[0] is ref:
                    del entries[ident]

        try:
            ref = _weakref.ref(obj, forget)
        except TypeError:  # an object without weak references is not remembered
            return
        with lock:
            entries[ident] = (ref, value)


class ES256Algorithm(_ESAlgorithm):
    """joserfc's ES256 (ECDSA with P-256 and SHA-256), on p256 (see the module docstring).
    Thread-safe.

    Args:
        cache: the PublicKeyCache to keep precomputed public keys in (a new one of 64
            keys by default).
    """

    def __init__(self, *, cache: Optional[PublicKeyCache] = None) -> None:
        super().__init__("ES256", "P-256", 256, True)
        self._public = _PublicKeys(cache)
        self._cache = self._public.cache
        # joserfc key object -> its p256 key, for as long as the object lives
        self._signers = _PerObject()
        self._verifiers = _PerObject()

    @property
    def cache(self) -> PublicKeyCache:
        """The PublicKeyCache of the precomputed public keys."""
        return self._cache

    def sign(self, msg: bytes, key: Any) -> bytes:
        """ES256: p256's hedged ECDSA, r || s (64 bytes)."""
        op_key = key.get_op_key("sign")  # joserfc's key_ops check, as its own sign makes
        signer: Optional[_keys.PrivateKey] = self._signers.get(key)
        if signer is None:
            if not (isinstance(op_key, _ec.EllipticCurvePrivateKey)
                    and isinstance(op_key.curve, _ec.SECP256R1)):
                return super().sign(msg, key)
            signer = _keys.PrivateKey.from_cryptography(op_key)
            self._signers.put(key, signer)
        return signer.sign(msg, hash="sha256", encoding="raw")

    def verify(self, msg: bytes, sig: bytes, key: Any) -> bool:
        """Whether sig (r || s) verifies; False for any invalid signature."""
        op_key = key.get_op_key("verify")
        verifier: Optional[_keys.PublicKey] = self._verifiers.get(key)
        if verifier is None:
            if not (isinstance(op_key, _ec.EllipticCurvePublicKey)
                    and isinstance(op_key.curve, _ec.SECP256R1)):
                return bool(super().verify(msg, sig, key))
            verifier = _keys.PublicKey.from_bytes(op_key.public_bytes(*_X962))
        if not verifier.is_precomputed:
            verifier = self._public.get(verifier)
            self._verifiers.put(key, verifier)
        return verifier.verify(sig, msg, hash="sha256", encoding="raw")


def register(*, cache: Optional[PublicKeyCache] = None) -> ES256Algorithm:
    """Make ES256 in joserfc sign and verify on p256: registers :class:`ES256Algorithm`
    in ``JWSRegistry``, in place of joserfc's (every registry, the default one included,
    reads the class's table of algorithms).

    Args:
        cache: the PublicKeyCache for the precomputed public keys (a new one by default).

    Returns:
        The registered ES256Algorithm.
    """
    algorithm = ES256Algorithm(cache=cache)
    _JWSRegistry.register(algorithm)
    return algorithm


def import_key(key: Union[_keys.PrivateKey, _keys.PublicKey]) -> Any:
    """A joserfc ECKey of a p256 key (joserfc's ECKey.import_key of its PKCS#8 or
    SubjectPublicKeyInfo PEM).

    Raises:
        TypeError: key is not a p256.PrivateKey or p256.PublicKey.
    """
    if not isinstance(key, (_keys.PrivateKey, _keys.PublicKey)):
        raise TypeError("import_key takes a p256.PrivateKey or p256.PublicKey, not %s"
                        % type(key).__name__)
    return _jwk.ECKey.import_key(key.to_pem())


del annotations  # the __future__ feature's name: the namespace holds the public names
