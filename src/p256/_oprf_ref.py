# SPDX-License-Identifier: Apache-2.0
"""The reference instance of p256.oprf: the same protocol code over pure-Python stand-ins
of Point and Scalar (_refgroup) and p256.reference's hash-to-curve (RFC 9380, written
apart from p256._h2c). VARIABLE TIME, NOT FOR SECRETS: the differential oracle of the
OPRF's tests and fuzz targets, nothing else.
"""

from __future__ import annotations

from typing import Any

from . import _refgroup, oprf, reference

__all__ = ["GROUP", "Client", "Server", "derive_key_pair", "generate_key_pair",
           "deserialize_element"]


def _hash_to_curve(msg: bytes, dst: bytes) -> _refgroup.Point:
    return _refgroup.Point._make(reference.hash_to_curve(msg, dst))


def _hash_to_scalar(msg: bytes, dst: bytes) -> _refgroup.Scalar:
    return _refgroup.Scalar._make(reference.hash_to_scalar(msg, dst))


GROUP = oprf._Group(_refgroup.Point, _refgroup.Scalar, _hash_to_curve, _hash_to_scalar,
                    _refgroup.multi_mult_vartime, _refgroup.PointTable)


class Client(oprf.Client):
    """oprf.Client over the reference group."""

    __slots__ = ()
    _group = GROUP


class Server(oprf.Server):
    """oprf.Server over the reference group."""

    __slots__ = ()
    _group = GROUP


def derive_key_pair(seed: bytes, info: bytes, mode: int) -> tuple[Any, Any]:
    return oprf._derive_key_pair(GROUP, seed, info, mode)


def generate_key_pair() -> tuple[Any, Any]:
    sk = _refgroup.Scalar.random()
    return sk, sk * _refgroup.Point.generator()


def deserialize_element(data: bytes) -> Any:
    return oprf._deserialize(GROUP, data, "element")[0]
