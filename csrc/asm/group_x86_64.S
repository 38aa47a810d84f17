/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group_x86_64.S: the Jacobian point formulas of group_impl.h in x86-64 assembly
 * for CPUs with BMI2 (MULX) and ADX (ADCX/ADOX), the point twins group_asm.h declares:
 *
 *   void p256_jac_double_x86_64_adx(p256_jac *r, const p256_jac *a);
 *   void p256_jac_double_n_x86_64_adx(p256_jac *r, const p256_jac *a, uint64_t n);
 *   void p256_jac_add_x86_64_adx(p256_jac *r, const p256_jac *a, const p256_jac *b);
 *   void p256_jac_add_aff_x86_64_adx(p256_jac *r, const p256_jac *a, const p256_aff *b,
 *                                    uint64_t b_inf);
 *   void p256_jac_add_aff_partial_x86_64_adx(p256_jac *r, const p256_jac *a,
 *                                            const p256_aff *b, uint64_t b_inf);
 *
 * Each computes exactly the field values of its C twin p256_jac_*_c (same formula, same
 * exceptional-case masks). Every field operation here returns the representative in
 * [0, p), as field_impl.h's do, so a value is a unique 4-limb string and the limbs match
 * the C exactly whatever the order of the operations (tests/c/test_point_asm.c checks
 * it). A point is 12 little-endian limbs (X, Y, Z; Montgomery domain, each < p), an
 * affine point 8; masks are 0 or all-ones. r may alias any input: the inputs are copied
 * into the stack frame first and r is written last. SysV ABI; only run after the caller
 * has checked CPUID for BMI2 and ADX (backend.c).
 *
 * Constant time: no branch and no memory address depends on the data (the one loop,
 * p256_jac_double_n's, counts the public n). Selections are
 * CMOVcc on a mask's flags (TEST of a 0/all-ones word) or AND with a mask; every
 * instruction used is on Intel's list of Data Operand Independent Timing instructions.
 *
 * Why not call p256_fe_mul_x86_64_adx from C: each call saves and restores six
 * callee-saved registers and the C compiler chooses the order of the calls and of the
 * inline add/sub (gcc and clang differ). Here the products are internal subroutines
 * with a private convention, and the linear operations are macros on registers.
 *
 * Private convention of the internal subroutines (technique as in OpenSSL's
 * ecp_nistz256-x86_64 __ecp_nistz256_mul_montx, written anew for this file):
 *   p256_point_mul: in  rsi = &a, rcx = &b (4 limbs each, < p, in memory)
 *                   out r12, r13, r14, r15 = a*b/2^256 mod p, fully reduced
 *   p256_point_sqr: in  rsi = &a;  out r12..r15 = a^2/2^256 mod p
 *   both clobber rax, rbx, rcx, rdx, rsi, rdi, rbp, r8..r11 and the flags; they read
 *   only their operands and save nothing (the public functions save the callee-saved
 *   registers once). The operands are slots of the caller's frame (addressed before the
 *   call, so the return address on the stack does not matter).
 * Outside the subroutines: R = r12..r15 holds the last product, C = r8..r11 a second
 * value; the field macros use rax, rbx, rcx, rdx, rbp as temporaries and rdi/rsi for
 * masks and pointers.
 *
 * The products are those of field_x86_64.S (x86_64_mont.h has the shared code and
 * the bounds: Gueron-Krasnov, eprint 2013/816, Montgomery reduction using the form of
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, whose lowest word makes the Montgomery factor
 * m = t mod 2^64), the same Montgomery step (by shifts here, by MULX in
 * group_x86_64_mulx.S, which assembles this file with P256_X86_64_MULX_STEP), with the
 * result left in registers.
 */

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif
#include "x86_64_mont.h"

    .section .rodata
    .p2align 5
/* p, 1 in the Montgomery domain (R mod p). */
.Lp256_p:
    .quad   0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001
.Lp256_one:
    .quad   0x0000000000000001, 0xffffffff00000000, 0xffffffffffffffff, 0x00000000fffffffe

    .text

/* ---- Frame and moves ------------------------------------------------------------- */

/* Save the six callee-saved registers and open a frame of \size bytes. */
.macro PT_PROLOGUE size
    .cfi_startproc
    _CET_ENDBR
    P256_SAVE_CALLEE
    subq    $\size, %rsp
    .cfi_adjust_cfa_offset \size
.endm

.macro PT_EPILOGUE size
    addq    $\size, %rsp
    .cfi_adjust_cfa_offset -\size
    P256_RESTORE_CALLEE
    ret
    .cfi_endproc
.endm

/* Frame slot \off <-> four registers. */
.macro PT_LD off, x0, x1, x2, x3
    movq    \off(%rsp), \x0
    movq    \off+8(%rsp), \x1
    movq    \off+16(%rsp), \x2
    movq    \off+24(%rsp), \x3
.endm

.macro PT_ST off, x0, x1, x2, x3
    movq    \x0, \off(%rsp)
    movq    \x1, \off+8(%rsp)
    movq    \x2, \off+16(%rsp)
    movq    \x3, \off+24(%rsp)
.endm

/* \n bytes (a multiple of 32) from (\src) to frame offset \dst, through rax. */
.macro PT_COPY_IN src, dst, n
    .irp o, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88
    .if \o < \n
    movq    \o(\src), %rax
    movq    %rax, \dst+\o(%rsp)
    .endif
    .endr
.endm

/* \n bytes (a multiple of 32) from frame offset \src to (\dst), through rax. */
.macro PT_COPY_OUT src, dst, n
    .irp o, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88
    .if \o < \n
    movq    \src+\o(%rsp), %rax
    movq    %rax, \o(\dst)
    .endif
    .endr
.endm

/* R = product of frame slots \a, \b (or the square of \a). */
.macro PT_MUL a, b
    leaq    \a(%rsp), %rsi
    leaq    \b(%rsp), %rcx
    call    p256_point_mul
.endm

.macro PT_SQR a
    leaq    \a(%rsp), %rsi
    call    p256_point_sqr
.endm

/* ---- Field operations on registers (all results in [0, p)) ------------------------ */

/*
 * x = x + y mod p, x and y < p; y registers or memory (y may be x itself: doubling).
 * The sum s < 2p has 257 bits (carry in rbp); s - p is computed into rax, rbx, rcx,
 * rdx with the borrow through rbp, and a borrow means s < p: keep s, else take s - p.
 */
.macro FE_ADD x0, x1, x2, x3, y0, y1, y2, y3
    xorl    %ebp, %ebp
    addq    \y0, \x0
    adcq    \y1, \x1
    adcq    \y2, \x2
    adcq    \y3, \x3
    adcq    $0, %rbp
    movq    \x0, %rax
    movq    \x1, %rbx
    movq    \x2, %rcx
    movq    \x3, %rdx
    subq    $-1, %rax               /* p0 = 2^64 - 1 */
    sbbq    .Lp256_p+8(%rip), %rbx
    sbbq    $0, %rcx
    sbbq    .Lp256_p+24(%rip), %rdx
    sbbq    $0, %rbp
    cmovncq %rax, \x0
    cmovncq %rbx, \x1
    cmovncq %rcx, \x2
    cmovncq %rdx, \x3
.endm

/* x = x + (frame slot \off) mod p. */
.macro FE_ADD_M x0, x1, x2, x3, off
    FE_ADD  \x0, \x1, \x2, \x3, \off(%rsp), \off+8(%rsp), \off+16(%rsp), \off+24(%rsp)
.endm

/*
 * x = x - y mod p, x, y < p: the 256-bit difference, plus p when it borrowed (the
 * borrow as a mask in rax: p & mask is (mask, mask >> 32, 0, mask & p3)). x - y + p is
 * in [1, p) when x < y, and x - y in [0, p) otherwise.
 */
.macro FE_SUB x0, x1, x2, x3, y0, y1, y2, y3
    subq    \y0, \x0
    sbbq    \y1, \x1
    sbbq    \y2, \x2
    sbbq    \y3, \x3
    sbbq    %rax, %rax
    movq    %rax, %rbx
    shrq    $32, %rbx
    movq    %rax, %rcx
    andq    .Lp256_p+24(%rip), %rcx
    addq    %rax, \x0
    adcq    %rbx, \x1
    adcq    $0, \x2
    adcq    %rcx, \x3
.endm

.macro FE_SUB_M x0, x1, x2, x3, off
    FE_SUB  \x0, \x1, \x2, \x3, \off(%rsp), \off+8(%rsp), \off+16(%rsp), \off+24(%rsp)
.endm

/*
 * x = x/2 mod p: add p when x is odd (mask from bit 0), giving an even value < 2p of
 * 257 bits (carry in rbp), and shift it right by one: the result is < p.
 */
.macro FE_HALF x0, x1, x2, x3
    movq    \x0, %rax
    andq    $1, %rax
    negq    %rax
    movq    %rax, %rbx
    shrq    $32, %rbx
    movq    %rax, %rcx
    andq    .Lp256_p+24(%rip), %rcx
    xorl    %ebp, %ebp
    addq    %rax, \x0
    adcq    %rbx, \x1
    adcq    $0, \x2
    adcq    %rcx, \x3
    adcq    $0, %rbp
    shrdq   $1, \x1, \x0
    shrdq   $1, \x2, \x1
    shrdq   $1, \x3, \x2
    shrdq   $1, %rbp, \x3
.endm

/* \m = all-ones if the four words (registers or memory) are all 0, else 0. */
.macro FE_IS_ZERO m, x0, x1, x2, x3
    movq    \x0, \m
    orq     \x1, \m
    orq     \x2, \m
    orq     \x3, \m
    negq    \m                      /* CF = (value != 0) */
    sbbq    \m, \m
    notq    \m
.endm

.macro FE_IS_ZERO_M m, off
    FE_IS_ZERO \m, \off(%rsp), \off+8(%rsp), \off+16(%rsp), \off+24(%rsp)
.endm

/* Frame slot \off = x when the mask in the frame slot \mask is all-ones (CMOV). */
.macro FE_CMOV_M off, x0, x1, x2, x3, mask
    movq    \mask(%rsp), %rax
    PT_LD   \off, %rbx, %rcx, %rdx, %rbp
    testq   %rax, %rax
    cmovnzq \x0, %rbx
    cmovnzq \x1, %rcx
    cmovnzq \x2, %rdx
    cmovnzq \x3, %rbp
    PT_ST   \off, %rbx, %rcx, %rdx, %rbp
.endm

/*
 * One output coordinate: r->coord at byte \roff of (rdi) = frame slot \v, replaced by
 * the 4 words at \b1(\r1) when rax is all-ones (a at infinity), then by \b2(%rsp) when
 * rsi is all-ones (b at infinity): the C's two p256_jac_cmov in the same order.
 */
.macro PT_OUT roff, v, b1, r1, b2
    PT_LD   \v, %r8, %r9, %r10, %r11
    testq   %rax, %rax
    cmovnzq \b1(\r1), %r8
    cmovnzq \b1+8(\r1), %r9
    cmovnzq \b1+16(\r1), %r10
    cmovnzq \b1+24(\r1), %r11
    testq   %rsi, %rsi
    cmovnzq \b2(%rsp), %r8
    cmovnzq \b2+8(%rsp), %r9
    cmovnzq \b2+16(%rsp), %r10
    cmovnzq \b2+24(%rsp), %r11
    movq    %r8, \roff(%rdi)
    movq    %r9, \roff+8(%rdi)
    movq    %r10, \roff+16(%rdi)
    movq    %r11, \roff+24(%rdi)
.endm

/* ---- Montgomery multiplication and squaring (private convention, see the top) ------ */

/* T = a*b (x86_64_mont.h) with rsi = a, rcx = b, reduced into r12..r15. */
    .p2align 5
    .type   p256_point_mul, @function
p256_point_mul:
    .cfi_startproc
    P256_MUL_T
    P256_REDUCE_T
    ret
    .cfi_endproc
    .size   p256_point_mul, .-p256_point_mul

/* T = a^2 (x86_64_mont.h) with rsi = a, reduced into r12..r15. */
    .p2align 5
    .type   p256_point_sqr, @function
p256_point_sqr:
    .cfi_startproc
    P256_SQR_T
    P256_REDUCE_T
    ret
    .cfi_endproc
    .size   p256_point_sqr, .-p256_point_sqr

/* ---- Doubling -------------------------------------------------------------------- */

/*
 * The halved-slope doubling of p256_jac_double_c (group_impl.h says why it is right),
 * a = -3:
 *   S = Y^2, T = X S, L = 3/2 (X - Z^2)(X + Z^2),
 *   X3 = L^2 - 2T, Y3 = L (T - X3) - S^2, Z3 = Y Z.
 * 4M + 4S and eight linear operations (3/2 v is v + v/2). Z = 0 gives Z3 = 0 (infinity
 * doubles to infinity) with no special case.
 */
    .set    D_X, 0
    .set    D_Y, 32
    .set    D_Z, 64
    .set    D_S, 96
    .set    D_T, 128
    .set    D_L, 160
    .set    D_U, 192
    .set    D_S2, 224
    .set    D_R, 256
    .set    D_N, 264
    .set    D_SIZE, 280

/*
 * The frame's point (D_X, D_Y, D_Z) doubled in place. Each coordinate is overwritten
 * after its last read: X by X3 once T = X S is taken, Z by Z3 (its own last use), Y by
 * Y3 at the end.
 *
 * The order is a schedule: Z^2 first (Z3 of the doubling before is ready long before
 * its Y3), then the chain X -> L -> L^2 -> X3 -> the last product, with the independent
 * products (Y Z, S^2) beside the dependent ones so that the out-of-order core overlaps
 * them.
 */
.macro PT_DOUBLE_FRAME
    PT_SQR  D_Z                                     /* Z^2 */
    PT_LD   D_X, %r8, %r9, %r10, %r11
    FE_SUB  %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
    PT_ST   D_L, %r8, %r9, %r10, %r11               /* X - Z^2 */
    PT_LD   D_X, %r8, %r9, %r10, %r11
    FE_ADD  %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
    PT_ST   D_U, %r8, %r9, %r10, %r11               /* X + Z^2 */
    PT_SQR  D_Y
    PT_ST   D_S, %r12, %r13, %r14, %r15             /* S = Y^2 */
    PT_MUL  D_L, D_U                                /* X^2 - Z^4 */
    movq    %r12, %r8
    movq    %r13, %r9
    movq    %r14, %r10
    movq    %r15, %r11
    FE_HALF %r8, %r9, %r10, %r11
    FE_ADD  %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
    PT_ST   D_L, %r12, %r13, %r14, %r15             /* L = 3/2 (X^2 - Z^4) */
    PT_MUL  D_X, D_S
    PT_ST   D_T, %r12, %r13, %r14, %r15             /* T = X S */
    PT_SQR  D_L
    FE_SUB_M %r12, %r13, %r14, %r15, D_T
    FE_SUB_M %r12, %r13, %r14, %r15, D_T
    PT_ST   D_X, %r12, %r13, %r14, %r15             /* X3 = L^2 - 2T */
    PT_LD   D_T, %r8, %r9, %r10, %r11
    FE_SUB  %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
    PT_ST   D_U, %r8, %r9, %r10, %r11               /* T - X3 */
    PT_MUL  D_Y, D_Z
    PT_ST   D_Z, %r12, %r13, %r14, %r15             /* Z3 = Y Z */
    PT_SQR  D_S
    PT_ST   D_S2, %r12, %r13, %r14, %r15            /* S^2 */
    PT_MUL  D_L, D_U
    FE_SUB_M %r12, %r13, %r14, %r15, D_S2           /* Y3 = L (T - X3) - S^2 */
    PT_ST   D_Y, %r12, %r13, %r14, %r15
.endm

/* r = the frame's point (12 words at D_X). */
.macro PT_DOUBLE_OUT
    movq    D_R(%rsp), %rdi
    PT_COPY_OUT D_X, %rdi, 96
.endm

    .globl  P256_X86_64_SYM(p256_jac_double)
    .hidden P256_X86_64_SYM(p256_jac_double)
    .type   P256_X86_64_SYM(p256_jac_double), @function
    .p2align 5
P256_X86_64_SYM(p256_jac_double):
    PT_PROLOGUE D_SIZE
    movq    %rdi, D_R(%rsp)
    PT_COPY_IN %rsi, D_X, 96
    PT_DOUBLE_FRAME
    PT_DOUBLE_OUT
    PT_EPILOGUE D_SIZE
    .size   P256_X86_64_SYM(p256_jac_double), .-P256_X86_64_SYM(p256_jac_double)

/*
 * void p256_jac_double_n_x86_64_adx(p256_jac *r, const p256_jac *a, uint64_t n):
 * r = 2^n a for n >= 1, n doublings in one frame (no entry, copy and exit per
 * doubling). n is public: the loop's branch depends on it alone.
 */
    .globl  P256_X86_64_SYM(p256_jac_double_n)
    .hidden P256_X86_64_SYM(p256_jac_double_n)
    .type   P256_X86_64_SYM(p256_jac_double_n), @function
    .p2align 5
P256_X86_64_SYM(p256_jac_double_n):
    PT_PROLOGUE D_SIZE
    movq    %rdi, D_R(%rsp)
    movq    %rdx, D_N(%rsp)
    PT_COPY_IN %rsi, D_X, 96
1:
    PT_DOUBLE_FRAME
    decq    D_N(%rsp)
    jnz     1b
    PT_DOUBLE_OUT
    PT_EPILOGUE D_SIZE
    .size   P256_X86_64_SYM(p256_jac_double_n), .-P256_X86_64_SYM(p256_jac_double_n)

/* ---- The mixed additions' entry and exit (slots \s_R, \s_AX, ... of the layout \s) - */

/* r, b_inf and the copies of a (12 words) and b (8) into the frame; a_inf = (Z1 = 0). */
.macro PT_AFF_ENTRY s
    movq    %rdi, \s\()_R(%rsp)
    movq    %rcx, \s\()_BINF(%rsp)
    PT_COPY_IN %rsi, \s\()_AX, 96
    PT_COPY_IN %rdx, \s\()_BX, 64
    FE_IS_ZERO_M %rax, \s\()_AZ
    movq    %rax, \s\()_AINF(%rsp)
.endm

/* r = (X3, Y3, Z3), then (X2, Y2, 1) if a_inf, then a if b_inf (the C's order). */
.macro PT_AFF_OUT s, plant=0
    movq    \s\()_R(%rsp), %rdi
    movq    \s\()_AINF(%rsp), %rax
    movq    \s\()_BINF(%rsp), %rsi
    leaq    .Lp256_one(%rip), %rdx
    .if \plant
#if defined(P256_PLANT_POINT_BUG) && P256_PLANT_POINT_BUG == 3 /* test_point_asm's control */
    leaq    \s\()_Z3(%rsp), %rdx
#endif
    .endif
    PT_OUT  0, \s\()_X3, \s\()_BX, %rsp, \s\()_AX
    PT_OUT  32, \s\()_Y3, \s\()_BY, %rsp, \s\()_AY
    PT_OUT  64, \s\()_Z3, 0, %rdx, \s\()_AZ
.endm

/* ---- Complete additions ---------------------------------------------------------- */

/*
 * The unified core, as p256_jac_add_unified_core (group_impl.h has the derivation,
 * Brier-Joye, PKC 2002): with U1, U2, S1, S2, Z = Z1 Z2 and Z^4 in frame slots,
 *   T = U1 + U2, M = S1 + S2, R = T^2 - U1 U2 - 3 Z^4;
 *   degenerate (M = R = 0): R = S1 - S2, M = U1 - U2 instead (masked);
 *   Z3 = Z M, X3 = R^2 - T M^2, Y3 = (R (T M^2 - 2 X3) - M^4 [0 if degenerate]) / 2.
 * Results in the frame slots A_X3, A_Y3, A_Z3. The slot names are shared by both callers
 * (same layout up to A_SIZE).
 */
    .set    A_AX, 0
    .set    A_AY, 32
    .set    A_AZ, 64
    .set    A_BX, 96
    .set    A_BY, 128
    .set    A_BZ, 160
    .set    A_Z1Z1, 192
    .set    A_Z2Z2, 224
    .set    A_U1, 256
    .set    A_U2, 288
    .set    A_S1, 320
    .set    A_S2, 352
    .set    A_ZZ, 384
    .set    A_Z4, 416
    .set    A_T, 448
    .set    A_TT, 480
    .set    A_M, 512
    .set    A_RR, 544
    .set    A_M2, 576
    .set    A_Q, 608
    .set    A_N, 640
    .set    A_X3, 672
    .set    A_Y3, 704
    .set    A_Z3, 736
    .set    A_DEG, 768
    .set    A_AINF, 776
    .set    A_BINF, 784
    .set    A_R, 792
    .set    A_SIZE, 808

.macro PT_ADD_CORE u1, u2, s1, s2, zz, z4
    PT_LD   \u1, %r8, %r9, %r10, %r11
    FE_ADD_M %r8, %r9, %r10, %r11, \u2
    PT_ST   A_T, %r8, %r9, %r10, %r11               /* T = U1 + U2 */
    PT_MUL  \u1, \u2
    PT_ST   A_TT, %r12, %r13, %r14, %r15            /* U1 U2 */
    PT_SQR  A_T
    FE_SUB_M %r12, %r13, %r14, %r15, A_TT
    PT_LD   \z4, %r8, %r9, %r10, %r11
    FE_ADD_M %r8, %r9, %r10, %r11, \z4
    FE_ADD_M %r8, %r9, %r10, %r11, \z4
    FE_SUB  %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
    PT_ST   A_RR, %r12, %r13, %r14, %r15            /* R = T^2 - U1 U2 - 3 Z^4 */
    PT_LD   \s1, %r8, %r9, %r10, %r11
    FE_ADD_M %r8, %r9, %r10, %r11, \s2
    PT_ST   A_M, %r8, %r9, %r10, %r11               /* M = S1 + S2 */
    FE_IS_ZERO %rdi, %r8, %r9, %r10, %r11
    FE_IS_ZERO %rsi, %r12, %r13, %r14, %r15
    andq    %rsi, %rdi
    movq    %rdi, A_DEG(%rsp)                       /* degenerate: M = 0 and R = 0 */
    PT_LD   \s1, %r8, %r9, %r10, %r11
    FE_SUB_M %r8, %r9, %r10, %r11, \s2
    FE_CMOV_M A_RR, %r8, %r9, %r10, %r11, A_DEG     /* R = S1 - S2 if degenerate */
    PT_LD   \u1, %r8, %r9, %r10, %r11
    FE_SUB_M %r8, %r9, %r10, %r11, \u2
#if !defined(P256_PLANT_POINT_BUG) || P256_PLANT_POINT_BUG != 1 /* test_point_asm's control */
    FE_CMOV_M A_M, %r8, %r9, %r10, %r11, A_DEG      /* M = U1 - U2 if degenerate */
#endif
    PT_SQR  A_M
    PT_ST   A_M2, %r12, %r13, %r14, %r15            /* M^2 */
    PT_SQR  A_RR
    PT_ST   A_X3, %r12, %r13, %r14, %r15            /* R^2 */
    PT_MUL  \zz, A_M
    PT_ST   A_Z3, %r12, %r13, %r14, %r15            /* Z3 = Z M */
    PT_MUL  A_T, A_M2
    PT_ST   A_Q, %r12, %r13, %r14, %r15             /* Q = T M^2 */
    PT_SQR  A_M2
    movq    A_DEG(%rsp), %rax
    notq    %rax
    andq    %rax, %r12
    andq    %rax, %r13
    andq    %rax, %r14
    andq    %rax, %r15
    PT_ST   A_N, %r12, %r13, %r14, %r15             /* M^4, or 0 if degenerate */
    PT_LD   A_X3, %r8, %r9, %r10, %r11
    FE_SUB_M %r8, %r9, %r10, %r11, A_Q
    PT_ST   A_X3, %r8, %r9, %r10, %r11              /* X3 = R^2 - Q */
    movq    %r8, %r12
    movq    %r9, %r13
    movq    %r10, %r14
    movq    %r11, %r15
    FE_ADD  %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
    PT_LD   A_Q, %r8, %r9, %r10, %r11
    FE_SUB  %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
    PT_ST   A_TT, %r8, %r9, %r10, %r11              /* Q - 2 X3 */
    PT_MUL  A_RR, A_TT
    FE_SUB_M %r12, %r13, %r14, %r15, A_N
    FE_HALF %r12, %r13, %r14, %r15
    PT_ST   A_Y3, %r12, %r13, %r14, %r15            /* Y3 = (R (Q - 2 X3) - M^4) / 2 */
.endm

/*
 * p256_jac_add_c: Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1 Z2Z2, U2 = X2 Z1Z1,
 * S1 = Y1 Z2 Z2Z2, S2 = Y2 Z1 Z1Z1, Z = Z1 Z2, Z^4 = (Z1Z1 Z2Z2)^2, the core, then
 * r = b if a is infinity, r = a if b is infinity (masks from Z = 0, in that order).
 */
    .globl  P256_X86_64_SYM(p256_jac_add)
    .hidden P256_X86_64_SYM(p256_jac_add)
    .type   P256_X86_64_SYM(p256_jac_add), @function
    .p2align 5
P256_X86_64_SYM(p256_jac_add):
    PT_PROLOGUE A_SIZE
    movq    %rdi, A_R(%rsp)
    PT_COPY_IN %rsi, A_AX, 96
    PT_COPY_IN %rdx, A_BX, 96
    FE_IS_ZERO_M %rax, A_AZ
    movq    %rax, A_AINF(%rsp)
    FE_IS_ZERO_M %rax, A_BZ
    movq    %rax, A_BINF(%rsp)

    /* Products in an order that puts independent ones side by side (a schedule). */
    PT_SQR  A_AZ
    PT_ST   A_Z1Z1, %r12, %r13, %r14, %r15          /* Z1Z1 = Z1^2 */
    PT_SQR  A_BZ
    PT_ST   A_Z2Z2, %r12, %r13, %r14, %r15          /* Z2Z2 = Z2^2 */
    PT_MUL  A_AY, A_BZ
    PT_ST   A_S1, %r12, %r13, %r14, %r15            /* Y1 Z2 */
    PT_MUL  A_BY, A_AZ
    PT_ST   A_S2, %r12, %r13, %r14, %r15            /* Y2 Z1 */
    PT_MUL  A_AZ, A_BZ
    PT_ST   A_ZZ, %r12, %r13, %r14, %r15            /* Z = Z1 Z2 */
    PT_MUL  A_AX, A_Z2Z2
    PT_ST   A_U1, %r12, %r13, %r14, %r15            /* U1 = X1 Z2Z2 */
    PT_MUL  A_BX, A_Z1Z1
    PT_ST   A_U2, %r12, %r13, %r14, %r15            /* U2 = X2 Z1Z1 */
    PT_MUL  A_Z1Z1, A_Z2Z2
    PT_ST   A_Z4, %r12, %r13, %r14, %r15            /* Z^2 */
    PT_MUL  A_S1, A_Z2Z2
    PT_ST   A_S1, %r12, %r13, %r14, %r15            /* S1 = Y1 Z2 Z2Z2 */
    PT_MUL  A_S2, A_Z1Z1
    PT_ST   A_S2, %r12, %r13, %r14, %r15            /* S2 = Y2 Z1 Z1Z1 */
    PT_SQR  A_Z4
    PT_ST   A_Z4, %r12, %r13, %r14, %r15            /* Z^4 */

    PT_ADD_CORE A_U1, A_U2, A_S1, A_S2, A_ZZ, A_Z4

    movq    A_R(%rsp), %rdi
    movq    A_AINF(%rsp), %rax
    movq    A_BINF(%rsp), %rsi
    PT_OUT  0, A_X3, A_BX, %rsp, A_AX
    PT_OUT  32, A_Y3, A_BY, %rsp, A_AY
    PT_OUT  64, A_Z3, A_BZ, %rsp, A_AZ
    PT_EPILOGUE A_SIZE
    .size   P256_X86_64_SYM(p256_jac_add), .-P256_X86_64_SYM(p256_jac_add)

/*
 * p256_jac_add_aff_c: b = (X2, Y2, 1), so U1 = X1, S1 = Y1, Z = Z1, U2 = X2 Z1Z1,
 * S2 = Y2 Z1 Z1Z1, Z^4 = Z1Z1^2; r = (X2, Y2, 1) if a is infinity, r = a if b_inf.
 */
    .globl  P256_X86_64_SYM(p256_jac_add_aff)
    .hidden P256_X86_64_SYM(p256_jac_add_aff)
    .type   P256_X86_64_SYM(p256_jac_add_aff), @function
    .p2align 5
P256_X86_64_SYM(p256_jac_add_aff):
    PT_PROLOGUE A_SIZE
    PT_AFF_ENTRY A

    PT_SQR  A_AZ
    PT_ST   A_Z1Z1, %r12, %r13, %r14, %r15
    PT_MUL  A_BY, A_AZ
    PT_ST   A_S2, %r12, %r13, %r14, %r15
    PT_MUL  A_BX, A_Z1Z1
    PT_ST   A_U2, %r12, %r13, %r14, %r15
    PT_MUL  A_S2, A_Z1Z1
    PT_ST   A_S2, %r12, %r13, %r14, %r15
    PT_SQR  A_Z1Z1
    PT_ST   A_Z4, %r12, %r13, %r14, %r15

    PT_ADD_CORE A_AX, A_U2, A_AY, A_S2, A_AZ, A_Z4

    PT_AFF_OUT A
    PT_EPILOGUE A_SIZE
    .size   P256_X86_64_SYM(p256_jac_add_aff), .-P256_X86_64_SYM(p256_jac_add_aff)

/* ---- Incomplete mixed addition --------------------------------------------------- */

/*
 * madd-2007-bl (Bernstein-Lange, EFD), as p256_jac_add_aff_partial_c:
 *   Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1, Rr = S2 - Y1,
 *   HH = H^2, HHH = H HH, V = X1 HH, X3 = Rr^2 - HHH - 2V, Y3 = Rr (V - X3) - Y1 HHH,
 *   Z3 = Z1 H; r = (X2, Y2, 1) if a is infinity, r = a if b_inf. Wrong for a == +-b
 *   (both finite): the caller excludes it (group.h).
 */
    .set    P_AX, 0
    .set    P_AY, 32
    .set    P_AZ, 64
    .set    P_BX, 96
    .set    P_BY, 128
    .set    P_Z1Z1, 160
    .set    P_S2, 192
    .set    P_H, 224
    .set    P_RR, 256
    .set    P_HH, 288
    .set    P_HHH, 320
    .set    P_V, 352
    .set    P_X3, 384
    .set    P_Y3, 416
    .set    P_Z3, 448
    .set    P_T, 480
    .set    P_AINF, 512
    .set    P_BINF, 520
    .set    P_R, 528
    .set    P_SIZE, 536

    .globl  P256_X86_64_SYM(p256_jac_add_aff_partial)
    .hidden P256_X86_64_SYM(p256_jac_add_aff_partial)
    .type   P256_X86_64_SYM(p256_jac_add_aff_partial), @function
    .p2align 5
P256_X86_64_SYM(p256_jac_add_aff_partial):
    PT_PROLOGUE P_SIZE
    PT_AFF_ENTRY P

    PT_SQR  P_AZ
    PT_ST   P_Z1Z1, %r12, %r13, %r14, %r15          /* Z1Z1 = Z1^2 */
    PT_MUL  P_BY, P_AZ
    PT_ST   P_S2, %r12, %r13, %r14, %r15            /* Y2 Z1 */
    PT_MUL  P_BX, P_Z1Z1
    FE_SUB_M %r12, %r13, %r14, %r15, P_AX
    PT_ST   P_H, %r12, %r13, %r14, %r15             /* H = X2 Z1Z1 - X1 */
    PT_MUL  P_S2, P_Z1Z1
    FE_SUB_M %r12, %r13, %r14, %r15, P_AY
    PT_ST   P_RR, %r12, %r13, %r14, %r15            /* Rr = Y2 Z1 Z1Z1 - Y1 */
    /* Critical path Z1Z1 -> U2 -> H -> HH -> HHH -> X3 -> Y3; the other products fill
     * in beside it (a schedule). */
    PT_SQR  P_H
    PT_ST   P_HH, %r12, %r13, %r14, %r15            /* HH = H^2 */
    PT_MUL  P_AZ, P_H
    PT_ST   P_Z3, %r12, %r13, %r14, %r15            /* Z3 = Z1 H */
    PT_SQR  P_RR
    PT_ST   P_X3, %r12, %r13, %r14, %r15            /* Rr^2 */
    PT_MUL  P_HH, P_H
    PT_ST   P_HHH, %r12, %r13, %r14, %r15           /* HHH = H^3 */
    PT_MUL  P_AX, P_HH
    PT_ST   P_V, %r12, %r13, %r14, %r15             /* V = X1 HH */
    PT_MUL  P_AY, P_HHH
    PT_ST   P_Y3, %r12, %r13, %r14, %r15            /* Y1 HHH */
    PT_LD   P_X3, %r12, %r13, %r14, %r15
    FE_SUB_M %r12, %r13, %r14, %r15, P_HHH
    FE_SUB_M %r12, %r13, %r14, %r15, P_V
    FE_SUB_M %r12, %r13, %r14, %r15, P_V
    PT_ST   P_X3, %r12, %r13, %r14, %r15            /* X3 = Rr^2 - HHH - 2 V */
    PT_LD   P_V, %r8, %r9, %r10, %r11
    FE_SUB  %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
    PT_ST   P_T, %r8, %r9, %r10, %r11               /* V - X3 */
    PT_MUL  P_RR, P_T
    FE_SUB_M %r12, %r13, %r14, %r15, P_Y3
    PT_ST   P_Y3, %r12, %r13, %r14, %r15            /* Y3 = Rr (V - X3) - Y1 HHH */

    PT_AFF_OUT P, 1
    PT_EPILOGUE P_SIZE
    .size   P256_X86_64_SYM(p256_jac_add_aff_partial), .-P256_X86_64_SYM(p256_jac_add_aff_partial)

    .section .note.GNU-stack, "", @progbits
