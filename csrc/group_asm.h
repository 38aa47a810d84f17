/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group_asm.h: the assembly twins of the group layer's constant-time formulas (asm.h's
 * scheme), declared only for the build that links them: x86-64 with BMI2 and ADX,
 * csrc/asm/group_x86_64.S; AArch64, csrc/asm/group_aarch64.S (the four formulas with
 * the field arithmetic inlined: operands in registers, every field result fully
 * reduced, no branch). Each has exactly the contract of group_impl.h's p256_<name>_c
 * and returns the same limbs for every input (tests/c/test_point_asm.c), constant time
 * in every input. r may alias an input.
 */
#ifndef P256_GROUP_ASM_H
#define P256_GROUP_ASM_H

#include "group.h"
#include "asm.h"

#if defined(P256_ASM_FN)
#define P256_ASM_HAS_JAC_DOUBLE 1
#define P256_ASM_HAS_JAC_ADD 1
#define P256_ASM_HAS_JAC_ADD_AFF 1
#define P256_ASM_HAS_JAC_ADD_AFF_PARTIAL 1
void P256_ASM_FN(jac_double)(p256_jac *r, const p256_jac *a);
void P256_ASM_FN(jac_add)(p256_jac *r, const p256_jac *a, const p256_jac *b);
void P256_ASM_FN(jac_add_aff)(p256_jac *r, const p256_jac *a, const p256_aff *b, uint64_t b_inf);
void P256_ASM_FN(jac_add_aff_partial)(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                      uint64_t b_inf);
#endif

/* x86-64 only: r = 2^n a (n >= 1) in one frame, where each call of the doubling copies
 * the point into its frame and out again. The AArch64 doubling loads the coordinates
 * into registers and keeps no copy, so there p256_jac_double_n is a loop of calls. */
#if defined(P256_ASM_X86_64_ADX)
#define P256_ASM_HAS_JAC_DOUBLE_N 1
void P256_ASM_FN(jac_double_n)(p256_jac *r, const p256_jac *a, uint64_t n);
#endif
#if defined(P256_ASM_MULX_FN) /* x86-64: the same with the MULX step (asm.h) */
void P256_ASM_MULX_FN(jac_double)(p256_jac *r, const p256_jac *a);
void P256_ASM_MULX_FN(jac_double_n)(p256_jac *r, const p256_jac *a, uint64_t n);
void P256_ASM_MULX_FN(jac_add)(p256_jac *r, const p256_jac *a, const p256_jac *b);
void P256_ASM_MULX_FN(jac_add_aff)(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                   uint64_t b_inf);
void P256_ASM_MULX_FN(jac_add_aff_partial)(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                           uint64_t b_inf);
#endif

#endif /* P256_GROUP_ASM_H */
