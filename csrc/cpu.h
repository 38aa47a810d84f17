/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu.h: run-time checks of the CPU features the assembly backends need. The answers are
 * about the machine, not about secrets.
 */
#ifndef P256_CPU_H
#define P256_CPU_H

#include "common.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

/*
 * detect() once: *cache starts at -1 and then holds its answer. Relaxed atomics suffice,
 * since every thread computes the same value.
 */
P256_FN int p256_cpu_cached(int *cache, int (*detect)(void))
{
    int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (v < 0) {
        v = detect();
        __atomic_store_n(cache, v, __ATOMIC_RELAXED);
    }
    return v;
}

/*
 * 1 if the CPU has BMI2 (MULX, SHLX/SHRX) and ADX (ADCX/ADOX): CPUID leaf 7 subleaf 0,
 * EBX bits 8 and 19 (Intel SDM vol. 2A, CPUID; AMD APM vol. 3, appendix E), asked only
 * when the highest standard leaf is >= 7. Both work on general-purpose registers only,
 * so no OS support (XCR0 state) is involved, unlike AVX.
 */
P256_FN int p256_cpu_has_x86_64_adx(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned int eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    (void)eax, (void)ecx, (void)edx;
    return ((ebx >> 8) & 1u) && ((ebx >> 19) & 1u);
#else
    return 0;
#endif
}

/*
 * 1 if the CPU and the OS can run the AVX-512 IFMA batch engine (batch_ifma.h): CPUID
 * leaf 7 subleaf 0 EBX bits 16 (AVX512F), 21 (AVX512IFMA) and 31 (AVX512VL); leaf 1 ECX
 * bit 27 (OSXSAVE), and XGETBV(0) with XCR0 bits 1, 2 (SSE, AVX state) and 5, 6, 7
 * (opmask, upper zmm0-15, zmm16-31) set, i.e. the OS saves the zmm registers (Intel SDM
 * vol. 1, 15.2 "Detection of AVX-512 foundation instructions"). Emulators without
 * AVX-512 (valgrind) report the bits clear, so callers fall back to scalar code.
 */
P256_FN int p256_cpu_has_avx512_ifma(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned int eax, ebx, ecx, edx, xcr0_lo, xcr0_hi;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1u))
        return 0;
    /* XGETBV with ECX = 0, spelled as bytes: no -mxsave needed for the baseline build. */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    (void)xcr0_hi;
    if ((xcr0_lo & 0xe6u) != 0xe6u)
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    (void)eax, (void)ecx, (void)edx;
    return ((ebx >> 16) & 1u) && ((ebx >> 21) & 1u) && ((ebx >> 31) & 1u);
#else
    return 0;
#endif
}

#endif /* P256_CPU_H */
