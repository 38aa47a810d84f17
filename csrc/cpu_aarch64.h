/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu_aarch64.h: PSTATE.DIT (Data Independent Timing) around the secret-handling work.
 *
 * FEAT_DIT (Armv8.4; Arm Architecture Reference Manual for A-profile, DDI 0487, "About
 * PSTATE.DIT") makes the instructions the manual lists (the integer data-processing ones:
 * add/sub with or without carry, logic, shifts, mul/umulh/madd, csel/cset...) take a
 * time independent of their data values when PSTATE.DIT = 1. Without it a CPU may, for
 * example, finish a multiplication early for small operands. DIT is a per-thread PSTATE
 * bit that EL0 may set itself (MSR DIT, #imm) and that the kernel saves and restores
 * across context switches and signals (Linux: since 4.17 it advertises the feature as
 * HWCAP_DIT).
 *
 *   int  p256_dit_on(void)        sets DIT if the CPU implements it and it is not set yet;
 *                                 returns whether it did (what p256_dit_restore undoes)
 *   void p256_dit_restore(int)    clears DIT again if p256_dit_on set it, so the caller
 *                                 gets back the PSTATE it had (nested calls are no-ops)
 *
 * p256.c brackets every byte-level function that handles a private key or a nonce with
 * them. On every other architecture, or with P256_NO_DIT, they compile to nothing.
 *
 * Detection is cpu.h's p256_cpu_has(P256_CPU_DIT) (Linux: HWCAP_DIT, or the ID register
 * the kernel exports; macOS: hw.optional.arm.FEAT_DIT). MSR DIT on a CPU without
 * FEAT_DIT is UNDEFINED (SIGILL), so nothing is written unless detection said yes.
 *
 * The instructions are spelled as .inst words and the S3_3_C4_C2_5 system-register
 * form so that assemblers that predate Armv8.4 accept them:
 *   msr DIT, #1  = 0xd503415f     msr DIT, #0  = 0xd503405f     mrs xN, DIT = S3_3_C4_C2_5
 * After setting DIT an ISB (context synchronization) makes sure no later instruction
 * runs, even speculatively, under the old value. Restoring needs no barrier.
 */
#ifndef P256_CPU_AARCH64_H
#define P256_CPU_AARCH64_H

#include "cpu.h"

#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__linux__) || defined(__APPLE__)) && !defined(P256_NO_DIT)
#define P256_DIT_CONTROL 1

#define P256_PSTATE_DIT (1ULL << 24) /* the bit as MRS DIT returns it */

/* PSTATE.DIT as 0 or P256_PSTATE_DIT. Only on a CPU with FEAT_DIT (else UNDEFINED). */
P256_INLINE uint64_t p256_dit_read(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, S3_3_C4_C2_5" : "=r"(v));
    return v & P256_PSTATE_DIT;
}

P256_INLINE int p256_dit_on(void)
{
    if (!p256_cpu_has(P256_CPU_DIT) || p256_dit_read())
        return 0;
    __asm__ __volatile__(".inst 0xd503415f\n\tisb" ::: "memory"); /* msr DIT, #1; isb */
    return 1;
}

P256_INLINE void p256_dit_restore(int undo)
{
    if (undo)
        __asm__ __volatile__(".inst 0xd503405f" ::: "memory"); /* msr DIT, #0 */
}

#else /* no DIT control here */

P256_INLINE int p256_dit_on(void)
{
    return 0;
}

P256_INLINE void p256_dit_restore(int undo)
{
    (void)undo;
}

#endif

#endif /* P256_CPU_AARCH64_H */
