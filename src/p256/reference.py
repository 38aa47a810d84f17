# SPDX-License-Identifier: Apache-2.0
"""Pure-Python reference implementation of the NIST prime curves P-224, P-256, P-384, P-521.

WARNING: this module is VARIABLE TIME and is NOT FOR SECRETS.  Its running time and memory
access pattern depend on the scalars and points it is given (windowed scalar recoding, early
exits, Python big integers).  It exists as a readable baseline, a benchmark baseline and a test
oracle for the constant-time C core; never use it with a private key that matters.

Contents
--------
Curve objects ``P224``, ``P256``, ``P384``, ``P521`` (short Weierstrass ``y^2 = x^3 + a*x + b``
over GF(p) with ``a = -3``, stored canonically as ``a = p - 3``; cofactor 1), each with:

    .name ("P-224", ...), .p, .n, .a, .b, .gx, .gy, .bit_size, .byte_len, .g == (gx, gy)
    is_on_curve(x, y) -> bool
    add(p1, p2), double(p1), scalar_mult(p1, k), scalar_base_mult(k)

Points are affine ``(x, y)`` tuples of ints; the point at infinity is ``None``.

Module functions: ``ecdsa_sign``, ``ecdsa_verify``, ``ecdh``, ``rfc6979_nonce``, ``bits2int``,
``curve_by_name``.

Input rules (every public function checks its arguments)
--------------------------------------------------------
* Curves must be ``Curve`` objects, else ``TypeError``.
* Points must be ``None`` or a 2-tuple of ints (``bool`` is not an int here), else
  ``TypeError``; a tuple that is not on the curve (coordinates must be in [0, p)) raises
  ``ValueError``.  Where a public key is expected (``ecdsa_verify``, ``ecdh``) ``None`` raises
  ``ValueError`` as well.
* Scalars must be ints (not ``bool``), else ``TypeError``.
  ``scalar_mult``/``scalar_base_mult`` accept any ``k >= 0`` and reduce it mod n (so ``k = n``
  gives ``None`` and ``k = n + 1`` gives the point itself); ``k < 0`` raises ``ValueError``.
  ``ecdsa_sign`` and ``ecdh`` need ``1 <= d < n`` and an explicit nonce ``1 <= k < n``, else
  ``ValueError``.
* Digests must be bytes-like (``bytes``, ``bytearray``, ``memoryview``), else ``TypeError``.
* ``ecdsa_verify`` returns ``False`` (it does not raise) when r or s is outside [1, n-1] or the
  signature does not verify; it raises for a malformed public key as described above.

ECDSA (FIPS 186-5, section 6.4)
-------------------------------
The digest is converted with ``bits2int``: it is truncated to its leftmost ``bit_length(n)``
bits (a shorter digest is used as is).  ``ecdsa_sign(c, d, digest, k=None)`` with ``k=None``
uses the RFC 6979 deterministic nonce; the HMAC hash is chosen from the digest LENGTH alone:
28 bytes -> sha224, 32 -> sha256, 48 -> sha384, 64 -> sha512; any other length raises
``ValueError`` (pass an explicit ``k`` to sign such digests).  With an explicit ``k`` a zero r or
s raises ``ValueError``; with RFC 6979 the generation loop continues as the RFC prescribes.

Implementation notes
--------------------
* Jacobian coordinates (X, Y, Z) <-> affine (X/Z^2, Y/Z^3); Z == 0 is the point at infinity.
  Formulas from the Explicit-Formulas Database (EFD, hyperelliptic.org/EFD, "g1p/shortw/jacobian-3"):
  doubling "dbl-2001-b" (a = -3), addition "add-1998-cmo-2", mixed addition "madd-2004-hmv"
  (also Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", 3.2.2).
  Every addition handles its exceptional cases (an operand at infinity, P == Q -> doubling,
  P == -Q -> infinity).  Each affine result costs exactly one field inversion (``pow(z, -1, p)``).
* ``scalar_mult``: width-w NAF (Guide to ECC, Alg. 3.35/3.36; w = 5, or 6 above 256 bits) with a
  Jacobian table of odd multiples P, 3P, ..., (2^(w-1)-1)P.
* ``scalar_base_mult``: fixed-base signed-window method (Guide to ECC, 3.3.1 idea): the scalar is
  recoded into base-256 digits in [-128, 128]; a table of affine points i * 256^j * G
  (1 <= i <= 128) is built lazily on the first use per curve (one batch inversion per window,
  Montgomery's trick), so k*G needs only ~bit_size/8 mixed additions and no doubling.
* ``ecdsa_verify``: Straus-Shamir (interleaved wNAF, Guide to ECC Alg. 3.51) for u1*G + u2*Q with
  shared doublings; the odd multiples of G (width 8) come from window 0 of the base table.
* RFC 6979 section 3.2 with ``hmac`` from the standard library.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Iterator, cast, overload

if TYPE_CHECKING:  # names for annotations only: nothing here runs
    from typing import Literal, Optional, Tuple

    from typing_extensions import TypeAlias, TypeGuard

    _Affine: TypeAlias = Tuple[int, int]  # an affine point (x, y)
    _Point: TypeAlias = Optional[_Affine]  # None is the point at infinity
    _Jacobian: TypeAlias = Tuple[int, int, int]  # (X, Y, Z), Z == 0 at infinity
    _Table: TypeAlias = Tuple[Tuple[_Affine, ...], ...]

__all__ = [
    "Curve",
    "P224",
    "P256",
    "P384",
    "P521",
    "CURVES",
    "curve_by_name",
    "bits2int",
    "rfc6979_nonce",
    "ecdsa_sign",
    "ecdsa_verify",
    "ecdh",
    "H2C_Z",
    "H2C_L",
    "expand_message_xmd",
    "hash_to_field",
    "sqrt_ratio",
    "map_to_curve_simple_swu",
    "hash_to_curve",
    "encode_to_curve",
    "hash_to_scalar",
]

# Width of a base-table window (bits) and of the wNAF used for G in verification (it must not
# exceed BASE_W + 1 so that the odd multiples of G are in window 0 of the base table).
BASE_W = 8
VERIFY_G_W = 8


# ---------------------------------------------------------------------------------------------
# Jacobian point arithmetic on y^2 = x^3 - 3x + b.  All inputs are reduced mod p; Z == 0 means
# the point at infinity (X and Y are then irrelevant).
# ---------------------------------------------------------------------------------------------


def _jdouble(X1: int, Y1: int, Z1: int, p: int) -> _Jacobian:
    """2*(X1:Y1:Z1), EFD dbl-2001-b (a = -3).  Infinity and points with Y = 0 give Z3 = 0."""
    if not Z1:
        return 1, 1, 0
    delta = Z1 * Z1 % p
    gamma = Y1 * Y1 % p
    beta = X1 * gamma % p
    alpha = 3 * (X1 - delta) * (X1 + delta) % p
    X3 = (alpha * alpha - 8 * beta) % p
    Z3 = 2 * Y1 * Z1 % p
    Y3 = (alpha * (4 * beta - X3) - 8 * gamma * gamma) % p
    return X3, Y3, Z3


def _jadd_affine(X1: int, Y1: int, Z1: int, x2: int, y2: int, p: int) -> _Jacobian:
    """(X1:Y1:Z1) + (x2, y2) with (x2, y2) an affine point (Z2 = 1), EFD madd-2004-hmv."""
    if not Z1:
        return x2, y2, 1
    Z1Z1 = Z1 * Z1 % p
    H = (x2 * Z1Z1 - X1) % p
    r = (y2 * Z1 % p * Z1Z1 - Y1) % p
    if not H:
        if not r:  # same point: double
            return _jdouble(X1, Y1, Z1, p)
        return 1, 1, 0  # P + (-P)
    HH = H * H % p
    HHH = H * HH % p
    V = X1 * HH % p
    X3 = (r * r - HHH - 2 * V) % p
    Y3 = (r * (V - X3) - Y1 * HHH) % p
    Z3 = Z1 * H % p
    return X3, Y3, Z3


def _jadd(X1: int, Y1: int, Z1: int, X2: int, Y2: int, Z2: int, p: int) -> _Jacobian:
    """(X1:Y1:Z1) + (X2:Y2:Z2), EFD add-1998-cmo-2, with every exceptional case handled."""
    if not Z1:
        return X2, Y2, Z2
    if not Z2:
        return X1, Y1, Z1
    Z1Z1 = Z1 * Z1 % p
    Z2Z2 = Z2 * Z2 % p
    U1 = X1 * Z2Z2 % p
    S1 = Y1 * Z2 % p * Z2Z2 % p
    H = (X2 * Z1Z1 - U1) % p
    r = (Y2 * Z1 % p * Z1Z1 - S1) % p
    if not H:
        if not r:
            return _jdouble(X1, Y1, Z1, p)
        return 1, 1, 0
    HH = H * H % p
    HHH = H * HH % p
    V = U1 * HH % p
    X3 = (r * r - HHH - 2 * V) % p
    Y3 = (r * (V - X3) - S1 * HHH) % p
    Z3 = Z1 * Z2 % p * H % p
    return X3, Y3, Z3


def _to_affine(X: int, Y: int, Z: int, p: int) -> _Point:
    """Jacobian -> affine tuple (or None), one inversion."""
    if not Z:
        return None
    zi = pow(Z, -1, p)
    zi2 = zi * zi % p
    return X * zi2 % p, Y * zi2 % p * zi % p


def _batch_to_affine(points: list[_Jacobian], p: int) -> list[_Affine]:
    """Affine forms of Jacobian points (none at infinity) with one inversion (Montgomery's trick)."""
    prefix = []
    acc = 1
    for _, _, Z in points:
        prefix.append(acc)
        acc = acc * Z % p
    inv = pow(acc, -1, p)
    out: list[_Affine | None] = [None] * len(points)
    for i in range(len(points) - 1, -1, -1):
        X, Y, Z = points[i]
        zi = inv * prefix[i] % p  # 1/Z_i
        inv = inv * Z % p
        zi2 = zi * zi % p
        out[i] = (X * zi2 % p, Y * zi2 % p * zi % p)
    return cast("list[_Affine]", out)  # the loop filled every slot


def _wnaf(k: int, w: int) -> list[int]:
    """Width-w NAF of k >= 0, least significant digit first (Guide to ECC, Alg. 3.35).

    Every nonzero digit is odd with |d| < 2^(w-1); at most one of any w consecutive digits is
    nonzero; the length is at most bit_length(k) + 1.
    """
    digits: list[int] = []
    append = digits.append
    full = 1 << w
    half = full >> 1
    mask = full - 1
    while k:
        if k & 1:
            d = k & mask
            if d >= half:
                d -= full
            k -= d
            append(d)
        else:
            append(0)
        k >>= 1
    return digits


# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_scalar(v: object, what: str = "scalar") -> int:
    if not _is_int(v):
        raise TypeError(f"{what} must be an int, not {type(v).__name__}")
    return int(v)


def _check_bytes(v: object, what: str = "digest") -> bytes:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise TypeError(f"{what} must be bytes, not {type(v).__name__}")


def _check_curve(c: object) -> Curve:
    if not isinstance(c, Curve):
        raise TypeError(f"expected a reference Curve object, not {type(c).__name__}")
    return c


class Curve:
    """A NIST prime curve y^2 = x^3 - 3x + b over GF(p) with a group of prime order n."""

    __slots__ = (
        "name", "p", "n", "a", "b", "gx", "gy", "bit_size", "byte_len", "g",
        "_base_table", "_g_odd", "_mult_w",
    )

    def __init__(self, name: str, p: int, n: int, b: int, gx: int, gy: int) -> None:
        self.name = name
        self.p = p
        self.n = n
        self.a = p - 3
        self.b = b
        self.gx = gx
        self.gy = gy
        self.g = (gx, gy)
        self.bit_size = p.bit_length()
        self.byte_len = (self.bit_size + 7) // 8
        self._base_table: _Table | None = None
        self._g_odd: tuple[_Affine, ...] | None = None
        self._mult_w = 5 if self.bit_size <= 256 else 6

    def __repr__(self) -> str:
        return f"<reference curve {self.name}>"

    # -- validation ---------------------------------------------------------------------------

    def is_on_curve(self, x: int, y: int) -> bool:
        """True iff 0 <= x, y < p and y^2 == x^3 - 3x + b (mod p).  TypeError for non-ints."""
        if not (_is_int(x) and _is_int(y)):
            raise TypeError("coordinates must be ints")
        p = self.p
        if not (0 <= x < p and 0 <= y < p):
            return False
        return (y * y - (x * x * x - 3 * x + self.b)) % p == 0

    @overload
    def _point(self, P: object, allow_infinity: Literal[False]) -> _Affine: ...
    @overload
    def _point(self, P: object, allow_infinity: bool = True) -> _Point: ...

    def _point(self, P: object, allow_infinity: bool = True) -> _Point:
        """Validate P (None or an on-curve 2-tuple of ints) and return it as a plain tuple."""
        if P is None:
            if allow_infinity:
                return None
            raise ValueError(f"{self.name}: the point at infinity is not a valid public key")
        if not isinstance(P, tuple) or len(P) != 2:
            raise TypeError("a point must be None or an (x, y) tuple of ints")
        x, y = P
        if not (_is_int(x) and _is_int(y)):
            raise TypeError("point coordinates must be ints")
        x = int(x)
        y = int(y)
        if not self.is_on_curve(x, y):
            raise ValueError(f"point is not on {self.name}")
        return (x, y)

    def _scalar(self, k: object) -> int:
        k = _check_scalar(k)
        if k < 0:
            raise ValueError("scalar must be >= 0")
        return k % self.n

    # -- group law ------------------------------------------------------------------------------

    def add(self, p1: tuple[int, int] | None, p2: tuple[int, int] | None) -> tuple[int, int] | None:
        """p1 + p2 (affine tuples or None)."""
        p1 = self._point(p1)
        p2 = self._point(p2)
        if p1 is None:
            return p2
        if p2 is None:
            return p1
        p = self.p
        return _to_affine(*_jadd_affine(p1[0], p1[1], 1, p2[0], p2[1], p), p)

    def double(self, p1: tuple[int, int] | None) -> tuple[int, int] | None:
        """2 * p1."""
        p1 = self._point(p1)
        if p1 is None:
            return None
        p = self.p
        return _to_affine(*_jdouble(p1[0], p1[1], 1, p), p)

    def scalar_mult(self, p1: tuple[int, int] | None, k: int) -> tuple[int, int] | None:
        """k * p1 for any int k >= 0 (reduced mod n); None when the result is infinity."""
        p1 = self._point(p1)
        k = self._scalar(k)
        if p1 is None or not k:
            return None
        return _to_affine(*self._mult_jac(p1, k), self.p)

    def scalar_base_mult(self, k: int) -> tuple[int, int] | None:
        """k * G for any int k >= 0 (reduced mod n); None when k = 0 mod n."""
        k = self._scalar(k)
        if not k:
            return None
        return _to_affine(*self._base_mult_jac(k), self.p)

    # -- internals --------------------------------------------------------------------------------

    def _mult_jac(self, P: _Affine, k: int) -> _Jacobian:
        """k * P in Jacobian coordinates, P affine on the curve, 0 < k (wNAF, Jacobian table)."""
        p = self.p
        w = self._mult_w
        x, y = P
        # Odd multiples P, 3P, 5P, ..., (2^(w-1) - 1)P.
        twoP = _jdouble(x, y, 1, p)
        tab = [(x, y, 1)]
        for _ in range((1 << (w - 2)) - 1):
            tab.append(_jadd(*tab[-1], *twoP, p))
        digits = _wnaf(k, w)
        X, Y, Z = 1, 1, 0
        for i in range(len(digits) - 1, -1, -1):
            if Z:
                X, Y, Z = _jdouble(X, Y, Z, p)
            d = digits[i]
            if d:
                if d > 0:
                    X2, Y2, Z2 = tab[d >> 1]
                else:
                    X2, Y2, Z2 = tab[(-d) >> 1]
                    Y2 = p - Y2
                X, Y, Z = _jadd(X, Y, Z, X2, Y2, Z2, p)
        return X, Y, Z

    def _table(self) -> _Table:
        """Fixed-base table: tab[j][i - 1] = i * 2^(BASE_W * j) * G (affine), 1 <= i <= 2^(BASE_W-1).

        Built once per curve on first use.  Concurrent first calls may both build it; the result
        is identical and the assignment is atomic.
        """
        tab = self._base_table
        if tab is not None:
            return tab
        p = self.p
        half = 1 << (BASE_W - 1)
        # Enough windows for any k < 2^bit_size including the final carry of the signed recoding.
        windows = (self.n.bit_length() + BASE_W) // BASE_W
        bx, by = self.gx, self.gy
        rows: list[tuple[_Affine, ...]] = []
        for _ in range(windows):
            pts = [(bx, by, 1)]
            acc = (bx, by, 1)
            for _ in range(half - 1):
                acc = _jadd_affine(*acc, bx, by, p)
                pts.append(acc)
            # Next window's base: 2^BASE_W * B = 2 * (half * B); normalised in the same batch.
            pts.append(_jdouble(*acc, p))
            aff = _batch_to_affine(pts, p)
            bx, by = aff.pop()
            rows.append(tuple(aff))
        self._base_table = tab = tuple(rows)
        return tab

    def _base_mult_jac(self, k: int) -> _Jacobian:
        """k * G in Jacobian coordinates for 0 <= k < n: signed base-2^BASE_W digits, no doubling."""
        tab = self._base_table or self._table()
        p = self.p
        full = 1 << BASE_W
        half = full >> 1
        mask = full - 1
        X, Y, Z = 1, 1, 0
        j = 0
        while k:
            d = k & mask
            k >>= BASE_W
            if d > half:
                d -= full
                k += 1
                x2, y2 = tab[j][-d - 1]
                y2 = p - y2
            elif d:
                x2, y2 = tab[j][d - 1]
            else:
                j += 1
                continue
            X, Y, Z = _jadd_affine(X, Y, Z, x2, y2, p)
            j += 1
        return X, Y, Z

    def _g_odd_multiples(self) -> tuple[_Affine, ...]:
        """Affine odd multiples G, 3G, ..., (2^(VERIFY_G_W-1) - 1)G, taken from base-table window 0."""
        g_odd = self._g_odd
        if g_odd is None:
            w0 = self._table()[0]
            g_odd = self._g_odd = tuple(w0[i] for i in range(0, 1 << (VERIFY_G_W - 1), 2))
        return g_odd

    def _mult_add_base_jac(self, u1: int, Q: _Affine, u2: int) -> _Jacobian:
        """u1*G + u2*Q (Jacobian) by interleaved wNAF (Straus-Shamir), shared doublings."""
        p = self.p
        gtab = self._g_odd_multiples()
        w = self._mult_w
        x, y = Q
        twoQ = _jdouble(x, y, 1, p)
        qtab = [(x, y, 1)]
        for _ in range((1 << (w - 2)) - 1):
            qtab.append(_jadd(*qtab[-1], *twoQ, p))
        n1 = _wnaf(u1, VERIFY_G_W)
        n2 = _wnaf(u2, w)
        L = max(len(n1), len(n2))
        n1 += [0] * (L - len(n1))
        n2 += [0] * (L - len(n2))
        X, Y, Z = 1, 1, 0
        for i in range(L - 1, -1, -1):
            if Z:
                X, Y, Z = _jdouble(X, Y, Z, p)
            d = n1[i]
            if d:
                if d > 0:
                    x2, y2 = gtab[d >> 1]
                else:
                    x2, y2 = gtab[(-d) >> 1]
                    y2 = p - y2
                X, Y, Z = _jadd_affine(X, Y, Z, x2, y2, p)
            d = n2[i]
            if d:
                if d > 0:
                    X2, Y2, Z2 = qtab[d >> 1]
                else:
                    X2, Y2, Z2 = qtab[(-d) >> 1]
                    Y2 = p - Y2
                X, Y, Z = _jadd(X, Y, Z, X2, Y2, Z2, p)
        return X, Y, Z


# ---------------------------------------------------------------------------------------------
# Domain parameters: FIPS 186-5 / SP 800-186 section 3.2.1 (also SEC 2 v2, secp{224,256,384,521}r1).
# ---------------------------------------------------------------------------------------------

P224 = Curve(
    "P-224",
    p=2**224 - 2**96 + 1,
    n=0xFFFFFFFFFFFFFFFFFFFFFFFFFFFF16A2E0B8F03E13DD29455C5C2A3D,
    b=0xB4050A850C04B3ABF54132565044B0B7D7BFD8BA270B39432355FFB4,
    gx=0xB70E0CBD6BB4BF7F321390B94A03C1D356C21122343280D6115C1D21,
    gy=0xBD376388B5F723FB4C22DFE6CD4375A05A07476444D5819985007E34,
)

P256 = Curve(
    "P-256",
    p=2**256 - 2**224 + 2**192 + 2**96 - 1,
    n=0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    b=0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
    gx=0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    gy=0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)

P384 = Curve(
    "P-384",
    p=2**384 - 2**128 - 2**96 + 2**32 - 1,
    n=0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
    b=0xB3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF,
    gx=0xAA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7,
    gy=0x3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F,
)

P521 = Curve(
    "P-521",
    p=2**521 - 1,
    n=0x01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFA51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409,
    b=0x0051953EB9618E1C9A1F929A21A0B68540EEA2DA725B99B315F3B8B489918EF109E156193951EC7E937B1652C0BD3BB1BF073573DF883D2C34F1EF451FD46B503F00,
    gx=0x00C6858E06B70404E9CD9E3ECB662395B4429C648139053FB521F828AF606B4D3DBAA14B5E77EFE75928FE1DC127A2FFA8DE3348B3C1856A429BF97E7E31C2E5BD66,
    gy=0x011839296A789A3BC0045C8A5FB42C7D1BD998F54449579B446817AFBD17273E662C97EE72995EF42640C550B9013FAD0761353C7086A272C24088BE94769FD16650,
)

CURVES = (P224, P256, P384, P521)

_BY_NAME: dict[str, Curve] = {}
for _c, _aliases in zip(CURVES, (("secp224r1",), ("secp256r1", "prime256v1"), ("secp384r1",), ("secp521r1",))):
    for _alias in (_c.name, _c.name.replace("-", "")) + _aliases:
        _BY_NAME[_alias.lower()] = _c
del _c, _aliases, _alias


def curve_by_name(name: str) -> Curve:
    """Curve for "P-256", "P256", "secp256r1", "prime256v1" (case-insensitive), etc.; KeyError otherwise."""
    return _BY_NAME[name.lower()]


# ---------------------------------------------------------------------------------------------
# ECDSA (FIPS 186-5 section 6.4) and RFC 6979 deterministic nonces
# ---------------------------------------------------------------------------------------------

# RFC 6979 HMAC hash for ecdsa_sign(k=None), chosen by digest length.
_HASH_BY_DIGEST_LEN = {28: "sha224", 32: "sha256", 48: "sha384", 64: "sha512"}
_RFC6979_HASHES = ("sha1", "sha224", "sha256", "sha384", "sha512")


def bits2int(data: bytes | bytearray | memoryview, qlen: int) -> int:
    """The leftmost qlen bits of data as a big-endian integer (RFC 6979 2.3.2, FIPS 186-5 6.4.1)."""
    v = int.from_bytes(data, "big")
    blen = len(data) * 8
    if blen > qlen:
        v >>= blen - qlen
    return v


def _rfc6979_nonces(c: Curve, d: int, digest: bytes, hash_name: str) -> Iterator[int]:
    """Successive RFC 6979 (section 3.2) candidates k in [1, n-1] for key d and digest h1."""
    n = c.n
    qlen = n.bit_length()
    rlen = (qlen + 7) // 8
    hash_fn = getattr(hashlib, hash_name)
    hlen = hash_fn().digest_size

    def mac(key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, hash_fn).digest()

    x = d.to_bytes(rlen, "big")  # int2octets(x)
    h = (bits2int(digest, qlen) % n).to_bytes(rlen, "big")  # bits2octets(h1)
    V = b"\x01" * hlen  # step b
    K = b"\x00" * hlen  # step c
    K = mac(K, V + b"\x00" + x + h)  # step d
    V = mac(K, V)  # step e
    K = mac(K, V + b"\x01" + x + h)  # step f
    V = mac(K, V)  # step g
    while True:  # step h
        T = b""
        while len(T) * 8 < qlen:
            V = mac(K, V)
            T += V
        k = bits2int(T, qlen)
        if 1 <= k < n:
            yield k
        K = mac(K, V + b"\x00")
        V = mac(K, V)


def rfc6979_nonce(c: Curve, d: int, digest: bytes | bytearray | memoryview, hash_name: str) -> int:
    """The first RFC 6979 nonce for private key d and message digest h1 = digest.

    hash_name is the HMAC hash: "sha1", "sha224", "sha256", "sha384" or "sha512" (ValueError
    otherwise).  The digest is used as given (RFC 6979 bits2octets truncates and reduces it).
    """
    c = _check_curve(c)
    d = _check_scalar(d, "private key")
    digest = _check_bytes(digest)
    if not isinstance(hash_name, str):
        raise TypeError("hash_name must be a str")
    if hash_name not in _RFC6979_HASHES:
        raise ValueError(f"unsupported RFC 6979 hash {hash_name!r}")
    if not 1 <= d < c.n:
        raise ValueError("private key must satisfy 1 <= d < n")
    return next(_rfc6979_nonces(c, d, digest, hash_name))


def _sign_with(c: Curve, d: int, e: int, k: int) -> tuple[int, int] | None:
    """(r, s) for nonce k, or None when r or s is zero."""
    n = c.n
    R = _to_affine(*c._base_mult_jac(k), c.p)
    assert R is not None  # 1 <= k < n: k*G is never the point at infinity
    r = R[0] % n
    if not r:
        return None
    s = pow(k, -1, n) * (e + r * d) % n
    if not s:
        return None
    return r, s


def ecdsa_sign(
    c: Curve, d: int, digest: bytes | bytearray | memoryview, k: int | None = None
) -> tuple[int, int]:
    """ECDSA signature (r, s) of a message digest with private key d (1 <= d < n).

    k=None: RFC 6979 nonce with HMAC-sha224/256/384/512 for a 28/32/48/64-byte digest
    (ValueError for any other digest length).  Explicit k: 1 <= k < n, and ValueError if it
    yields r == 0 or s == 0.
    """
    c = _check_curve(c)
    d = _check_scalar(d, "private key")
    digest = _check_bytes(digest)
    n = c.n
    if not 1 <= d < n:
        raise ValueError("private key must satisfy 1 <= d < n")
    e = bits2int(digest, n.bit_length())
    if k is not None:
        k = _check_scalar(k, "nonce")
        if not 1 <= k < n:
            raise ValueError("nonce must satisfy 1 <= k < n")
        rs = _sign_with(c, d, e, k)
        if rs is None:
            raise ValueError("this nonce gives r == 0 or s == 0; choose another")
        return rs
    hash_name = _HASH_BY_DIGEST_LEN.get(len(digest))
    if hash_name is None:
        raise ValueError(
            f"no RFC 6979 hash for a {len(digest)}-byte digest (28, 32, 48 or 64); pass k explicitly"
        )
    for kk in _rfc6979_nonces(c, d, digest, hash_name):
        rs = _sign_with(c, d, e, kk)
        if rs is not None:
            return rs
    raise AssertionError("unreachable: the RFC 6979 candidates never run out")


def ecdsa_verify(
    c: Curve, q: tuple[int, int], digest: bytes | bytearray | memoryview, r: int, s: int
) -> bool:
    """True iff (r, s) is a valid signature of digest under public key q.

    False for r or s outside [1, n-1]; ValueError if q is None or not on the curve, TypeError
    for arguments of the wrong type.
    """
    c = _check_curve(c)
    q = c._point(q, allow_infinity=False)
    digest = _check_bytes(digest)
    r = _check_scalar(r, "r")
    s = _check_scalar(s, "s")
    n = c.n
    if not (1 <= r < n and 1 <= s < n):
        return False
    e = bits2int(digest, n.bit_length())
    w = pow(s, -1, n)
    u1 = e * w % n
    u2 = r * w % n
    R = _to_affine(*c._mult_add_base_jac(u1, q, u2), c.p)
    if R is None:
        return False
    return R[0] % n == r


def ecdh(c: Curve, d: int, q: tuple[int, int]) -> bytes:
    """SEC 1 / NIST SP 800-56A ECDH: the x-coordinate of d*Q, big-endian, c.byte_len bytes.

    1 <= d < n (ValueError otherwise); Q must be a valid point (ValueError for None or off-curve).
    """
    c = _check_curve(c)
    d = _check_scalar(d, "private key")
    q = c._point(q, allow_infinity=False)
    if not 1 <= d < c.n:
        raise ValueError("private key must satisfy 1 <= d < n")
    R = _to_affine(*c._mult_jac(q, d), c.p)
    if R is None:
        raise ValueError("shared point is the point at infinity")
    return R[0].to_bytes(c.byte_len, "big")


# ---------------------------------------------------------------------------------------------
# Hashing to P-256: RFC 9380, suites P256_XMD:SHA-256_SSWU_RO_ and P256_XMD:SHA-256_SSWU_NU_.
# Variable time like the rest of this module (Python ints, branches where the RFC has CMOV):
# an oracle for the native map, not for secret inputs.
# ---------------------------------------------------------------------------------------------

# The simplified SWU constant of the P-256 suites (RFC 9380 8.2): Z = -10.
H2C_Z = P256.p - 10
# Bytes per field element in hash_to_field: L = ceil((ceil(log2(p)) + k) / 8), k = 128 (5).
H2C_L = 48
_H2C_OVERSIZE_PREFIX = b"H2C-OVERSIZE-DST-"
_SQRT_MINUS_Z = pow(10, (P256.p + 1) // 4, P256.p)  # c2 of sqrt_ratio_3mod4: sqrt(-Z)
assert _SQRT_MINUS_Z * _SQRT_MINUS_Z % P256.p == 10


def expand_message_xmd(
    msg: bytes | bytearray | memoryview, dst: bytes | bytearray | memoryview, len_in_bytes: int
) -> bytes:
    """RFC 9380 5.3.1 expand_message_xmd with SHA-256: len_in_bytes uniform bytes.

    dst must not be empty (3.1: tags have nonzero length); one longer than 255 bytes is
    first replaced by SHA-256("H2C-OVERSIZE-DST-" || dst) (5.3.3). 1 <= len_in_bytes and
    ell = ceil(len_in_bytes / 32) <= 255, so at most 8160 bytes. ValueError otherwise.
    """
    msg = _check_bytes(msg, "msg")
    dst = _check_bytes(dst, "dst")
    n = _check_scalar(len_in_bytes, "len_in_bytes")
    if not dst:
        raise ValueError("dst must not be empty (RFC 9380 3.1)")
    if len(dst) > 255:
        dst = hashlib.sha256(_H2C_OVERSIZE_PREFIX + dst).digest()
    ell = -(-n // 32)
    if n < 1 or ell > 255:
        raise ValueError("len_in_bytes must be 1 to 8160 (ell = ceil(len / 32) <= 255), not %d" % n)
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha256(bytes(64) + msg + n.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
    blocks = [hashlib.sha256(b0 + b"\x01" + dst_prime).digest()]
    for i in range(2, ell + 1):
        mixed = bytes(a ^ b for a, b in zip(b0, blocks[-1]))
        blocks.append(hashlib.sha256(mixed + bytes([i]) + dst_prime).digest())
    return b"".join(blocks)[:n]


def hash_to_field(
    msg: bytes | bytearray | memoryview, dst: bytes | bytearray | memoryview, count: int,
    modulus: int = P256.p,
) -> list[int]:
    """RFC 9380 5.2 hash_to_field for a prime field (m = 1) of a 256-bit modulus: count
    elements, each OS2IP of L = 48 bytes of expand_message_xmd, reduced mod modulus.

    modulus is P-256's p (the map's input) or n (RFC 9497's HashToScalar); ValueError for
    any other, and for count < 1.
    """
    count = _check_scalar(count, "count")
    modulus = _check_scalar(modulus, "modulus")
    if modulus not in (P256.p, P256.n):
        raise ValueError("modulus must be P-256's p or n")
    if count < 1:
        raise ValueError("count must be at least 1")
    uniform = expand_message_xmd(msg, dst, count * H2C_L)
    return [int.from_bytes(uniform[i * H2C_L:(i + 1) * H2C_L], "big") % modulus for i in range(count)]


def sqrt_ratio(u: int, v: int) -> tuple[bool, int]:
    """RFC 9380 F.2.1.2 sqrt_ratio_3mod4 over P-256's field, Z = -10: (True, sqrt(u/v)) if
    u/v is a square, else (False, sqrt(Z * u/v)). 0 <= u, v < p and v != 0 (ValueError)."""
    p = P256.p
    u = _check_scalar(u, "u")
    v = _check_scalar(v, "v")
    if not (0 <= u < p and 0 < v < p):
        raise ValueError("sqrt_ratio needs 0 <= u < p and 0 < v < p")
    tv1 = v * v % p
    tv2 = u * v % p
    tv1 = tv1 * tv2 % p
    y1 = pow(tv1, (p - 3) // 4, p) * tv2 % p
    y2 = y1 * _SQRT_MINUS_Z % p
    is_qr = y1 * y1 % p * v % p == u
    return is_qr, (y1 if is_qr else y2)


def map_to_curve_simple_swu(u: int) -> tuple[int, int]:
    """RFC 9380 6.6.2 simplified SWU for P-256 (A = -3, B = b, Z = -10), in the
    straight-line form of F.2: the field element u (0 <= u < p) to a point of the curve,
    never the point at infinity."""
    c = P256
    p, b = c.p, c.b
    u = _check_scalar(u, "u")
    if not 0 <= u < p:
        raise ValueError("u must satisfy 0 <= u < p")
    a = p - 3
    tv1 = H2C_Z * (u * u % p) % p            # Z * u^2
    tv2 = (tv1 * tv1 + tv1) % p               # Z^2 u^4 + Z u^2
    tv3 = b * (tv2 + 1) % p                   # B * (tv2 + 1)
    tv4 = a * (H2C_Z if tv2 == 0 else p - tv2) % p
    tv6 = tv4 * tv4 % p
    gx_num = (tv3 * tv3 % p + a * tv6) % p * tv3 % p
    tv6 = tv6 * tv4 % p
    gx_num = (gx_num + b * tv6) % p           # gx1 = gx_num / tv6, x1 = tv3 / tv4
    is_square, y1 = sqrt_ratio(gx_num, tv6)
    if is_square:
        x_num, y = tv3, y1
    else:                                     # x2 = Z u^2 x1, y2 = Z^(3/2) u^3 y1'
        x_num, y = tv1 * tv3 % p, tv1 * u % p * y1 % p
    if (u & 1) != (y & 1):                    # sgn0(y) = sgn0(u)
        y = (p - y) % p
    x = x_num * pow(tv4, -1, p) % p
    return x, y


def encode_to_curve(msg: bytes | bytearray | memoryview, dst: bytes | bytearray | memoryview) -> tuple[int, int]:
    """RFC 9380 3 encode_to_curve, suite P256_XMD:SHA-256_SSWU_NU_ (cofactor 1: no clearing)."""
    (u,) = hash_to_field(msg, dst, 1)
    return map_to_curve_simple_swu(u)


def hash_to_curve(
    msg: bytes | bytearray | memoryview, dst: bytes | bytearray | memoryview
) -> tuple[int, int] | None:
    """RFC 9380 3 hash_to_curve, suite P256_XMD:SHA-256_SSWU_RO_: the sum of the maps of two
    field elements; None if that sum is the point at infinity (probability about 2^-256)."""
    u0, u1 = hash_to_field(msg, dst, 2)
    return P256.add(map_to_curve_simple_swu(u0), map_to_curve_simple_swu(u1))


def hash_to_scalar(msg: bytes | bytearray | memoryview, dst: bytes | bytearray | memoryview) -> int:
    """hash_to_field with modulus n, one element (L = 48): RFC 9497's HashToScalar for
    P-256 (4.3), 0 <= result < n."""
    return hash_to_field(msg, dst, 1, P256.n)[0]


def __dir__() -> list[str]:
    """What dir() shows of this module: its public names (PEP 562), not its imports."""
    return sorted(__all__)
