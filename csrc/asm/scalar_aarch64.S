/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scalar_aarch64.S: Montgomery multiplication and squaring modulo the P-256 group
 * order n for AArch64 (A64, AAPCS64). Contract: csrc/scalar_asm.h.
 *
 *   void p256_scalar_mont_mul_aarch64(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *       r = a*b/R mod n, R = 2^256
 *   void p256_scalar_mont_sqr_aarch64(uint64_t r[4], const uint64_t a[4]);
 *       r = a^2/R mod n
 *
 * Inputs < n, output < n; r may alias a or b (every input word is loaded before r is
 * stored). n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
 * (FIPS 186-5, SEC 2) = [n0, n1, n2, n3] by words, n2 = 2^64 - 1,
 * n3 = 0xffffffff00000000; -n^-1 mod 2^64 = 0xccd1c8aaee00bc4f. The C reference is
 * scalar_impl.h's p256_scalar_mont_mul_c (tests/c/test_scalar_asm.c compares them).
 *
 * Montgomery's reduction (P. L. Montgomery, Math. Comp. 44, 1985) a word at a time:
 * m = t0 * (-n^-1) mod 2^64 makes t + m*n divisible by 2^64. Unlike p, n has no form
 * that turns m*n into shifts, so m*n is four mul/umulh pairs against the constants.
 *
 * Constant time: only mul, umulh, adds/adcs/adc, subs/sbcs, csel, cset, mov/movk
 * (constants), and loads/stores at fixed offsets from the argument pointers and sp; all
 * on the Arm ARM's data-independent-timing list under PSTATE.DIT (DDI 0487, "About
 * PSTATE.DIT"). No branch but ret. make test-arm64 checks the object.
 *
 * Registers: x19-x22 hold n0..n3 (saved to the stack and restored, AAPCS64 callee-saved);
 * x18, the platform register, is never touched.
 */

/* Symbol macros, the BTI landing pad and the object notes; leaf functions that never
 * spill the link register, so no PAC is needed. */
#include "aarch64_common.h"

    .text

/* Save x19-x22 and load n0..n3 into them; x17 = -n^-1 mod 2^64. */
.macro P256_ORD_ENTER
    stp     x19, x20, [sp, #-32]!
    stp     x21, x22, [sp, #16]
    mov     x19, #0x2551
    movk    x19, #0xfc63, lsl #16
    movk    x19, #0xcac2, lsl #32
    movk    x19, #0xf3b9, lsl #48
    mov     x20, #0x9e84
    movk    x20, #0xa717, lsl #16
    movk    x20, #0xfaad, lsl #32
    movk    x20, #0xbce6, lsl #48
    mov     x21, #-1
    mov     x22, #0xffffffff00000000
    mov     x17, #0xbc4f
    movk    x17, #0xee00, lsl #16
    movk    x17, #0xc8aa, lsl #32
    movk    x17, #0xccd1, lsl #48
.endm

/*
 * r = t mod n for the 5-word t = t0..t4 < 2n: u = t - n; if that borrowed, t is the
 * answer (csel, no branch), else u. Store r, restore x19-x22. Clobbers x13-x16.
 */
.macro P256_ORD_FINAL t0, t1, t2, t3, t4
    subs    x13, \t0, x19
    sbcs    x14, \t1, x20
    sbcs    x15, \t2, x21
    sbcs    x16, \t3, x22
    sbcs    xzr, \t4, xzr                   // C clear (lo) iff t < n
#if P256_PLANT_SCALAR_BUG != 1 /* the harness's negative control drops the subtraction */
    csel    x13, \t0, x13, lo
    csel    x14, \t1, x14, lo
    csel    x15, \t2, x15, lo
    csel    x16, \t3, x16, lo
#else
    mov     x13, \t0
    mov     x14, \t1
    mov     x15, \t2
    mov     x16, \t3
#endif
    stp     x13, x14, [x0]
    stp     x15, x16, [x0, #16]
    ldp     x21, x22, [sp, #16]
    ldp     x19, x20, [sp], #32
.endm

/*
 * One reduction step on the 5-word window t0..t4 (value t < 2^320): t = (t + m*n)/2^64,
 * result in t1, t2, t3, t4, t0. m = t0 * x17 goes to x7. Low halves of m*n first
 * (words 0..3; word 0 becomes 0 by the choice of m), their carry out of word 4 becomes
 * the new top word, then the high halves (words 1..4). Clobbers x7, x13-x16.
 * In the CIOS use below t + m*n < 2n*2^64 (header of p256_scalar_mont_mul_aarch64),
 * so the new top word is at most 1 and the last adc cannot wrap.
 */
.macro P256_ORD_RED5 t0, t1, t2, t3, t4
    mul     x7, \t0, x17
    mul     x13, x7, x19
    mul     x14, x7, x20
    mul     x15, x7, x21
    mul     x16, x7, x22
    adds    x13, \t0, x13                   // = 0, carry out
    adcs    \t1, \t1, x14
    adcs    \t2, \t2, x15
    adcs    \t3, \t3, x16
    adcs    \t4, \t4, xzr
    cset    \t0, hs
    umulh   x13, x7, x19
    umulh   x14, x7, x20
    umulh   x15, x7, x21
    umulh   x16, x7, x22
    adds    \t1, \t1, x13
    adcs    \t2, \t2, x14
    adcs    \t3, \t3, x15
    adcs    \t4, \t4, x16
    adc     \t0, \t0, xzr
.endm

/*
 * The same step on a 4-word window w0..w3 (value < 2^256, the low half of a 512-bit
 * product): (w + m*n)/2^64 < 2^192 + n < 2^256, so the result fits w1, w2, w3, w0 and
 * the top word (hi(m*n3) + the two carries) cannot wrap. Clobbers x1-x5 (a is dead by then).
 */
.macro P256_ORD_RED4 w0, w1, w2, w3
    mul     x1, \w0, x17
    mul     x2, x1, x19
    mul     x3, x1, x20
    mul     x4, x1, x21
    mul     x5, x1, x22
    adds    x2, \w0, x2
    adcs    \w1, \w1, x3
    adcs    \w2, \w2, x4
    adcs    \w3, \w3, x5
    cset    \w0, hs
    umulh   x2, x1, x19
    umulh   x3, x1, x20
    umulh   x4, x1, x21
    umulh   x5, x1, x22
    adds    \w1, \w1, x2
    adcs    \w2, \w2, x3
    adcs    \w3, \w3, x4
    adc     \w0, \w0, x5
.endm

/*
 * p256_scalar_mont_mul_aarch64(r = x0, a = x1, b = x2)
 *
 * Interleaved (CIOS) Montgomery multiplication: for i = 0..3, t += a*b_i, then one
 * reduction step. t < 2n before each row, because
 *   (2n - 1 + (n - 1)(2^64 - 1) + (2^64 - 1)n) / 2^64 < 2n,
 * so t fits five words (t4 <= 1) and one conditional subtraction finishes.
 * Registers: a = x3..x6, b_i then m = x7, t = x8..x12 (rotating), scratch x13..x16.
 */
P256_FUNC_BEGIN p256_scalar_mont_mul_aarch64
    P256_BTI_C
    P256_ORD_ENTER
    P256_CIOS_MUL P256_ORD_RED5, P256_ORD_FINAL
    ret
P256_FUNC_END p256_scalar_mont_mul_aarch64

/*
 * p256_scalar_mont_sqr_aarch64(r = x0, a = x1)
 *
 * The 512-bit square T = H*2^256 + L (the six cross products once, doubled, plus the
 * four squares: 10 mul + 10 umulh), then four P256_ORD_RED4 steps turn L into
 * L' = (L + M*n)/2^256 <= n for some M < 2^256, and T/R = L' + H (mod n) with
 * L' + H <= n + (n-1)^2/2^256 < 2n: add H (five words), subtract n conditionally.
 * Registers: a = x2..x5; T = x6..x13 (cross products in x7..x13 first); scratch x1,
 * x14..x16, then x1..x5 in the reduction.
 */
P256_FUNC_BEGIN p256_scalar_mont_sqr_aarch64
    P256_BTI_C
    P256_ORD_ENTER
    ldp     x2, x3, [x1]
    ldp     x4, x5, [x1, #16]

    // a0*(a1, a2, a3) at words 1..4.
    mul     x7, x2, x3
    umulh   x8, x2, x3
    mul     x9, x2, x4
    umulh   x10, x2, x4
    mul     x11, x2, x5
    umulh   x12, x2, x5
    adds    x8, x8, x9
    adcs    x9, x10, x11
    adc     x10, x12, xzr
    // a1*(a2, a3) at words 3..5.
    mul     x11, x3, x4
    umulh   x12, x3, x4
    mul     x13, x3, x5
    umulh   x14, x3, x5
    adds    x12, x12, x13
    adc     x14, x14, xzr
    adds    x9, x9, x11
    adcs    x10, x10, x12
    adc     x11, x14, xzr
    // a2*a3 at words 5..6.
    mul     x12, x4, x5
    umulh   x13, x4, x5
    adds    x11, x11, x12
    adc     x12, x13, xzr

    // Double the cross sum (< 2^448, so < 2^449 after: x13 takes the top bit).
    adds    x7, x7, x7
    adcs    x8, x8, x8
    adcs    x9, x9, x9
    adcs    x10, x10, x10
    adcs    x11, x11, x11
    adcs    x12, x12, x12
    cset    x13, hs

    // Add the squares at words 2i, 2i+1: T = x6..x13.
    mul     x6, x2, x2
    umulh   x14, x2, x2
    mul     x15, x3, x3
    umulh   x16, x3, x3
    adds    x7, x7, x14
    adcs    x8, x8, x15
    adcs    x9, x9, x16
    mul     x14, x4, x4
    umulh   x15, x4, x4
    mul     x16, x5, x5
    umulh   x1, x5, x5
    adcs    x10, x10, x14
    adcs    x11, x11, x15
    adcs    x12, x12, x16
    adc     x13, x13, x1

    P256_ORD_RED4 x6, x7, x8, x9            // x7, x8, x9, x6
    P256_ORD_RED4 x7, x8, x9, x6            // x8, x9, x6, x7
    P256_ORD_RED4 x8, x9, x6, x7            // x9, x6, x7, x8
    P256_ORD_RED4 x9, x6, x7, x8            // x6, x7, x8, x9

    adds    x6, x6, x10
    adcs    x7, x7, x11
    adcs    x8, x8, x12
    adcs    x9, x9, x13
    cset    x10, hs

    P256_ORD_FINAL x6, x7, x8, x9, x10
    ret
P256_FUNC_END p256_scalar_mont_sqr_aarch64
