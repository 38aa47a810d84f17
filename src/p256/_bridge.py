# SPDX-License-Identifier: Apache-2.0
"""Bridges to pyca/cryptography key objects, through bytes and cryptography's public API
only: the private scalar (private_numbers) and the SEC1 point (X9.62 encoding).

cryptography is optional: it is imported on the first call, and its absence is an
ImportError that says how to install it. Nothing else of p256 imports this module."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # precise types for mypy; at run time cryptography stays optional
    from cryptography.hazmat.primitives.asymmetric.ec import (
        EllipticCurvePrivateKey,
        EllipticCurvePublicKey,
    )


def _ec(caller: str) -> ModuleType:
    """cryptography's ec module, or ImportError naming the caller and the fix."""
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError as exc:
        raise ImportError("%s needs the cryptography package: pip install cryptography"
                          % caller) from exc
    return ec


# what a reader was given instead, by which reader: the hint for that mix-up
_MIXUP = {"Private": " (a public key: use PublicKey.from_cryptography)",
          "Public": " (a private key: pass its .public_key(), or use PrivateKey.from_cryptography)"}


def _kind(obj: object) -> str:
    t = type(obj)
    return t.__name__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)


def _checked(obj: object, kind: str) -> Any:
    """obj if it is a cryptography EllipticCurve<kind>Key on P-256 (kind: "Private" or
    "Public"), else the TypeError or ValueError that names what it is."""
    caller = "%sKey.from_cryptography" % kind
    ec = _ec(caller)
    want = getattr(ec, "EllipticCurve%sKey" % kind)
    if not isinstance(obj, want):
        other = ec.EllipticCurvePublicKey if kind == "Private" else ec.EllipticCurvePrivateKey
        raise TypeError("%s takes a cryptography %s, not %s%s" % (
            caller, want.__name__, _kind(obj), _MIXUP[kind] if isinstance(obj, other) else ""))
    curve = obj.curve
    if not isinstance(curve, ec.SECP256R1):
        raise ValueError("%s: the key is on %s, not P-256 (secp256r1)"
                         % (caller, getattr(curve, "name", type(curve).__name__)))
    return obj


def private_from_cryptography(obj: object) -> bytes:
    """The 32-byte scalar of a cryptography EllipticCurvePrivateKey on P-256."""
    d: int = _checked(obj, "Private").private_numbers().private_value
    return d.to_bytes(32, "big")


def private_to_cryptography(d: bytes) -> EllipticCurvePrivateKey:
    """A cryptography EllipticCurvePrivateKey with the scalar d (32 bytes)."""
    ec = _ec("PrivateKey.to_cryptography")
    key: EllipticCurvePrivateKey = ec.derive_private_key(int.from_bytes(d, "big"), ec.SECP256R1())
    return key


def public_from_cryptography(obj: object) -> bytes:
    """The 65-byte SEC1 point of a cryptography EllipticCurvePublicKey on P-256."""
    key = _checked(obj, "Public")
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    point: bytes = key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return point


def public_to_cryptography(point: bytes) -> EllipticCurvePublicKey:
    """A cryptography EllipticCurvePublicKey for the SEC1 point."""
    ec = _ec("PublicKey.to_cryptography")
    key: EllipticCurvePublicKey = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    return key
