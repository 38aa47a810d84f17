/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_aarch64.S: Montgomery multiplication and squaring in GF(p), p the P-256 prime,
 * for AArch64 (A64, AAPCS64). The contract is field_asm.h's: four little-endian 64-bit
 * limbs, inputs < p, output < p, r may alias a or b, constant time.
 *
 *   void p256_fe_mul_aarch64(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *       r = a*b/R mod p, R = 2^256
 *   void p256_fe_sqr_aarch64(uint64_t r[4], const uint64_t a[4]);
 *       r = a^2/R mod p
 *
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1 = [p0, p1, p2, p3] by 64-bit words (FIPS 186-5,
 * SEC 2) with p0 = 2^64 - 1, p1 = 2^32 - 1, p2 = 0, p3 = 2^64 - 2^32 + 1.
 *
 * Montgomery reduction by one word (the word-serial reduction that Gueron and Krasnov,
 * "Fast prime field elliptic-curve cryptography with 256-bit primes", J. Cryptographic
 * Engineering 5(2), 2015; IACR eprint 2013/816, use for this prime): for a value t,
 * t + m*p with m = t mod 2^64 is divisible by 2^64, because p = -1 mod 2^64 makes the
 * Montgomery factor -p^-1 mod 2^64 equal to 1. The special form of p turns m*p into
 * shifts and one 64x64 -> 128 "multiplication by p3" that is itself shifts:
 *
 *   word 0:  t0 + m*p0 = m + m*(2^64 - 1) = m*2^64          -> 0, carry m into word 1
 *   word 1:  m*p1 + m (carry) = m*2^32                      -> m<<32 into word 1,
 *                                                              m>>32 into word 2
 *   word 2:  m*p2 = 0
 *   words 3-4: m*p3 = m*2^64 - m*2^32 + m = mh:ml with
 *            ml = m - (m<<32)            (subs: borrow b)
 *            mh = m - (m>>32) - b        (sbc)
 *
 * so one reduction step is lsl, lsr, subs, sbc and a 4-word add-with-carry chain into
 * words 1..4, after which the old word 0 (now zero) is dropped by renaming registers.
 * No multiplication instruction, no table, no branch.
 *
 * The final reduction from [0, 2p) to [0, p) subtracts p and selects with csel on the
 * borrow (no branch). Every data-processing instruction used here (mul, umulh, adds,
 * adcs, adc, subs, sbcs, sbc, lsl, lsr, csel, cset, mov) is on the Arm ARM's list of
 * instructions whose timing is independent of their data when PSTATE.DIT = 1 (Arm
 * Architecture Reference Manual for A-profile, DDI 0487, "About PSTATE.DIT"; FEAT_DIT,
 * Armv8.4); the loads and stores use the argument pointers at fixed offsets only.
 * csrc/cpu_aarch64.h sets DIT around the secret-handling byte-level API where the CPU
 * implements it. make test-arm64 checks the object for any other mnemonic or a branch.
 *
 * Both functions are leaves: they use only the caller-saved x0-x17 (x18, the platform
 * register, is never touched), no stack, and do not store until every input word has
 * been loaded, which is what makes r == a, r == b and a == b safe.
 */

#include "aarch64_common.h"

    .text

/*
 * One Montgomery reduction step on the 5-word window t0..t4 (value < 2^320, t0 = m):
 * t = (t + m*p) / 2^64, the result lands in t1, t2, t3, t4, t0 (t0's register is reused
 * for the new top word, 0 or 1). Clobbers x14-x17.
 *
 * Bound: t + m*p < 2^320 + 2^64*p, so (t + m*p)/2^64 < 2^256 + p < 2^257: the new top
 * word is the carry out of word 4, a single bit.
 */
.macro P256_RED5 t0, t1, t2, t3, t4
    lsl     x14, \t0, #32           // m<<32
    lsr     x15, \t0, #32           // m>>32
    subs    x16, \t0, x14           // ml = m - (m<<32)
    sbc     x17, \t0, x15           // mh = m - (m>>32) - borrow
    adds    \t1, \t1, x14
    adcs    \t2, \t2, x15
    adcs    \t3, \t3, x16
    adcs    \t4, \t4, x17
    cset    \t0, hs                 // carry out of word 4
.endm

/*
 * One Montgomery reduction step on the 4-word window w0..w3 (value < 2^256, w0 = m):
 * w = (w + m*p) / 2^64, result in w1, w2, w3, w0. Clobbers x14-x17.
 *
 * Bound: (w + m*p)/2^64 < 2^192 + p < 2^256 (p < 2^256 - 2^224 + 2^193), so the top word
 * mh + carry cannot wrap and no fifth word is needed.
 */
.macro P256_RED4 w0, w1, w2, w3
    lsl     x14, \w0, #32
    lsr     x15, \w0, #32
    subs    x16, \w0, x14
    sbc     x17, \w0, x15
    adds    \w1, \w1, x14
    adcs    \w2, \w2, x15
    adcs    \w3, \w3, x16
    adc     \w0, x17, xzr
.endm

/*
 * r = t mod p for the 5-word t = t0..t4 < 2p: u = t - p; if that borrowed, t < p and t
 * is the answer, else u is. Then store r. Clobbers x1, x2, x14-x17.
 *
 * Subtracting p0 = 2^64 - 1 from t0 is "adds #1": t0 - (2^64 - 1) = t0 + 1 - 2^64, and
 * the carry of t0 + 1 is exactly the "no borrow" C flag that subs would set.
 */
.macro P256_FINAL t0, t1, t2, t3, t4
    mov     x1, #0x00000000ffffffff         // p1 (a logical immediate)
    mov     x2, #0xffffffff00000001         // p3 (a logical immediate: 33 ones rotated)
    adds    x14, \t0, #1
    sbcs    x15, \t1, x1
    sbcs    x16, \t2, xzr
    sbcs    x17, \t3, x2
    sbcs    xzr, \t4, xzr                   // C clear (lo) iff t < p
    csel    x14, \t0, x14, lo
    csel    x15, \t1, x15, lo
    csel    x16, \t2, x16, lo
    csel    x17, \t3, x17, lo
    stp     x14, x15, [x0]
    stp     x16, x17, [x0, #16]
.endm

/*
 * p256_fe_mul_aarch64(r = x0, a = x1, b = x2)
 *
 * Interleaved (CIOS) Montgomery multiplication: for i = 0..3, t += a*b_i, then one
 * reduction step. Invariant: t <= 2p - 1 before each row (hence t4 <= 1), because
 *   (2p - 1 + (p - 1)(2^64 - 1) + (2^64 - 1)p) / 2^64 = 2p - 1,
 * and t + a*b_i <= 2p - 1 + (p - 1)(2^64 - 1) < p*2^64 + p < 2^320 (p*2^64 < 2^320 - 2^287),
 * so t fits in five words during the row. After four steps t = a*b/R mod p + {0, p},
 * and one conditional subtraction finishes.
 *
 * Registers: a0..a3 = x3..x6, b_i = x7 (loaded row by row), t = x8..x12 (a window that
 * rotates by one register per reduction step), scratch x13..x17, then x1, x2.
 * 118 instructions (plus bti and ret), no branch, no stack.
 */
P256_FUNC_BEGIN p256_fe_mul_aarch64
    P256_BTI_C
    P256_CIOS_MUL P256_RED5, P256_FINAL
    ret
P256_FUNC_END p256_fe_mul_aarch64

/*
 * p256_fe_sqr_aarch64(r = x0, a = x1)
 *
 * Squaring: the six cross products a_i*a_j (i < j) once, doubled by an add-to-itself
 * chain, plus the four squares a_i^2: 10 mul + 10 umulh instead of 16 + 16. Then the
 * 512-bit square T = H*2^256 + L is reduced Montgomery-style on its low half only:
 * four steps of P256_RED4 turn L into L' = (L + M*p)/2^256 for some M < 2^256, so
 * L' < (2^256 + 2^256*p)/2^256 = p + 1, and
 *   T/R = L' + H  (mod p),  L' + H <= p + (p - 1)^2/2^256 < 2p,
 * so one addition of H (five words) and one conditional subtraction give r < p.
 *
 * Registers: a0..a3 = x2..x5; cross products X1..X6 = x7..x12, X7 = x13; the square
 * T0..T7 = x6..x13; reduction window x6..x9; scratch x14..x17, then x1, x2.
 * 96 instructions (plus bti and ret), no branch, no stack.
 */
P256_FUNC_BEGIN p256_fe_sqr_aarch64
    P256_BTI_C
    ldp     x2, x3, [x1]
    ldp     x4, x5, [x1, #16]

    // a0*(a1, a2, a3) at words 1..4.
    mul     x7, x2, x3              // X1 = lo(a0 a1)
    umulh   x8, x2, x3
    mul     x9, x2, x4
    umulh   x10, x2, x4
    mul     x11, x2, x5
    umulh   x12, x2, x5
    adds    x8, x8, x9              // X2 = hi(a0 a1) + lo(a0 a2)
    adcs    x9, x10, x11            // X3 = hi(a0 a2) + lo(a0 a3)
    adc     x10, x12, xzr           // X4 = hi(a0 a3) + carry
    // a1*(a2, a3) at words 3..5.
    mul     x11, x3, x4
    umulh   x12, x3, x4
    mul     x13, x3, x5
    umulh   x14, x3, x5
    adds    x12, x12, x13           // hi(a1 a2) + lo(a1 a3)
    adc     x14, x14, xzr           // hi(a1 a3) + carry
    adds    x9, x9, x11             // X3 += lo(a1 a2)
    adcs    x10, x10, x12           // X4
    adc     x11, x14, xzr           // X5 (partial sum < 2^384: no wrap)
    // a2*a3 at words 5..6.
    mul     x12, x4, x5
    umulh   x13, x4, x5
    adds    x11, x11, x12           // X5
    adc     x12, x13, xzr           // X6 (cross sum < 2^448: no wrap)

    // Double the cross sum: < 2^449, X7 = x13 takes the top bit.
    adds    x7, x7, x7
    adcs    x8, x8, x8
    adcs    x9, x9, x9
    adcs    x10, x10, x10
    adcs    x11, x11, x11
    adcs    x12, x12, x12
    cset    x13, hs

    // Add the squares a_i^2 at words 2i, 2i+1: T0..T7 = x6..x13 (a^2 < 2^512).
    mul     x6, x2, x2              // T0
    umulh   x14, x2, x2
    mul     x15, x3, x3
    umulh   x16, x3, x3
    adds    x7, x7, x14             // T1
    adcs    x8, x8, x15             // T2
    adcs    x9, x9, x16             // T3
    mul     x14, x4, x4             // (mul/umulh leave the flags alone)
    umulh   x15, x4, x4
    mul     x16, x5, x5
    umulh   x17, x5, x5
    adcs    x10, x10, x14           // T4
    adcs    x11, x11, x15           // T5
    adcs    x12, x12, x16           // T6
    adc     x13, x13, x17           // T7

    // Reduce the low half L = x6..x9 by 2^256: the window rotates back to x6..x9.
    P256_RED4 x6, x7, x8, x9                // x7, x8, x9, x6
    P256_RED4 x7, x8, x9, x6                // x8, x9, x6, x7
    P256_RED4 x8, x9, x6, x7                // x9, x6, x7, x8
    P256_RED4 x9, x6, x7, x8                // x6, x7, x8, x9

    // Add the high half H = x10..x13; the sum is < 2p.
    adds    x6, x6, x10
    adcs    x7, x7, x11
    adcs    x8, x8, x12
    adcs    x9, x9, x13
    cset    x10, hs

    P256_FINAL x6, x7, x8, x9, x10
    ret
P256_FUNC_END p256_fe_sqr_aarch64
