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

/* (none yet: issue 12 adds csrc/asm/p256_point_x86_64.S and p256_point_aarch64.S) */

#endif /* P256_GROUP_ASM_H */
