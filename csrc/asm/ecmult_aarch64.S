/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_aarch64.S: the constant-time affine table scan of the scalar multiplications
 * (ecmult_impl.h's p256_aff_lookup) for AArch64 (A64, AAPCS64, NEON), for the two table
 * sizes the core uses. Contract: csrc/ecmult_asm.h.
 *
 *   void p256_aff_lookup_16_aarch64(uint64_t *r, const uint64_t *table, uint64_t idx);
 *   void p256_aff_lookup_64_aarch64(uint64_t *r, const uint64_t *table, uint64_t idx);
 *
 * Constant time: only mov (constants), the AdvSIMD dup, cmeq, bit, add and sub, and
 * loads/stores at constant offsets from the argument pointers; all on the Arm ARM's
 * data-independent-timing list under PSTATE.DIT (DDI 0487, "About PSTATE.DIT"). No
 * branch but ret. make test-arm64 checks the object.
 */

/* Symbol macros, the BTI landing pad and the object notes; leaf functions that never
 * spill the link register, so no PAC is needed. */
#include "aarch64_common.h"

    .text

/*
 * p256_aff_lookup_<N>_aarch64(r = x0, table = x1, idx = x2), N = 16 or 64: r = the 8
 * words of entry idx - 1, or 0 when idx is 0 or > N. Every entry is loaded (addresses
 * x1 plus constants: they depend on nothing but N) and merged under the mask (entry
 * number == idx) by BIT, so the result is the one matching entry or stays 0. Fully
 * unrolled, no branch. Two entries a step: one counter j (the number of the step's
 * first entry, 1, 3, 5, ...) is compared with idx and with idx - 1 (mod 2^64; j + 1 <= N,
 * so equality mod 2^64 is equality), the even and odd entries go to separate
 * accumulators (two dependency chains of N/2); at most one of the two sets is nonzero,
 * so a final ADD merges them. The loads are single LDR Q at immediate offsets from x1
 * (no base write-back, so they do not wait on each other; llvm-mca's Cortex-A57 model,
 * which Neoverse N1 gets, splits an LDP Q into three micro-ops, and no model we list
 * prefers the pair: docs/performance.md).
 * Registers: v0 = idx, v3 = idx - 1, v2 = j, v1 = 2, v4-v7 and v20-v23 accumulators,
 * v16-v19 and v26-v29 entries, v24/v25 masks; v8-v15 (callee-saved) are not touched.
 */
.macro P256_AFF_LOOKUP_NEON entries
    P256_BTI_C
    dup     v0.2d, x2
    mov     x3, #1
    dup     v2.2d, x3
    add     v1.2d, v2.2d, v2.2d
#if P256_PLANT_SCALAR_BUG == 3 /* negative control: the odd entries' target is off */
    mov     v3.16b, v0.16b
#else
    sub     v3.2d, v0.2d, v2.2d
#endif
    dup     v4.2d, xzr
    mov     v5.16b, v4.16b
    mov     v6.16b, v4.16b
    mov     v7.16b, v4.16b
    mov     v20.16b, v4.16b
    mov     v21.16b, v4.16b
    mov     v22.16b, v4.16b
    mov     v23.16b, v4.16b
    .set    .Lp256_lookup_off, 0
    .rept   \entries / 2
    ldr     q16, [x1, #.Lp256_lookup_off]
    ldr     q17, [x1, #.Lp256_lookup_off + 16]
    ldr     q18, [x1, #.Lp256_lookup_off + 32]
    ldr     q19, [x1, #.Lp256_lookup_off + 48]
    ldr     q26, [x1, #.Lp256_lookup_off + 64]
    ldr     q27, [x1, #.Lp256_lookup_off + 80]
    ldr     q28, [x1, #.Lp256_lookup_off + 96]
    ldr     q29, [x1, #.Lp256_lookup_off + 112]
    cmeq    v24.2d, v2.2d, v0.2d
    cmeq    v25.2d, v2.2d, v3.2d
    bit     v4.16b, v16.16b, v24.16b
    bit     v5.16b, v17.16b, v24.16b
    bit     v6.16b, v18.16b, v24.16b
    bit     v7.16b, v19.16b, v24.16b
    bit     v20.16b, v26.16b, v25.16b
    bit     v21.16b, v27.16b, v25.16b
    bit     v22.16b, v28.16b, v25.16b
    bit     v23.16b, v29.16b, v25.16b
    add     v2.2d, v2.2d, v1.2d
    .set    .Lp256_lookup_off, .Lp256_lookup_off + 128
    .endr
    add     v4.2d, v4.2d, v20.2d
    add     v5.2d, v5.2d, v21.2d
    add     v6.2d, v6.2d, v22.2d
    add     v7.2d, v7.2d, v23.2d
    stp     q4, q5, [x0]
    stp     q6, q7, [x0, #32]
    ret
.endm

P256_FUNC_BEGIN p256_aff_lookup_16_aarch64
    P256_AFF_LOOKUP_NEON 16
P256_FUNC_END p256_aff_lookup_16_aarch64

P256_FUNC_BEGIN p256_aff_lookup_64_aarch64
    P256_AFF_LOOKUP_NEON 64
P256_FUNC_END p256_aff_lookup_64_aarch64
