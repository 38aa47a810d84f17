/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_x86_64.S: the constant-time affine table scan of the scalar multiplications
 * (ecmult_impl.h's p256_aff_lookup) for x86-64 CPUs with AVX2, which the caller checks
 * at run time (cpu.h). Contract: csrc/ecmult_asm.h.
 *
 *   void p256_aff_lookup_avx2_x86_64_adx(uint64_t r[8], const uint64_t *table,
 *                                        int64_t entries, uint64_t idx);
 *       r = table entry idx - 1 (8 words each), or 0 for idx = 0 or idx > entries.
 *
 * Constant time: no branch and no address depends on the data (the addresses depend on
 * the public table size only); the AVX2 compare/and/or and MOV are on Intel's list of
 * Data Operand Independent Timing instructions.
 */

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

    .text

/*
 * The table scan: every entry is loaded and ANDed with its mask (entry number == idx),
 * the results ORed into two accumulators (an entry is two YMM words); the loop counts
 * are the public `entries`. Eight entries per iteration, and no counter per entry: the
 * iteration starting at entry 8i + 1 holds t = idx - 8i (mod 2^64) and compares it with
 * the constants 1..8 (loaded once into ymm8-ymm15), so entry 8i + k matches when t == k
 * (8i + k <= entries < 2^63, so equality mod 2^64 is equality); t steps down by 8 once
 * an iteration. An entry costs one compare, two ANDs and two ORs and its two loads,
 * which is what bounds a scan (vector ALU ports, load ports); the C clone's compilers
 * add a counter or a broadcast constant per entry (docs/performance.md, the mca table).
 * The remaining entries % 8 go one at a time against 1, t stepping by 1.
 * rdi = r, rsi = table, rdx = entries, rcx = idx.
 */
    .section .rodata
    .p2align 5
.Llookup_k:                         /* k = 1..8 in four lanes each */
    .quad 1, 1, 1, 1
#if P256_PLANT_SCALAR_BUG == 3 /* negative control: entry 8i + 2 is compared with 1 */
    .quad 1, 1, 1, 1
#else
    .quad 2, 2, 2, 2
#endif
    .quad 3, 3, 3, 3
    .quad 4, 4, 4, 4
    .quad 5, 5, 5, 5
    .quad 6, 6, 6, 6
    .quad 7, 7, 7, 7
    .quad 8, 8, 8, 8

    .text
/* Entry k of the iteration (at k * 64 bytes from rsi), matched by t == %ymm<c>. */
.macro P256_LOOKUP_ENTRY k, c
    vpcmpeqq %ymm\c, %ymm0, %ymm3
    vpand   64*\k(%rsi), %ymm3, %ymm4
    vpand   64*\k+32(%rsi), %ymm3, %ymm5
    vpor    %ymm4, %ymm1, %ymm1
    vpor    %ymm5, %ymm2, %ymm2
.endm

    .globl  p256_aff_lookup_avx2_x86_64_adx
    .hidden p256_aff_lookup_avx2_x86_64_adx
    .type   p256_aff_lookup_avx2_x86_64_adx, @function
    .p2align 5
p256_aff_lookup_avx2_x86_64_adx:
    .cfi_startproc
    _CET_ENDBR
    vmovq   %rcx, %xmm0
    vpbroadcastq %xmm0, %ymm0       /* t = idx in every lane */
    vmovdqa .Llookup_k(%rip), %ymm8
    vmovdqa .Llookup_k+32(%rip), %ymm9
    vmovdqa .Llookup_k+64(%rip), %ymm10
    vmovdqa .Llookup_k+96(%rip), %ymm11
    vmovdqa .Llookup_k+128(%rip), %ymm12
    vmovdqa .Llookup_k+160(%rip), %ymm13
    vmovdqa .Llookup_k+192(%rip), %ymm14
    vmovdqa .Llookup_k+224(%rip), %ymm15
    vpxor   %ymm1, %ymm1, %ymm1     /* acc0 */
    vpxor   %ymm2, %ymm2, %ymm2     /* acc1 */
    movq    %rdx, %r8
    shrq    $3, %r8                 /* iterations of eight */
    jz      2f
1:
    P256_LOOKUP_ENTRY 0, 8
    P256_LOOKUP_ENTRY 1, 9
    P256_LOOKUP_ENTRY 2, 10
    P256_LOOKUP_ENTRY 3, 11
    P256_LOOKUP_ENTRY 4, 12
    P256_LOOKUP_ENTRY 5, 13
    P256_LOOKUP_ENTRY 6, 14
    P256_LOOKUP_ENTRY 7, 15
    vpsubq  %ymm15, %ymm0, %ymm0    /* t -= 8 */
    addq    $512, %rsi
    decq    %r8
    jnz     1b
2:
    andq    $7, %rdx                /* the entries left, one at a time */
    jz      4f
3:
    P256_LOOKUP_ENTRY 0, 8
    vpsubq  %ymm8, %ymm0, %ymm0     /* t -= 1 */
    addq    $64, %rsi
    decq    %rdx
    jnz     3b
4:
    vmovdqu %ymm1, (%rdi)
    vmovdqu %ymm2, 32(%rdi)
    vzeroupper
    ret
    .cfi_endproc
    .size   p256_aff_lookup_avx2_x86_64_adx, .-p256_aff_lookup_avx2_x86_64_adx

    .section .note.GNU-stack, "", @progbits
