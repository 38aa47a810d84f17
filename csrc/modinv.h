/* SPDX-License-Identifier: Apache-2.0 */
/* Modular inversion modulo the P-256 field prime p and group order n.
 *
 * Contract of csrc/modinv_impl.h (the implementation; the core is compiled as
 * one translation unit that #includes the *_impl.h files, so everything here
 * is `static`).
 *
 * Algorithm: Bernstein-Yang "safegcd" divsteps (D. J. Bernstein, B.-Y. Yang,
 * "Fast constant-time gcd computation and modular inversion", IACR eprint
 * 2019/266), in the form described in bitcoin-core/secp256k1's
 * doc/safegcd_implementation.md: batches of divsteps on the low 64 bits of
 * f and g produce a 2x2 transition matrix that is applied to the full numbers
 * in a signed 62-bit-limb representation; d and e are updated modulo m.  The
 * constant-time variant uses the half-delta divstep ("hddivstep") and P. Wuille's
 * bound of 590 hddivsteps for moduli below 2^256 (github.com/sipa/safegcd-bounds,
 * machine-checked in Coq there).  See modinv_impl.h for the bounds.
 * Background: T. Pornin, "Optimized Binary GCD for Modular Inversion", IACR
 * eprint 2020/972.
 *
 * Numbers at this interface are plain integers (NOT Montgomery form) as four
 * 64-bit limbs, little-endian: x = x[0] + x[1]*2^64 + x[2]*2^128 + x[3]*2^192.
 */
#ifndef P256_MODINV_H
#define P256_MODINV_H

#include <stdint.h>

/* A number in signed-62 form: x = sum(v[i] * 2^(62*i), i = 0..4).
 * "Normalized" means v[0..3] in [0, 2^62) and v[4] any (signed) int64; every
 * integer in (-2^310, 2^310) has exactly one normalized form. */
typedef struct {
    int64_t v[5];
} p256_modinv_signed62;

/* An odd modulus m with 2^255 < m < 2^256, in normalized signed-62 form
 * (so v[4] = m >> 248 is in [128, 256)), and m^-1 mod 2^62. */
typedef struct {
    p256_modinv_signed62 modulus;
    uint64_t modulus_inv62;
} p256_modinv_modulus;

/* p = 2^256 - 2^224 + 2^192 + 2^96 - 1, the P-256 field prime. */
static const p256_modinv_modulus p256_modinv_p;

/* n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
 * the order of the P-256 base point. */
static const p256_modinv_modulus p256_modinv_n;

/* r = a^-1 mod m, in [0, m).
 *
 * m must be p256_modinv_p or p256_modinv_n (or another modulus meeting the
 * conditions above that is prime, or at least coprime to a).  a may be any
 * integer in [0, 2^256): values >= m are reduced first (one conditional
 * subtraction suffices because m > 2^255).  a = 0 (or a = m) gives r = 0.
 * r may alias a.
 *
 * Constant time: no branch and no memory index depends on a or r (only on m,
 * which is public), and no variable-time instruction is used. */
__attribute__((unused)) /* a core that uses only one of the two stays warning-free */
static void p256_modinv(uint64_t r[4], const uint64_t a[4], const p256_modinv_modulus *m);

/* r0 = a0^-1 mod m0 and r1 = a1^-1 mod m1: two p256_modinv calls in one, faster than
 * two (their divstep chains, each bound by its own latency, run interleaved). The
 * conditions on each (m, a, r) are p256_modinv's; the moduli may differ. Any r may
 * alias any a (every input is read before an output is written).
 *
 * Constant time, as p256_modinv. */
__attribute__((unused))
static void p256_modinv_pair(uint64_t r0[4], const uint64_t a0[4], const p256_modinv_modulus *m0, uint64_t r1[4],
                             const uint64_t a1[4], const p256_modinv_modulus *m1);

/* Same result as p256_modinv, but in variable time: the running time depends
 * on a.  Use it only for public inputs (e.g. when verifying a signature). */
__attribute__((unused))
static void p256_modinv_vartime(uint64_t r[4], const uint64_t a[4], const p256_modinv_modulus *m);

#endif /* P256_MODINV_H */
