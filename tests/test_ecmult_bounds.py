# SPDX-License-Identifier: Apache-2.0
"""The argument in csrc/ecmult_gen_impl.h and ecmult_const_impl.h that the constant-time ladders may use the incomplete
mixed addition (wrong only for acc == +-addend, both finite), checked by exhaustion over
every window and digit with the window sizes the C uses (read from its headers): the
comb of G, the same comb over every per-key table width (ECDH with a precomputed peer,
csrc/ecmult_pubtable.h) and the windowed ladder.

Integers only: acc and the addend are known multiples (of G or of the ECDH point P) at
each step, so "acc == +-T" is "their multiples agree mod n". For each step the set of
multiples acc can hold is an interval (or, for the top-down ladder, the multiples of 32
in one), and each digit is tried against every multiple of n that could close the gap.
The same check over unreduced scalars (k < 2^256) must find the meetings the comment
names (k = n, where acc == -T, and k = n + 30 for the ladder, where acc == T): a checker that
finds nothing anywhere would prove nothing.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def _define(path, name):
    text = (ROOT / path).read_text()
    return int(re.search(r"^#define %s (\d+)" % name, text, re.M).group(1))


def _multiples_of_n(lo, hi):
    """Every m*n in [lo, hi]."""
    m = -(-lo // N)
    while m * N <= hi:
        yield m * N
        m += 1


def booth_digit(k, i, bits):
    w = ((k << 1) >> (bits * i)) & ((1 << (bits + 1)) - 1)
    return (w >> 1) + (w & 1) - ((w >> bits) << bits)


def comb_meetings(bits, windows, bound):
    """Scalars k < bound (or, below the top window, windows and digits) where the bottom-up
    comb's addition of window i meets acc == +-T: acc = S G, T = d 2^(bits i) G."""
    found = []
    for i in range(1, windows):
        # S = (k mod 2^(bits i)) - 2^(bits i) k_(bits i - 1): any value in [-h, h)
        h = 1 << (bits * i - 1)
        top = i == windows - 1
        dmax = 1 << (bits - 1)
        if top:
            dmax = booth_digit(bound - 1, i, bits)  # the top digit grows with k, >= 0
        for d in range(-dmax, dmax + 1):
            if d == 0:
                continue  # masked
            t = d << (bits * i)
            for sign in (1, -1):
                # S == sign*T mod n with S in [-h, h) and S != 0 (S = 0 is masked)
                for m in _multiples_of_n(-h - sign * t, h - 1 - sign * t):
                    s = sign * t + m
                    if s == 0:
                        continue
                    if not top:
                        found.append((i, d, sign))
                    elif 0 <= s + t < bound and booth_digit(s + t, i, bits) == d:
                        found.append((s + t, i, d, sign))
    return found


def ladder_meetings(bits, windows, bound):
    """The same for the top-down fixed-window ladder: before window i's addition acc =
    A P, A = 2^bits (floor(k / 2^(bits(i+1))) + k_(bits(i+1)-1)); T = d P."""
    found = []
    for i in range(windows - 1):
        amax = (((bound - 1) >> (bits * (i + 1))) + 1) << bits
        half = 1 << (bits - 1)
        for d in range(-half, half + 1):
            if d == 0:
                continue
            for sign in (1, -1):
                # A == sign*d mod n, 0 < A <= amax, A a multiple of 2^bits
                for m in _multiples_of_n(1 - sign * d, amax - sign * d):
                    a = sign * d + m
                    if a % (1 << bits):
                        continue
                    if i > 0:
                        found.append((i, d, sign))
                        continue
                    k = a + d  # window 0: k = A + d_0 exactly
                    if 0 <= k < bound and booth_digit(k, 0, bits) == d:
                        found.append((k, i, d, sign))
    return found


def comb_params():
    bits = _define("csrc/precomputed.h", "P256_COMB_BITS")
    return bits, _define("csrc/precomputed.h", "P256_COMB_WINDOWS")


def pubtable_params():
    """(bits, rows) of every per-key table width: rows = ceil(257 / bits), as the C builds."""
    path = "csrc/ecmult_pubtable.h"
    lo, hi = _define(path, "P256_PUBTABLE_MIN_BITS"), _define(path, "P256_PUBTABLE_MAX_BITS")
    text = (ROOT / "csrc/ecmult_pubtable_impl.h").read_text()
    assert "return (257 + bits - 1) / bits;" in text  # the rows this module assumes
    return [(bits, -(-257 // bits)) for bits in range(lo, hi + 1)]


def ladder_params():
    bits = _define("csrc/ecmult_const_impl.h", "P256_CONST_BITS")
    return bits, -(-256 // bits)


def test_booth_digits_telescope():
    for bits, windows in (comb_params(), ladder_params(), *pubtable_params()):
        for k in (0, 1, N - 1, N // 3, 2**255, (1 << 256) - 1):
            assert sum(booth_digit(k, i, bits) << (bits * i) for i in range(windows)) == k


def test_comb_never_meets_for_reduced_scalars():
    assert comb_meetings(*comb_params(), N) == []


def test_pubtable_combs_never_meet_for_reduced_scalars():
    for bits, rows in pubtable_params():
        assert bits * (rows - 1) < 257 <= bits * rows
        assert comb_meetings(bits, rows, N) == [], bits


def test_ladder_never_meets_for_reduced_scalars():
    assert ladder_meetings(*ladder_params(), N) == []


def test_checker_finds_the_out_of_contract_meetings():
    # negative control: k = n (acc == -T at the last addition of either), k = n + 30
    # (acc == T at the ladder's last addition: a doubling).
    assert comb_meetings(*comb_params(), 1 << 256) == [(N, comb_params()[1] - 1, 16, -1)]
    assert ladder_meetings(*ladder_params(), 1 << 256) == [(N, 0, -15, -1), (N + 30, 0, 15, 1)]
    # every table width meets at k = n too, at its top digit (k_255 for the widths whose
    # top window starts at bit 256)
    for bits, rows in pubtable_params():
        top = booth_digit(N, rows - 1, bits)
        assert comb_meetings(bits, rows, 1 << 256) == [(N, rows - 1, top, -1)], bits
