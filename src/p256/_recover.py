# SPDX-License-Identifier: Apache-2.0
"""Public-key recovery from an ECDSA signature (SEC 1 v2, 4.1.6) and the recovery id of
a signature just made.

Everything here is public data (signature, digest, public key), so it is variable time:
the scalar multiplications are the native core's, the one point addition each needs is
affine arithmetic on Python ints. The recovery id is SEC 1's: bit 0 is the parity of
R.y, bit 1 says R.x = r + n (possible for P-256 only when r + n < p, about once in
2^128 signatures). PublicKey.recover and recover_candidates check every key found here
with verify_digest before returning it."""

from __future__ import annotations

from typing import List, Optional, Tuple

from . import _core
from ._common import N, P

Point = Optional[Tuple[int, int]]  # affine (x, y); None is the point at infinity


def digest_scalar(digest: bytes) -> int:
    """e = bits2int(digest) mod n, as the core computes it (its leftmost 256 bits)."""
    return int.from_bytes(digest[:32], "big") % N


def _affine(sec1: bytes) -> Tuple[int, int]:
    return int.from_bytes(sec1[1:33], "big"), int.from_bytes(sec1[33:], "big")


def _sec1(q: Tuple[int, int]) -> bytes:
    return b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")


def _add_vartime(a: Point, b: Point) -> Point:
    """a + b on y^2 = x^3 - 3x + b, affine; None is infinity."""
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        lam = (3 * x1 * x1 - 3) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return x3, (lam * (x1 - x3) - y1) % P


def _base_mult_vartime(k: int) -> Point:
    """k*G for k in [0, n-1] (None for 0, which the core refuses as infinity)."""
    return _affine(_core.scalar_base_mult(k.to_bytes(32, "big"))) if k else None


def _lift_x_vartime(x: int, odd: int) -> Optional[bytes]:
    """The SEC1 point with this x and y parity, or None if x is no point's coordinate."""
    try:
        return _core.point_decode(bytes((2 + odd,)) + x.to_bytes(32, "big"))
    except ValueError:
        return None


def _candidate_vartime(r: int, s: int, u1g: Point, recovery_id: int) -> Tuple[Optional[bytes], str]:
    """Q = r^-1 (s*R - e*G) = (s/r)*R + u1g for the R that recovery_id names (u1g is
    (-e/r)*G), or (None, why there is none)."""
    x = r + N if recovery_id & 2 else r
    if x >= P:
        return None, "recovery id %d needs R.x = r + n < p, and r + n >= p here" % recovery_id
    rpoint = _lift_x_vartime(x, recovery_id & 1)
    if rpoint is None:
        return None, "no curve point has x = %s" % ("r + n" if recovery_id & 2 else "r")
    u2 = s * pow(r, -1, N) % N  # nonzero: s and r are in [1, n-1]
    q = _add_vartime(_affine(_core.scalar_mult(u2.to_bytes(32, "big"), rpoint)), u1g)
    if q is None:
        return None, "recovery id %d gives the point at infinity" % recovery_id
    return _sec1(q), ""


def _u1g_vartime(r: int, digest: bytes) -> Point:
    return _base_mult_vartime(-digest_scalar(digest) * pow(r, -1, N) % N)


def candidate_vartime(r: int, s: int, digest: bytes, recovery_id: int) -> bytes:
    """The key that recovery_id names, as 65-byte SEC1 (not yet checked by verify).

    Raises:
        ValueError: That recovery id names no point (the message says why).
    """
    q, why = _candidate_vartime(r, s, _u1g_vartime(r, digest), recovery_id)
    if q is None:
        raise ValueError("no public key for this signature and digest: " + why)
    return q


def candidates_vartime(r: int, s: int, digest: bytes) -> List[Tuple[int, bytes]]:
    """(recovery id, 65-byte SEC1 key) for every id 0..3 that names a point."""
    u1g = _u1g_vartime(r, digest)
    found = []
    for recovery_id in range(4):
        q = _candidate_vartime(r, s, u1g, recovery_id)[0]
        if q is not None:
            found.append((recovery_id, q))
    return found


def recovery_id_vartime(q: bytes, r: int, s: int, digest: bytes) -> int:
    """The recovery id of a valid signature (r, s) of digest under the key q (SEC1): that
    of R = (e/s)*G + (r/s)*Q, the nonce point the signer used."""
    w = pow(s, -1, N)
    big_r = _add_vartime(_affine(_core.scalar_mult((r * w % N).to_bytes(32, "big"), q)),
                         _base_mult_vartime(digest_scalar(digest) * w % N))
    if big_r is None or big_r[0] % N != r:
        raise RuntimeError("internal error: the signature just made does not verify")
    return (big_r[1] & 1) | (2 if big_r[0] >= N else 0)
