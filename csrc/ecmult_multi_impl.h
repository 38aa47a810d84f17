/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_multi_impl.h: sums of scalar multiples, constant time (Straus over signed windows)
 * and variable time (Straus over wNAF, Pippenger's buckets). Contract: ecmult_multi.h. */
#ifndef P256_ECMULT_MULTI_IMPL_H
#define P256_ECMULT_MULTI_IMPL_H

#include "ecmult_multi.h"
#include "ecmult_common_impl.h"
#include "ecmult_const_impl.h"
#include "ecmult_vartime_impl.h"

/* ---- Constant time --------------------------------------------------------------------- */

/*
 * Straus's interleaving (Shamir's trick for many terms): one chain of doublings for the
 * whole sum, and per 5-bit window the signed Booth digit of each k_i, added from P_i's
 * table of 1..16 P_i (the windows, digits and table scan of ecmult_const_impl.h: 52
 * windows, the top one's digit 0, 1 or 2).
 *
 * The additions are the complete mixed formula. A single k*P may use the incomplete one
 * because its running sum is a known multiple of P; here it is a combination of several
 * points, which whoever chooses them can make equal to an addend (P_1 = P_0 with digits
 * that meet, say), and the incomplete formula would then be wrong.
 *
 * The tables: each P_i's co-Z chain (group.h), the last Z of every chain inverted at
 * once by Montgomery's trick, one constant-time inversion for all (the Z's are nonzero:
 * every chain is of a finite point). An identity P_i has no chain: G stands in for it,
 * and every addition of its digits is masked (b_inf), so it reads, adds and costs the
 * same as any other term.
 */
#define P256_MULTI_CONST_ENTRIES P256_CONST_ENTRIES /* 16: (j + 1) P_i, j < 16 */

P256_INLINE size_t p256_multi_const_scratch(size_t m)
{
    return m * (P256_MULTI_CONST_ENTRIES * (sizeof(p256_aff) + sizeof(p256_fe)) +
                2 * sizeof(p256_fe) + sizeof(uint64_t));
}

P256_FN void p256_ecmult_multi(p256_jac *r, const p256_scalar *k, const p256_jac *p, size_t m,
                               void *scratch)
{
    p256_aff *tab = (p256_aff *)scratch;                               /* m x 16 */
    p256_fe *ratio = (p256_fe *)(tab + m * P256_MULTI_CONST_ENTRIES);  /* m x 16 */
    p256_fe *z = ratio + m * P256_MULTI_CONST_ENTRIES, *tmp = z + m;    /* m, m */
    uint64_t *inf = (uint64_t *)(tmp + m);                             /* m */
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero}, q;
    p256_aff t;
    uint64_t neg, idx;

    if (m == 0) {
        *r = acc;
        return;
    }
    for (size_t i = 0; i < m; i++) {
        inf[i] = p256_fe_mask_is_zero(&p[i].z);
        q = p[i];
        p256_fe_cmov(&q.x, &p256_generator.x, inf[i]);
        p256_fe_cmov(&q.y, &p256_generator.y, inf[i]);
        p256_fe_cmov(&q.z, &p256_fe_one, inf[i]);
        p256_coz_multiples(tab + i * P256_MULTI_CONST_ENTRIES, ratio + i * P256_MULTI_CONST_ENTRIES,
                           &z[i], &q, P256_MULTI_CONST_ENTRIES, 1);
    }
    p256_fe_inv_many(z, tmp, m);
    for (size_t i = 0; i < m; i++)
        p256_coz_to_aff(tab + i * P256_MULTI_CONST_ENTRIES, tab + i * P256_MULTI_CONST_ENTRIES,
                        ratio + i * P256_MULTI_CONST_ENTRIES, &z[i], 0, P256_MULTI_CONST_ENTRIES);

    for (int w = P256_CONST_WINDOWS - 1; w >= 0; w--) {
        if (w < P256_CONST_WINDOWS - 1) /* the top window starts from the identity */
            p256_jac_double_n(&acc, &acc, P256_CONST_BITS);
        for (size_t i = 0; i < m; i++) {
            idx = p256_booth(p256_scalar_bits(&k[i], P256_CONST_BITS * w - 1, P256_CONST_BITS + 1),
                             P256_CONST_BITS, &neg);
            p256_aff_lookup(&t, tab + i * P256_MULTI_CONST_ENTRIES, P256_MULTI_CONST_ENTRIES, idx);
            p256_aff_cneg(&t, &t, neg);
            p256_jac_add_aff(&acc, &acc, &t, p256_mask_is_zero(idx) |
                                                 (P256_PLANT(group, 3) ? 0 : inf[i])); /* control */
        }
    }
    *r = acc;
    p256_memzero(scratch, p256_multi_const_scratch(m));
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&q, sizeof q);
    p256_memzero(&t, sizeof t);
}

/* ---- Variable time --------------------------------------------------------------------- */

/*
 * Both methods drop the terms that add nothing (k_i = 0, P_i the identity) and see only
 * the others, listed by index in `kept`.
 *
 * Straus: the doublings shared, every term's wNAF digits (width 5, as verification's Q)
 * added from its odd multiples P, 3P, ..., 15P: co-Z chains of step 2, their last Z's
 * inverted at once. About 257/6 mixed additions a term, plus 7 co-Z additions for its
 * table, and 257 doublings for the whole sum.
 *
 * Pippenger (the bucket method; Bernstein, Doumen, Lange, Oosterwijk, "Faster batch
 * forgery identification", INDOCRYPT 2012, section 4): windows of c bits with signed
 * Booth digits |d| <= 2^(c-1); per window, every term's P_i (or -P_i) goes into bucket
 * |d|, and sum_b b B_b comes from two running sums, top bucket first; windows are joined
 * by c doublings. The buckets are filled in affine coordinates, every addition of a
 * round sharing one inversion (Montgomery's trick: 5M + 1S an addition against a mixed
 * addition's 8M + 3S; the "batch affine" of many MSM implementations, e.g. Aztec's
 * barretenberg): a window's terms are sorted by bucket, and each round adds the
 * neighbours of every bucket's list pairwise, halving it, until one point is left per
 * bucket (about log2(m / 2^(c-1)) rounds, one inversion each). For many terms each then
 * costs about 257/c cheap additions, fewer than Straus's 257/6 mixed ones once m is large
 * enough to pay for the 2^(c-1) buckets' sums.
 *
 * Which to run, and Pippenger's c, come from these counts weighed by the measured
 * relative costs (docs/performance.md), in eighths of a mixed addition:
 * P256_MULTI_COST_AFF an affine addition of a round, P256_MULTI_COST_BUCKET a bucket's
 * share of the running sums (a mixed and a general addition), P256_MULTI_COST_ROUND a
 * round's inversion, P256_MULTI_COST_DBL a doubling, P256_MULTI_COST_TABLE a term's
 * Straus table.
 */
#define P256_MULTI_WNAF_BITS 5
#define P256_MULTI_WNAF_ENTRIES (1 << (P256_MULTI_WNAF_BITS - 2)) /* 8: (2j + 1) P, j < 8 */
#define P256_MULTI_STRAUS_MAX 512  /* above this, Pippenger always wins (so its scratch is bounded) */
#define P256_MULTI_MAX_C 12
#define P256_MULTI_COST_AFF 5
#define P256_MULTI_COST_BUCKET 14
#define P256_MULTI_COST_ROUND 75
#define P256_MULTI_COST_DBL 5
#define P256_MULTI_COST_TABLE 58

P256_INLINE size_t p256_multi_straus_scratch(size_t m)
{
    return m * (P256_MULTI_WNAF_ENTRIES * (sizeof(p256_aff) + sizeof(p256_fe)) +
                2 * sizeof(p256_fe) + 257 * sizeof(int16_t));
}

P256_INLINE size_t p256_multi_pippenger_scratch(size_t m, int c)
{
    return m * (2 * sizeof(p256_aff) + 2 * sizeof(p256_fe) + 2) + 2 * sizeof(uint32_t) +
           ((size_t)1 << (c - 1)) * 2 * sizeof(uint32_t);
}

/* Estimated cost, in eighths of a mixed addition, of Straus and of Pippenger with c bits. */
P256_INLINE uint64_t p256_multi_straus_cost(size_t m)
{
    return (uint64_t)m * (8 * 257 / (P256_MULTI_WNAF_BITS + 1) + P256_MULTI_COST_TABLE) +
           257 * P256_MULTI_COST_DBL;
}

P256_INLINE uint64_t p256_multi_pippenger_cost(size_t m, int c)
{
    const uint64_t windows = (uint64_t)(257 + c - 1) / (uint64_t)c, buckets = (uint64_t)1 << (c - 1);
    uint64_t rounds = 1;
    while ((buckets << rounds) < 2 * (uint64_t)m) /* log2 of a bucket's share, and one */
        rounds++;
    return windows * (P256_MULTI_COST_AFF * (uint64_t)m + P256_MULTI_COST_BUCKET * buckets +
                      P256_MULTI_COST_ROUND * rounds) +
           257 * P256_MULTI_COST_DBL;
}

/* Pippenger's best c for m terms, or 0 when Straus costs less. */
P256_FN int p256_multi_choose_vartime(size_t m)
{
    uint64_t best = m <= P256_MULTI_STRAUS_MAX ? p256_multi_straus_cost(m) : UINT64_MAX;
    int choice = 0;
    for (int c = 2; c <= P256_MULTI_MAX_C; c++) {
        const uint64_t cost = p256_multi_pippenger_cost(m, c);
        if (cost < best) {
            best = cost;
            choice = c;
        }
    }
    return choice;
}

P256_FN void p256_multi_straus_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p,
                                       const uint32_t *kept, size_t m, void *scratch)
{
    p256_aff *tab = (p256_aff *)scratch;                              /* m x 8 */
    p256_fe *ratio = (p256_fe *)(tab + m * P256_MULTI_WNAF_ENTRIES);  /* m x 8 */
    p256_fe *z = ratio + m * P256_MULTI_WNAF_ENTRIES, *tmp = z + m;   /* m, m */
    int16_t *digits = (int16_t *)(tmp + m);                           /* m x 257 */
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero};
    int len = 0, owed = 0;

    for (size_t i = 0; i < m; i++) {
        const int l = p256_wnaf_vartime(digits + 257 * i, &k[kept[i]], P256_MULTI_WNAF_BITS);
        len = l > len ? l : len;
        p256_coz_multiples(tab + i * P256_MULTI_WNAF_ENTRIES, ratio + i * P256_MULTI_WNAF_ENTRIES,
                           &z[i], &p[kept[i]], P256_MULTI_WNAF_ENTRIES, 2);
    }
    p256_fe_inv_many_vartime(z, tmp, m);
    for (size_t i = 0; i < m; i++)
        p256_coz_to_aff(tab + i * P256_MULTI_WNAF_ENTRIES, tab + i * P256_MULTI_WNAF_ENTRIES,
                        ratio + i * P256_MULTI_WNAF_ENTRIES, &z[i], 0, P256_MULTI_WNAF_ENTRIES);

    /* As ecmult_vartime_impl.h: the doublings between two nonzero digits go as one run. */
    for (int b = len - 1; b >= 0; b--) {
        if (b < len - 1) /* acc is still the identity before the top digit: no doubling */
            owed++;
        for (size_t i = 0; i < m; i++) {
            const int d = digits[257 * i + (size_t)b];
            if (d == 0)
                continue;
            p256_jac_double_n(&acc, &acc, owed);
            owed = 0;
            p256_add_wnaf_digit_vartime(&acc, tab + i * P256_MULTI_WNAF_ENTRIES, d);
        }
    }
    if (!P256_PLANT(group, 8)) /* test_group's control: the zero digits at the bottom lost */
        p256_jac_double_n(&acc, &acc, owed);
    *r = acc;
}

/* One round's pair: what the addition of its two points is. */
enum { P256_PAIR_ADD, P256_PAIR_DOUBLE, P256_PAIR_COPY, P256_PAIR_EMPTY };

/*
 * The rounds of one window: work[start[b] .. start[b] + len[b]) holds bucket b's points
 * (empty[] marks a point that became the identity), and each round replaces every list by
 * the sums of its neighbours (an odd last point moves down as it is), all the round's
 * denominators inverted at once. Sums in place: pair t reads points 2t and 2t + 1 and
 * writes point t, which no later pair of the list reads. Public data: variable time.
 */
P256_INLINE void p256_multi_buckets_vartime(p256_aff *work, uint8_t *empty, uint8_t *kind,
                                            p256_fe *den, p256_fe *tmp, const uint32_t *start,
                                            uint32_t *len, int buckets)
{
    for (;;) {
        size_t pairs = 0;
        for (int b = 0; b < buckets; b++) {
            for (uint32_t t = 0; 2 * t + 1 < len[b]; t++, pairs++) {
                const size_t i = start[b] + 2 * t, j = i + 1;
                if (empty[i] || empty[j]) {
                    kind[pairs] = P256_PAIR_COPY;
                    den[pairs] = p256_fe_one;
                } else if (!p256_fe_mask_eq(&work[i].x, &work[j].x)) {
                    kind[pairs] = P256_PAIR_ADD;
                    p256_fe_sub(&den[pairs], &work[j].x, &work[i].x);
                } else if (p256_fe_mask_eq(&work[i].y, &work[j].y)) {
                    kind[pairs] = P256_PAIR_DOUBLE;         /* y != 0: no point of order 2 */
                    p256_fe_add(&den[pairs], &work[i].y, &work[i].y);
                } else {
                    kind[pairs] = P256_PAIR_EMPTY;          /* P + (-P) */
                    den[pairs] = p256_fe_one;
                }
            }
        }
        if (pairs == 0)
            return;
        p256_fe_inv_many_vartime(den, tmp, pairs);
        pairs = 0;
        for (int b = 0; b < buckets; b++) {
            uint32_t t;
            for (t = 0; 2 * t + 1 < len[b]; t++, pairs++) {
                const size_t i = start[b] + 2 * t, j = i + 1, o = start[b] + t;
                p256_fe lambda, x3, u;
                switch (kind[pairs]) {
                case P256_PAIR_COPY:
                    work[o] = empty[i] ? work[j] : work[i];
                    empty[o] = (uint8_t)(empty[i] & empty[j]);
                    continue;
                case P256_PAIR_EMPTY:
                    empty[o] = 1;
                    continue;
                case P256_PAIR_ADD: /* lambda = (y2 - y1) / (x2 - x1) */
                    p256_fe_sub(&u, &work[j].y, &work[i].y);
                    break;
                default: /* lambda = (3 x^2 + a) / 2y = 3 (x^2 - 1) / 2y */
                    p256_fe_sqr(&u, &work[i].x);
                    p256_fe_sub(&u, &u, &p256_fe_one);
                    p256_fe_mul_small(&u, &u, 3);
                    break;
                }
                p256_fe_mul(&lambda, &u, &den[pairs]);
                p256_fe_sqr(&x3, &lambda);               /* x3 = lambda^2 - x1 - x2 */
                p256_fe_sub(&x3, &x3, &work[i].x);
                p256_fe_sub(&x3, &x3, &work[j].x);
                p256_fe_sub(&u, &work[i].x, &x3);        /* y3 = lambda (x1 - x3) - y1 */
                p256_fe_mul(&u, &lambda, &u);
                p256_fe_sub(&work[o].y, &u, &work[i].y);
                work[o].x = x3;
                empty[o] = 0;
            }
            if ((len[b] & 1) && !P256_PLANT(group, 4)) { /* the odd one out (plant: lost) */
                work[start[b] + t] = work[start[b] + len[b] - 1];
                empty[start[b] + t] = empty[start[b] + len[b] - 1];
            }
            len[b] = (len[b] + 1) / 2;
        }
    }
}

P256_FN void p256_multi_pippenger_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p,
                                          const uint32_t *kept, size_t m, int c, void *scratch)
{
    const int windows = (257 + c - 1) / c, buckets = 1 << (c - 1);
    p256_aff *pt = (p256_aff *)scratch, *work = pt + m;      /* m, m */
    p256_fe *den = (p256_fe *)(work + m), *tmp = den + m;    /* m, m */
    uint32_t *start = (uint32_t *)(void *)(tmp + m);         /* buckets + 1 */
    uint32_t *len = start + buckets + 1;                     /* buckets + 1 */
    uint8_t *empty = (uint8_t *)(len + buckets + 1);         /* m */
    uint8_t *kind = empty + m;                               /* m */
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero}, running, sum;
    uint64_t neg, idx;

    /* the points, affine: one inversion for all */
    for (size_t i = 0; i < m; i++)
        den[i] = p[kept[i]].z;
    p256_fe_inv_many_vartime(den, tmp, m);
    for (size_t i = 0; i < m; i++)
        p256_jac_to_aff_zinv(&pt[i], &p[kept[i]], &den[i]);

    for (int w = windows - 1; w >= 0; w--) {
        if (w < windows - 1)
            p256_jac_double_n(&acc, &acc, c);
        /* c (w + 1) >= 257 for the top window: its digits are never negative. Sorted by
         * bucket (counting sort): len[b] the count, start[b] where its list begins. */
        memset(len, 0, (size_t)buckets * sizeof len[0]);
        for (size_t i = 0; i < m; i++) {
            idx = p256_booth(p256_scalar_bits(&k[kept[i]], c * w - 1, c + 1), c, &neg);
            if (idx != 0)
                len[idx - 1]++;
        }
        start[0] = 0;
        for (int b = 1; b <= buckets; b++)
            start[b] = start[b - 1] + len[b - 1];
        for (size_t i = 0; i < m; i++) {
            idx = p256_booth(p256_scalar_bits(&k[kept[i]], c * w - 1, c + 1), c, &neg);
            if (idx == 0)
                continue;
            {
                const uint32_t o = start[idx - 1]++; /* start[b] ends at bucket b + 1's start */
                work[o] = pt[i];
                if (neg)
                    p256_fe_neg(&work[o].y, &work[o].y);
                empty[o] = 0;
            }
        }
        for (int b = buckets; b > 0; b--) /* back to each list's first point */
            start[b] = start[b - 1];
        start[0] = 0;
        p256_multi_buckets_vartime(work, empty, kind, den, tmp, start, len, buckets);

        /* sum_b b B_b = sum over b of (B_top + ... + B_b) */
        running = sum = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
        for (int b = buckets - 1; b >= 0; b--) {
            if (len[b] != 0 && !empty[start[b]])
                p256_jac_add_aff_vartime(&running, &running, &work[start[b]]);
            if (!p256_fe_mask_is_zero(&running.z))
                p256_jac_add(&sum, &sum, &running);
        }
        p256_jac_add(&acc, &acc, &sum);
    }
    *r = acc;
}

/*
 * The room either method may take for m terms, in whole words (the kept indices follow
 * it): Straus's for at most P256_MULTI_STRAUS_MAX of them, Pippenger's with the buckets of
 * the c it would choose for m. For fewer kept terms the call below takes at most that c:
 * any c gives the right sum, and the best for fewer terms is no larger anyway (a larger c
 * pays its 2^c buckets back only over more terms).
 */
P256_INLINE size_t p256_multi_vartime_room(size_t m)
{
    const size_t straus = p256_multi_straus_scratch(m < P256_MULTI_STRAUS_MAX ? m : P256_MULTI_STRAUS_MAX);
    const int c = p256_multi_choose_vartime(m);
    const size_t pippenger = c == 0 ? 0 : p256_multi_pippenger_scratch(m, c);
    return ((straus > pippenger ? straus : pippenger) + 7) & ~(size_t)7;
}

P256_FN void p256_ecmult_multi_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p,
                                       size_t m, void *scratch)
{
    uint32_t *kept = (uint32_t *)(void *)((uint8_t *)scratch + p256_multi_vartime_room(m));
    size_t used = 0;
    int c, room_c;

    for (size_t i = 0; i < m; i++)
        if (!p256_scalar_mask_is_zero(&k[i]) && !p256_fe_mask_is_zero(&p[i].z))
            kept[used++] = (uint32_t)i;
    if (used == 0) {
        *r = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
        return;
    }
    c = p256_multi_choose_vartime(used);
    room_c = p256_multi_choose_vartime(m);
    if (c == 0 || room_c == 0) /* then used <= m <= P256_MULTI_STRAUS_MAX: the room holds it */
        p256_multi_straus_vartime(r, k, p, kept, used, scratch);
    else
        p256_multi_pippenger_vartime(r, k, p, kept, used, c < room_c ? c : room_c, scratch);
}

P256_FN void p256_ecmult_one_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p)
{
    uint64_t scratch[(P256_MULTI_WNAF_ENTRIES * (sizeof(p256_aff) + sizeof(p256_fe)) +
                      2 * sizeof(p256_fe) + 257 * sizeof(int16_t) + 7) / 8];
    const uint32_t kept = 0;
    if (p256_scalar_mask_is_zero(k) || p256_fe_mask_is_zero(&p->z)) {
        *r = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
        return;
    }
    p256_multi_straus_vartime(r, k, p, &kept, 1, scratch);
}

P256_FN size_t p256_ecmult_multi_scratch_size(size_t m, int vartime)
{
    if (!vartime)
        return p256_multi_const_scratch(m);
    return p256_multi_vartime_room(m) + m * sizeof(uint32_t);
}

#endif /* P256_ECMULT_MULTI_IMPL_H */
