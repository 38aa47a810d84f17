/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_x86_64.S: Montgomery multiplication and squaring in GF(p), p the P-256 prime,
 * for x86-64 CPUs with BMI2 (MULX) and ADX (ADCX/ADOX). The portable C in field_impl.h
 * is the reference; tests/c/test_backend.c compares the two.
 *
 *   void p256_fe_mul_x86_64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *   void p256_fe_sqr_x86_64_adx(uint64_t r[4], const uint64_t a[4]);
 *
 * r = a*b/R mod p and r = a^2/R mod p, R = 2^256; 4 little-endian 64-bit limbs; inputs
 * fully reduced (< p), output fully reduced; r may alias a or b (a and b are read in full
 * before r is first written). SysV ABI. Only run after the caller has checked CPUID for
 * BMI2 and ADX (backend.c does so at import).
 *
 * Constant time: no branches and no memory addresses depend on the data; MULX, ADCX,
 * ADOX, ADD/ADC/SUB/SBB, shifts and CMOVcc have data-independent timing (they are on
 * Intel's list of Data Operand Independent Timing instructions). The final reduction is
 * a CMOV, not a branch.
 *
 * References: S. Gueron, V. Krasnov, "Fast prime field elliptic-curve cryptography with
 * 256-bit primes", J. Cryptographic Engineering 5 (2015), eprint 2013/816 (Montgomery
 * multiplication that uses the special form of the P-256 prime); V. Gopal, J. Guilford,
 * E. Ozturk, W. Feghali et al., "New Instructions Supporting Large Integer Arithmetic on
 * Intel Architecture Processors", Intel white paper 327831 (2012) (MULX leaves the flags
 * alone, ADCX/ADOX carry through CF and OF only, so two addition chains interleave).
 *
 * Shape. Both functions compute the full 512-bit product T first, then reduce it
 * (separated operand scanning rather than interleaved CIOS): the reduction of the low
 * half then depends on nothing but the low half, so it overlaps the high half's
 * additions, and the conditional subtraction at the end is replaced by two parallel
 * carry chains and a CMOV (P256_REDUCE_FINISH). On the machine this was tuned on (AMD
 * Zen 4) these operations are bound by latency and by the number of carry-consuming
 * instructions (ADC/ADCX/ADOX/SBB/CMOV, two per cycle), not by MULX (one per cycle):
 * that decided the reduction by shifts (x86_64_mont.h) and the order of the chains.
 * Intel cores run the MULX step faster: field_x86_64_mulx.S assembles this file with it.
 *
 * The prime and the Montgomery step
 * ---------------------------------
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, in words p0 = 2^64-1, p1 = 2^32-1, p2 = 0,
 * p3 = 2^64 - 2^32 + 1 = 0xffffffff00000001. Because p0 = -1 mod 2^64, -p^-1 = 1
 * mod 2^64: the Montgomery factor of an accumulator t is simply m = t mod 2^64, and
 *
 *   (t + m*p) / 2^64 = floor(t / 2^64) + m * (p+1) / 2^64
 *                    = floor(t / 2^64) + m*2^32 + m*p3*2^128
 *
 * (t - m is divisible by 2^64 and (p+1)/2^64 = 2^192 - 2^160 + 2^128 + 2^32
 * = p3*2^128 + 2^32). So one step adds m<<32 and m>>32 at words 0-1 and the 128-bit
 * m*p3 at words 2-3 of the shifted accumulator, and m*p3 = m*2^64 - m*2^32 + m is
 * (m - (m<<32), m - (m>>32) - borrow): shifts and a subtraction, no multiplication
 * (or, in the MULX schedule, two MULX by the constants 2^32 and p3).
 */

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif
#include "x86_64_mont.h"

    .text

/* Both functions use every general-purpose register: save the callee-saved ones, and r. */
.macro P256_PROLOGUE
    .cfi_startproc
    _CET_ENDBR
    P256_SAVE_CALLEE
    pushq   %rdi                    /* r, popped by P256_REDUCE_FINISH */
    .cfi_adjust_cfa_offset 8
.endm

.macro P256_EPILOGUE
    P256_RESTORE_CALLEE
    ret
    .cfi_endproc
.endm

/*
 * The end of both functions: T -> r12..r15 (P256_REDUCE_T, x86_64_mont.h, has the
 * bounds), stored to r, whose address is on the stack (the function's first push).
 */
.macro P256_REDUCE_FINISH
    P256_REDUCE_T
    popq    %rdi
    .cfi_adjust_cfa_offset -8
    movq    %r12, (%rdi)
    movq    %r13, 8(%rdi)
    movq    %r14, 16(%rdi)
    movq    %r15, 24(%rdi)
.endm

/* Multiplication: T = a*b (x86_64_mont.h), then P256_REDUCE_FINISH. */
    .globl  P256_X86_64_SYM(p256_fe_mul)
    .hidden P256_X86_64_SYM(p256_fe_mul)
    .type   P256_X86_64_SYM(p256_fe_mul), @function
    .p2align 5
P256_X86_64_SYM(p256_fe_mul):
    P256_PROLOGUE
    movq    %rdx, %rcx

    P256_MUL_T

    P256_REDUCE_FINISH
    P256_EPILOGUE
    .size   P256_X86_64_SYM(p256_fe_mul), .-P256_X86_64_SYM(p256_fe_mul)

/* Squaring: T = a^2 (x86_64_mont.h), then P256_REDUCE_FINISH. */
    .globl  P256_X86_64_SYM(p256_fe_sqr)
    .hidden P256_X86_64_SYM(p256_fe_sqr)
    .type   P256_X86_64_SYM(p256_fe_sqr), @function
    .p2align 5
P256_X86_64_SYM(p256_fe_sqr):
    P256_PROLOGUE

    P256_SQR_T

    P256_REDUCE_FINISH
    P256_EPILOGUE
    .size   P256_X86_64_SYM(p256_fe_sqr), .-P256_X86_64_SYM(p256_fe_sqr)

    .section .note.GNU-stack, "", @progbits
