#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print the constants of csrc/modinv_impl.h: the P-256 field prime p and group
order n in the signed-62 representation used by the safegcd inversion, and
m^-1 mod 2^62 for each.

Usage: python3 tools/modinv_constants.py

A number x is written as five limbs v[0..4] with x = sum(v[i] * 2^(62*i)); the
constants use the canonical form: v[0..3] in [0, 2^62), v[4] = x >> 248 (for
2^255 < m < 2^256 that is in [128, 256)).  tests/c/test_modinv.c recomputes all
of this from the 4x64-bit form and compares, and this script checks itself.
"""

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
M62 = 2**62 - 1


def signed62(x):
    limbs = [(x >> (62 * i)) & M62 for i in range(4)] + [x >> 248]
    assert sum(l << (62 * i) for i, l in enumerate(limbs)) == x
    return limbs


def limbs64(x):
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(4)]


def emit(cname, name, m):
    assert m & 1 and 2**255 < m < 2**256
    inv = pow(m, -1, 2**62)
    assert (m * inv) % 2**62 == 1
    v = signed62(m)
    print(f"/* {name} = 0x{m:064x}")
    print(f" *   4x64 limbs: {{ {', '.join('0x%016x' % w for w in limbs64(m))} }} */")
    print(f"static const p256_modinv_modulus {cname} = {{")
    print("    {{" + ", ".join("0x%016xLL" % w for w in v[:4]) + ", " + str(v[4]) + "}},")
    print(f"    0x{inv:016x}ULL /* {name}^-1 mod 2^62 */")
    print("};")


if __name__ == "__main__":
    emit("p256_modinv_p", "p", P)
    emit("p256_modinv_n", "n", N)
