/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ifma_emu.c: the portable emulation of the batch engine's intrinsics
 * (csrc/modules/batch/ifma_emu.h) against the AVX-512 instructions themselves, lane by lane.
 *
 * Everywhere: known answers of every emulated function at the edges (operands with bits
 * above 52, products that fill 104 bits, accumulators that wrap past 2^64, shift counts
 * above 63, abs and signed compares at -2^63, gathers at negative indices). Where the CPU
 * runs AVX-512 IFMA: every function and its instruction on the same random and edge lanes
 * (0, 1, 2^52 - 1, 2^52, 2^63, all-ones, accumulators near 2^64, ...), every shift count
 * class, random masks, gathers at every scale with negative and unaligned offsets, and the
 * engine's index chain (abs, mask, multiply by shifts) into a gather; elsewhere a SKIP line
 * for that comparison. The plants ifma_emu:1/2 are bugs in the emulation that this
 * harness must catch (tools/plants.py). 10^5 random rounds at
 * P256_TEST_ITERS=100 (harness.h); 0: the known answers only.
 */
#include "harness.h"
#include "modules/batch/ifma_emu.h"
#include "cpu.h"

#define M52 0xfffffffffffffULL
#define TOP 0x8000000000000000ULL

static void same_lanes(const char *what, const uint64_t *got, const uint64_t *want, int round)
{
    for (int l = 0; l < 8; l++)
        CHECK(got[l] == want[l], "%s lane %d round %d: emulated %016llx, expected %016llx", what,
              l, round, (unsigned long long)got[l], (unsigned long long)want[l]);
}

static void same_mask(const char *what, unsigned got, unsigned want, int round)
{
    CHECK(got == want, "%s round %d: emulated mask %02x, expected %02x", what, round, got, want);
}

static p256_emu_m512i vec(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3, uint64_t l4,
                          uint64_t l5, uint64_t l6, uint64_t l7)
{
    p256_emu_m512i r = {{l0, l1, l2, l3, l4, l5, l6, l7}};
    return r;
}

#define KAT(what, got, ...)                      \
    do {                                         \
        const uint64_t want_[8] = {__VA_ARGS__}; \
        same_lanes(what, (got).lane, want_, -1); \
    } while (0)

/* Known answers, worked by hand from the instructions' definitions. */
static void known_answers(void)
{
    /* (2^52-1)^2 = 2^104 - 2^53 + 1: low 52 bits 1, high 2^52 - 2. Operand bits >= 52 are
     * ignored (2^52 counts as 0; ~0 as 2^52 - 1); the sum wraps mod 2^64. */
    p256_emu_m512i acc = vec(0, 0, ~0ULL, 7, 0, ~0ULL << 52, 0, 1),
                   b = vec(M52, 1ULL << 52, 1, ~0ULL, 1ULL << 51, M52, 0, 0xfff0000000000003ULL),
                   c = vec(M52, 5, 1, 2, 2, M52, ~0ULL, TOP | 5);
    KAT("madd52lo", p256_emu_madd52lo_epu64(acc, b, c), 1, 0, 0, (1ULL << 52) + 5, 0,
        (~0ULL << 52) + 1, 0, 16);
    KAT("madd52hi", p256_emu_madd52hi_epu64(acc, b, c), M52 - 1, 0, ~0ULL, 8, 1, ~0ULL - 1, 0,
        1);

    p256_emu_m512i x = vec(~0ULL - 7, 8, TOP, TOP - 1, 1, ~0ULL, 0, 0x123456789abcdef0ULL);
    KAT("srai 1", p256_emu_srai_epi64(x, 1), ~0ULL - 3, 4, 0xc000000000000000ULL,
        (TOP - 1) >> 1, 0, ~0ULL, 0, 0x091a2b3c4d5e6f78ULL);
    KAT("srai 63", p256_emu_srai_epi64(x, 63), ~0ULL, 0, ~0ULL, 0, 0, ~0ULL, 0, 0);
    KAT("srai 64", p256_emu_srai_epi64(x, 64), ~0ULL, 0, ~0ULL, 0, 0, ~0ULL, 0, 0);
    KAT("srai 200", p256_emu_srai_epi64(x, 200), ~0ULL, 0, ~0ULL, 0, 0, ~0ULL, 0, 0);
    KAT("srli 52", p256_emu_srli_epi64(x, 52), 0xfff, 0, 0x800, 0x7ff, 0, 0xfff, 0, 0x123);
    KAT("srli 64", p256_emu_srli_epi64(x, 64), 0, 0, 0, 0, 0, 0, 0, 0);
    KAT("slli 63", p256_emu_slli_epi64(x, 63), 0, 0, 0, TOP, TOP, TOP, 0, 0);
    KAT("slli 64", p256_emu_slli_epi64(x, 64), 0, 0, 0, 0, 0, 0, 0, 0);
    KAT("abs", p256_emu_abs_epi64(x), 8, 8, TOP, TOP - 1, 1, 1, 0, 0x123456789abcdef0ULL);
    KAT("add", p256_emu_add_epi64(x, x), ~0ULL - 15, 16, 0, ~0ULL - 1, 2, ~0ULL - 1, 0,
        0x2468acf13579bde0ULL);
    KAT("sub", p256_emu_sub_epi64(vec(0, 1, 0, 0, 0, 0, 0, 0), vec(1, 0, 0, 0, 0, 0, 0, 0)),
        ~0ULL, 1, 0, 0, 0, 0, 0, 0);
    KAT("set_epi64", p256_emu_set_epi64(7, 6, 5, 4, 3, 2, 1, -1), ~0ULL, 1, 2, 3, 4, 5, 6, 7);

    /* signed compares: -2^63 < 2^63 - 1, -1 < 0, and not the other way round */
    p256_emu_m512i p = vec(TOP, 0, ~0ULL, 0, TOP - 1, TOP, 5, 5),
                   q = vec(TOP - 1, ~0ULL, 0, TOP, TOP, 0, 5, 6);
    same_mask("cmplt", p256_emu_cmplt_epi64_mask(p, q), 0xa5, -1);
    same_mask("cmpeq", p256_emu_cmpeq_epi64_mask(p, q), 0x40, -1);
    same_mask("cmpneq", p256_emu_cmpneq_epi64_mask(p, q), 0xbf, -1);
    KAT("blend", p256_emu_mask_blend_epi64(0xa5, p, q), TOP - 1, 0, 0, 0, TOP - 1, 0, 5, 6);

    /* gathers through base = table + 3: element indices (scale 8), byte offsets (scale 1) */
    uint64_t table[8];
    for (int i = 0; i < 8; i++)
        table[i] = 0x1111111111111111ULL * (uint64_t)i;
    KAT("gather 8",
        p256_emu_i64gather_epi64(vec((uint64_t)-3, (uint64_t)-2, (uint64_t)-1, 0, 1, 2, 3, 4),
                                 table + 3, 8),
        table[0], table[1], table[2], table[3], table[4], table[5], table[6], table[7]);
    KAT("gather 1",
        p256_emu_i64gather_epi64(vec(32, 24, 16, 8, 0, (uint64_t)-8, (uint64_t)-16, (uint64_t)-24),
                                 table + 3, 1),
        table[7], table[6], table[5], table[4], table[3], table[2], table[1], table[0]);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HW __attribute__((target("avx512f,avx512vl,avx512ifma")))

/* Edge lanes: around 2^52 (the operand width), 2^63 (the sign), 2^64 (the wrap). */
static const uint64_t edges[] = {0,
                                 1,
                                 2,
                                 M52 - 1,
                                 M52,
                                 M52 + 1,
                                 M52 + 2,
                                 (1ULL << 53) - 1,
                                 TOP - 1,
                                 TOP,
                                 TOP + 1,
                                 ~0ULL,
                                 ~0ULL - 1,
                                 ~0ULL << 52,
                                 (~0ULL << 52) + 1,
                                 ~0ULL - M52,
                                 0xfff0000000000001ULL,
                                 0x000fffff00000000ULL};

static uint64_t lane_value(void)
{
    uint64_t r = rng64();
    switch (rng64() % 6) {
    case 0: return edges[rng64() % (sizeof edges / sizeof edges[0])];
    case 1: return r & M52;                     /* an operand the engine makes */
    case 2: return r | ~M52;                    /* top bits set */
    case 3: return ~0ULL - (r & 0xffffffffULL); /* an accumulator near 2^64 */
    case 4: return r >> (rng64() % 64);         /* small */
    default: return r;
    }
}

static void lanes(uint64_t v[8])
{
    for (int l = 0; l < 8; l++)
        v[l] = lane_value();
}

#define SHIFT_COUNTS(X) \
    X(0) X(1) X(3) X(7) X(12) X(31) X(51) X(52) X(53) X(63) X(64) X(65) X(127) X(255)

HW static void hw_store(uint64_t w[8], __m512i v)
{
    _mm512_storeu_si512((void *)w, v);
}

#define VEC(what, emu, hw)                       \
    do {                                         \
        uint64_t w_[8];                          \
        hw_store(w_, hw);                        \
        same_lanes(what, (emu).lane, w_, round); \
    } while (0)

/* Every emulated function against its instruction on the lanes a, b, c and mask k. */
HW static void compare(const uint64_t a[8], const uint64_t b[8], const uint64_t c[8], unsigned k,
                       int round)
{
    const __m512i ha = _mm512_loadu_si512((const void *)a),
                  hb = _mm512_loadu_si512((const void *)b),
                  hc = _mm512_loadu_si512((const void *)c);
    const p256_emu_m512i ea = p256_emu_loadu_si512(a), eb = p256_emu_loadu_si512(b),
                         ec = p256_emu_loadu_si512(c);
    const __mmask8 hk = (__mmask8)k;
    const p256_emu_mmask8 ek = (p256_emu_mmask8)k;

    VEC("madd52lo", p256_emu_madd52lo_epu64(ea, eb, ec), _mm512_madd52lo_epu64(ha, hb, hc));
    VEC("madd52hi", p256_emu_madd52hi_epu64(ea, eb, ec), _mm512_madd52hi_epu64(ha, hb, hc));
    VEC("add", p256_emu_add_epi64(ea, eb), _mm512_add_epi64(ha, hb));
    VEC("sub", p256_emu_sub_epi64(ea, eb), _mm512_sub_epi64(ha, hb));
    VEC("and", p256_emu_and_si512(ea, eb), _mm512_and_si512(ha, hb));
    VEC("or", p256_emu_or_si512(ea, eb), _mm512_or_si512(ha, hb));
    VEC("xor", p256_emu_xor_si512(ea, eb), _mm512_xor_si512(ha, hb));
    VEC("abs", p256_emu_abs_epi64(ea), _mm512_abs_epi64(ha));
#define SHIFTS(n)                                                                   \
    VEC("slli " #n, p256_emu_slli_epi64(ea, n), _mm512_slli_epi64(ha, n));           \
    VEC("srli " #n, p256_emu_srli_epi64(ea, n), _mm512_srli_epi64(ha, n));           \
    VEC("srai " #n, p256_emu_srai_epi64(ea, n), _mm512_srai_epi64(ha, n));
    SHIFT_COUNTS(SHIFTS)
#undef SHIFTS
    VEC("set1", p256_emu_set1_epi64((long long)a[3]), _mm512_set1_epi64((long long)a[3]));
    VEC("setzero", p256_emu_setzero_si512(), _mm512_setzero_si512());
#define L(i) (long long)a[i]
    VEC("set_epi64", p256_emu_set_epi64(L(7), L(6), L(5), L(4), L(3), L(2), L(1), L(0)),
        _mm512_set_epi64(L(7), L(6), L(5), L(4), L(3), L(2), L(1), L(0)));
#undef L
    same_mask("cmplt", p256_emu_cmplt_epi64_mask(ea, eb), _mm512_cmplt_epi64_mask(ha, hb), round);
    same_mask("cmplt (swapped)", p256_emu_cmplt_epi64_mask(eb, ea),
              _mm512_cmplt_epi64_mask(hb, ha), round);
    same_mask("cmpeq", p256_emu_cmpeq_epi64_mask(ea, eb), _mm512_cmpeq_epi64_mask(ha, hb), round);
    same_mask("cmpneq", p256_emu_cmpneq_epi64_mask(ea, eb), _mm512_cmpneq_epi64_mask(ha, hb),
              round);
    VEC("blend", p256_emu_mask_blend_epi64(ek, ea, eb), _mm512_mask_blend_epi64(hk, ha, hb));

    /* loads and stores at an odd address */
    unsigned char buf[2][72];
    memcpy(buf[0] + 1, c, 64);
    VEC("loadu", p256_emu_loadu_si512(buf[0] + 1), _mm512_loadu_si512((const void *)(buf[0] + 1)));
    memset(buf, 0x5a, sizeof buf);
    p256_emu_storeu_si512(buf[0] + 3, ea);
    _mm512_storeu_si512((void *)(buf[1] + 3), ha);
    CHECK(memcmp(buf[0], buf[1], sizeof buf[0]) == 0, "storeu round %d", round);
}

/* Gathers at each scale from the middle of a table (negative and, at scale 1, unaligned
 * offsets), and the engine's index chain: (|d| - 1) & 15, times 120, plus the lane. */
HW static void compare_gathers(int round)
{
    static uint64_t table[16 * 120 + 64];
    uint64_t idx[8], d[8];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        table[i] = rng64();
    const uint64_t *mid = table + 32;
#define GATHER(scale)                                                                      \
    do {                                                                                   \
        for (int l = 0; l < 8; l++)                                                        \
            idx[l] = (uint64_t)((int64_t)(rng64() % (uint64_t)(63 * 8 / (scale))) -        \
                                32 * 8 / (scale));                                         \
        VEC("gather " #scale, p256_emu_i64gather_epi64(p256_emu_loadu_si512(idx), mid, scale), \
            _mm512_i64gather_epi64(_mm512_loadu_si512((const void *)idx), (const void *)mid, \
                                   scale));                                               \
    } while (0)
    GATHER(1);
    GATHER(2);
    GATHER(4);
    GATHER(8);
#undef GATHER
    lanes(d);
    for (int l = 0; l < 8; l += 2)
        d[l] = (uint64_t)((int64_t)(rng64() % 33) - 16); /* the digits the engine sees */
    p256_emu_m512i ei = p256_emu_abs_epi64(p256_emu_loadu_si512(d));
    __m512i hi = _mm512_abs_epi64(_mm512_loadu_si512((const void *)d));
    ei = p256_emu_and_si512(p256_emu_sub_epi64(ei, p256_emu_set1_epi64(1)),
                            p256_emu_set1_epi64(15));
    hi = _mm512_and_si512(_mm512_sub_epi64(hi, _mm512_set1_epi64(1)), _mm512_set1_epi64(15));
    ei = p256_emu_add_epi64(
        p256_emu_sub_epi64(p256_emu_slli_epi64(ei, 7), p256_emu_slli_epi64(ei, 3)),
        p256_emu_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    hi = _mm512_add_epi64(_mm512_sub_epi64(_mm512_slli_epi64(hi, 7), _mm512_slli_epi64(hi, 3)),
                          _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    VEC("engine index", ei, hi);
    VEC("engine gather", p256_emu_i64gather_epi64(ei, table, 8),
        _mm512_i64gather_epi64(hi, (const void *)table, 8));
}

static int compare_with_hardware(int rounds)
{
    if (!p256_cpu_has(P256_CPU_AVX512_IFMA))
        return 0;
    for (int round = 0; round < rounds; round++) {
        uint64_t a[8], b[8], c[8];
        lanes(a);
        lanes(b);
        lanes(c);
        for (int l = 0; l < 8; l++)
            if (rng64() % 4 == 0)
                b[l] = a[l]; /* equal lanes for the compares */
        unsigned k = round == 0 ? 0 : round == 1 ? 0xff : (unsigned)(rng64() & 0xff);
        compare(a, b, c, k, round);
        compare_gathers(round);
    }
    return 1;
}
#else
static int compare_with_hardware(int rounds)
{
    (void)rounds;
    return 0;
}
#endif

int main(void)
{
    int rounds = (int)harness_iters(100000);
    known_answers();
    if (compare_with_hardware(rounds))
        printf("test_ifma_emu: the emulation against AVX-512 IFMA, %d rounds\n", rounds);
    else
        printf("test_ifma_emu: SKIP the comparison with the instructions: this CPU lacks "
               "AVX-512 IFMA (known answers only)\n");
    printf("test_ifma_emu: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
