# SPDX-License-Identifier: Apache-2.0
"""Pure-Python stand-ins for the group's Point and Scalar, over p256.reference.

VARIABLE TIME, NOT FOR SECRETS: the arithmetic is p256.reference's (Python integers,
windowed recodings, early exits). They follow the semantics of the native types (the API
reference's "The group") so that one piece of protocol code runs over either: the OPRF's
reference instance, the differential oracle of its tests, runs over these.
"""

from __future__ import annotations

import secrets
from typing import Iterable, NoReturn, overload

from . import reference as _ref

_C = _ref.P256
_P, _N = _C.p, _C.n

__all__ = ["Point", "PointTable", "Scalar", "multi_mult_vartime"]


def _bytes(value: object, what: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s must be bytes-like, not %s" % (what, type(value).__name__))


class Scalar:
    """An integer mod n (pure Python, variable time)."""

    __slots__ = ("_v",)
    _v: int

    def __init__(self) -> None:
        raise TypeError("use Scalar.from_bytes, from_int, from_bytes_reduce or random")

    @classmethod
    def _make(cls, v: int) -> Scalar:
        s = object.__new__(cls)
        object.__setattr__(s, "_v", v % _N)
        return s

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Scalar:
        b = _bytes(data, "data")
        if len(b) != 32:
            raise ValueError("a scalar is 32 bytes, not %d" % len(b))
        v = int.from_bytes(b, "big")
        if v >= _N:
            raise ValueError("a scalar must be less than n")
        return cls._make(v)

    @classmethod
    def from_int(cls, i: int) -> Scalar:
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError("i must be an int, not %s" % type(i).__name__)
        if not 0 <= i < _N:
            raise ValueError("a scalar must satisfy 0 <= i < n")
        return cls._make(i)

    @classmethod
    def from_bytes_reduce(cls, data: bytes | bytearray | memoryview) -> Scalar:
        b = _bytes(data, "data")
        if len(b) < 48:
            raise ValueError("from_bytes_reduce needs at least 48 bytes, not %d" % len(b))
        return cls._make(int.from_bytes(b, "big"))

    @classmethod
    def random(cls) -> Scalar:
        return cls._make(1 + secrets.randbelow(_N - 1))

    def _other(self, other: object) -> int:
        if not isinstance(other, Scalar):
            raise TypeError("a Scalar combines only with a Scalar, not %s" % type(other).__name__)
        return other._v

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar._make(self._v + self._other(other))

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar._make(self._v - self._other(other))

    def __neg__(self) -> Scalar:
        return Scalar._make(-self._v)

    @overload
    def __mul__(self, other: Scalar) -> Scalar: ...
    @overload
    def __mul__(self, other: Point) -> Point: ...

    def __mul__(self, other: Scalar | Point) -> Scalar | Point:
        if isinstance(other, Point):
            return other * self
        return Scalar._make(self._v * self._other(other))

    def invert(self) -> Scalar:
        if not self._v:
            raise ValueError("zero has no inverse mod n")
        return Scalar._make(pow(self._v, -1, _N))

    def is_zero(self) -> bool:
        return not self._v

    def to_bytes(self) -> bytes:
        return self._v.to_bytes(32, "big")

    def __int__(self) -> int:
        return self._v

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scalar):
            return NotImplemented
        return self._v == other._v

    __hash__ = None  # type: ignore[assignment]  # a Scalar may be secret: unhashable

    def __repr__(self) -> str:
        return "<reference Scalar>"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Scalar is immutable")

    def __reduce__(self) -> NoReturn:
        raise TypeError("a Scalar may be secret: it is not pickled or copied")

    def __copy__(self) -> NoReturn:
        raise TypeError("a Scalar may be secret: it is not pickled or copied")

    def __deepcopy__(self, memo: object) -> NoReturn:
        raise TypeError("a Scalar may be secret: it is not pickled or copied")


class Point:
    """A point of P-256 or the identity (pure Python, variable time)."""

    __slots__ = ("_xy",)
    _xy: tuple[int, int] | None

    def __init__(self) -> None:
        raise TypeError("use Point.from_bytes, generator or identity")

    @classmethod
    def _make(cls, xy: tuple[int, int] | None) -> Point:
        pt = object.__new__(cls)
        object.__setattr__(pt, "_xy", xy)
        return pt

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Point:
        b = _bytes(data, "data")
        if b == b"\x00":
            return cls._make(None)
        if len(b) == 65 and b[0] == 4:
            x, y = int.from_bytes(b[1:33], "big"), int.from_bytes(b[33:], "big")
            if not _C.is_on_curve(x, y):
                raise ValueError("the point is not on P-256")
            return cls._make((x, y))
        if len(b) == 33 and b[0] in (2, 3):
            x = int.from_bytes(b[1:], "big")
            if x >= _P:
                raise ValueError("x must be less than p")
            rhs = (x * x * x - 3 * x + _C.b) % _P
            y = pow(rhs, (_P + 1) // 4, _P)
            if y * y % _P != rhs:
                raise ValueError("x is not the x coordinate of a point of P-256")
            if (y & 1) != (b[0] & 1):
                y = _P - y
            return cls._make((x, y))
        raise ValueError("a point is 65 bytes (04||x||y), 33 (02/03||x) or b'\\x00' (the identity)")

    @classmethod
    def generator(cls) -> Point:
        return cls._make(_C.g)

    @classmethod
    def identity(cls) -> Point:
        return cls._make(None)

    def to_bytes(self, compressed: bool = False) -> bytes:
        if not isinstance(compressed, bool):
            raise TypeError("compressed must be a bool")
        if self._xy is None:
            return b"\x00"
        x, y = self._xy
        if compressed:
            return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")
        return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")

    def is_identity(self) -> bool:
        return self._xy is None

    def _other(self, other: object) -> tuple[int, int] | None:
        if not isinstance(other, Point):
            raise TypeError("a Point adds only to a Point, not %s" % type(other).__name__)
        return other._xy

    def __add__(self, other: Point) -> Point:
        return Point._make(_C.add(self._xy, self._other(other)))

    def __neg__(self) -> Point:
        if self._xy is None:
            return self
        x, y = self._xy
        return Point._make((x, (_P - y) % _P))

    def __sub__(self, other: Point) -> Point:
        self._other(other)
        return self + (-other)

    def double(self) -> Point:
        return Point._make(_C.double(self._xy))

    def __mul__(self, k: Scalar) -> Point:
        if not isinstance(k, Scalar):
            raise TypeError("a Point is multiplied by a Scalar, not %s" % type(k).__name__)
        return Point._make(_C.scalar_mult(self._xy, k._v))

    def __rmul__(self, k: Scalar) -> Point:
        return self.__mul__(k)

    def mul_vartime(self, k: Scalar) -> Point:
        return self * k

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        return self._xy == other._xy

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return "<reference Point %s>" % self.to_bytes(compressed=True).hex()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Point is immutable")

    def __reduce__(self) -> tuple[object, tuple[bytes]]:
        return (Point.from_bytes, (self.to_bytes(),))


class PointTable:
    """Several products of one point (the stand-in of p256._core.PointTable)."""

    __slots__ = ("_point",)

    def __init__(self, point: Point) -> None:
        if not isinstance(point, Point):
            raise TypeError("PointTable() takes a Point, not %s" % type(point).__name__)
        if point.is_identity():
            raise ValueError("the identity has no table")
        self._point = point

    def mul(self, k: Scalar) -> Point:
        return self._point * k


def multi_mult_vartime(scalars: Iterable[Scalar], points: Iterable[Point]) -> Point:
    """The sum of s_i * P_i (public data only)."""
    ks, ps = list(scalars), list(points)
    if len(ks) != len(ps):
        raise ValueError("as many scalars as points")
    acc = Point.identity()
    for k, pt in zip(ks, ps):
        acc = acc + pt * k
    return acc


def __dir__() -> list[str]:
    return sorted(__all__)
