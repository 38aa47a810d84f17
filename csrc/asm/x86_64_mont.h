/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_64_mont.h: the parts of the MULX/ADX Montgomery multiplication and squaring
 * mod p shared by csrc/asm/field_x86_64.S (the field functions) and
 * csrc/asm/group_x86_64.S (the point formulas' internal products), whose register
 * saving and 512-bit products csrc/asm/scalar_x86_64.S (mod n) uses too: saving the
 * callee-saved registers, the 512-bit products T = a*b and T = a^2 into r8..r15 and
 * their Montgomery reduction mod p into r12..r15. Assembler macros only; included by
 * the .S files (C preprocessor).
 */
#ifndef P256_X86_64_MONT_H
#define P256_X86_64_MONT_H

/* Push / pop rbx, rbp, r12..r15 with their unwind information. */
.macro P256_SAVE_CALLEE
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
.endm

.macro P256_RESTORE_CALLEE
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
.endm

/*
 * Multiplication: T = a*b row by row (operand scanning), then a reduction.
 * Row i adds a*b_i at word i with two carry chains: CF adds the low halves of a_j*b_i
 * at word i+j, OF the high halves at i+j+1; the row's top word starts as the high half
 * of a3*b_i and takes both final carries. After rows 0..i the sum is < 2^(256+64(i+1)),
 * i+5 words, so that top word cannot wrap.
 *
 * Registers: rsi = a, rcx = b, rdx = b_i (the MULX multiplier); T in r8..r15;
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


/* T = a*b with rsi = a, rcx = b: row 0 then P256_MUL_ROW for b_1..b_3. */
.macro P256_MUL_T
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

.endm

/*
 * Squaring: the six cross products a_i*a_j (i < j) once (x1..x6; their sum is < 2^448),
 * then one pass doubles them with the CF chain (adcx x,x shifts each top bit into the
 * next word) while the OF chain adds the squares a_i^2 at words 2i, 2i+1: T = a^2 in
 * r8..r15. a0^2 and a1^2 are multiplied first: the low words
 * t0..t3 they complete start the reduction sooner (3 of 40 cycles of latency).
 *
 * Registers: rsi = a, rdx = the MULX multiplier; rax, rbx = product halves; rcx holds
 * hi(a0^2) and r15:rdi a1^2 until the doubling pass ; rbp = 0.
 */
.macro P256_SQR_T
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

.endm

/*
 * One Montgomery step on a 4-word window: (w0, w1, w2, w3) -> (w1, w2, w3, w0) =
 * (w + m*p)/2^64 with m = w0 (p's lowest word is 2^64 - 1, so -1/p mod 2^64 = 1):
 * (w + m*p)/2^64 = floor(w/2^64) + m*(p + 1)/2^64 = floor(w/2^64) + m*2^32 + m*p3*2^128
 * with p3 = 2^64 - 2^32 + 1. The new top word hi(m*p3) <= p3 - 1 plus a carry lands in
 * w0's register without wrapping. Temporaries rax, rbx, rdx.
 *
 * Two schedules of the same arithmetic, each file assembled once per schedule (the
 * symbols of the MULX one end in _mulx: P256_X86_64_SYM):
 *
 * - By shifts (the default): m*2^32 = (m << 32, m >> 32), m*p3 = (m - (m << 32),
 *   m - (m >> 32) - borrow). No MULX: on cores with one multiplier (AMD Zen 1 and 2: a
 *   MULX every two cycles) the products' 16 MULX already fill it, and on Zen 4 it
 *   measured 10% ahead of the MULX step (docs/performance.md).
 * - By MULX (P256_X86_64_MULX_STEP; chosen on Intel cores, cpu.h's P256_CPU_MULX_STEP):
 *   both products by MULX, m*2^32 as a product by the constant 2^32. Intel cores run
 *   the shifts, ADC/SBB, ADCX/ADOX and CMOV on the same two ports (0 and 6), the carry
 *   chains' bottleneck, and MULX on others (1 and 5): the doubling 7% and verify 5% faster
 *   on a Sapphire Rapids-class Xeon, although llvm-mca's Intel models predict the
 *   reverse (docs/performance.md).
 */
#if defined(P256_X86_64_MULX_STEP)
#define P256_X86_64_SYM(name) name##_x86_64_adx_mulx
    .pushsection .rodata
    .p2align 3
.Lp256_mont_2e32:
    .quad   0x0000000100000000
.Lp256_mont_p3:
    .quad   0xffffffff00000001
    .popsection

.macro P256_REDUCE_STEP w0, w1, w2, w3
    movq    \w0, %rdx
    mulx    .Lp256_mont_2e32(%rip), %rax, %rbx  /* m*2^32 = (m << 32, m >> 32) */
    mulx    .Lp256_mont_p3(%rip), %rdx, \w0     /* m*p3 */
    addq    %rax, \w1
    adcq    %rbx, \w2
    adcq    %rdx, \w3
#if !defined(P256_PLANT_POINT_BUG) || P256_PLANT_POINT_BUG != 4 /* test_point_asm's control */
    adcq    $0, \w0
#endif
.endm
#else
#define P256_X86_64_SYM(name) name##_x86_64_adx

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
#endif

/*
 * Reduction: T = (r8..r15) = a*b or a^2, T < p^2 -> (r12..r15) = T/R mod p, < p, with
 * every register but rsp free once the last MULX has read its operands; four
 * P256_REDUCE_STEPs.
 *
 * Montgomery reduction of T = T_hi*2^256 + T_lo splits as
 * (T + M*p)/2^256 = T_hi + (T_lo + M*p)/2^256, and the second part only involves the
 * four low words: four steps on the window (r8..r11). After k steps the
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
.macro P256_REDUCE_T
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
.endm

#endif /* P256_X86_64_MONT_H */
