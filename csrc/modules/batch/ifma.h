/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/ifma.h: the 8-lane AVX-512 IFMA engine of the batch module, behind
 * p256_verify_batch_vartime (p256.h). Eight independent ECDSA verifications run in
 * lockstep, one per 64-bit lane of a zmm register. Public data only: everything here is
 * variable time, but every table index is masked into its table whatever the input. The
 * exceptions, the secret side, are constant time in their secret inputs, and so are the
 * field and point primitives they are built from: p256_ifma_ecmult_gen8 (k*G for key
 * generation and signing) and p256_ifma_ecmult_const8 (k*q for ECDH).
 *
 * Built on x86-64 with GCC or clang (P256_HAVE_IFMA); the functions carry target
 * attributes, so the rest of the build stays baseline and the engine is only entered
 * after p256_cpu_has(P256_CPU_AVX512_IFMA) (cpu.h). Elsewhere only the scalar loop exists.
 * -DP256_NO_IFMA leaves the engine out on any platform.
 *
 * -DP256_IFMA_EMULATE (the C harnesses and `make ctime` only) builds the same engine on
 * any CPU against ifma_emu.h, a portable emulation of its intrinsics: no target
 * attributes, no CPU check (p256_ifma_available() is 1), and the engine's name says
 * "emulated". The extension's objects (-DP256_VARIANT) refuse it.
 *
 * Field elements (p256_fe8): 5 limbs of 52 bits (radix 2^52) x 8 lanes, limb k of every
 * lane in v[k]. A lane holds w = a*2^260 mod p (Montgomery, R = 2^260) as an integer
 * w < 2p, every limb < 2^52 ("normalized": the form vpmadd52luq/huq read, which take
 * the low 52 bits of their operands). Every primitive takes and returns normalized
 * elements < 2p; mul/sqr accept inputs < 4p (16p < R) and return < 2p. Equality of
 * elements is equality mod p: compare after p256_fe8_mask_is_zero or a full reduction.
 *
 * Points: p256_jac8 Jacobian (X, Y, Z) on y^2 = x^3 - 3x + b, p256_aff8 affine.
 * The additions are the incomplete textbook formulas; they return the mask of lanes
 * where H = U2 - U1 == 0 (the operands share x: a doubling or an infinity), in which
 * lanes the output is wrong and the caller must not use it (the engine hands those
 * items to the scalar core).
 */
#ifndef P256_MODULE_BATCH_IFMA_H
#define P256_MODULE_BATCH_IFMA_H

#include "../../p256.h"
#include "../../group.h"
#include "../../scalar.h"
#include "batch.h"

#if defined(P256_IFMA_EMULATE)
#if defined(P256_VARIANT)
#error "P256_IFMA_EMULATE is for the C harnesses and make ctime, never for the extension"
#endif
#define P256_HAVE_IFMA 1
#include "ifma_emu.h"
#define P256_IFMA_TARGET
/* Not forced inline: on 64-byte structs that takes gcc minutes and a gigabyte. */
#define P256_IFMA_INLINE static inline P256_UNUSED
#define P256_IFMA_FN static P256_UNUSED
#define P256_IFMA_POINT P256_IFMA_INLINE
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(P256_NO_IFMA)
#define P256_HAVE_IFMA 1
#include <immintrin.h>

#define P256_IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
/* Engine helpers: always inlined so limbs stay in registers (the target must match). */
#define P256_IFMA_INLINE static inline __attribute__((always_inline, unused)) P256_IFMA_TARGET
#define P256_IFMA_FN static P256_UNUSED P256_IFMA_TARGET
/* ... but not the point formulas into each of their call sites: as one function per
 * group count, anything holding the engine builds in a fraction of the time at the
 * same speed (docs/performance.md, batch verification engine). */
#define P256_IFMA_POINT static __attribute__((noinline, unused)) P256_IFMA_TARGET
#endif

#if defined(P256_HAVE_IFMA)

typedef struct {
    __m512i v[5];
} p256_fe8;
typedef struct {
    p256_fe8 x, y, z;
} p256_jac8;
typedef struct {
    p256_fe8 x, y;
} p256_aff8;

/* r = a*b*2^-260 mod p, r = a^2*2^-260; inputs < 4p, output < 2p. */
P256_IFMA_INLINE void p256_fe8_mul(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b);
P256_IFMA_INLINE void p256_fe8_sqr(p256_fe8 *r, const p256_fe8 *a);
/* r = a + b, r = a - b (mod p); inputs < 2p, output < 2p. */
P256_IFMA_INLINE void p256_fe8_add(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b);
P256_IFMA_INLINE void p256_fe8_sub(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b);
/* r = a/2 mod p for a < 2p (r < 1.5p). */
P256_IFMA_INLINE void p256_fe8_half(p256_fe8 *r, const p256_fe8 *a);
/* Bit l set where lane l of a (< 2p) is 0 mod p. */
P256_IFMA_INLINE __mmask8 p256_fe8_mask_is_zero(const p256_fe8 *a);

/* Lane l <-> a scalar field element (field.h's representation, reduced). */
P256_IFMA_FN void p256_fe8_set_lane(p256_fe8 *r, int lane, const p256_fe *a);
P256_IFMA_FN void p256_fe8_get_lane(p256_fe *r, const p256_fe8 *a, int lane);

/* r = 2a (the core's slope-halved doubling, a = -3): right for every finite a; an
 * infinite a (Z = 0) stays so. */
P256_IFMA_INLINE void p256_jac8_double(p256_jac8 *r, const p256_jac8 *a);
/* r = a + b (add-1998-cmo-2), r = a + b for affine b (Z2 = 1); both finite, and right
 * only in lanes outside the returned mask of H == 0. r may alias a. */
P256_IFMA_INLINE __mmask8 p256_jac8_add(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b);
P256_IFMA_INLINE __mmask8 p256_jac8_add_aff(p256_jac8 *r, const p256_jac8 *a, const p256_aff8 *b);

/*
 * Signed fixed windows of w bits (2 <= w <= 7): ceil(256/w) digits in [-2^(w-1), 2^(w-1)]
 * with u = sum d[i] 2^(w i), for u < 2^256. q's digits use w = 5 (per-lane tables of 16
 * Jacobian multiples built in lanes), G's w = P256_IFMA_GW (one shared affine table of
 * P256_IFMA_GTAB multiples, built at first use).
 */
#define P256_IFMA_WINDOWS 52
#define P256_IFMA_GW 7
#define P256_IFMA_GWINDOWS 37
#define P256_IFMA_GTAB 64
P256_FN void p256_ifma_recode(int64_t *d, const p256_scalar *u, int w);

/*
 * The joint multiplication of 8 lanes: lane l gets u1[l]*G + u2[l]*q[l] (Jacobian, as
 * field.h elements in x[l], z[l]; y is not needed by verification). Returns the mask of
 * lanes whose result is NOT to be trusted: an addition met H == 0 (a doubling, or a sum
 * at infinity) or the result is infinity. Any u1, u2 < 2^256 and any on-curve q: the
 * table reads stay in bounds whatever they are.
 */
P256_IFMA_FN unsigned p256_ifma_ecmult8_vartime(p256_fe x[8], p256_fe z[8],
                                                const p256_scalar u1[8], const p256_scalar u2[8],
                                                const p256_aff q[8]);
/* The same for 16 lanes (two groups of 8 interleaved operation by operation). */
P256_IFMA_FN unsigned p256_ifma_ecmult16_vartime(p256_fe x[16], p256_fe z[16],
                                                 const p256_scalar u1[16],
                                                 const p256_scalar u2[16], const p256_aff q[16]);

/*
 * k*G for 8 secret scalars (key generation and signing), the fixed-base comb of
 * ecmult_gen_impl.h in lanes (code: ifma_gen_impl.h). Constant time in k. Lane l:
 * (x[l] : y[l] : z[l]) = k[l]*G in Jacobian coordinates, as field.h elements
 * (p256_fe8_get_lane's form), for any k[l] < n; k[l] = 0 gives z[l] = 0.
 */
#define P256_IFMA_HAVE_GEN8 1
P256_IFMA_FN void p256_ifma_ecmult_gen8(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                        const p256_scalar k[8]);

/*
 * k*q for 8 secret scalars (multi-buffer ECDH), code in ifma_const_impl.h. Constant time
 * in k (and in q): no branch and no memory address depends on them, every table entry is
 * read.
 * Lane l: (x[l] : y[l] : z[l]) = k[l]*q[l] in Jacobian coordinates, as field.h elements
 * (p256_fe8_get_lane's form), for any k[l] < n and q[l] a finite point on the curve;
 * k[l] = 0 gives z[l] = 0. (Exact for any k[l] < 2^256 too, as (k[l] mod n)*q[l]: the
 * last window's blends cover the two such k that meet an exceptional addition.)
 */
#define P256_IFMA_HAVE_CONST8 1
P256_IFMA_FN void p256_ifma_ecmult_const8(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                          const p256_scalar k[8], const p256_aff q[8]);
#endif /* P256_HAVE_IFMA */

/* 1 if the engine is built and this CPU and OS run it: cpu.h's answer, which it
 * detects once and caches (no detection here); always 1 on the emulation. */
P256_FN int p256_ifma_available(void);
/* Builds the engine's tables now if no thread has (p256_batch_prepare); a no-op where
 * the engine is not built. */
P256_FN void p256_ifma_prepare(void);
/* p256_batch_engine()'s name for it (the emulated one never reaches the extension). */
#if defined(P256_IFMA_EMULATE)
#define P256_IFMA_ENGINE_NAME "avx512-ifma-emulated"
#else
#define P256_IFMA_ENGINE_NAME "avx512-ifma"
#endif

/*
 * results[i] = p256_ecdsa_verify_vartime(items[i]) for i < n (keys already decoded), 16 at
 * a time on the IFMA engine (8 for a group shorter than P256_IFMA_MIN_16), with items the
 * engine cannot settle (exceptional lanes, groups shorter than P256_IFMA_MIN_GROUP)
 * verified by the core's verification on the same point. The thresholds are measured
 * break-evens (docs/performance.md). Needs p256_ifma_available().
 */
#ifndef P256_IFMA_MIN_GROUP
#define P256_IFMA_MIN_GROUP 3
#endif
/* Fewer items than this take the 8-lane form (and the rest the scalar core or another
 * group), not the 16-lane one, whose cost is that of 16 whatever the count. */
#ifndef P256_IFMA_MIN_16
#define P256_IFMA_MIN_16 11
#endif
P256_FN void p256_ifma_verify_batch_vartime(uint8_t *results, const p256_batch_point_item *items,
                                            size_t n);

#endif /* P256_MODULE_BATCH_IFMA_H */
