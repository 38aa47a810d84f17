/* SPDX-License-Identifier: Apache-2.0 */
/*
 * p256_x86_64.S: Montgomery multiplication and squaring in GF(p), p the P-256 prime,
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
 * that decided the reduction by shifts below and the order of the chains.
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
 * (m - (m<<32), m - (m>>32) - borrow): shifts and a subtraction, no multiplication.
 */

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

    .text

/* Both functions use every general-purpose register: save the callee-saved ones, and r. */
.macro P256_PROLOGUE
    .cfi_startproc
    _CET_ENDBR
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_offset %rbx, -16
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_offset %rbp, -24
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r12, -32
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r13, -40
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r14, -48
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    .cfi_offset %r15, -56
    pushq   %rdi                    /* r, popped by P256_REDUCE_FINISH */
    .cfi_adjust_cfa_offset 8
.endm

.macro P256_EPILOGUE
    popq    %r15
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r15
    popq    %r14
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r14
    popq    %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    popq    %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    popq    %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    popq    %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    ret
    .cfi_endproc
.endm

/*
 * One Montgomery step on a 4-word window: (w0, w1, w2, w3) -> (w1, w2, w3, w0) =
 * (w + m*p) / 2^64 with m = w0 (see the header); the new top word hi(m*p3) plus a
 * carry lands in w0's register. Temporaries rax, rbx, rdx.
 */
.macro P256_REDUCE_STEP w0, w1, w2, w3
    movq    \w0, %rax
    shlq    $32, %rax               /* m<<32 */
    movq    \w0, %rbx
    shrq    $32, %rbx               /* m>>32 */
    movq    \w0, %rdx
    subq    %rax, %rdx              /* lo(m*p3) = m - (m<<32) */
    sbbq    %rbx, \w0               /* hi(m*p3) = m - (m>>32) - borrow */
    addq    %rax, \w1
    adcq    %rbx, \w2
    adcq    %rdx, \w3
    adcq    $0, \w0
.endm

/*
 * The end of both functions: T = (r8..r15) = a*b or a^2, T < p^2 -> r = T/R mod p, with
 * r's address on the stack (the function's first push) and every other register free
 * once the last MULX has read its operands.
 *
 * Montgomery reduction of T = T_hi*2^256 + T_lo splits as
 * (T + M*p)/2^256 = T_hi + (T_lo + M*p)/2^256, and the second part only involves the
 * four low words: four P256_REDUCE_STEPs on the window (r8..r11). After k steps the
 * window holds (T_lo + M_k*p)/2^(64k) with M_k < 2^(64k), so it is < 2^(256-64k) + p
 * < 2^256: nothing is carried out of the window (the top word hi(m*p3) <= p3 - 1 takes a
 * carry without wrapping). The result u = (T_lo + M*p)/2^256 is <= p, and
 * T_hi <= (p-1)^2/2^256 < p, so v = T_hi + u < 2p: r = v, or v - p when v >= p.
 *
 * v >= p is decided without a subtraction after the sum: d = T_hi + (2^256 - p) < 2^256
 * (as T_hi < p; in rsi, rcx, rbp, rdi) is computed while the low half is reduced; then
 * v = T_hi + u (OF chain, in r12..r15) and w = d + u (CF chain) run side by side, and
 * w = v - p + 2^256 carries out of 256 bits exactly when v >= p: take w then (CMOV on
 * CF). 2^256 - p = 2^224 - 2^192 - 2^96 + 1: words 1, 0xffffffff00000000, 2^64 - 1,
 * 0x00000000fffffffe.
 */
.macro P256_REDUCE_FINISH
    movabsq $0xffffffff00000000, %rax
    movl    $0xfffffffe, %ebx
    movq    %r12, %rsi
    movq    %r13, %rcx
    movq    %r14, %rbp
    movq    %r15, %rdi
    addq    $1, %rsi                /* d = T_hi + (2^256 - p) */
    adcq    %rax, %rcx
    adcq    $-1, %rbp
    adcq    %rbx, %rdi
    P256_REDUCE_STEP %r8, %r9, %r10, %r11
    P256_REDUCE_STEP %r9, %r10, %r11, %r8
    P256_REDUCE_STEP %r10, %r11, %r8, %r9
    P256_REDUCE_STEP %r11, %r8, %r9, %r10
    xorl    %eax, %eax              /* clears CF and OF */
    adcx    %r8, %rsi               /* w = d + u */
    adox    %r8, %r12               /* v = T_hi + u */
    adcx    %r9, %rcx
    adox    %r9, %r13
    adcx    %r10, %rbp
    adox    %r10, %r14
    adcx    %r11, %rdi
    adox    %r11, %r15
    cmovcq  %rsi, %r12
    cmovcq  %rcx, %r13
    cmovcq  %rbp, %r14
    cmovcq  %rdi, %r15
    popq    %rdi
    .cfi_adjust_cfa_offset -8
    movq    %r12, (%rdi)
    movq    %r13, 8(%rdi)
    movq    %r14, 16(%rdi)
    movq    %r15, 24(%rdi)
.endm

/*
 * Multiplication: T = a*b row by row (operand scanning), then P256_REDUCE_FINISH.
 * Row i adds a*b_i at word i with two carry chains: CF adds the low halves of a_j*b_i
 * at word i+j, OF the high halves at i+j+1; the row's top word starts as the high half
 * of a3*b_i and takes both final carries. After rows 0..i the sum is < 2^(256+64(i+1)),
 * i+5 words, so that top word cannot wrap.
 *
 * Registers: rdi = r, rsi = a, rcx = b, rdx = b_i (the MULX multiplier); T in r8..r15;
 * rax, rbx = product halves; rbp = 0.
 */
.macro P256_MUL_ROW off, u0, u1, u2, u3, u4
    movq    \off(%rcx), %rdx
    xorl    %ebp, %ebp              /* rbp = 0; clears CF and OF */
    mulx    (%rsi), %rax, %rbx
    adcx    %rax, \u0
    adox    %rbx, \u1
    mulx    8(%rsi), %rax, %rbx
    adcx    %rax, \u1
    adox    %rbx, \u2
    mulx    16(%rsi), %rax, %rbx
    adcx    %rax, \u2
    adox    %rbx, \u3
    mulx    24(%rsi), %rax, \u4
    adcx    %rax, \u3
    adox    %rbp, \u4
    adcx    %rbp, \u4
.endm

    .globl  p256_fe_mul_x86_64_adx
    .hidden p256_fe_mul_x86_64_adx
    .type   p256_fe_mul_x86_64_adx, @function
    .p2align 5
p256_fe_mul_x86_64_adx:
    P256_PROLOGUE
    movq    %rdx, %rcx

    /* Row 0 has nothing to accumulate: (r8..r12) = a*b0, one carry chain. */
    movq    (%rcx), %rdx
    mulx    (%rsi), %r8, %r9
    mulx    8(%rsi), %rax, %r10
    addq    %rax, %r9
    mulx    16(%rsi), %rax, %r11
    adcq    %rax, %r10
    mulx    24(%rsi), %rax, %r12
    adcq    %rax, %r11
    adcq    $0, %r12
    P256_MUL_ROW     8, %r9, %r10, %r11, %r12, %r13
    P256_MUL_ROW    16, %r10, %r11, %r12, %r13, %r14
    P256_MUL_ROW    24, %r11, %r12, %r13, %r14, %r15

    P256_REDUCE_FINISH
    P256_EPILOGUE
    .size   p256_fe_mul_x86_64_adx, .-p256_fe_mul_x86_64_adx

/*
 * Squaring: the six cross products a_i*a_j (i < j) once (x1..x6; their sum is < 2^448),
 * then one pass doubles them with the CF chain (adcx x,x shifts each top bit into the
 * next word) while the OF chain adds the squares a_i^2 at words 2i, 2i+1: T = a^2 in
 * r8..r15. Then P256_REDUCE_FINISH. a0^2 and a1^2 are multiplied first: the low words
 * t0..t3 they complete start the reduction sooner (3 of 40 cycles of latency).
 *
 * Registers: rsi = a, rdx = the MULX multiplier; rax, rbx = product halves; rcx holds
 * hi(a0^2) and r15:rdi a1^2 until the doubling pass (r is on the stack); rbp = 0.
 */
    .globl  p256_fe_sqr_x86_64_adx
    .hidden p256_fe_sqr_x86_64_adx
    .type   p256_fe_sqr_x86_64_adx, @function
    .p2align 5
p256_fe_sqr_x86_64_adx:
    P256_PROLOGUE

    /* a0^2 -> t0 = r8 (high half in rcx); a0*(a1, a2, a3) -> x1..x4 = r9..r12. */
    movq    (%rsi), %rdx
    mulx    %rdx, %r8, %rcx
    mulx    8(%rsi), %r9, %r10
    mulx    16(%rsi), %rax, %r11
    addq    %rax, %r10
    mulx    24(%rsi), %rax, %r12
    adcq    %rax, %r11
    adcq    $0, %r12
    /* a1^2 -> r15:rdi; a1*a2 at words 3-4, a1*a3 at 4-5, a2*a3 at 5-6: x5 = r13,
     * x6 = r14. A high half is <= 2^64 - 2, so adding one carry to it cannot wrap. */
    movq    8(%rsi), %rdx
    mulx    %rdx, %rdi, %r15
    xorl    %ebp, %ebp              /* rbp = 0; clears CF and OF */
    mulx    16(%rsi), %rax, %rbx
    adcx    %rax, %r11
    adox    %rbx, %r12
    mulx    24(%rsi), %rax, %r13
    adcx    %rax, %r12
    adox    %rbp, %r13              /* x5 = hi(a1*a3) + OF; OF = 0 after */
    movq    16(%rsi), %rdx
    mulx    24(%rsi), %rax, %r14
    adcx    %rax, %r13
    adcx    %rbp, %r14              /* x6 = hi(a2*a3) + CF; CF = 0 after */

    /* Double (CF chain) and add the squares (OF chain). The xor clears both flags (they
     * are 0 already) so that this chain need not wait for the last one. */
    xorl    %ebp, %ebp
    adcx    %r9, %r9
    adox    %rcx, %r9               /* t1 = 2 x1 + hi(a0^2) */
    adcx    %r10, %r10
    adox    %rdi, %r10              /* t2 = 2 x2 + lo(a1^2) */
    adcx    %r11, %r11
    adox    %r15, %r11              /* t3 = 2 x3 + hi(a1^2) */
    movq    16(%rsi), %rdx
    mulx    %rdx, %rax, %rbx        /* a2^2 */
    adcx    %r12, %r12
    adox    %rax, %r12
    adcx    %r13, %r13
    adox    %rbx, %r13
    movq    24(%rsi), %rdx
    mulx    %rdx, %rax, %r15        /* a3^2; its high half starts t7 */
    adcx    %r14, %r14
    adox    %rax, %r14
    adcx    %rbp, %r15              /* the doubled x6's top bit; a^2 < 2^512: no carry out */
    adox    %rbp, %r15

    P256_REDUCE_FINISH
    P256_EPILOGUE
    .size   p256_fe_sqr_x86_64_adx, .-p256_fe_sqr_x86_64_adx

    .section .note.GNU-stack, "", @progbits
