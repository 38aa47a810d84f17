/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aarch64_common.h: what the AArch64 assembly files (csrc/asm/<layer>_aarch64.S)
 * share, included once at the top of each: the symbol macros, the BTI landing pad, the
 * CIOS Montgomery multiplication of the mod-p and mod-n products, and
 * the object's notes (non-executable stack; the GNU property note under
 * -mbranch-protection). Every function in those files starts with P256_BTI_C and spills
 * the link register only signed (paciasp/autiasp), which is what the property note
 * promises.
 */
#ifndef P256_AARCH64_COMMON_H
#define P256_AARCH64_COMMON_H

/*
 * Symbols: ELF (Linux, the BSDs) with hidden visibility and .type/.size; Mach-O (macOS)
 * with the leading underscore and .private_extern. Assembler macros, not cpp ones, so
 * that each directive stays on its own line (';' separates statements for GNU as on
 * AArch64 but starts a comment for Apple's assembler).
 */
#if defined(__APPLE__)
.macro P256_FUNC_BEGIN name
    .globl  _\name
    .private_extern _\name
    .p2align 4
_\name:
.endm
.macro P256_FUNC_END name
.endm
#else
.macro P256_FUNC_BEGIN name
    .globl  \name
    .hidden \name
    .type   \name, %function
    .p2align 4
\name:
.endm
.macro P256_FUNC_END name
    .size   \name, . - \name
.endm
#endif

/*
 * Branch Target Identification (FEAT_BTI, Armv8.5): "bti c" (hint #34, a NOP on CPUs
 * without BTI and for old assemblers) is a valid landing pad for an indirect call. A
 * function that spills the link register signs it (paciasp/autiasp, NOPs too without
 * FEAT_PAuth). When the compiler is asked for branch protection
 * (-mbranch-protection=...) the object carries the GNU property note that says so, else
 * the linker would turn BTI off for the whole binary.
 */
#define P256_BTI_C hint #34

#if defined(__ELF__)
/* The stack is never executable because of this file. */
    .section .note.GNU-stack, "", %progbits

/*
 * GNU property note (System V AArch64 ELF ABI, "Program property"): when the compiler
 * builds the rest with -mbranch-protection, declare the object BTI- and PAC-compatible
 * so the linker keeps the property for the whole binary.
 */
#if (defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT) || \
    (defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT)
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define P256_GNU_PROPERTY_BTI 1
#else
#define P256_GNU_PROPERTY_BTI 0
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT
#define P256_GNU_PROPERTY_PAC 2
#else
#define P256_GNU_PROPERTY_PAC 0
#endif
    .section .note.gnu.property, "a"
    .p2align 3
    .long   4                       // n_namesz: "GNU\0"
    .long   16                      // n_descsz
    .long   5                       // NT_GNU_PROPERTY_TYPE_0
    .asciz  "GNU"
    .long   0xc0000000              // GNU_PROPERTY_AARCH64_FEATURE_1_AND
    .long   4                       // pr_datasz
    .long   P256_GNU_PROPERTY_BTI | P256_GNU_PROPERTY_PAC
    .long   0                       // pad to 8 bytes
#endif
#endif

/*
 * The CIOS Montgomery multiplication both AArch64 products (mod p in field_aarch64.S, mod n
 * in scalar_aarch64.S) share; only the reduction step and the final subtraction
 * differ, and are the macro arguments.
 *
 * P256_MUL_ROW: t0..t4 += a*bi, a = x3..x6: the low halves at words 0..3 (carry into word
 * 4), then the high halves at words 1..4. The caller's bound on t (< 2m before the row
 * for the modulus m) keeps the sum < 2^320: no carry out of word 4. Clobbers x13-x16.
 */
.macro P256_MUL_ROW bi, t0, t1, t2, t3, t4
    mul     x13, x3, \bi
    mul     x14, x4, \bi
    mul     x15, x5, \bi
    mul     x16, x6, \bi
    adds    \t0, \t0, x13
    adcs    \t1, \t1, x14
    adcs    \t2, \t2, x15
    adcs    \t3, \t3, x16
    adc     \t4, \t4, xzr
    umulh   x13, x3, \bi
    umulh   x14, x4, \bi
    umulh   x15, x5, \bi
    umulh   x16, x6, \bi
    adds    \t1, \t1, x13
    adcs    \t2, \t2, x14
    adcs    \t3, \t3, x15
    adc     \t4, \t4, x16
.endm

/*
 * P256_CIOS_MUL red5, final: r = a*b/2^256 mod m for r = x0, a = x1, b = x2: for
 * i = 0..3, t += a*b_i, then one reduction step \red5 (t0..t4 -> t1..t4, t0), then
 * \final t0..t4 reduces the 5-word t < 2m and stores r. Registers: a = x3..x6, b_i = x7,
 * t = x8..x12 (a window that rotates by one register per step), scratch x13..x16 and
 * whatever \red5 and \final name.
 */
.macro P256_CIOS_MUL red5, final
    ldp     x3, x4, [x1]
    ldp     x5, x6, [x1, #16]
    ldr     x7, [x2]

    // Row 0: t = a*b0 (no accumulator yet).
    mul     x8, x3, x7
    mul     x9, x4, x7
    mul     x10, x5, x7
    mul     x11, x6, x7
    umulh   x13, x3, x7
    umulh   x14, x4, x7
    umulh   x15, x5, x7
    umulh   x12, x6, x7
    adds    x9, x9, x13
    adcs    x10, x10, x14
    adcs    x11, x11, x15
    adc     x12, x12, xzr           // umulh <= 2^64 - 2: no wrap
    \red5   x8, x9, x10, x11, x12   // t = x9, x10, x11, x12, x8

    ldr     x7, [x2, #8]
    P256_MUL_ROW x7, x9, x10, x11, x12, x8
    \red5   x9, x10, x11, x12, x8   // t = x10, x11, x12, x8, x9

    ldr     x7, [x2, #16]
    P256_MUL_ROW x7, x10, x11, x12, x8, x9
    \red5   x10, x11, x12, x8, x9   // t = x11, x12, x8, x9, x10

    ldr     x7, [x2, #24]
    P256_MUL_ROW x7, x11, x12, x8, x9, x10
    \red5   x11, x12, x8, x9, x10   // t = x12, x8, x9, x10, x11

    \final  x12, x8, x9, x10, x11
.endm

#endif /* P256_AARCH64_COMMON_H */
