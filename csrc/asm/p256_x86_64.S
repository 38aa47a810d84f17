/*
 * p256_x86_64.S: Montgomery multiplication and squaring in GF(p), p the P-256 prime,
 * for x86-64 CPUs with BMI2 (MULX, SHLX/SHRX) and ADX (ADCX/ADOX). The portable C in
 * field_impl.h is the reference; tests/c/test_backend.c compares the two.
 *
 *   void p256_fe_mul_x86_64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *   void p256_fe_sqr_x86_64_adx(uint64_t r[4], const uint64_t a[4]);
 *
 * r = a*b/R mod p and r = a^2/R mod p, R = 2^256; 4 little-endian 64-bit limbs; inputs
 * fully reduced (< p), output fully reduced; r may alias a or b (everything is read
 * before the single store at the end). SysV ABI. Only run after the caller has checked
 * CPUID for BMI2 and ADX (module.c does so at import).
 *
 * Constant time: no branches and no memory addresses depend on the data; MULX, ADCX,
 * ADOX, ADD/ADC/SUB/SBB, SHLX/SHRX and CMOVcc have data-independent timing (they are on
 * Intel's list of Data Operand Independent Timing instructions). The final reduction is
 * a subtraction and CMOV, not a branch.
 *
 * References: S. Gueron, V. Krasnov, "Fast prime field elliptic-curve cryptography with
 * 256-bit primes", J. Cryptographic Engineering 5 (2015), eprint 2013/816 (Montgomery
 * multiplication that uses the special form of the P-256 prime); V. Gopal, J. Guilford,
 * E. Ozturk, W. Feghali et al., "New Instructions Supporting Large Integer Arithmetic on
 * Intel Architecture Processors", Intel white paper 327831 (2012) (MULX leaves the flags
 * alone, ADCX/ADOX carry through CF and OF only, so two addition chains interleave).
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
 * = p3*2^128 + 2^32). So one step adds m<<32 and m>>32 (two shifts) at words 0-1 and
 * the 128-bit product m*p3 (one MULX) at words 2-3 of the shifted accumulator: one
 * multiplication instead of four.
 */

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

    .text

/*
 * Multiplication: operand scanning (CIOS), one row a*b_i then one Montgomery step per
 * word of b.
 *
 * Bound: the accumulator t enters each row < 2p (five words, the fifth 0 or 1). A row
 * adds a*b_i <= (p-1)(2^64-1), so t < 2p + (p-1)(2^64-1) < p(2^64+1) < 2^320: still
 * five words, and no carry leaves the fifth (in the row's last additions, the fifth
 * word is <= 1 and hi(a3*b_i) <= p3 - 1 because a3 <= p3, so neither chain can carry
 * out of it). The step adds m*p < 2^64 p, and (t + m*p)/2^64 < (p(2^64+1) + (2^64-1)p)
 * / 2^64 < 2p again, five words: its top word is the carry out of the sum's word 4.
 * After four rows t = a*b/R mod p + (0 or p), < 2p: one conditional subtraction of p
 * makes it < p.
 *
 * Registers: rdi = r, rsi = a, rcx = b, rdx = the MULX multiplier (b_i, then m);
 * the accumulator rotates through r8..r13 (the word shifted out by a step becomes the
 * step's new top word); rax, rbx, r14 = temporaries; r15 = p3; rbp = 32 (shift count).
 */

/* Row: (u0..u4) += a*b[off/8]. Two carry chains: CF adds the low halves of a_j*b_i at
 * word j, OF the high halves at j+1; neither carries out of u4 (see the bound). */
.macro P256_MUL_ROW off, u0, u1, u2, u3, u4
    movq    \off(%rcx), %rdx
    xorl    %r14d, %r14d            /* r14 = 0; clears CF and OF */
    mulx    (%rsi), %rax, %rbx
    adcx    %rax, \u0
    adox    %rbx, \u1
    mulx    8(%rsi), %rax, %rbx
    adcx    %rax, \u1
    adox    %rbx, \u2
    mulx    16(%rsi), %rax, %rbx
    adcx    %rax, \u2
    adox    %rbx, \u3
    mulx    24(%rsi), %rax, %rbx
    adcx    %rax, \u3
    adox    %rbx, \u4
    adcx    %r14, \u4
.endm

/* Montgomery step: (t1..t5) = (t0..t4 + m*p) / 2^64 with m = t0 (see the header);
 * t5 is a free register on entry. m*p3 = m*2^64 - m*2^32 + m by shifts and a
 * subtraction (ml = m - (m<<32), mh = m - (m>>32) - borrow), not a multiplication. */
.macro P256_MUL_REDUCE t0, t1, t2, t3, t4, t5
    xorq    \t5, \t5
    shlx    %rbp, \t0, %rax         /* m<<32 */
    shrx    %rbp, \t0, %rbx         /* m>>32 */
    movq    \t0, %rdx
    subq    %rax, %rdx              /* ml */
    sbbq    %rbx, \t0               /* mh */
    addq    %rax, \t1
    adcq    %rbx, \t2
    adcq    %rdx, \t3
    adcq    \t0, \t4
    adcq    $0, \t5
.endm

/*
 * r = v - p if v >= p else v, for v = (v0..v3, v4) < 2p: subtract p from a copy, and
 * when that borrows (v < p) take the original back with CMOV. p1 and p3 are registers
 * (neither fits a sign-extended 32-bit immediate); clobbers rax, rbx, rcx, rdx.
 */
.macro P256_FINAL_SUB v0, v1, v2, v3, v4, p1, p3
    movq    \v0, %rax
    movq    \v1, %rbx
    movq    \v2, %rcx
    movq    \v3, %rdx
    subq    $-1, %rax               /* - p0 */
    sbbq    \p1, %rbx
    sbbq    $0, %rcx                /* - p2 */
    sbbq    \p3, %rdx
    sbbq    $0, \v4                 /* CF = 1 iff v < p */
    cmovcq  \v0, %rax
    cmovcq  \v1, %rbx
    cmovcq  \v2, %rcx
    cmovcq  \v3, %rdx
    movq    %rax, (%rdi)
    movq    %rbx, 8(%rdi)
    movq    %rcx, 16(%rdi)
    movq    %rdx, 24(%rdi)
.endm

    .globl  p256_fe_mul_x86_64_adx
    .hidden p256_fe_mul_x86_64_adx
    .type   p256_fe_mul_x86_64_adx, @function
    .p2align 5
p256_fe_mul_x86_64_adx:
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

    movq    %rdx, %rcx
    movabsq $0xffffffff00000001, %r15
    movl    $32, %ebp

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
    P256_MUL_REDUCE %r8, %r9, %r10, %r11, %r12, %r13
    P256_MUL_ROW     8, %r9, %r10, %r11, %r12, %r13
    P256_MUL_REDUCE %r9, %r10, %r11, %r12, %r13, %r8
    P256_MUL_ROW    16, %r10, %r11, %r12, %r13, %r8
    P256_MUL_REDUCE %r10, %r11, %r12, %r13, %r8, %r9
    P256_MUL_ROW    24, %r11, %r12, %r13, %r8, %r9
    P256_MUL_REDUCE %r11, %r12, %r13, %r8, %r9, %r10
    /* t = (r12, r13, r8, r9, r10) < 2p */
    movl    $0xffffffff, %ebp       /* p1 */
    P256_FINAL_SUB  %r12, %r13, %r8, %r9, %r10, %rbp, %r15

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
    .size   p256_fe_mul_x86_64_adx, .-p256_fe_mul_x86_64_adx

/*
 * Squaring: the 512-bit square first, then Montgomery reduction of its low half.
 *
 * Square: the six cross products a_i*a_j (i < j) once (x1..x6, their sum is < 2^448),
 * then one pass doubles them with the CF chain (adcx x,x shifts the top bit into the
 * next word) while the OF chain adds the squares a_i^2 at words 2i, 2i+1. T = a^2 =
 * (t0..t7) < p^2.
 *
 * Reduction: Montgomery reduction of T = T_hi*2^256 + T_lo splits as
 * (T + M*p)/2^256 = T_hi + (T_lo + M*p)/2^256, and the second part only involves the
 * four low words: four steps as in the multiplication on a 4-word window w, each
 * w = (w + m*p)/2^64, m = w0. After k steps the window holds (T_lo + M_k*p)/2^(64k)
 * with M_k < 2^(64k), so it is < 2^(256-64k) + p < 2^256: nothing is carried out of
 * the window (the top word m*p3 >> 64 plus a carry cannot wrap, it is <= p3 - 1). The
 * result u = (T_lo + M*p)/2^256 is <= p, T_hi < p^2/2^256 < p, so T_hi + u < 2p:
 * five words, one conditional subtraction.
 *
 * Registers: rsi = a (then free), rdi = r; T in r8..r15; rbp = 0, then 32; rcx = p3;
 * rax, rbx, rsi = temporaries.
 */

/* One reduction step on the window (w0, w1, w2, w3) -> (w1, w2, w3, w0), m*p3 by shifts
 * as in the multiplication. */
.macro P256_SQR_REDUCE w0, w1, w2, w3
    shlx    %rbp, \w0, %rax         /* m<<32 */
    shrx    %rbp, \w0, %rbx         /* m>>32 */
    movq    \w0, %rsi
    subq    %rax, %rsi              /* ml */
    sbbq    %rbx, \w0               /* mh: the new top word */
    addq    %rax, \w1
    adcq    %rbx, \w2
    adcq    %rsi, \w3
    adcq    $0, \w0
.endm

    .globl  p256_fe_sqr_x86_64_adx
    .hidden p256_fe_sqr_x86_64_adx
    .type   p256_fe_sqr_x86_64_adx, @function
    .p2align 5
p256_fe_sqr_x86_64_adx:
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

    /* Cross products. a0*(a1, a2, a3) -> x1..x4 = r9..r12, one chain. */
    movq    (%rsi), %rdx
    mulx    8(%rsi), %r9, %r10
    mulx    16(%rsi), %rax, %r11
    addq    %rax, %r10
    mulx    24(%rsi), %rax, %r12
    adcq    %rax, %r11
    adcq    $0, %r12
    /* a1*a2 at words 3-4, a1*a3 at 4-5, a2*a3 at 5-6: x5 = r13, x6 = r14. A high half
     * is <= 2^64 - 2, so adding one carry to it cannot wrap. */
    movq    8(%rsi), %rdx
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

    /* Double (CF chain) and add the squares (OF chain): T = (r8..r15). Both flags are 0. */
    movq    (%rsi), %rdx
    mulx    %rdx, %r8, %rax         /* a0^2 */
    adcx    %r9, %r9
    adox    %rax, %r9
    movq    8(%rsi), %rdx
    mulx    %rdx, %rax, %rbx        /* a1^2 */
    adcx    %r10, %r10
    adox    %rax, %r10
    adcx    %r11, %r11
    adox    %rbx, %r11
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

    /* Reduce the low half (r8..r11); the window comes back to (r8, r9, r10, r11). */
    movabsq $0xffffffff00000001, %rcx
    movl    $32, %ebp
    P256_SQR_REDUCE %r8, %r9, %r10, %r11
    P256_SQR_REDUCE %r9, %r10, %r11, %r8
    P256_SQR_REDUCE %r10, %r11, %r8, %r9
    P256_SQR_REDUCE %r11, %r8, %r9, %r10

    /* v = u + T_hi < 2p, five words (the fifth in rsi). */
    xorl    %esi, %esi
    addq    %r12, %r8
    adcq    %r13, %r9
    adcq    %r14, %r10
    adcq    %r15, %r11
    adcq    $0, %rsi
    movl    $0xffffffff, %ebp       /* p1 */
    movq    %rcx, %r15              /* p3 (rcx is clobbered below) */
    P256_FINAL_SUB  %r8, %r9, %r10, %r11, %rsi, %rbp, %r15

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
    .size   p256_fe_sqr_x86_64_adx, .-p256_fe_sqr_x86_64_adx

    .section .note.GNU-stack, "", @progbits
