"""p256: fast constant-time P-256 (secp256r1 / prime256v1) for Python.

Keys, ECDSA (DER and raw r||s; hedged or RFC 6979 nonces), ECDH and SEC1 points on a
native constant-time core. ``p256.reference`` is a slow pure-Python implementation of
the NIST curves, kept as a baseline and test oracle. See API.md for the contract.
"""

from . import _core
from ._keys import N, P, PrivateKey, PublicKey, scalar_base_mult, scalar_mult
from ._batch import p256verify, verify_many

__version__ = _core.__version__

__all__ = [
    "PrivateKey",
    "PublicKey",
    "scalar_base_mult",
    "scalar_mult",
    "verify_many",
    "p256verify",
    "N",
    "P",
    "__version__",
]
