# SPDX-License-Identifier: Apache-2.0
"""Point and Scalar: the group of P-256 as values, for protocols built on it
(commitments, ElGamal, Schnorr proofs, OPRFs), over the native objects (csrc/py_point.c,
csrc/py_scalar.c); and the sums of many multiples.

The model is Go's crypto/internal/nistec: a small API in which an invalid point cannot be
represented and every operation is constant time unless its name ends in ``_vartime``.
The operators (``+``, ``-``, ``*``, unary ``-``, ``==``) are the native objects' own; the
methods here are thin, documented doors to them. A Scalar may be secret: it is not
hashable, not pickled or copied, its repr shows no value, and Python ints are refused in
its arithmetic (``Scalar.from_int(5) * P`` says what ``5 * P`` would have meant)."""

from __future__ import annotations

from typing import Any, Iterable, Tuple

from . import _core
from ._common import N, Buffer, flag_error, point_problem

__all__ = ["Point", "Scalar", "multi_mult", "multi_mult_vartime"]

# What Point.from_bytes's messages call the bytes, and the encodings it takes.
_POINT_WORDS = {"what": "point", "forms": "65 bytes 04||X||Y, 33 bytes 02/03||X or the single byte 00 "
                                          "(the identity)"}


class Scalar(_core.Scalar):
    """An integer mod n, the order of the group: what multiplies a Point.

    Made by the class methods (``Scalar(...)`` raises TypeError): ``from_bytes``,
    ``from_int``, ``from_bytes_reduce`` (a hash's output, reduced), ``random``.
    ``s + t``, ``s - t``, ``s * t`` and ``-s`` are mod n; ``s * P`` and ``P * s`` multiply
    a Point; ``==`` compares in constant time; ``int(s)`` is the value. A Scalar may be
    secret: it is not hashable, not pickled or copied, its repr shows no value, and its
    memory is wiped when it is freed. Python ints are refused in the arithmetic (TypeError
    saying ``Scalar.from_int(...)``).
    """

    # The 32 bytes live in the native object (csrc/py_scalar.c).
    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Not a constructor: always raises TypeError. Use Scalar.from_bytes(),
        from_int(), from_bytes_reduce() or random()."""
        raise TypeError("use Scalar.from_bytes(), Scalar.from_int(), Scalar.from_bytes_reduce() "
                        "or Scalar.random()")

    @classmethod
    def from_bytes(cls, data: Buffer) -> Scalar:
        """A scalar from its 32-byte big-endian encoding.

        Args:
            data: Exactly 32 bytes, a value below n (0 is allowed).

        Returns:
            The scalar.

        Raises:
            ValueError: Not 32 bytes, or a value >= n.
            TypeError: data is not bytes-like.
        """
        return cls._from_bytes32(data)

    @classmethod
    def from_int(cls, value: int) -> Scalar:
        """A scalar from an int.

        Args:
            value: 0 <= value < n.

        Returns:
            The scalar.

        Raises:
            ValueError: value is outside [0, n-1] (the message does not show it).
            TypeError: value is not an int (a bool is refused too).
        """
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("a scalar is made from an int, not %s" % type(value).__name__)
        if not 0 <= value < N:
            raise ValueError("a scalar is an integer in [0, n-1]")
        return cls._from_bytes32(value.to_bytes(32, "big"))

    @classmethod
    def from_bytes_reduce(cls, data: Buffer) -> Scalar:
        """A scalar from a long big-endian integer, reduced mod n.

        At least 48 bytes, so that uniform bytes (a hash's, an XOF's) give a scalar whose
        distance from uniform is below 2^-128 (RFC 9380's hash_to_field takes 48).

        Args:
            data: At least 48 bytes.

        Returns:
            The scalar, data mod n.

        Raises:
            ValueError: Fewer than 48 bytes.
            TypeError: data is not bytes-like.
        """
        return cls._reduce(data)

    @classmethod
    def random(cls) -> Scalar:
        """A uniform nonzero scalar from the operating system's CSPRNG.

        Returns:
            A scalar uniform in [1, n-1] (rejection sampling).

        Raises:
            OSError: The operating system's random generator failed.
        """
        return cls._random()

    def invert(self) -> Scalar:
        """The inverse mod n, in constant time.

        Returns:
            1/s mod n.

        Raises:
            ValueError: s is 0, which has no inverse.
        """
        return self._invert()

    def is_zero(self) -> bool:
        """Whether the scalar is 0, in constant time.

        Returns:
            True for 0.
        """
        return self._is_zero()

    def to_bytes(self) -> bytes:
        """The 32-byte big-endian encoding (an explicit export of a possibly secret value).

        Returns:
            32 bytes.
        """
        return self._bytes()

    def __repr__(self) -> str:
        return "<p256.Scalar (value not shown)>"


class Point(_core.Point):
    """A point of the P-256 group, the identity (the point at infinity) included.

    Made by ``from_bytes`` (SEC1, validated), ``generator()`` and ``identity()``, and by
    arithmetic (``Point(...)`` raises TypeError); immutable, so safe to share between
    threads. ``P + Q``, ``P - Q`` and ``-P`` use the complete addition formulas (right for
    equal, opposite and identity operands, with no branch on which); ``s * P`` and
    ``P * s`` take a Scalar (constant time in both; 0 gives the identity, where
    ``p256.scalar_mult`` raises, its bytes having no form for it); ``==``
    compares in constant time. The point stays in projective coordinates: an addition
    pays no inversion, and only ``to_bytes``, ``hash`` and ``repr`` make it affine.
    Pickled as its SEC1 bytes (validated again on load).
    """

    # The point lives in the native object (csrc/py_point.c).
    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Not a constructor: always raises TypeError. Use Point.from_bytes(),
        generator() or identity()."""
        raise TypeError("use Point.from_bytes(), Point.generator() or Point.identity()")

    @classmethod
    def from_bytes(cls, data: Buffer) -> Point:
        """A point from its SEC1 encoding, fully validated.

        Args:
            data: 65 bytes 04||X||Y, 33 bytes 02/03||X, or the single byte 00 for the
                identity.

        Returns:
            The point.

        Raises:
            ValueError: Not a valid encoding of a point, with its own message for each
                reason (the length and prefix, a coordinate >= p, a point off the curve,
                an X with no point, the hybrid 06/07 prefix).
            TypeError: data is not bytes-like.
        """
        p = cls._from_sec1(data)
        if isinstance(p, int):
            raise ValueError(point_problem(p, data, **_POINT_WORDS))
        return p

    def to_bytes(self, compressed: bool = False) -> bytes:
        """The SEC1 encoding.

        Args:
            compressed: False: 65 bytes 04||X||Y; True: 33 bytes 02/03||X.

        Returns:
            The encoded point; the single byte 00 for the identity.

        Raises:
            TypeError: compressed is not a bool.
        """
        try:
            return self._sec1(compressed)
        except TypeError:
            flag_error("compressed", compressed)

    @classmethod
    def generator(cls) -> Point:
        """The generator G of FIPS 186-5 (``s * Point.generator()`` takes the fixed-base
        comb, about five times faster than a product with another point).

        Returns:
            G.
        """
        return cls._generator()

    @classmethod
    def identity(cls) -> Point:
        """The identity of the group (the point at infinity).

        Returns:
            The identity; it encodes as the single byte 00.
        """
        return cls._identity()

    def double(self) -> Point:
        """2P, which P + P also gives.

        Returns:
            The double.
        """
        return self._double()

    def is_identity(self) -> bool:
        """Whether the point is the identity.

        Returns:
            True for the identity.
        """
        return self._is_identity()

    def mul_vartime(self, scalar: Scalar) -> Point:
        """s * P in variable time: for a public scalar and point only (a verifier's), where
        it is faster than the constant-time ``scalar * P``.

        Args:
            scalar: A Scalar.

        Returns:
            s * P.

        Raises:
            TypeError: scalar is not a Scalar (an int too: Scalar.from_int makes one).
        """
        return self._mul_vartime(scalar)

    def __repr__(self) -> str:
        if self._is_identity():
            return "p256.Point.identity()"
        return "p256.Point.from_bytes(bytes.fromhex(%r))" % self._sec1(True).hex()

    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]:
        # pickle, copy and deepcopy go through the SEC1 bytes and from_bytes, which
        # validates the point again on load.
        return (type(self).from_bytes, (self._sec1(False),))


def multi_mult(scalars: Iterable[Scalar], points: Iterable[Point]) -> Point:
    """The sum s_0 P_0 + s_1 P_1 + ..., in constant time in every scalar and point.

    Faster than the products added one by one (Straus's method: the doublings are shared);
    for public data ``multi_mult_vartime`` is faster still.

    Args:
        scalars: Scalars (a list, a tuple, any iterable).
        points: As many Points.

    Returns:
        The sum; the identity for none.

    Raises:
        ValueError: The counts differ (two streams are read side by side, so one that
            never ends is read one item past the other's end), or more than 2**20 terms.
        TypeError: An item is not a Scalar or a Point (its index is named), or an
            argument is not iterable.
    """
    return _core.multi_mult(Point, scalars, points, False)


def multi_mult_vartime(scalars: Iterable[Scalar], points: Iterable[Point]) -> Point:
    """The sum s_0 P_0 + s_1 P_1 + ..., in variable time: public scalars and points only.

    Straus's method for a few terms, Pippenger's bucket method for many (the count
    decides): about a quarter of the time of the products one by one (``mul_vartime``) at
    64 terms, a sixth at 1024 (docs: Performance).

    Args:
        scalars: Scalars (a list, a tuple, any iterable).
        points: As many Points.

    Returns:
        The sum; the identity for none.

    Raises:
        ValueError: The counts differ (two streams are read side by side, so one that
            never ends is read one item past the other's end), or more than 2**20 terms.
        TypeError: An item is not a Scalar or a Point (its index is named), or an
            argument is not iterable.
    """
    return _core.multi_mult(Point, scalars, points, True)


# The points of _core.h2c_map (RFC 9380's map, under p256.hash_to_curve) are p256.Points.
_core._set_point_class(Point)
