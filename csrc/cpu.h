/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu.h: the one place that asks the CPU (and the OS) which instruction sets it runs.
 * The answers are about the machine, not about secrets. No other file of csrc/ or
 * tests/c/ reads CPUID, XGETBV, the auxiliary vector or sysctl for a feature
 * (tests/test_structure_csrc.py checks it); cpu_aarch64.h builds PSTATE.DIT control on
 * the answer here.
 *
 *   int p256_cpu_has(int feature)   1 if this CPU and OS run `feature`, else 0
 *   int p256_cpu_features(void)     all of them as a mask, bit f = feature f
 *   void p256_cpu_disable(int)      harnesses only: answer 0 for a feature from now on
 *   void p256_cpu_set_mulx_step(int)  harnesses only: choose the x86-64 schedule
 *
 * The features (0 on every other architecture):
 *   P256_CPU_BMI2_ADX      x86-64 MULX, SHLX/SHRX and ADCX/ADOX: the x86_64_adx backend
 *   P256_CPU_AVX2          x86-64 AVX2 with the OS saving the ymm state: the table scan
 *   P256_CPU_AVX512_IFMA   x86-64 AVX-512 F, VL and IFMA with the zmm and opmask state
 *                          saved by the OS: the batch engine (modules/batch/ifma.h)
 *   P256_CPU_SHA_NI        x86-64 SHA extensions with SSSE3 and SSE4.1: SHA-256
 *   P256_CPU_AES_NI        x86-64 AES-NI (SSE2 is baseline): AES
 *   P256_CPU_ARM_SHA2      aarch64 SHA-256 instructions (FEAT_SHA256): SHA-256
 *   P256_CPU_DIT           aarch64 FEAT_DIT, PSTATE.DIT (cpu_aarch64.h)
 *   P256_CPU_MULX_STEP     not an instruction set but a schedule preference: BMI2 and ADX
 *                          on an Intel core (CPUID vendor GenuineIntel), where the
 *                          x86_64_adx backend's Montgomery step runs faster by MULX than
 *                          by shifts (csrc/asm/x86_64_mont.h says why); asm.h's
 *                          P256_ASM_MONT_CALL chooses the assembly by it
 *
 * Detection runs once per translation unit, at the first question, and asks the CPU
 * for every feature at once; the mask is cached with p256_cpu_cached. The backend's
 * named checks (the function pointers of backend.c's table) are one-line wrappers.
 *
 * Sources: x86-64 CPUID and XGETBV (Intel SDM vol. 2A, CPUID; vol. 1, 13.3 and 15.2 for
 * the OS support of AVX and AVX-512 state; AMD APM vol. 3, appendix E); aarch64 Linux
 * AT_HWCAP (arch/arm64/include/uapi/asm/hwcap.h) and the ID registers the kernel
 * exports (Documentation/arch/arm64/cpu-feature-registers.rst); macOS sysctl
 * hw.optional.arm.*.
 */
#ifndef P256_CPU_H
#define P256_CPU_H

#include "common.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P256_CPU_X86_64 1
#include <cpuid.h>
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__linux__)
#define P256_CPU_AARCH64_LINUX 1
#include <sys/auxv.h>
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__APPLE__)
#define P256_CPU_AARCH64_APPLE 1
#include <sys/types.h>
#include <sys/sysctl.h>
#endif

enum {
    P256_CPU_BMI2_ADX,
    P256_CPU_AVX2,
    P256_CPU_AVX512_IFMA,
    P256_CPU_SHA_NI,
    P256_CPU_AES_NI,
    P256_CPU_ARM_SHA2,
    P256_CPU_DIT,
    P256_CPU_MULX_STEP
};

/*
 * detect() once: *cache starts at -1 and then holds its answer (>= 0). Relaxed atomics
 * suffice, since every thread computes the same value: a race only detects twice.
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

#define P256_CPU_BIT(f) (1 << (f))

#if defined(P256_CPU_X86_64)
/* 1 if every bit of `want` is set in `have`. */
P256_INLINE int p256_cpu_bits(unsigned int have, unsigned int want)
{
    return (have & want) == want;
}

/*
 * CPUID leaf 0: the highest standard leaf, and the vendor in EBX, EDX, ECX ("Genu",
 * "ineI", "ntel" for Intel). Leaf 1 ECX: bit 9 SSSE3, 19 SSE4.1, 25 AES, 27 OSXSAVE, 28
 * AVX. Leaf 7 subleaf 0 EBX (asked only when the highest standard leaf is >= 7): bit 5
 * AVX2, 8 BMI2, 16 AVX512F, 19 ADX, 21 AVX512IFMA, 29 SHA, 31 AVX512VL. XCR0 (XGETBV, ECX = 0, only when
 * OSXSAVE says the OS enabled it): bits 1, 2 SSE and AVX state, 5, 6, 7 opmask, upper
 * zmm0-15, zmm16-31. BMI2, ADX, SHA and AES work on general-purpose or xmm registers,
 * which every x86-64 OS saves, so no XCR0 bit is involved for them; AVX2 needs the ymm
 * state and AVX-512 the zmm state. Emulators without AVX-512 (valgrind) report its bits
 * clear, so callers fall back to the scalar code.
 */
P256_FN int p256_cpu_detect(void)
{
    unsigned int eax, ebx, ecx1 = 0, edx, ecx, ebx7 = 0, xcr0 = 0, xcr0_hi, vendor[3] = {0};
    const unsigned int max = __get_cpuid_max(0, NULL);
    int f = 0;

    if (max >= 1) {
        __cpuid(0, eax, vendor[0], vendor[2], vendor[1]); /* EBX, EDX, ECX: 12 bytes */
        __cpuid(1, eax, ebx, ecx1, edx);
    }
    if (max >= 7)
        __cpuid_count(7, 0, eax, ebx7, ecx, edx);
    (void)eax, (void)ebx, (void)ecx, (void)edx;
    if (p256_cpu_bits(ecx1, 1u << 27)) {
        /* XGETBV with ECX = 0, spelled as bytes: no -mxsave needed for the baseline build. */
        __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
        (void)xcr0_hi;
    }
    if (p256_cpu_bits(ebx7, (1u << 8) | (1u << 19))) {
        f |= P256_CPU_BIT(P256_CPU_BMI2_ADX);
        if (memcmp(vendor, "GenuineIntel", 12) == 0)
            f |= P256_CPU_BIT(P256_CPU_MULX_STEP);
    }
    if (p256_cpu_bits(ecx1, 1u << 28) && p256_cpu_bits(xcr0, 0x06u) && p256_cpu_bits(ebx7, 1u << 5))
        f |= P256_CPU_BIT(P256_CPU_AVX2);
    if (p256_cpu_bits(xcr0, 0xe6u) && p256_cpu_bits(ebx7, (1u << 16) | (1u << 21) | (1u << 31)))
        f |= P256_CPU_BIT(P256_CPU_AVX512_IFMA);
    if (p256_cpu_bits(ecx1, (1u << 9) | (1u << 19)) && p256_cpu_bits(ebx7, 1u << 29))
        f |= P256_CPU_BIT(P256_CPU_SHA_NI);
    if (p256_cpu_bits(ecx1, 1u << 25))
        f |= P256_CPU_BIT(P256_CPU_AES_NI);
    return f;
}
#elif defined(P256_CPU_AARCH64_LINUX)
/*
 * AT_HWCAP bit 6 HWCAP_SHA2, bit 24 HWCAP_DIT. Failing the DIT bit, when the kernel
 * exports the ID registers (HWCAP_CPUID, bit 11), the DIT field ID_AA64PFR0_EL1[51:48]
 * != 0, which is what the kernel's HWCAP_DIT is computed from (it also covers emulators
 * such as qemu-user 7, whose auxv lacks the hwcap bit although the CPU model implements
 * DIT).
 */
P256_FN int p256_cpu_detect(void)
{
    const unsigned long hwcap = getauxval(AT_HWCAP);
    int f = 0;

    if (hwcap & (1UL << 6))
        f |= P256_CPU_BIT(P256_CPU_ARM_SHA2);
    if (hwcap & (1UL << 24)) {
        f |= P256_CPU_BIT(P256_CPU_DIT);
    } else if (hwcap & (1UL << 11)) { /* the kernel emulates MRS of the ID registers */
        uint64_t pfr0;
        __asm__ __volatile__("mrs %0, S3_0_C0_C4_0" : "=r"(pfr0)); /* ID_AA64PFR0_EL1 */
        if (((pfr0 >> 48) & 0xf) != 0)
            f |= P256_CPU_BIT(P256_CPU_DIT);
    }
    return f;
}
#elif defined(P256_CPU_AARCH64_APPLE)
/* Every Apple arm64 CPU has the SHA-256 instructions; DIT: hw.optional.arm.FEAT_DIT. */
P256_FN int p256_cpu_detect(void)
{
    int v = 0, f = P256_CPU_BIT(P256_CPU_ARM_SHA2);
    size_t len = sizeof v;
    if (sysctlbyname("hw.optional.arm.FEAT_DIT", &v, &len, NULL, 0) == 0 && v != 0)
        f |= P256_CPU_BIT(P256_CPU_DIT);
    return f;
}
#else
P256_FN int p256_cpu_detect(void)
{
    return 0;
}
#endif

static int p256_cpu_mask = -1; /* p256_cpu_features' cache */

P256_FN int p256_cpu_features(void)
{
    return p256_cpu_cached(&p256_cpu_mask, p256_cpu_detect);
}

P256_FN int p256_cpu_has(int feature)
{
    return (p256_cpu_features() >> feature) & 1;
}

/*
 * For harnesses and benchmarks only: p256_cpu_has(feature) answers 0 from now on (in
 * this translation unit), so that the fallback runs on a CPU that has the feature.
 */
P256_FN void p256_cpu_disable(int feature)
{
    __atomic_store_n(&p256_cpu_mask, p256_cpu_features() & ~P256_CPU_BIT(feature),
                     __ATOMIC_RELAXED);
}

/*
 * For harnesses and benchmarks only: from now on p256_cpu_has(P256_CPU_MULX_STEP)
 * answers on (1 only where the CPU has BMI2 and ADX), so that either schedule runs on
 * any such CPU: it is a preference, not an instruction set.
 */
P256_FN void p256_cpu_set_mulx_step(int on)
{
    if (on && p256_cpu_has(P256_CPU_BMI2_ADX))
        __atomic_store_n(&p256_cpu_mask, p256_cpu_features() | P256_CPU_BIT(P256_CPU_MULX_STEP),
                         __ATOMIC_RELAXED);
    else
        p256_cpu_disable(P256_CPU_MULX_STEP);
}

/* The x86_64_adx backend's check (backend.c's table, the harnesses). */
P256_FN int p256_cpu_has_x86_64_adx(void)
{
    return p256_cpu_has(P256_CPU_BMI2_ADX);
}

#endif /* P256_CPU_H */
