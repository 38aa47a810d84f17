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

#endif /* P256_CPU_H */
