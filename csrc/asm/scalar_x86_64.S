/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scalar_x86_64.S: Montgomery multiplication and squaring modulo the P-256 group
 * order n, for x86-64 CPUs with BMI2 (MULX) and ADX (ADCX/ADOX). Contract:
 * csrc/scalar_asm.h.
 *
 *   void p256_scalar_mont_mul_x86_64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *   void p256_scalar_mont_sqr_x86_64_adx(uint64_t r[4], const uint64_t a[4]);
 *       r = a*b/R mod n, r = a^2/R mod n, R = 2^256; inputs < n, output < n; r may alias
 *       a or b (the inputs are read in full before r is written).
 *
 * n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551 (FIPS 186-5 /
 * SEC 2), -n^-1 mod 2^64 = 0xccd1c8aaee00bc4f. The C reference is scalar_impl.h's
 * p256_scalar_mont_mul; tests/c/test_scalar_asm.c compares the two.
 *
 * Constant time: no branch and no address depends on the data; MULX, IMUL, ADCX/ADOX,
 * ADD/ADC/SUB/SBB, CMOVcc and MOV are on Intel's list of Data Operand Independent Timing
 * instructions.
 *
 * Shape (separated operand scanning): the 512-bit product T = T_hi*2^256 + T_lo first
 * (MULX with the two carry chains CF/OF, Intel white paper 327831, "New Instructions
 * Supporting Large Integer Arithmetic"), then Montgomery's reduction (P. L. Montgomery,
 * "Modular multiplication without trial division", Math. Comp. 44, 1985) of T_lo alone:
 * (T + M*n)/2^256 = T_hi + (T_lo + M*n)/2^256. After k word steps on the 4-word window
 * it holds (T_lo + M_k*n)/2^(64k) < 2^(256-64k) + n < 2^256, so nothing leaves the
 * window; the last leaves u <= n. T_hi <= (n-1)^2/2^256 < n, so v = T_hi + u < 2n and
 * one conditional subtraction finishes: w = (T_hi + (2^256 - n)) + u, computed beside v
 * on the other carry chain, carries out of 256 bits exactly when v >= n, and is then
 * v - n mod 2^256 (T_hi + 2^256 - n < 2^256 since T_hi < n).
 */

#include "x86_64_mont.h"

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

    .section .rodata
    .p2align 5
.Lord:
    .quad   0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000
.Lord_n0inv:
    .quad   0xccd1c8aaee00bc4f
/* 2^256 - n, word by word. */
.Lord_neg:
    .quad   0x0c46353d039cdaaf, 0x4319055258e8617b, 0x0000000000000000, 0x00000000ffffffff

    .text

.macro P256_ORD_PROLOGUE
    .cfi_startproc
    _CET_ENDBR
    P256_SAVE_CALLEE
    pushq   %rdi                    /* r, popped by P256_ORD_FINISH */
    .cfi_adjust_cfa_offset 8
.endm

.macro P256_ORD_EPILOGUE
    P256_RESTORE_CALLEE
    ret
    .cfi_endproc
.endm

/*
 * One Montgomery word step on the window (w0, w1, w2, w3), value W < 2^256:
 * W' = (W + m*n)/2^64 with m = w0 * (-n^-1) mod 2^64, so the low word cancels; W' lands
 * in (w1, w2, w3, w0) and is < 2^192 + n < 2^256 (see the header), so the top word
 * hi(m*n3) + two carries cannot wrap. rbp must be 0; clobbers rax, rdx.
 */
.macro P256_ORD_STEP w0, w1, w2, w3
    movq    \w0, %rdx
    imulq   .Lord_n0inv(%rip), %rdx  /* m */
    xorl    %eax, %eax              /* clears CF and OF */
    mulx    .Lord(%rip), %rax, %rbx
    adcx    %rax, \w0               /* = 0 by the choice of m, carry out */
    adox    %rbx, \w1
    mulx    .Lord+8(%rip), %rax, %rbx
    adcx    %rax, \w1
    adox    %rbx, \w2
    mulx    .Lord+16(%rip), %rax, %rbx
    adcx    %rax, \w2
    adox    %rbx, \w3
    mulx    .Lord+24(%rip), %rax, \w0
    adcx    %rax, \w3
    adox    %rbp, \w0
    adcx    %rbp, \w0
.endm

/*
 * T = (r8..r15) < n^2 -> r = T/R mod n, with r's address on the stack (the prologue's
 * last push); rsi, rcx, rdi, rax, rbx, rdx are free, rbp = 0.
 */
.macro P256_ORD_FINISH
    P256_ORD_STEP %r8, %r9, %r10, %r11
    P256_ORD_STEP %r9, %r10, %r11, %r8
    P256_ORD_STEP %r10, %r11, %r8, %r9
    P256_ORD_STEP %r11, %r8, %r9, %r10
    movq    %r12, %rsi              /* d = T_hi + (2^256 - n) < 2^256: depends on T_hi */
    movq    %r13, %rcx              /* only, so it runs beside the steps above */
    movq    %r14, %rbx
    movq    %r15, %rdi
    addq    .Lord_neg(%rip), %rsi
    adcq    .Lord_neg+8(%rip), %rcx
    adcq    $0, %rbx
    adcq    .Lord_neg+24(%rip), %rdi
    xorl    %eax, %eax              /* clears CF and OF */
    adcx    %r8, %rsi               /* w = d + u */
    adox    %r8, %r12               /* v = T_hi + u (no carry out when w does not carry) */
    adcx    %r9, %rcx
    adox    %r9, %r13
    adcx    %r10, %rbx
    adox    %r10, %r14
    adcx    %r11, %rdi
    adox    %r11, %r15
#if P256_PLANT_SCALAR_BUG != 1 /* the harness's negative control drops the subtraction */
    cmovcq  %rsi, %r12
    cmovcq  %rcx, %r13
    cmovcq  %rbx, %r14
    cmovcq  %rdi, %r15
#endif
    popq    %rdi
    .cfi_adjust_cfa_offset -8
    movq    %r12, (%rdi)
    movq    %r13, 8(%rdi)
    movq    %r14, 16(%rdi)
    movq    %r15, 24(%rdi)
.endm

    .globl  p256_scalar_mont_mul_x86_64_adx
    .hidden p256_scalar_mont_mul_x86_64_adx
    .type   p256_scalar_mont_mul_x86_64_adx, @function
    .p2align 5
p256_scalar_mont_mul_x86_64_adx:
    P256_ORD_PROLOGUE
    movq    %rdx, %rcx
    P256_MUL_T                      /* T = a*b in r8..r15 (x86_64_mont.h) */
    P256_ORD_FINISH
    P256_ORD_EPILOGUE
    .size   p256_scalar_mont_mul_x86_64_adx, .-p256_scalar_mont_mul_x86_64_adx

/*
 * Squaring: the cross products a_i*a_j (i < j) once, then one pass doubles them (CF
 * chain: adcx x, x) while the OF chain adds the squares a_i^2 at words 2i, 2i+1.
 * rsi = a; rcx, rdi hold hi(a0^2), lo(a1^2) until the doubling pass (r is on the stack).
 */
    .globl  p256_scalar_mont_sqr_x86_64_adx
    .hidden p256_scalar_mont_sqr_x86_64_adx
    .type   p256_scalar_mont_sqr_x86_64_adx, @function
    .p2align 5
p256_scalar_mont_sqr_x86_64_adx:
    P256_ORD_PROLOGUE
    P256_SQR_T                      /* T = a^2 in r8..r15 (x86_64_mont.h) */
    P256_ORD_FINISH
    P256_ORD_EPILOGUE
    .size   p256_scalar_mont_sqr_x86_64_adx, .-p256_scalar_mont_sqr_x86_64_adx

    .section .note.GNU-stack, "", @progbits
