# SPDX-License-Identifier: Apache-2.0
"""p256: fast constant-time P-256 (secp256r1 / prime256v1) for Python.

Keys, ECDSA (DER and raw r||s; hedged or RFC 6979 nonces), ECDH and SEC1 points on a
native constant-time core. ``p256.reference`` is a slow pure-Python implementation of
the NIST curves, kept as a baseline and test oracle.

Documentation: ``help()`` of each name; and the pages that come with the source
distribution (its docs directory, a site built with mkdocs), whose API reference gives
every function, argument, result and error.
"""

from . import _core
from ._batch import (
    batch_backend,
    exchange_iter,
    exchange_many,
    p256verify,
    p256verify_iter,
    p256verify_many,
    scalar_base_mult_iter,
    scalar_base_mult_many,
    sign_iter,
    sign_many,
    verify_iter,
    verify_many,
)
from ._common import JWK, Buffer, HashName, PrivateFormat, SigEncoding
from ._keys import N, P, PrivateKey, PublicKey, normalize_s, scalar_base_mult, scalar_mult
from ._group import Point, Scalar, multi_mult, multi_mult_vartime
from . import jws, webauthn, x509  # after _keys, which they import (nothing imports them)
from ._h2c import encode_to_curve, expand_message_xmd, hash_to_curve, hash_to_scalar
from . import oprf  # after _h2c, which it runs on
from ._cache import PublicKeyCache

#: The package version (one number, from the build).
__version__: str = _core.__version__


def backend() -> str:
    """The field-arithmetic backend in use.

    Chosen at import: the fastest one this CPU runs, unless the environment variable
    P256_BACKEND names one ("portable" forces the portable C).

    Returns:
        "x86_64-adx", "aarch64-asm" or "portable".
    """
    return _core.backend()


__all__ = [
    "PrivateKey",
    "PublicKey",
    "PublicKeyCache",
    "Point",
    "Scalar",
    "multi_mult",
    "multi_mult_vartime",
    "scalar_base_mult",
    "scalar_mult",
    "normalize_s",
    "verify_many",
    "verify_iter",
    "p256verify",
    "p256verify_many",
    "p256verify_iter",
    "batch_backend",
    "scalar_base_mult_many",
    "scalar_base_mult_iter",
    "sign_many",
    "sign_iter",
    "exchange_many",
    "exchange_iter",
    "jws",
    "webauthn",
    "x509",
    "expand_message_xmd",
    "hash_to_curve",
    "encode_to_curve",
    "hash_to_scalar",
    "oprf",
    "N",
    "P",
    "__version__",
    "backend",
    "Buffer",
    "HashName",
    "SigEncoding",
    "PrivateFormat",
    "JWK",
]
