# SPDX-License-Identifier: Apache-2.0
"""Edge-case scalar sweeps (Go nistec style) through scalar_base_mult and scalar_mult,
against the reference; and points meeting themselves inside the multiplications."""

import pytest

import p256
from p256 import reference as ref

C = ref.P256
N = C.n


def enc(pt):
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def edge_scalars():
    ks = {0, 1, 2, 3, N - 1, N - 2, N, N + 1, N + 2, 2**256 - 1, 2**255, 2**255 - 1}
    ks.update(2**i for i in range(256))
    ks.update(2**i - 1 for i in range(1, 257))
    ks.update(N + d for d in range(-32, 33) if N + d < 2**256)
    # Window-boundary patterns for the 7-bit comb and the 5-bit signed windows: runs of
    # digits at the Booth extremes (+-64, +-16) and all-ones windows.
    for w in (5, 7):
        ks.add(sum((2 ** (w - 1)) << (w * i) for i in range(256 // w)))
        ks.add(sum((2**w - 1) << (2 * w * i) for i in range(256 // (2 * w))))
    return sorted(k for k in ks if k < 2**256)


EDGE = edge_scalars()
POINTS = [C.scalar_base_mult(1), C.scalar_base_mult(2), C.scalar_base_mult(N - 1),
          C.scalar_base_mult(0xDEADBEEF)]


@pytest.mark.parametrize("k", EDGE, ids=hex)
def test_scalar_base_mult_edges(k):
    kb = k.to_bytes(32, "big")
    if k % N == 0:
        with pytest.raises(ValueError, match="infinity"):
            p256.scalar_base_mult(kb)
    else:
        assert p256.scalar_base_mult(kb) == enc(C.scalar_base_mult(k))


@pytest.mark.parametrize("k", EDGE, ids=hex)
def test_scalar_mult_edges(k):
    kb = k.to_bytes(32, "big")
    for q in POINTS:
        if k % N == 0:
            with pytest.raises(ValueError, match="infinity"):
                p256.scalar_mult(kb, enc(q))
        else:
            assert p256.scalar_mult(kb, enc(q)) == enc(C.scalar_mult(q, k))


@pytest.mark.parametrize("d", [1, 2, 3, N - 1, N - 2, N - 3, 2**128, N // 2, N // 2 + 1])
def test_ecdh_when_partial_sums_meet(d):
    """Q = c*G with c chosen so that d*Q's window partial sums and table entries are
    equal or opposite points (P + P and P + (-P) inside the loop)."""
    sk = p256.PrivateKey.from_int(d)
    for c in (1, 2, N - 1, N - 2, pow(d, -1, N), (2 * pow(d, -1, N)) % N, (N - pow(d, -1, N))):
        q = C.scalar_base_mult(c)
        expect = C.scalar_mult(q, d)
        assert sk.exchange(p256.PublicKey.from_bytes(enc(q))) == expect[0].to_bytes(32, "big")


def test_verify_with_u1_u2_collisions():
    """u1*G + u2*Q where u1*G = u2*Q (doubling inside the sum) and u1*G = -u2*Q (infinity)."""
    d = 0x1234567
    sk = p256.PrivateKey.from_int(d)
    pk = sk.public_key
    q = C.scalar_base_mult(d)
    # s chosen freely; r = x(R) with R = u1 G + u2 Q; take u2 = u1/d so both halves are equal.
    for u1 in (1, 5, N - 5, 2**200 + 7):
        for sign in (1, -1):
            u2 = (sign * u1 * pow(d, -1, N)) % N
            R = C.add(C.scalar_base_mult(u1), C.scalar_mult(q, u2))
            if R is None:
                # infinity: any (r, s) consistent with these u's must be rejected
                s = 7
                r = u2 * s % N
                e = u1 * s % N
                sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
                assert not pk.verify_digest(sig, e.to_bytes(32, "big"), encoding="raw")
                continue
            r = R[0] % N
            s = r * pow(u2, -1, N) % N
            e = u1 * s % N
            sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
            assert pk.verify_digest(sig, e.to_bytes(32, "big"), encoding="raw")
