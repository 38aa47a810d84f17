/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group_asm.h: the assembly point backends' entry points, declared only for the build that
 * links them. A backend that has them defines P256_ASM_POINT and P256_ASM_POINT_FN(name),
 * the symbol of its twin of group_impl.h's p256_<name>_c; each has exactly that function's
 * contract and returns the same limbs for every input (tests/c/test_point_asm.c), constant
 * time in every input. r may alias an input.
 */
#ifndef P256_GROUP_ASM_H
#define P256_GROUP_ASM_H

#include "group.h"

#if defined(P256_ASM_X86_64_ADX)
/* x86-64 with BMI2 and ADX: csrc/asm/group_x86_64.S. */
#define P256_ASM_POINT 1
#define P256_ASM_POINT_FN(n) p256_##n##_x86_64_adx
void p256_jac_double_x86_64_adx(p256_jac *r, const p256_jac *a);
void p256_jac_add_x86_64_adx(p256_jac *r, const p256_jac *a, const p256_jac *b);
void p256_jac_add_aff_x86_64_adx(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                 uint64_t b_inf);
void p256_jac_add_aff_partial_x86_64_adx(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                         uint64_t b_inf);
#elif defined(P256_ASM_AARCH64)
/*
 * AArch64: csrc/asm/group_aarch64.S, the four formulas with the field arithmetic
 * inlined (operands in registers, every field result fully reduced, no branch).
 */
void p256_jac_double_aarch64(p256_jac *r, const p256_jac *a);
void p256_jac_add_aarch64(p256_jac *r, const p256_jac *a, const p256_jac *b);
void p256_jac_add_aff_aarch64(p256_jac *r, const p256_jac *a, const p256_aff *b, uint64_t b_inf);
void p256_jac_add_aff_partial_aarch64(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                      uint64_t b_inf);
#define P256_ASM_POINT 1
#define P256_ASM_POINT_FN(n) p256_##n##_aarch64
#endif

#endif /* P256_GROUP_ASM_H */
