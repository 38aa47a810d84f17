/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm.h: how a C function reaches its assembly twin, the one scheme of every layer.
 *
 * An assembly variant (csrc/variants.txt: -DP256_ASM_X86_64_ADX, -DP256_ASM_AARCH64)
 * links the .S files of csrc/asm, one per layer (field_, group_, scalar_, ecmult_).
 * Each layer's asm header (field_asm.h, group_asm.h, scalar_asm.h, ecmult_asm.h)
 * declares the twins this variant has and defines P256_ASM_HAS_<NAME> for each;
 * the layer's X_impl.h then calls
 *
 *   #if defined(P256_ASM_HAS_<NAME>)
 *       P256_ASM_FN(<name>)(...);      the assembly
 *   #else
 *       p256_<name>_c(...);            the C twin, always compiled
 *   #endif
 *
 * P256_ASM_FN(name) is the variant's symbol for p256_<name>: p256_<name>_x86_64_adx or
 * p256_<name>_aarch64 (the field and group layers call through P256_ASM_MONT_CALL,
 * below). A twin has exactly its C twin's contract and returns the same limbs for every
 * input (tests/c/test_backend.c, test_point_asm.c, test_scalar_asm.c compare them),
 * constant time in every secret input. Undefined in a build without assembly.
 */
#ifndef P256_ASM_H
#define P256_ASM_H

#if defined(P256_ASM_X86_64_ADX)
#define P256_ASM_FN(name) p256_##name##_x86_64_adx
#elif defined(P256_ASM_AARCH64)
#define P256_ASM_FN(name) p256_##name##_aarch64
#endif

/*
 * The field and group twins on x86-64 come in two schedules of one Montgomery step
 * (csrc/asm/x86_64_mont.h): by shifts, P256_ASM_FN(name), and by MULX,
 * P256_ASM_MULX_FN(name) = p256_<name>_x86_64_adx_mulx (the *_x86_64_mulx.S files).
 * P256_ASM_MONT_CALL(name, args...) calls the one this CPU runs faster, by cpu.h's
 * P256_CPU_MULX_STEP (a cached answer: a load and a predictable branch to one of two
 * direct calls). Both return the same limbs. Elsewhere it calls P256_ASM_FN(name).
 */
#if defined(P256_ASM_X86_64_ADX)
#include "cpu.h"
#define P256_ASM_MULX_FN(name) p256_##name##_x86_64_adx_mulx
#define P256_ASM_MONT_CALL(name, ...)                                                \
    (p256_cpu_has(P256_CPU_MULX_STEP) ? P256_ASM_MULX_FN(name)(__VA_ARGS__)         \
                                      : P256_ASM_FN(name)(__VA_ARGS__))
#elif defined(P256_ASM_FN)
#define P256_ASM_MONT_CALL(name, ...) P256_ASM_FN(name)(__VA_ARGS__)
#endif

#endif /* P256_ASM_H */
