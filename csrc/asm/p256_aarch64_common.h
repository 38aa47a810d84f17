/* SPDX-License-Identifier: Apache-2.0 */
/*
 * p256_aarch64_common.h: what the AArch64 assembly files (csrc/asm/p256_*aarch64.S)
 * share, included once at the top of each: the symbol macros, the BTI landing pad and
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

#endif /* P256_AARCH64_COMMON_H */
