/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group_aarch64.S: the Jacobian point formulas of group_impl.h for AArch64 (A64,
 * AAPCS64), with the field arithmetic inlined and the operands in registers. The
 * contract is group_asm.h's: each function returns the same limbs as its C twin
 * p256_<name>_c for every input, constant time, r may alias any input.
 *
 *   void p256_jac_double_aarch64(p256_jac *r, const p256_jac *a);
 *   void p256_jac_add_aarch64(p256_jac *r, const p256_jac *a, const p256_jac *b);
 *   void p256_jac_add_aff_aarch64(p256_jac *r, const p256_jac *a, const p256_aff *b,
 *                                 uint64_t b_inf);
 *   void p256_jac_add_aff_partial_aarch64(p256_jac *r, const p256_jac *a,
 *                                         const p256_aff *b, uint64_t b_inf);
 *
 * p256_jac is {x, y, z} at offsets 0, 32, 64, p256_aff {x, y} at 0, 32; a field element
 * is four little-endian 64-bit limbs in the Montgomery domain, fully reduced (< p).
 *
 * Same limbs as the C: every field operation below returns the unique representative
 * in [0, p) of its exact result mod p (the multiplication and squaring are those of
 * field_aarch64.S, the additions end in one conditional subtraction or addition of p),
 * and the formulas are the C's, so each intermediate equals the C's intermediate as an
 * element of GF(p) and hence limb for limb. The C's mul_small by 3 is two additions
 * here: the same element, so the same limbs.
 *
 * Register convention (private to this file; the functions call nothing):
 *   QA = x4..x7, QB = x19..x22, QC = x23..x26, QD = x0, x3, x8, x30: four field
 *        elements ("quads") that the macros below take as operands;
 *   TT0..TT4 = x9..x13, SS0..SS3 = x14..x17: scratch of every field macro;
 *   KP1 = x27 = p1 = 2^32 - 1, KP3 = x28 = p3 = 2^64 - 2^32 + 1: constant words of p;
 *   x1 = a, x2 = b (never written); r (x0 on entry) and b_inf (x3) go to the frame
 *   because their registers belong to QD; x30, the link register, is data too (saved,
 *   signed: PT_ENTER). x18 (the platform register) is not touched, x29 stays the frame
 *   pointer.
 * The link register and the callee-saved x19..x29 are saved in a fixed 464-byte frame
 * that also holds the intermediates that do not fit in four quads. Loads and stores use sp, x1 and x2 at
 * fixed offsets only.
 *
 * Constant time: no branch at all (straight-line code, the only branch is ret); masks
 * are selected with csel on flags set by cmp of a mask with 0; every instruction is on
 * the Arm ARM's list of instructions whose timing does not depend on their data when
 * PSTATE.DIT = 1 (DDI 0487, "About PSTATE.DIT"): adds, adcs, adc, subs, sbcs, sbc, and,
 * orr, extr, sbfx, lsl, lsr, mul, umulh, csel, cset, csetm, cmp, mov; plus ldp/ldr/stp/str,
 * paciasp/autiasp and ret. make test-arm64 checks the object for any other mnemonic.
 */

#include "aarch64_common.h"

#define QA x4, x5, x6, x7
#define QB x19, x20, x21, x22
#define QC x23, x24, x25, x26
#define QD x0, x3, x8, x30
#define TT0 x9
#define TT1 x10
#define TT2 x11
#define TT3 x12
#define TT4 x13
#define SS0 x14
#define SS1 x15
#define SS2 x16
#define SS3 x17
#define KP1 x27
#define KP3 x28

/*
 * Frame: 0..15 the frame record (x29, x30), 16..95 x19..x28, 96 r, then ten 32-byte
 * slots for field elements and three 8-byte masks.
 */
#define FRAME 464
#define F_RPTR 96
#define SLOT(i) (112 + 32 * (i))
#define F_AINF 432
#define F_BINF 440
#define F_DEG 448

    .text

/* ---- moving field elements ---------------------------------------------------------- */

.macro LDQ q0, q1, q2, q3, base, off
    ldp     \q0, \q1, [\base, #(\off)]
    ldp     \q2, \q3, [\base, #(\off) + 16]
.endm

.macro STQ q0, q1, q2, q3, base, off
    stp     \q0, \q1, [\base, #(\off)]
    stp     \q2, \q3, [\base, #(\off) + 16]
.endm

/* Store a quad to r's coordinate at off (r reloaded from the frame into TT0). */
.macro STR_R q0, q1, q2, q3, off
    ldr     TT0, [sp, #F_RPTR]
    stp     \q0, \q1, [TT0, #(\off)]
    stp     \q2, \q3, [TT0, #(\off) + 16]
.endm

/* d = (flags say ne) ? a : d, limb by limb. */
.macro QSEL d0, d1, d2, d3, a0, a1, a2, a3
    csel    \d0, \a0, \d0, ne
    csel    \d1, \a1, \d1, ne
    csel    \d2, \a2, \d2, ne
    csel    \d3, \a3, \d3, ne
.endm

/* m = all-ones if the element a is 0, else 0. Clobbers TT0, TT1 and the flags. */
.macro FISZERO m, a0, a1, a2, a3
    orr     TT0, \a0, \a1
    orr     TT1, \a2, \a3
    orr     TT0, TT0, TT1
    cmp     TT0, #0
    csetm   \m, eq
.endm

/* ---- GF(p) addition, subtraction, halving ------------------------------------------- */

/*
 * d = a + b mod p for a, b < p: the sum s < 2p as five words, then s - p, kept unless it
 * borrowed (s < p): d < p. (Subtracting p0 = 2^64 - 1 is "adds #1", see field_aarch64.S.)
 * d may be a or b. Clobbers TT0..TT4, SS0..SS3.
 */
.macro FADD d0, d1, d2, d3, a0, a1, a2, a3, b0, b1, b2, b3
    adds    TT0, \a0, \b0
    adcs    TT1, \a1, \b1
    adcs    TT2, \a2, \b2
    adcs    TT3, \a3, \b3
    cset    TT4, hs
    adds    SS0, TT0, #1
    sbcs    SS1, TT1, KP1
    sbcs    SS2, TT2, xzr
    sbcs    SS3, TT3, KP3
    sbcs    xzr, TT4, xzr           // C clear (lo) iff s < p
    csel    \d0, TT0, SS0, lo
    csel    \d1, TT1, SS1, lo
    csel    \d2, TT2, SS2, lo
    csel    \d3, TT3, SS3, lo
.endm

/*
 * d = a - b mod p for a, b < p: a - b in (-p, p); where it borrowed, add p under the
 * borrow mask (the carry out of that addition is the borrow's wrap, dropped): d < p.
 * Limb i of d is written after limb i of a and b is read, so d may be a or b.
 * Clobbers TT0, TT1, TT3.
 */
.macro FSUB d0, d1, d2, d3, a0, a1, a2, a3, b0, b1, b2, b3
    subs    \d0, \a0, \b0
    sbcs    \d1, \a1, \b1
    sbcs    \d2, \a2, \b2
    sbcs    \d3, \a3, \b3
    csetm   TT0, lo                 // all-ones iff a < b; also p0 under the mask
    and     TT1, TT0, KP1
    and     TT3, TT0, KP3
    adds    \d0, \d0, TT0
    adcs    \d1, \d1, TT1
    adcs    \d2, \d2, xzr
    adc     \d3, \d3, TT3
.endm

/*
 * d = a/2 mod p for a < p: add p when a is odd (a + p < 2p is even, five words), shift
 * right by one: d = (a + p)/2 < p or a/2 < p. d may be a. Clobbers TT0..TT4.
 */
.macro FHALF d0, d1, d2, d3, a0, a1, a2, a3
    sbfx    TT4, \a0, #0, #1        // all-ones iff a is odd
    and     TT1, TT4, KP1
    and     TT3, TT4, KP3
    adds    TT0, \a0, TT4
    adcs    TT1, \a1, TT1
    adcs    TT2, \a2, xzr
    adcs    TT3, \a3, TT3
    cset    TT4, hs
    extr    \d0, TT1, TT0, #1
    extr    \d1, TT2, TT1, #1
    extr    \d2, TT3, TT2, #1
    extr    \d3, TT4, TT3, #1
.endm

/* ---- Montgomery multiplication and squaring (field_aarch64.S's, in registers) -------- */

/*
 * One Montgomery step on the window t0..t4 (value < 2^320, m = t0): (t + m*p)/2^64 into
 * t1, t2, t3, t4, t0 (the new top word is a single bit). p = -1 mod 2^64 makes the
 * Montgomery factor 1, and m*p is shifts (see field_aarch64.S, P256_RED5); here m<<32
 * is a shifted-register operand of subs and adds (adcs has none), one instruction
 * less. Clobbers SS1..SS3.
 */
.macro RED5 t0, t1, t2, t3, t4
    lsr     SS1, \t0, #32                  // m>>32
    subs    SS2, \t0, \t0, lsl #32         // ml = m - (m<<32)
    sbc     SS3, \t0, SS1                  // mh = m - (m>>32) - borrow
    adds    \t1, \t1, \t0, lsl #32
    adcs    \t2, \t2, SS1
    adcs    \t3, \t3, SS2
    adcs    \t4, \t4, SS3
    cset    \t0, hs
.endm

/* The same on a 4-word window w0..w3 < 2^256: result in w1, w2, w3, w0 (P256_RED4). */
.macro RED4 w0, w1, w2, w3
    lsr     SS1, \w0, #32
    subs    SS2, \w0, \w0, lsl #32
    sbc     SS3, \w0, SS1
    adds    \w1, \w1, \w0, lsl #32
    adcs    \w2, \w2, SS1
    adcs    \w3, \w3, SS2
    adc     \w0, SS3, xzr
.endm

/* t0..t4 += (a0..a3)*bi (as P256_MUL_ROW in aarch64_common.h; the window stays < 2^320). Clobbers SS*. */
.macro ROW bi, a0, a1, a2, a3, t0, t1, t2, t3, t4
    mul     SS0, \a0, \bi
    mul     SS1, \a1, \bi
    mul     SS2, \a2, \bi
    mul     SS3, \a3, \bi
    adds    \t0, \t0, SS0
    adcs    \t1, \t1, SS1
    adcs    \t2, \t2, SS2
    adcs    \t3, \t3, SS3
    adc     \t4, \t4, xzr
    umulh   SS0, \a0, \bi
    umulh   SS1, \a1, \bi
    umulh   SS2, \a2, \bi
    umulh   SS3, \a3, \bi
    adds    \t1, \t1, SS0
    adcs    \t2, \t2, SS1
    adcs    \t3, \t3, SS2
    adc     \t4, \t4, SS3
.endm

/* d = t mod p for t = t0..t4 < 2p (P256_FINAL without the store). Clobbers SS*. */
.macro FINAL d0, d1, d2, d3, t0, t1, t2, t3, t4
    adds    SS0, \t0, #1
    sbcs    SS1, \t1, KP1
    sbcs    SS2, \t2, xzr
    sbcs    SS3, \t3, KP3
    sbcs    xzr, \t4, xzr
    csel    \d0, \t0, SS0, lo
    csel    \d1, \t1, SS1, lo
    csel    \d2, \t2, SS2, lo
    csel    \d3, \t3, SS3, lo
.endm

/*
 * d = a*b/2^256 mod p (interleaved Montgomery, p256_fe_mul_aarch64's rows and bounds:
 * t <= 2p - 1 before each row, one conditional subtraction at the end). a and b are
 * read until the last row, d is written by FINAL only, so d may be a or b.
 * Clobbers TT*, SS*.
 */
.macro FMUL d0, d1, d2, d3, a0, a1, a2, a3, b0, b1, b2, b3
    mul     TT0, \a0, \b0
    mul     TT1, \a1, \b0
    mul     TT2, \a2, \b0
    mul     TT3, \a3, \b0
    umulh   SS0, \a0, \b0
    umulh   SS1, \a1, \b0
    umulh   SS2, \a2, \b0
    umulh   TT4, \a3, \b0
    adds    TT1, TT1, SS0
    adcs    TT2, TT2, SS1
    adcs    TT3, TT3, SS2
    adc     TT4, TT4, xzr
    RED5    TT0, TT1, TT2, TT3, TT4                         // TT1..TT4, TT0
    ROW     \b1, \a0, \a1, \a2, \a3, TT1, TT2, TT3, TT4, TT0
    RED5    TT1, TT2, TT3, TT4, TT0                         // TT2..TT4, TT0, TT1
    ROW     \b2, \a0, \a1, \a2, \a3, TT2, TT3, TT4, TT0, TT1
    RED5    TT2, TT3, TT4, TT0, TT1                         // TT3, TT4, TT0..TT2
    ROW     \b3, \a0, \a1, \a2, \a3, TT3, TT4, TT0, TT1, TT2
    RED5    TT3, TT4, TT0, TT1, TT2                         // TT4, TT0..TT3
    FINAL   \d0, \d1, \d2, \d3, TT4, TT0, TT1, TT2, TT3
.endm

/*
 * d = a^2/2^256 mod p (p256_fe_sqr_aarch64: cross products once and doubled, the
 * squares, the low half reduced by four 4-word steps, the high half added, one
 * conditional subtraction; L' + H < 2p). The 512-bit square is T0..T3 = TT0..TT3 and
 * T4..T7 = d0..d3, so d must not be a (the assembler refuses). Clobbers TT*, SS*.
 */
.macro FSQR d0, d1, d2, d3, a0, a1, a2, a3
    .ifc \d0, \a0
    .error "FSQR: d must differ from a"
    .endif
    // a0*(a1, a2, a3) at words 1..4.
    mul     TT1, \a0, \a1
    umulh   TT2, \a0, \a1
    mul     TT3, \a0, \a2
    umulh   \d0, \a0, \a2
    mul     \d1, \a0, \a3
    umulh   \d2, \a0, \a3
    adds    TT2, TT2, TT3
    adcs    TT3, \d0, \d1
    adc     \d0, \d2, xzr
    // a1*(a2, a3) at words 3..5.
    mul     \d1, \a1, \a2
    umulh   \d2, \a1, \a2
    mul     \d3, \a1, \a3
    umulh   SS0, \a1, \a3
    adds    \d2, \d2, \d3
    adc     SS0, SS0, xzr
    adds    TT3, TT3, \d1
    adcs    \d0, \d0, \d2
    adc     \d1, SS0, xzr
    // a2*a3 at words 5..6.
    mul     \d2, \a2, \a3
    umulh   \d3, \a2, \a3
    adds    \d1, \d1, \d2
    adc     \d2, \d3, xzr
    // Double the cross sum (< 2^449): word 7 takes the top bit.
    adds    TT1, TT1, TT1
    adcs    TT2, TT2, TT2
    adcs    TT3, TT3, TT3
    adcs    \d0, \d0, \d0
    adcs    \d1, \d1, \d1
    adcs    \d2, \d2, \d2
    cset    \d3, hs
    // The squares a_i^2 at words 2i, 2i+1.
    mul     TT0, \a0, \a0
    umulh   SS0, \a0, \a0
    mul     SS1, \a1, \a1
    umulh   SS2, \a1, \a1
    adds    TT1, TT1, SS0
    adcs    TT2, TT2, SS1
    adcs    TT3, TT3, SS2
    mul     SS0, \a2, \a2           // (mul/umulh leave the flags alone)
    umulh   SS1, \a2, \a2
    mul     SS2, \a3, \a3
    umulh   SS3, \a3, \a3
    adcs    \d0, \d0, SS0
    adcs    \d1, \d1, SS1
    adcs    \d2, \d2, SS2
    adc     \d3, \d3, SS3
    // L' = (L + M*p)/2^256, the window rotates back to TT0..TT3.
    RED4    TT0, TT1, TT2, TT3
    RED4    TT1, TT2, TT3, TT0
    RED4    TT2, TT3, TT0, TT1
    RED4    TT3, TT0, TT1, TT2
    // L' + H < 2p.
    adds    TT0, TT0, \d0
    adcs    TT1, TT1, \d1
    adcs    TT2, TT2, \d2
    adcs    TT3, TT3, \d3
    cset    TT4, hs
    FINAL   \d0, \d1, \d2, \d3, TT0, TT1, TT2, TT3, TT4
.endm

/* ---- entry and exit ------------------------------------------------------------------ */

/*
 * A frame record (x29, x30) at sp with x29 = sp, so frame-pointer unwinding works
 * inside these functions (Apple's arm64 ABI requires it); x30 is then free as data.
 * Because the link register is spilled, it is signed first (paciasp, hint #25, with sp
 * as the modifier) and authenticated after the frame is popped (autiasp, hint #29):
 * NOPs where pointer authentication is off, pac-ret protection where it is on.
 */
.macro PT_ENTER
    P256_BTI_C
    hint    #25                     // paciasp
    stp     x29, x30, [sp, #-FRAME]!
    mov     x29, sp
    stp     x19, x20, [sp, #16]
    stp     x21, x22, [sp, #32]
    stp     x23, x24, [sp, #48]
    stp     x25, x26, [sp, #64]
    stp     x27, x28, [sp, #80]
    str     x0, [sp, #F_RPTR]
    mov     KP1, #0x00000000ffffffff
    mov     KP3, #0xffffffff00000001
.endm

.macro PT_LEAVE
    ldp     x19, x20, [sp, #16]
    ldp     x21, x22, [sp, #32]
    ldp     x23, x24, [sp, #48]
    ldp     x25, x26, [sp, #64]
    ldp     x27, x28, [sp, #80]
    ldp     x29, x30, [sp], #FRAME
    hint    #29                     // autiasp
    ret
.endm

/*
 * The output selection of the additions, one coordinate at a time: q = the formula's
 * coordinate; where a is infinity (mask in TT2) the candidate c (b's coordinate), then
 * where b is infinity (mask in TT3) a's coordinate, loaded into QD; stored to r (TT4).
 * a's and b's coordinate are read before r's is written, so r may alias either.
 * Clobbers QD and the flags.
 */
.macro SEL_STORE q0, q1, q2, q3, c0, c1, c2, c3, off
    cmp     TT2, #0
    QSEL    \q0, \q1, \q2, \q3, \c0, \c1, \c2, \c3
    LDQ     QD, x1, \off
    cmp     TT3, #0
    QSEL    \q0, \q1, \q2, \q3, QD
    stp     \q0, \q1, [TT4, #(\off)]
    stp     \q2, \q3, [TT4, #(\off) + 16]
.endm

/* QC = 1 in the Montgomery domain (2^256 mod p): b's Z when b is affine. */
.macro QC_ONE
    mov     x23, #1
    mov     x24, #0xffffffff00000000
    mov     x25, #-1
    mov     x26, #0x00000000fffffffe
.endm

/*
 * ---- the unified addition core (group_impl.h, p256_jac_add_unified_core) ------------
 *
 * Inputs U1, U2, S1, S2, Z, Z^4 at (base, offset) each; out: X3 in slot 8, Z3 in slot 9,
 * Y3 in QA. Slots 6 and 7 are its own (T, M'); the mask "degenerate" is at F_DEG.
 *   T = U1 + U2, M = S1 + S2, R = T^2 - U1 U2 - 3 Z^4;
 *   degenerate = (M == 0) & (R == 0): then R, M = S1 - S2, U1 - U2 (masked);
 *   Z3 = Z M, X3 = R^2 - T M^2, Y3 = (R (T M^2 - 2 X3) - [not degenerate] M^4) / 2.
 * With P256_PLANT_POINT_BUG=1 the masked replacement of R is left out (a negative
 * control for tests/c/test_point_asm.c's degenerate inputs: the harness must fail).
 */
#define S_T SLOT(6)
#define S_MALT SLOT(7)
#define S_OX SLOT(8)
#define S_OZ SLOT(9)

.macro CORE u1b, u1o, u2b, u2o, s1b, s1o, s2b, s2o, zb, zo, z4b, z4o
    LDQ     QA, \u1b, \u1o
    LDQ     QB, \u2b, \u2o
    FADD    QC, QA, QB              // T = U1 + U2
    STQ     QC, sp, S_T
    FMUL    QD, QA, QB              // U1 U2
    FSUB    QA, QA, QB              // M' = U1 - U2
    STQ     QA, sp, S_MALT
    FSQR    QB, QC                  // T^2
    FSUB    QB, QB, QD              // T^2 - U1 U2
    LDQ     QA, \z4b, \z4o
    FADD    QD, QA, QA
    FADD    QD, QD, QA              // 3 Z^4
    FSUB    QB, QB, QD              // R
    LDQ     QC, \s1b, \s1o
    LDQ     QD, \s2b, \s2o
    FADD    QA, QC, QD              // M = S1 + S2
    FSUB    QC, QC, QD              // R' = S1 - S2
    FISZERO SS0, QA
    FISZERO SS1, QB
    and     SS0, SS0, SS1           // degenerate
    str     SS0, [sp, #F_DEG]
    LDQ     QD, sp, S_MALT
    cmp     SS0, #0
#if !defined(P256_PLANT_POINT_BUG) || P256_PLANT_POINT_BUG != 1
    QSEL    QB, QC                  // R = R' where degenerate
#endif
    QSEL    QA, QD                  // M = M' where degenerate
    FSQR    QC, QA                  // M^2
    LDQ     QD, \zb, \zo
    FMUL    QD, QD, QA              // Z3 = Z M
    STQ     QD, sp, S_OZ
    FSQR    QA, QB                  // R^2
    LDQ     QD, sp, S_T
    FMUL    QD, QD, QC              // Q = T M^2
    FSUB    QA, QA, QD              // X3 = R^2 - Q
    STQ     QA, sp, S_OX
    FADD    QA, QA, QA              // 2 X3
    FSUB    QA, QD, QA              // Q - 2 X3
    FMUL    QA, QB, QA              // R (Q - 2 X3)
    FSQR    QB, QC                  // M^4
    ldr     SS0, [sp, #F_DEG]
    cmp     SS0, #0
    QSEL    QB, xzr, xzr, xzr, xzr  // 0 where degenerate
    FSUB    QA, QA, QB
    FHALF   QA, QA                  // Y3
.endm

/*
 * The additions' common tail: r = the core's (X3, Y3, Z3), or b's point where a is
 * infinity (b's coordinates at x2 + 0, 32 and Z at x2 + 64, or 1 for an affine b), then
 * a where b is infinity (C: two cmovs in this order). Y3 arrives in QA.
 */
.macro OUT_SELECT baffine
    ldr     TT2, [sp, #F_AINF]
    ldr     TT3, [sp, #F_BINF]
    ldr     TT4, [sp, #F_RPTR]
    LDQ     QB, sp, S_OX
    LDQ     QC, x2, 0
    SEL_STORE QB, QC, 0
    LDQ     QC, x2, 32
    SEL_STORE QA, QC, 32
    LDQ     QB, sp, S_OZ
    .if \baffine
    QC_ONE
    .else
    LDQ     QC, x2, 64
    .endif
    SEL_STORE QB, QC, 64
.endm

/* ---- p256_jac_double_aarch64(r = x0, a = x1) ----------------------------------------- */
/*
 * The halved-slope doubling of p256_jac_double_c: S = Y^2, T = X S,
 * L = 3/2 (X - Z^2)(X + Z^2) (v + v/2), X3 = L^2 - 2T, Y3 = L (T - X3) - S^2, Z3 = Y Z.
 * 4M + 4S. a is read completely before r is written (r may be a).
 */
#define D_Z3 SLOT(0)
#define D_S2 SLOT(1)

P256_FUNC_BEGIN p256_jac_double_aarch64
    PT_ENTER
    LDQ     QA, x1, 0               // X
    LDQ     QB, x1, 64              // Z
    FSQR    QC, QB                  // Z^2
    FSUB    QD, QA, QC              // X - Z^2
    FADD    QC, QA, QC              // X + Z^2
    FMUL    QD, QD, QC              // X^2 - Z^4
    FHALF   QC, QD
    FADD    QD, QD, QC              // L = 3/2 (X^2 - Z^4)
    LDQ     QC, x1, 32              // Y
    FMUL    QB, QC, QB              // Z3 = Y Z
    STQ     QB, sp, D_Z3
    FSQR    QB, QC                  // S = Y^2
    FMUL    QA, QA, QB              // T = X S
    FSQR    QC, QB                  // S^2
    STQ     QC, sp, D_S2
    FSQR    QB, QD                  // L^2
    FSUB    QB, QB, QA
    FSUB    QB, QB, QA              // X3 = L^2 - 2T
    STR_R   QB, 0
    FSUB    QA, QA, QB              // T - X3
    FMUL    QA, QD, QA              // L (T - X3)
    LDQ     QC, sp, D_S2
    FSUB    QA, QA, QC              // Y3 = L (T - X3) - S^2
    STR_R   QA, 32
    LDQ     QB, sp, D_Z3
    STR_R   QB, 64
    PT_LEAVE
P256_FUNC_END p256_jac_double_aarch64

/* ---- p256_jac_add_aarch64(r = x0, a = x1, b = x2) ------------------------------------ */
/*
 * As p256_jac_add_c: Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1 Z2Z2, U2 = X2 Z1Z1,
 * S1 = Y1 Z2 Z2Z2, S2 = Y2 Z1 Z1Z1, Z = Z1 Z2, Z^4 = (Z1Z1 Z2Z2)^2, the core, then
 * r = b where a is infinity, r = a where b is infinity.
 */
#define A_ZZ SLOT(0)
#define A_S1 SLOT(1)
#define A_U1 SLOT(2)
#define A_Z4 SLOT(3)
#define A_S2 SLOT(4)
#define A_U2 SLOT(5)

P256_FUNC_BEGIN p256_jac_add_aarch64
    PT_ENTER
    LDQ     QA, x1, 64              // Z1
    FISZERO SS0, QA
    str     SS0, [sp, #F_AINF]
    LDQ     QC, x2, 64              // Z2
    FISZERO SS0, QC
    str     SS0, [sp, #F_BINF]
    FMUL    QB, QA, QC              // Z = Z1 Z2
    STQ     QB, sp, A_ZZ
    FSQR    QB, QC                  // Z2Z2
    LDQ     QD, x1, 32
    FMUL    QD, QD, QC              // Y1 Z2
    FMUL    QD, QD, QB              // S1
    STQ     QD, sp, A_S1
    LDQ     QD, x1, 0
    FMUL    QD, QD, QB              // U1 = X1 Z2Z2
    STQ     QD, sp, A_U1
    FSQR    QC, QA                  // Z1Z1
    FMUL    QB, QB, QC              // Z1Z1 Z2Z2
    FSQR    QD, QB                  // Z^4
    STQ     QD, sp, A_Z4
    LDQ     QB, x2, 32
    FMUL    QB, QB, QA              // Y2 Z1
    FMUL    QB, QB, QC              // S2
    STQ     QB, sp, A_S2
    LDQ     QA, x2, 0
    FMUL    QA, QA, QC              // U2 = X2 Z1Z1
    STQ     QA, sp, A_U2
    CORE    sp, A_U1, sp, A_U2, sp, A_S1, sp, A_S2, sp, A_ZZ, sp, A_Z4
    OUT_SELECT 0
    PT_LEAVE
P256_FUNC_END p256_jac_add_aarch64

/* ---- p256_jac_add_aff_aarch64(r = x0, a = x1, b = x2, b_inf = x3) -------------------- */
/*
 * As p256_jac_add_aff_c: Z1Z1 = Z1^2, S2 = Y2 Z1 Z1Z1, U2 = X2 Z1Z1, Z^4 = Z1Z1^2, the
 * core with U1 = X1, S1 = Y1, Z = Z1, then r = (X2, Y2, 1) where a is infinity, r = a
 * where b is.
 */
P256_FUNC_BEGIN p256_jac_add_aff_aarch64
    PT_ENTER
    str     x3, [sp, #F_BINF]
    LDQ     QA, x1, 64              // Z1
    FISZERO SS0, QA
    str     SS0, [sp, #F_AINF]
    FSQR    QC, QA                  // Z1Z1
    LDQ     QB, x2, 32
    FMUL    QB, QB, QA              // Y2 Z1
    LDQ     QD, x2, 0
    FMUL    QD, QD, QC              // U2
    STQ     QD, sp, A_U2
    FMUL    QB, QB, QC              // S2
    STQ     QB, sp, A_S2
    FSQR    QD, QC                  // Z^4
    STQ     QD, sp, A_Z4
    CORE    x1, 0, sp, A_U2, x1, 32, sp, A_S2, x1, 64, sp, A_Z4
    OUT_SELECT 1
    PT_LEAVE
P256_FUNC_END p256_jac_add_aff_aarch64

/* ---- p256_jac_add_aff_partial_aarch64(r = x0, a = x1, b = x2, b_inf = x3) ------------ */
/*
 * madd-2007-bl as p256_jac_add_aff_partial_c: Z1Z1 = Z1^2, U2 = X2 Z1Z1,
 * S2 = Y2 Z1 Z1Z1, H = U2 - X1, Rr = S2 - Y1, HH = H^2, HHH = HH H, V = X1 HH,
 * X3 = Rr^2 - HHH - 2V, Y3 = Rr (V - X3) - Y1 HHH, Z3 = Z1 H; then the same masked
 * selection as the complete mixed addition. WRONG for a == +-b (group.h).
 */
P256_FUNC_BEGIN p256_jac_add_aff_partial_aarch64
    PT_ENTER
    str     x3, [sp, #F_BINF]
    LDQ     QA, x1, 64              // Z1
    FISZERO SS0, QA
    str     SS0, [sp, #F_AINF]
    FSQR    QB, QA                  // Z1Z1
    LDQ     QC, x2, 32
    FMUL    QC, QC, QA              // Y2 Z1
    LDQ     QD, x2, 0
    FMUL    QD, QD, QB              // U2
    FMUL    QC, QC, QB              // S2
    LDQ     QB, x1, 0               // X1
    FSUB    QD, QD, QB              // H = U2 - X1
    FMUL    QA, QA, QD              // Z3 = Z1 H
    STQ     QA, sp, S_OZ
    LDQ     QA, x1, 32              // Y1
    FSUB    QC, QC, QA              // Rr = S2 - Y1
    FSQR    QA, QD                  // HH
    FMUL    QD, QA, QD              // HHH
    FMUL    QA, QB, QA              // V = X1 HH
    FSQR    QB, QC                  // Rr^2
    FSUB    QB, QB, QD
    FSUB    QB, QB, QA
    FSUB    QB, QB, QA              // X3 = Rr^2 - HHH - 2V
    STQ     QB, sp, S_OX
    FSUB    QA, QA, QB              // V - X3
    FMUL    QA, QC, QA              // Rr (V - X3)
    LDQ     QC, x1, 32
    FMUL    QD, QC, QD              // Y1 HHH
    FSUB    QA, QA, QD              // Y3
    OUT_SELECT 1
    PT_LEAVE
P256_FUNC_END p256_jac_add_aff_partial_aarch64
