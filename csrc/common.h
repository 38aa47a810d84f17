/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common.h: types and constant-time helpers shared by every layer of the p256 core.
 *
 * Constant-time rule for the whole core: a value derived from a secret (private scalar,
 * nonce, their inverses, points computed from them) never decides a branch, a memory
 * index, or the operand of a variable-time instruction (division). Selections use the
 * masks below. Functions allowed to break the rule work on public data only and carry
 * the suffix _vartime.
 */
#ifndef P256_COMMON_H
#define P256_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h> /* _addcarry_u64 / _subborrow_u64: plain adc/sbb, baseline x86-64 */
#endif

__extension__ typedef unsigned __int128 p256_u128;
__extension__ typedef __int128 p256_i128;

#if defined(__GNUC__) || defined(__clang__)
#define P256_INLINE static inline __attribute__((always_inline))
#define P256_NOINLINE __attribute__((noinline))
#define P256_UNUSED __attribute__((unused))
#else
#define P256_INLINE static inline
#define P256_NOINLINE
#define P256_UNUSED
#endif

/* A layer function: static (one translation unit), possibly unused by a given harness. */
#define P256_FN static P256_UNUSED

/*
 * Value barrier: hides a value from the optimizer so that it cannot prove a mask is
 * 0 or all-ones and turn a masked select back into a branch.
 */
P256_INLINE uint64_t p256_value_barrier(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x));
#endif
    return x;
}

/* All-ones if x == 0, else 0. */
P256_INLINE uint64_t p256_mask_is_zero(uint64_t x)
{
    /* (x | -x) has its top bit set iff x != 0. */
    return p256_value_barrier(((x | (0 - x)) >> 63) - 1);
}

/* All-ones if b (0 or 1) is 1, else 0. */
P256_INLINE uint64_t p256_mask_from_bit(uint64_t b)
{
    return p256_value_barrier(0 - b);
}

/* All-ones if a == b, else 0. */
P256_INLINE uint64_t p256_mask_eq(uint64_t a, uint64_t b)
{
    return p256_mask_is_zero(a ^ b);
}

/*
 * Constant-time validation hooks (BoringSSL's CONSTTIME_SECRET/DECLASSIFY idea). Built
 * with P256_CTIME_TEST, secrets are marked undefined for valgrind memcheck, which then
 * reports any branch or memory index that depends on them; a value that becomes
 * public (a signature, a yes/no that the caller sees anyway) is declassified before
 * the code branches on it. Otherwise both are no-ops.
 */
#ifdef P256_CTIME_TEST
#include <valgrind/memcheck.h>
#define P256_SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define P256_DECLASSIFY(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define P256_SECRET(p, len) ((void)(p), (void)(len))
#define P256_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

/*
 * Planted bugs: the negative controls of the C harnesses (tests/c), each a deliberate
 * mistake that its harness must catch, or the harness is blind to it. Outside a plant
 * build P256_PLANT(kind, n) is the constant 0 and the code it guards is gone, so release,
 * harness and constant-time builds carry no trace of them. A plant build (-DP256_PLANTS,
 * test binaries only) compiles every plant in and arms at most one at run time, the one
 * the environment names as P256_PLANT=kind:n (point:2, ifma:7): one build serves every
 * plant its harnesses can catch, where a build per plant cost one compile of the core
 * each. Unset, nothing is armed; a name this build does not know is a broken run (exit 2),
 * never a harness that passes because nothing was planted. The kinds:
 *   point     the point formulas (group_impl.h)
 *   scalar    arithmetic mod n (scalar_impl.h)
 *   recover   public-key recovery (modules/recovery)
 *   batch     batch verification and signing (modules/batch)
 *   pubtable  the comb over a per-key table (ecmult_pubtable.h)
 *   ifma      the 8-lane IFMA engine (modules/batch/ifma*_impl.h)
 *   ifma_emu  the portable emulation of its intrinsics (modules/batch/ifma_emu.h)
 *   halflen   the half-length verification experiment (modules/halflen)
 *   group     the group API's own layers: k*P for a Jacobian P, the sums of many
 *             multiples (ecmult_multi_impl.h), the map to the curve, the reductions of
 *             long integers, equality of Jacobian points
 * The assembly's plants are chosen when it is assembled (-DP256_PLANT_POINT_BUG=n,
 * -DP256_PLANT_SCALAR_BUG=n on the .S files): a plant build's object is linked with the
 * planted objects instead of the plain ones.
 */
#ifdef P256_PLANTS
#include <stdio.h>
#include <stdlib.h>

#define P256_PLANT_KINDS(X) \
    X(point) X(scalar) X(recover) X(batch) X(pubtable) X(ifma) X(ifma_emu) X(halflen) X(group)
enum {
    P256_PLANT_KIND_none,
#define P256_PLANT_ENUM(k) P256_PLANT_KIND_##k,
    P256_PLANT_KINDS(P256_PLANT_ENUM)
#undef P256_PLANT_ENUM
};

/* 1 when the environment arms plant n of kind; read once (a test binary's first call). */
static P256_UNUSED int p256_plant_armed(int kind, int n)
{
    static int armed_kind = -1, armed_n;
    if (armed_kind < 0) {
        static const char *const names[] = {"none",
#define P256_PLANT_NAME(k) #k,
                                            P256_PLANT_KINDS(P256_PLANT_NAME)
#undef P256_PLANT_NAME
        };
        const char *s = getenv("P256_PLANT");
        char *end = NULL;
        armed_kind = P256_PLANT_KIND_none;
        if (s != NULL && *s != '\0') {
            const char *colon = strchr(s, ':');
            long v = colon != NULL ? strtol(colon + 1, &end, 10) : 0;
            armed_kind = -1;
            for (int i = 1; colon != NULL && i < (int)(sizeof names / sizeof names[0]); i++)
                if ((size_t)(colon - s) == strlen(names[i]) && memcmp(s, names[i], strlen(names[i])) == 0)
                    armed_kind = i;
            if (armed_kind < 0 || end == colon + 1 || *end != '\0' || v < 1 || v > 99) {
                fprintf(stderr, "P256_PLANT=%s: not kind:n with a known kind (point, scalar, recover, "
                                "batch, pubtable, ifma, ifma_emu, halflen, group) and n in 1..99\n", s);
                exit(2);
            }
            armed_n = (int)v;
        }
    }
    return kind == armed_kind && n == armed_n;
}
#define P256_PLANT(kind, n) p256_plant_armed(P256_PLANT_KIND_##kind, (n))
#else
#define P256_PLANT(kind, n) 0
#endif

/*
 * Wipes secret memory in a way the compiler may not drop as a dead store: the core's one
 * definition (the hash layer's too; the binding reaches it as p256_wipe). A harness may
 * define P256_MEMZERO_PROBE() before including the core to run code at every wipe
 * (tests/c/arm64_dit.c).
 */
P256_FN void p256_memzero(void *p, size_t n)
{
#ifdef P256_MEMZERO_PROBE
    P256_MEMZERO_PROBE();
#endif
#if defined(__GNUC__) || defined(__clang__)
    /* memset, then an empty asm that claims to read *p: the stores cannot be proved dead. */
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (n--)
        *v++ = 0;
#endif
}

/* Big-endian 32 bytes <-> 4 little-endian 64-bit limbs. */
P256_INLINE void p256_limbs_from_be32(uint64_t r[4], const uint8_t b[32])
{
    for (int i = 0; i < 4; i++) {
        const uint8_t *q = b + 8 * (3 - i);
        r[i] = ((uint64_t)q[0] << 56) | ((uint64_t)q[1] << 48) | ((uint64_t)q[2] << 40) |
               ((uint64_t)q[3] << 32) | ((uint64_t)q[4] << 24) | ((uint64_t)q[5] << 16) |
               ((uint64_t)q[6] << 8) | (uint64_t)q[7];
    }
}

P256_INLINE void p256_limbs_to_be32(uint8_t b[32], const uint64_t a[4])
{
    for (int i = 0; i < 4; i++) {
        uint8_t *q = b + 8 * (3 - i);
        for (int j = 0; j < 8; j++)
            q[j] = (uint8_t)(a[i] >> (56 - 8 * j));
    }
}

/*
 * Chunk `at` (0, 16, 32, ...) of the big-endian b[0..len) read as if left-padded with
 * zeros to a multiple of 16 bytes, into r[0] (low) and r[1] (high): the steps of a
 * Horner reduction of a long integer, 128 bits at a time. Constant time in the bytes;
 * len and at are public.
 */
P256_INLINE void p256_limbs_from_be_chunk16(uint64_t r[2], const uint8_t *b, size_t len, size_t at)
{
    const size_t pad = (16 - len % 16) % 16;
    r[0] = r[1] = 0;
    for (size_t i = 0; i < 16; i++) {
        const uint64_t byte = at + i >= pad ? b[at + i - pad] : 0;
        r[i < 8] = (r[i < 8] << 8) | byte;
    }
}

/* Returns all-ones if a < m (both 4 limbs), else 0; constant time. */
P256_INLINE uint64_t p256_limbs_mask_lt(const uint64_t a[4], const uint64_t m[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        p256_u128 d = (p256_u128)a[i] - m[i] - borrow;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return p256_mask_from_bit(borrow);
}

/*
 * Word primitives. gcc turns unsigned __int128 carry chains into spills and setc/movzx
 * sequences (5x slower than adc for an addition), so on x86-64 the carries go through
 * the _addcarry_u64/_subborrow_u64 intrinsics (plain adc/sbb, baseline x86-64, no ADX);
 * elsewhere through __int128, which aarch64 compilers map to adds/adcs.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
P256_INLINE uint64_t p256_adc(uint64_t a, uint64_t b, unsigned char *c)
{
    unsigned long long s;
    *c = _addcarry_u64(*c, a, b, &s);
    return s;
}
P256_INLINE uint64_t p256_sbb(uint64_t a, uint64_t b, unsigned char *c)
{
    unsigned long long d;
    *c = _subborrow_u64(*c, a, b, &d);
    return d;
}
#else
P256_INLINE uint64_t p256_adc(uint64_t a, uint64_t b, unsigned char *c)
{
    p256_u128 s = (p256_u128)a + b + *c;
    *c = (unsigned char)(s >> 64);
    return (uint64_t)s;
}
P256_INLINE uint64_t p256_sbb(uint64_t a, uint64_t b, unsigned char *c)
{
    p256_u128 d = (p256_u128)a - b - *c;
    *c = (unsigned char)((d >> 64) & 1);
    return (uint64_t)d;
}
#endif

/* Full product a*b = hi*2^64 + lo. */
P256_INLINE uint64_t p256_mulw(uint64_t a, uint64_t b, uint64_t *hi)
{
    p256_u128 p = (p256_u128)a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
}

/*
 * r = (t4*2^256 + t) mod m for a value < 2m and a 4-word modulus m: subtract m, then add
 * it back under the borrow mask (fewer instructions than selecting between the two).
 * The modulus words are parameters so that the compiler folds them as immediates.
 */
P256_INLINE void p256_words_reduce_once(uint64_t r[4], uint64_t t0, uint64_t t1, uint64_t t2,
                                        uint64_t t3, uint64_t t4, uint64_t m0, uint64_t m1,
                                        uint64_t m2, uint64_t m3)
{
    unsigned char b = 0, c = 0;
    uint64_t mask;

    t0 = p256_sbb(t0, m0, &b);
    t1 = p256_sbb(t1, m1, &b);
    t2 = p256_sbb(t2, m2, &b);
    t3 = p256_sbb(t3, m3, &b);
    (void)p256_sbb(t4, 0, &b);
    /* b = 1 iff the value was < m: then t + m (mod 2^256) is the value again. */
    mask = p256_mask_from_bit(b);
    r[0] = p256_adc(t0, m0 & mask, &c);
    r[1] = p256_adc(t1, m1 & mask, &c);
    r[2] = p256_adc(t2, m2 & mask, &c);
    r[3] = p256_adc(t3, m3 & mask, &c);
}

/* r[0..4] = a * w, a 4-word by 1-word product (a * w < 2^320: no carry out of r[4]). */
P256_INLINE void p256_words_mul_word(uint64_t r[5], const uint64_t a[4], uint64_t w)
{
    uint64_t h0, h1, h2;
    unsigned char c = 0;

    r[0] = p256_mulw(a[0], w, &h0);
    r[1] = p256_mulw(a[1], w, &h1);
    r[2] = p256_mulw(a[2], w, &h2);
    r[3] = p256_mulw(a[3], w, &r[4]);
    r[1] = p256_adc(r[1], h0, &c);
    r[2] = p256_adc(r[2], h1, &c);
    r[3] = p256_adc(r[3], h2, &c);
    r[4] += c;
}

/* r = (a + b) mod m for a, b < m: the sum is < 2m, one conditional subtraction. */
P256_INLINE void p256_words_add_mod(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                    uint64_t m0, uint64_t m1, uint64_t m2, uint64_t m3)
{
    unsigned char c = 0;
    uint64_t t0, t1, t2, t3;

    t0 = p256_adc(a[0], b[0], &c);
    t1 = p256_adc(a[1], b[1], &c);
    t2 = p256_adc(a[2], b[2], &c);
    t3 = p256_adc(a[3], b[3], &c);
    p256_words_reduce_once(r, t0, t1, t2, t3, c, m0, m1, m2, m3);
}

#endif /* P256_COMMON_H */
