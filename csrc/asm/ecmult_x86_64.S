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
 * The table scan: every entry is loaded and ANDed with the mask (counter == idx), the
 * masks ORed together; the loop count is the public `entries`. Two entries per
 * iteration (a 64-byte entry is two YMM words), each with its own counter compare, so
 * the loads of one overlap the other's; an odd count takes one more single entry.
 * rdi = r, rsi = table, rdx = entries, rcx = idx.
 */
    .globl  p256_aff_lookup_avx2_x86_64_adx
    .hidden p256_aff_lookup_avx2_x86_64_adx
    .type   p256_aff_lookup_avx2_x86_64_adx, @function
    .p2align 5
p256_aff_lookup_avx2_x86_64_adx:
    .cfi_startproc
    _CET_ENDBR
    vmovq   %rcx, %xmm0
    vpbroadcastq %xmm0, %ymm0       /* want = idx in every lane */
    movl    $1, %eax
    vmovq   %rax, %xmm1
    vpbroadcastq %xmm1, %ymm1       /* j = 1 (the entry number of table[0]) */
    vpaddq  %ymm1, %ymm1, %ymm2     /* step = 2 */
#if P256_PLANT_SCALAR_BUG == 3 /* negative control: the odd entries' counters are off */
    vmovdqa %ymm1, %ymm3
#else
    vpaddq  %ymm1, %ymm1, %ymm3     /* j + 1 = 2 */
#endif
    vpxor   %ymm4, %ymm4, %ymm4     /* acc0 */
    vpxor   %ymm5, %ymm5, %ymm5     /* acc1 */
    movq    %rdx, %r8
    shrq    $1, %r8                 /* pairs */
    jz      2f
1:
    vpcmpeqq %ymm0, %ymm1, %ymm6
    vpcmpeqq %ymm0, %ymm3, %ymm7
    vpand   (%rsi), %ymm6, %ymm8
    vpand   32(%rsi), %ymm6, %ymm9
    vpand   64(%rsi), %ymm7, %ymm10
    vpand   96(%rsi), %ymm7, %ymm11
    vpor    %ymm8, %ymm4, %ymm4
    vpor    %ymm9, %ymm5, %ymm5
    vpor    %ymm10, %ymm4, %ymm4
    vpor    %ymm11, %ymm5, %ymm5
    vpaddq  %ymm2, %ymm1, %ymm1
    vpaddq  %ymm2, %ymm3, %ymm3
    addq    $128, %rsi
    decq    %r8
    jnz     1b
2:
    testq   $1, %rdx
    jz      3f
    vpcmpeqq %ymm0, %ymm1, %ymm6
    vpand   (%rsi), %ymm6, %ymm8
    vpand   32(%rsi), %ymm6, %ymm9
    vpor    %ymm8, %ymm4, %ymm4
    vpor    %ymm9, %ymm5, %ymm5
3:
    vmovdqu %ymm4, (%rdi)
    vmovdqu %ymm5, 32(%rdi)
    vzeroupper
    ret
    .cfi_endproc
    .size   p256_aff_lookup_avx2_x86_64_adx, .-p256_aff_lookup_avx2_x86_64_adx

    .section .note.GNU-stack, "", @progbits
