/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_batch_ifma.c: the 8-lane AVX-512 IFMA engine (modules/batch/ifma.h) against the scalar
 * core. Field mul/sqr/add/sub on random and edge lanes (0, 1, p-1, unreduced inputs up to
 * the contract's bounds), every lane a different case; point doubling and additions,
 * with lanes at a == b and a == -b that must be flagged; the joint multiplication; and
 * p256_batch_verify_vartime with the IFMA engine against p256_verify on mixed items
 * (valid, tampered, r/s = 0, n, > n, high s, keys +-G, exceptional constructions,
 * r + n < p, bad keys), every batch length 1..17 and every case at every lane position;
 * the constant-time k*G (p256_ifma_ecmult_gen8) against p256_ecmult_gen, lane by lane, on
 * random scalars and on the comb's edge scalars at every lane position; and the
 * constant-time k*q of 8 lanes (ifma_const_impl.h) against p256_ecmult_const on edge
 * scalars at every lane position (q = G, random q, shared q, -G) and random ones, with its
 * exceptional-addition masks. P256_PLANT=ifma:1..8 in a plant build arms a bug this
 * harness must catch (tools/plants.py). `-t SECTION...` runs only the named sections of
 * field, points, ecmult, gen, const and engine; `-l LANES`, that many random lanes of
 * each constant-time multiplication.
 * SKIP where the CPU lacks AVX-512 IFMA; built with -DP256_IFMA_EMULATE, the same checks
 * run on the portable emulation of the intrinsics (modules/batch/ifma_emu.h) on any CPU.
 * P256_TEST_ITERS (harness.h) scales the random rounds, 200 at 100% (below 30 rounds, for
 * the slow builds, each kind sits at the first, the last and one random position of each
 * length instead of at all).
 */
#include "harness.h"
#include "p256.c"

#if defined(P256_HAVE_IFMA)

static const uint64_t P64[4] = {0xffffffffffffffffULL, 0x00000000ffffffffULL, 0,
                                0xffffffff00000001ULL};

static void random_fe(p256_fe *r)
{
    uint8_t b[32];
    do
        rng_fill(b, 32);
    while (!p256_fe_from_bytes(r, b));
}

static void random_scalar(p256_scalar *r)
{
    uint8_t b[32];
    do
        rng_fill(b, 32);
    while (!p256_scalar_set_bytes_checked(r, b) || p256_scalar_mask_is_zero(r));
}

/* Edge values: 0, 1, p-1, p-2, 2^255, R mod p, and a random one, as field elements. */
static void edge_fe(p256_fe *r, int which)
{
    uint64_t l[4] = {0, 0, 0, 0};
    switch (which % 7) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: memcpy(l, P64, 32); l[0] -= 1; break;
    case 3: memcpy(l, P64, 32); l[0] -= 2; break;
    case 4: l[3] = 1ULL << 63; break;
    case 5: l[0] = 1; l[1] = 0xffffffff00000000ULL; l[2] = ~0ULL; l[3] = 0xfffffffeULL; break;
    default: random_fe(r); return;
    }
    p256_fe_from_limbs(r, l);
}

/* Lane l of r = a's engine integer plus k*p (k = 0..3, still < 4p and normalized). */
P256_IFMA_TARGET static void set_lane_unreduced(p256_fe8 *r, int lane, const p256_fe *a, int k)
{
    uint64_t w[5], v[8];
    p256_ifma_from_fe(w, a);
    for (int i = 0; i < 5; i++)
        w[i] += (uint64_t)k * p256_ifma_p[i];
    for (int i = 0; i < 4; i++) {
        w[i + 1] += w[i] >> 52;
        w[i] &= P256_M52;
    }
    for (int i = 0; i < 5; i++) {
        _mm512_storeu_si512((void *)v, r->v[i]);
        v[lane] = w[i];
        r->v[i] = _mm512_loadu_si512((const void *)v);
    }
}

/* Every lane normalized (limbs < 2^52) and < 2p. */
P256_IFMA_TARGET static int lanes_in_bounds(const p256_fe8 *a)
{
    uint64_t v[40];
    for (int i = 0; i < 5; i++)
        _mm512_storeu_si512((void *)(v + 8 * i), a->v[i]);
    for (int l = 0; l < 8; l++) {
        int lt = 0;
        for (int i = 0; i < 5; i++)
            if (v[8 * i + l] >> 52)
                return 0;
        for (int i = 4; i >= 0; i--) {
            uint64_t x = v[8 * i + l], y = p256_ifma_2p[i];
            if (x != y) {
                lt = x < y;
                break;
            }
        }
        if (!lt)
            return 0;
    }
    return 1;
}

static int fe_eq(const p256_fe *a, const p256_fe *b)
{
    return memcmp(a->v, b->v, sizeof a->v) == 0;
}

/* Every lane of an operation's output v is below 2p and equals want[lane]. */
P256_IFMA_TARGET static void check_lanes(const p256_fe8 *v, const p256_fe want[8], const char *op,
                                         int round)
{
    CHECK(lanes_in_bounds(v), "%s output out of bounds, round %d", op, round);
    for (int l = 0; l < 8; l++) {
        p256_fe got;
        p256_fe8_get_lane(&got, v, l);
        CHECK(fe_eq(&want[l], &got), "%s lane %d round %d", op, l, round);
    }
}

/* test_field: one engine operation (vector_stmt, into vr) against the field's (scalar_stmt
 * for each lane l, into want[l]). */
#define CHECK_FIELD_OP(name, vector_stmt, scalar_stmt)         \
    do {                                                       \
        vector_stmt;                                           \
        for (int l = 0; l < 8; l++)                            \
            scalar_stmt;                                       \
        check_lanes(&vr, want, name, round);                   \
    } while (0)

P256_IFMA_TARGET static void test_field(int rounds)
{
    for (int round = 0; round < rounds; round++) {
        p256_fe a[8], b[8], x, want[8];
        p256_fe8 va, vb, vr;
        int bound = round & 1 ? 4 : 2; /* mul/sqr take < 4p, add/sub < 2p */
        memset(&va, 0, sizeof va);
        memset(&vb, 0, sizeof vb);
        for (int l = 0; l < 8; l++) {
            if (round < 64) {
                edge_fe(&a[l], round + l);
                edge_fe(&b[l], round / 7 + 3 * l);
            } else {
                random_fe(&a[l]);
                random_fe(&b[l]);
            }
            set_lane_unreduced(&va, l, &a[l], (int)(rng64() % (uint64_t)bound));
            set_lane_unreduced(&vb, l, &b[l], (int)(rng64() % (uint64_t)bound));
        }
        if (bound == 4) {
            CHECK_FIELD_OP("mul", p256_fe8_mul(&vr, &va, &vb), p256_fe_mul(&want[l], &a[l], &b[l]));
            CHECK_FIELD_OP("sqr", p256_fe8_sqr(&vr, &va), p256_fe_sqr(&want[l], &a[l]));
        } else {
            CHECK_FIELD_OP("add", p256_fe8_add(&vr, &va, &vb), p256_fe_add(&want[l], &a[l], &b[l]));
            CHECK_FIELD_OP("sub", p256_fe8_sub(&vr, &va, &vb), p256_fe_sub(&want[l], &a[l], &b[l]));
            CHECK_FIELD_OP("half", p256_fe8_half(&vr, &va), p256_fe_half(&want[l], &a[l]));
            /* is_zero: lane l holds 0 (as 0 or p) where l is even */
            for (int l = 0; l < 8; l++) {
                if (l % 2 == 0)
                    set_lane_unreduced(&va, l, &p256_fe_zero, l % 4 == 0 ? 0 : 1);
            }
            __mmask8 zm = p256_fe8_mask_is_zero(&va);
            for (int l = 0; l < 8; l++) {
                p256_fe8_get_lane(&x, &va, l);
                CHECK(((zm >> l) & 1) == (p256_fe_mask_is_zero(&x) ? 1 : 0),
                      "is_zero lane %d round %d", l, round);
            }
        }
    }
}

/* A random finite point in Jacobian form with a random Z. */
static void random_jac(p256_jac *r)
{
    p256_scalar k;
    p256_jac j;
    p256_fe z, z2, z3;
    random_scalar(&k);
    p256_ecmult_gen(&j, &k);
    random_fe(&z);
    if (p256_fe_mask_is_zero(&z))
        z = p256_fe_one;
    p256_fe_sqr(&z2, &z);
    p256_fe_mul(&z3, &z2, &z);
    p256_fe_mul(&z2, &z2, &j.x);
    p256_fe_mul(&z3, &z3, &j.y);
    p256_fe_mul(&z, &z, &j.z);
    r->x = z2;
    r->y = z3;
    r->z = z;
}

/* The same point at another random Z. */
static void rescale(p256_jac *r, const p256_jac *a)
{
    p256_fe z, z2, z3;
    random_fe(&z);
    if (p256_fe_mask_is_zero(&z))
        z = p256_fe_one;
    p256_fe_sqr(&z2, &z);
    p256_fe_mul(&z3, &z2, &z);
    p256_fe_mul(&r->x, &a->x, &z2);
    p256_fe_mul(&r->y, &a->y, &z3);
    p256_fe_mul(&r->z, &a->z, &z);
}

P256_IFMA_TARGET static void set_jac_lane(p256_jac8 *r, int l, const p256_jac *a)
{
    p256_fe8_set_lane(&r->x, l, &a->x);
    p256_fe8_set_lane(&r->y, l, &a->y);
    p256_fe8_set_lane(&r->z, l, &a->z);
}

/* The same point (both infinity, or the same affine point). */
static int jac_eq(const p256_jac *got, const p256_jac *want)
{
    p256_aff ga, wa;
    uint64_t gi = p256_jac_to_aff(&ga, got), wi = p256_jac_to_aff(&wa, want);
    return gi == wi && (gi || (fe_eq(&ga.x, &wa.x) && fe_eq(&ga.y, &wa.y)));
}

P256_IFMA_TARGET static int jac_lane_eq(const p256_jac8 *v, int l, const p256_jac *want)
{
    p256_jac got;
    p256_fe8_get_lane(&got.x, &v->x, l);
    p256_fe8_get_lane(&got.y, &v->y, l);
    p256_fe8_get_lane(&got.z, &v->z, l);
    return jac_eq(&got, want);
}

P256_IFMA_TARGET static void test_points(int rounds)
{
    for (int round = 0; round < rounds; round++) {
        p256_jac a[8], b[8], want;
        p256_aff ba[8];
        p256_jac8 va, vb, vr;
        p256_aff8 vba;
        int kind[8];
        memset(&va, 0, sizeof va);
        memset(&vb, 0, sizeof vb);
        memset(&vba, 0, sizeof vba);
        for (int l = 0; l < 8; l++) {
            random_jac(&a[l]);
            kind[l] = (int)((round + l) % 4); /* 0, 1: random b; 2: b == a; 3: b == -a */
            if (kind[l] < 2)
                random_jac(&b[l]);
            else {
                rescale(&b[l], &a[l]);
                if (kind[l] == 3)
                    p256_fe_neg(&b[l].y, &b[l].y);
            }
            (void)p256_jac_to_aff(&ba[l], &b[l]);
            set_jac_lane(&va, l, &a[l]);
            set_jac_lane(&vb, l, &b[l]);
            p256_fe8_set_lane(&vba.x, l, &ba[l].x);
            p256_fe8_set_lane(&vba.y, l, &ba[l].y);
        }
        p256_jac8_double(&vr, &va);
        for (int l = 0; l < 8; l++) {
            p256_jac_double(&want, &a[l]);
            CHECK(jac_lane_eq(&vr, l, &want), "double lane %d round %d", l, round);
        }
        __mmask8 hz = p256_jac8_add(&vr, &va, &vb);
        for (int l = 0; l < 8; l++) {
            CHECK(((hz >> l) & 1) == (kind[l] >= 2), "add flag lane %d round %d", l, round);
            if (kind[l] < 2) {
                p256_jac_add(&want, &a[l], &b[l]);
                CHECK(jac_lane_eq(&vr, l, &want), "add lane %d round %d", l, round);
            }
        }
        hz = p256_jac8_add_aff(&vr, &va, &vba);
        for (int l = 0; l < 8; l++) {
            CHECK(((hz >> l) & 1) == (kind[l] >= 2), "add_aff flag lane %d round %d", l, round);
            if (kind[l] < 2) {
                p256_jac_add_aff(&want, &a[l], &ba[l], 0);
                CHECK(jac_lane_eq(&vr, l, &want), "add_aff lane %d round %d", l, round);
            }
        }
        /* r aliasing a */
        vr = va;
        (void)p256_jac8_add(&vr, &vr, &vb);
        for (int l = 0; l < 8; l++)
            if (kind[l] < 2) {
                p256_jac_add(&want, &a[l], &b[l]);
                CHECK(jac_lane_eq(&vr, l, &want), "aliased add lane %d round %d", l, round);
            }
        vr = va;
        p256_jac8_double(&vr, &vr);
        for (int l = 0; l < 8; l++) {
            p256_jac_double(&want, &a[l]);
            CHECK(jac_lane_eq(&vr, l, &want), "aliased double lane %d round %d", l, round);
        }
    }
}

static void recode_check(const p256_scalar *u, int w)
{
    int64_t d[P256_IFMA_WINDOWS];
    const int windows = (256 + w - 1) / w;
    const int64_t half = (int64_t)1 << (w - 1);
    p256_ifma_recode(d, u, w);
    /* sum d[i] 2^(w i) == u, evaluated in 5 limbs (with signed digits) */
    uint64_t acc[5] = {0, 0, 0, 0, 0};
    int ok = 1;
    for (int i = windows - 1; i >= 0; i--) {
        ok &= d[i] >= -half && d[i] <= half;
        /* acc = acc * 2^w + d[i] */
        for (int k = 4; k > 0; k--)
            acc[k] = (acc[k] << w) | (acc[k - 1] >> (64 - w));
        acc[0] <<= w;
        p256_u128 c = (p256_u128)acc[0] + (uint64_t)d[i];
        uint64_t ext = d[i] < 0 ? ~0ULL : 0;
        acc[0] = (uint64_t)c;
        for (int k = 1; k < 5; k++) {
            c = (p256_u128)acc[k] + ext + (uint64_t)(c >> 64);
            acc[k] = (uint64_t)c;
        }
    }
    CHECK(ok && acc[4] == 0 && memcmp(acc, u->v, 32) == 0, "recode w = %d", w);
}

P256_IFMA_TARGET static void test_ecmult(int rounds)
{
    /* recoding on edges: 0, 1, all-ones patterns, n-1, 2^255, random */
    p256_scalar u;
    for (int i = 0; i < 7 + rounds; i++) {
        memset(&u, 0, sizeof u);
        if (i == 1)
            u.v[0] = 1;
        else if (i == 2)
            memcpy(u.v, p256_n, 32), u.v[0] -= 1;
        else if (i == 3)
            u.v[3] = 1ULL << 63;
        else if (i == 4)
            u.v[0] = u.v[1] = u.v[2] = 0x8421084210842108ULL; /* digits of 16: carries */
        else if (i == 5)
            u.v[0] = u.v[1] = u.v[2] = u.v[3] = 0x7bdef7bdef7bdef7ULL;
        else if (i == 6)
            memset(u.v, 0xff, 32); /* 2^256 - 1: every window carries */
        else if (i > 6)
            random_scalar(&u);
        recode_check(&u, 5);
        recode_check(&u, P256_IFMA_GW);
    }
    for (int round = 0; round < rounds; round++) {
        p256_scalar u1[16], u2[16];
        p256_aff q[16];
        p256_fe x[16], z[16];
        int exc[16], nl = round % 2 ? 16 : 8; /* the 8-lane and the interleaved 16-lane form */
        for (int l = 0; l < nl; l++) {
            p256_scalar k;
            p256_jac j;
            random_scalar(&u1[l]);
            random_scalar(&u2[l]);
            random_scalar(&k);
            int c = (round + l) % 6;
            exc[l] = 0;
            if (c == 2 || c == 3) {
                /* q = +-G and u1 == u2 = a 2^35 (a <= 16): both scalars have one digit,
                 * at bit 35 (a multiple of 5 and of 7), so q's and G's additions there
                 * meet (2aG at 35 or at 0, or infinity for -G): flagged. */
                k.v[0] = 1, k.v[1] = k.v[2] = k.v[3] = 0;
                if (c == 3)
                    memcpy(k.v, p256_n, 32), k.v[0] -= 1;
                memset(&u1[l], 0, sizeof u1[l]);
                u1[l].v[0] = (1 + rng64() % 16) << (round % 4 == 1 ? 35 : 0);
                u2[l] = u1[l];
                exc[l] = 1;
            } else if (c == 4) {
                memset(&u1[l], 0, sizeof u1[l]); /* u1 = 0 */
            } else if (c == 5) {
                memset(&u1[l], 0, sizeof u1[l]);
                u1[l].v[0] = (uint64_t)round + 1; /* small */
                memset(&u2[l], 0, sizeof u2[l]);
                u2[l].v[0] = 16;
            }
            p256_ecmult_gen(&j, &k);
            (void)p256_jac_to_aff(&q[l], &j);
        }
        unsigned bad = nl == 16 ? p256_ifma_ecmult16_vartime(x, z, u1, u2, q)
                                : p256_ifma_ecmult8_vartime(x, z, u1, u2, q);
        for (int l = 0; l < nl; l++) {
            p256_jac want;
            p256_ecmult_vartime(&want, &u1[l], &u2[l], &q[l]);
            if (exc[l]) {
                CHECK((bad >> l) & 1, "exceptional lane %d not flagged, round %d", l, round);
                continue;
            }
            CHECK(!((bad >> l) & 1), "lane %d flagged, round %d", l, round);
            /* x/z^2 == X/Z^2 */
            p256_fe a, b, t;
            p256_fe_sqr(&t, &want.z);
            p256_fe_mul(&a, &x[l], &t);
            p256_fe_sqr(&t, &z[l]);
            p256_fe_mul(&b, &want.x, &t);
            CHECK(fe_eq(&a, &b) && !p256_fe_mask_is_zero(&z[l]), "ecmult lane %d round %d", l,
                  round);
        }
    }
}

/* Edge scalars at every lane position (step 1: call c puts edge c + l in lane l) at the
 * full iteration count; below it (the sanitized, emulated and quick builds) step 8, each
 * edge at one position. */
static int edge_step(void)
{
    return harness_iters_percent() < 100 ? 8 : 1;
}

/* ---- k*G in 8 lanes against p256_ecmult_gen --------------------------------------- */

/* Bits [lo, hi) of k set (ones) or cleared, then reduced mod n. */
static void set_bits(p256_scalar *k, int lo, int hi, int ones)
{
    uint8_t b[32];
    for (int i = lo < 0 ? 0 : lo; i < hi && i < 256; i++) {
        uint64_t bit = 1ULL << (i % 64);
        k->v[i / 64] = ones ? k->v[i / 64] | bit : k->v[i / 64] & ~bit;
    }
    p256_scalar_to_bytes(b, k); /* the limbs as an integer < 2^256 */
    p256_scalar_set_bytes_reduce(k, b);
}

/* The edge scalars of the comb: 0, 1, 2, 3, n-1, n-2, n-3, (n-1)/2, (n+1)/2, every 2^i,
 * every 2^(7j) - 1 and 2^256 - 1 mod n (windows of all ones), and random scalars with
 * one window (its 8 Booth input bits) all ones or all zeros. Returns how many. */
static int gen_edges(p256_scalar *e)
{
    int n = 0;
    uint8_t ff[32];
    for (uint64_t v = 0; v < 4; v++) {
        memset(&e[n], 0, sizeof e[n]);
        e[n++].v[0] = v;
    }
    for (uint64_t v = 1; v < 4; v++) {
        memcpy(e[n].v, p256_n, 32);
        e[n++].v[0] -= v;
    }
    for (int up = 0; up < 2; up++) { /* (n -+ 1)/2 */
        memcpy(e[n].v, p256_n, 32);
        e[n].v[0] = up ? e[n].v[0] + 1 : e[n].v[0] - 1; /* n is odd: no carry out of limb 0 */
        for (int i = 0; i < 4; i++)
            e[n].v[i] = (e[n].v[i] >> 1) | (i < 3 ? e[n].v[i + 1] << 63 : 0);
        n++;
    }
    for (int i = 0; i < 256; i++) {
        memset(&e[n], 0, sizeof e[n]);
        e[n].v[i / 64] = 1ULL << (i % 64);
        n++;
    }
    for (int j = 1; j < P256_COMB_WINDOWS; j++) {
        memset(&e[n], 0, sizeof e[n]);
        set_bits(&e[n++], 0, P256_COMB_BITS * j, 1);
    }
    memset(ff, 0xff, 32);
    p256_scalar_set_bytes_reduce(&e[n++], ff);
    for (int j = 0; j < P256_COMB_WINDOWS; j++)
        for (int ones = 0; ones < 2; ones++) {
            random_scalar(&e[n]);
            set_bits(&e[n++], P256_COMB_BITS * j - 1, P256_COMB_BITS * j + P256_COMB_BITS, ones);
        }
    return n;
}

/* Lane l of the engine's result is k[l]*G: both infinity (Z = 0), or equal in affine
 * form; every coordinate reduced (field.h's form). */
static void gen_check(const p256_scalar k[8], const char *what, int round)
{
    p256_fe x[8], y[8], z[8];
    unsigned bad = p256_ifma_ecmult_gen8_checked(x, y, z, k);
    CHECK(bad == 0, "%s round %d: an addition met H == 0 (mask %#x)", what, round, bad);
    for (int l = 0; l < 8; l++) {
        p256_jac want, got;
        p256_aff wa, ga;
        p256_ecmult_gen(&want, &k[l]);
        got.x = x[l], got.y = y[l], got.z = z[l];
        CHECK(p256_limbs_mask_lt(x[l].v, P64) && p256_limbs_mask_lt(y[l].v, P64) &&
                  p256_limbs_mask_lt(z[l].v, P64),
              "%s round %d lane %d: a coordinate is not reduced", what, round, l);
        uint64_t wi = p256_jac_to_aff(&wa, &want), gi = p256_jac_to_aff(&ga, &got);
        CHECK(wi == gi && (wi || (fe_eq(&wa.x, &ga.x) && fe_eq(&wa.y, &ga.y))) &&
                  (p256_fe_mask_is_zero(&z[l]) != 0) == (wi != 0),
              "%s round %d lane %d: k*G differs from p256_ecmult_gen (k = %016llx...%016llx)",
              what, round, l, (unsigned long long)k[l].v[3], (unsigned long long)k[l].v[0]);
    }
}

P256_IFMA_TARGET static void test_gen(int rounds)
{
    static p256_scalar edges[600];
    p256_scalar k[8];
    int ne = gen_edges(edges), step = edge_step();
    /* every edge at every lane position: call c puts edge (c + l) mod ne in lane l */
    for (int c = 0; c < ne; c += step) {
        for (int l = 0; l < 8; l++)
            k[l] = edges[(c + l) % ne];
        gen_check(k, "edges", c);
    }
    /* the same edges among random lanes */
    for (int c = 0; c < ne; c += step) {
        for (int l = 0; l < 8; l++)
            random_scalar(&k[l]);
        k[c % 8] = edges[c];
        gen_check(k, "edge among random", c);
    }
    for (int round = 0; round < rounds; round++) {
        for (int l = 0; l < 8; l++)
            random_scalar(&k[l]);
        gen_check(k, "random", round);
    }
}

/* ---- k*q in 8 lanes, constant time (ifma_const_impl.h) ---------------------------- */

/* r = n + j (j >= 0) or n - j (j < 0), as 4 limbs. */
static void n_plus(p256_scalar *r, int64_t j)
{
    unsigned char c = 0;
    uint64_t m = j < 0 ? (uint64_t)(-j) : (uint64_t)j;
    for (int i = 0; i < 4; i++)
        r->v[i] = j < 0 ? p256_sbb(p256_n[i], i == 0 ? m : 0, &c)
                        : p256_adc(p256_n[i], i == 0 ? m : 0, &c);
}

/* The scalars each lane position must meet: 0..3, window edges, n - j (j <= 33), (n -+ 1)/2,
 * every 2^i, all-ones windows (digits -1 with a carry through every window), windows of
 * 16; then the out-of-contract n, n + 1, n + 30, 2^256 - 1 (exact as k mod n: n and n + 30
 * are the two that meet an exceptional last addition, ifma_const_impl.h). Returns the count. */
#define CONST_EDGES 400
static int const_edges(p256_scalar *e, int *n_out_of_contract)
{
    static const uint64_t small[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 48, 0x421};
    int c = 0;
    memset(e, 0, CONST_EDGES * sizeof *e);
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        e[c++].v[0] = small[i];
    for (int j = 1; j <= 33; j++)
        n_plus(&e[c++], -j);
    for (int i = 0; i < 4; i++) /* (n - 1)/2 = n >> 1 (n is odd), then (n + 1)/2 */
        e[c].v[i] = (p256_n[i] >> 1) | (i < 3 ? p256_n[i + 1] << 63 : 0);
    e[c + 1] = e[c];
    e[c + 1].v[0] += 1;
    c += 2;
    for (int i = 0; i < 256; i++)
        e[c++].v[i / 64] = 1ULL << (i % 64);
    for (int m = 1; m <= 51; m++, c++) /* 2^(5m) - 1 */
        for (int i = 0; i < 4; i++)
            e[c].v[i] = 5 * m >= 64 * (i + 1) ? ~0ULL
                        : 5 * m > 64 * i  ? (1ULL << (5 * m - 64 * i)) - 1
                                          : 0;
    memset(e[c].v, 0xff, 32), e[c++].v[3] >>= 1; /* 2^255 - 1 */
    for (int i = 0; i < 4; i++) {
        e[c].v[i] = 0x8421084210842108ULL;   /* windows of 16 below bit 192: carries */
        e[c + 1].v[i] = 0x7bdef7bdef7bdef7ULL; /* windows of 31 (and 30) */
        e[c + 2].v[i] = 0x4210842108421084ULL;
    }
    e[c].v[3] = 0;
    c += 3;
    *n_out_of_contract = 4;
    n_plus(&e[c++], 0);
    n_plus(&e[c++], 1);
    n_plus(&e[c++], 30);
    memset(e[c++].v, 0xff, 32);
    CHECK(c <= CONST_EDGES, "too many edge scalars");
    return c;
}

/* k mod n, for k < 2^256 < 2n. */
static void reduce_once(p256_scalar *r, const p256_scalar *k)
{
    uint64_t t[4];
    unsigned char b = 0;
    for (int i = 0; i < 4; i++)
        t[i] = p256_sbb(k->v[i], p256_n[i], &b);
    *r = *k;
    if (!b)
        memcpy(r->v, t, sizeof t);
}

static int is_n_or_n_plus_30(const p256_scalar *k)
{
    p256_scalar a, b;
    n_plus(&a, 0);
    n_plus(&b, 30);
    return memcmp(k->v, a.v, 32) == 0 || memcmp(k->v, b.v, 32) == 0;
}

/* One pass of 8 lanes on the internal form, every lane against p256_ecmult_const(k mod n),
 * and the masks: no unexpected exceptional addition; the last one exactly at n, n + 30. */
P256_IFMA_TARGET static void const_pass(const p256_scalar k[8], const p256_aff q[8],
                                        const char *what, int round)
{
    p256_fe x[8], y[8], z[8];
    unsigned last = 0xdead;
    unsigned odd = p256_ifma_ecmult_const_n(x, y, z, k, q, &last, 1);
    CHECK(odd == 0, "%s %d: unexpected exceptional additions in lanes %#x", what, round, odd);
    for (int l = 0; l < 8; l++) {
        p256_scalar kr;
        p256_jac want, got = {x[l], y[l], z[l]};
        reduce_once(&kr, &k[l]);
        p256_ecmult_const(&want, &kr, &q[l]);
        CHECK(jac_eq(&got, &want), "%s %d: ecmult_const8 lane %d (k = %016llx...%016llx)", what,
              round, l, (unsigned long long)k[l].v[3], (unsigned long long)k[l].v[0]);
        CHECK(!p256_scalar_mask_is_zero(&kr) || p256_fe_mask_is_zero(&z[l]),
              "%s %d: k = 0 mod n and z != 0 in lane %d", what, round, l);
        CHECK((int)((last >> l) & 1) == is_n_or_n_plus_30(&k[l]),
              "%s %d: lane %d's last addition %s exceptional", what, round, l,
              (last >> l) & 1 ? "unexpectedly" : "not");
    }
}

static void random_point(p256_aff *q)
{
    p256_scalar d;
    p256_jac j;
    random_scalar(&d);
    p256_ecmult_gen(&j, &d);
    (void)p256_jac_to_aff(q, &j);
}

P256_IFMA_TARGET static void test_ecmult_const(int rounds)
{
    static p256_scalar edges[CONST_EDGES];
    int n_out, ne = const_edges(edges, &n_out);
    p256_scalar k[8];
    p256_aff q[8], minus_g = p256_generator;
    p256_fe_neg(&minus_g.y, &minus_g.y);
    /* every edge at every lane position (edge b + l at lane l of pass b), once with q = G
     * and once with random points, lanes 0-3 sharing one point, lanes 6 and 7 at -G */
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < ne; b += edge_step()) {
            for (int l = 0; l < 8; l++) {
                k[l] = edges[(b + l) % ne];
                if (pass == 0)
                    q[l] = p256_generator;
                else if (l == 0 || l >= 4)
                    random_point(&q[l]);
                else
                    q[l] = q[0];
            }
            if (pass == 1)
                q[6] = q[7] = minus_g;
            const_pass(k, q, pass ? "edges, random q" : "edges, q = G", b);
        }
    /* random scalars and points, some lanes sharing a point, some an edge scalar; the
     * public entry point agrees with the internal form */
    for (int round = 0; round < rounds; round++) {
        p256_fe x[8], y[8], z[8], x2[8], y2[8], z2[8];
        unsigned last;
        for (int l = 0; l < 8; l++) {
            random_scalar(&k[l]);
            if (l > 0 && (round + l) % 3 == 0)
                q[l] = q[l - 1];
            else
                random_point(&q[l]);
        }
        if (round % 4 == 1)
            k[round % 8] = edges[rng64() % (uint64_t)(ne - n_out)];
        const_pass(k, q, "random", round);
        p256_ifma_ecmult_const8(x, y, z, k, q);
        (void)p256_ifma_ecmult_const_n(x2, y2, z2, k, q, &last, 1);
        CHECK(memcmp(x, x2, sizeof x) == 0 && memcmp(y, y2, sizeof y) == 0 &&
                  memcmp(z, z2, sizeof z) == 0,
              "p256_ifma_ecmult_const8 differs from its internal form, round %d", round);
    }
}

/* ---- the engine against p256_verify ---------------------------------------------- */

typedef struct {
    uint8_t pub[65], rs[64], digest[64];
    size_t pub_len, digest_len;
} item_buf;

#define NKINDS 17

static void scalar_bytes(uint8_t out[32], const p256_scalar *a)
{
    p256_scalar_to_bytes(out, a);
}

static void pub_of(uint8_t pub[65], const p256_scalar *d)
{
    p256_jac j;
    p256_aff a;
    p256_ecmult_gen(&j, d);
    (void)p256_jac_to_aff(&a, &j);
    p256_aff_encode(pub, &a);
}

/* A valid signature by key d over a random digest. */
static void make_valid(item_buf *it, const p256_scalar *d)
{
    uint8_t db[32];
    scalar_bytes(db, d);
    pub_of(it->pub, d);
    it->pub_len = 65;
    it->digest_len = 32;
    rng_fill(it->digest, 32);
    (void)p256_sign(it->rs, db, it->digest, 32, P256_NONCE_SHA256);
}

/*
 * A valid signature whose R has x(R) >= n (so r = x(R) - n and r + n < p): pick such an R
 * on the curve, u1, u2 at random, q = (R - u1 G)/u2, r = x(R) - n, s = r/u2, e = u1 s.
 */
static void make_r_plus_n(item_buf *it, int tamper)
{
    p256_aff R, qa;
    p256_fe y2, t;
    uint64_t xl[4];
    for (;;) {
        rng_fill((uint8_t *)xl, 32);
        /* x in [n, p): n + (random mod (p - n)); p - n < 2^129 */
        xl[2] = 0;
        xl[3] = 0;
        xl[1] &= 0xffffffffffULL;
        unsigned char c = 0;
        for (int i = 0; i < 4; i++)
            xl[i] = p256_adc(xl[i], p256_n[i], &c);
        if (!p256_limbs_mask_lt(xl, P64))
            continue;
        p256_fe_from_limbs(&R.x, xl);
        p256_fe_sqr(&t, &R.x);
        p256_fe_mul(&t, &t, &R.x);
        p256_fe_mul_small(&y2, &R.x, 3);
        p256_fe_sub(&t, &t, &y2);
        p256_fe_add(&t, &t, &p256_fe_b);
        if (p256_fe_sqrt(&R.y, &t))
            break;
    }
    p256_scalar u1, u2, w, r, s, e, mu1;
    random_scalar(&u1);
    random_scalar(&u2);
    p256_jac j, k;
    memcpy(mu1.v, p256_n, 32);
    /* -u1 = n - u1 */
    {
        unsigned char b = 0;
        for (int i = 0; i < 4; i++)
            mu1.v[i] = p256_sbb(p256_n[i], u1.v[i], &b);
    }
    p256_ecmult_gen(&j, &mu1);
    p256_jac_add_aff(&k, &j, &R, 0); /* R - u1 G */
    p256_scalar_inv(&w, &u2);
    (void)p256_jac_to_aff(&qa, &k);
    p256_ecmult_const(&j, &w, &qa);
    (void)p256_jac_to_aff(&qa, &j);
    p256_aff_encode(it->pub, &qa);
    it->pub_len = 65;
    {
        unsigned char b = 0;
        for (int i = 0; i < 4; i++)
            r.v[i] = p256_sbb(xl[i], p256_n[i], &b);
    }
    p256_scalar_mul(&s, &r, &w); /* s = r / u2 */
    p256_scalar_mul(&e, &u1, &s);
    scalar_bytes(it->rs, &r);
    scalar_bytes(it->rs + 32, &s);
    scalar_bytes(it->digest, &e);
    it->digest_len = 32;
    if (tamper)
        it->digest[31] ^= 1;
}

static void set_sig(item_buf *it, const p256_scalar *r, const p256_scalar *s,
                    const p256_scalar *e)
{
    scalar_bytes(it->rs, r);
    scalar_bytes(it->rs + 32, s);
    scalar_bytes(it->digest, e);
    it->digest_len = 32;
}

static void make_item(item_buf *it, int kind)
{
    p256_scalar d, k, r, s, w;
    random_scalar(&d);
    make_valid(it, &d);
    switch (kind) {
    case 0: break;                                     /* valid */
    case 1: it->digest[rng64() % 32] ^= 0x10; break;   /* tampered digest */
    case 2: memset(it->rs, 0, 32); break;              /* r = 0 */
    case 3: memset(it->rs + 32, 0, 32); break;         /* s = 0 */
    case 4: scalar_bytes(it->rs, (const p256_scalar *)p256_n); break; /* r = n */
    case 5: memset(it->rs + 32, 0xff, 32); break;      /* s > n */
    case 6: {                                          /* high s: n - s, still valid */
        p256_scalar_set_bytes_checked(&s, it->rs + 32);
        unsigned char b = 0;
        for (int i = 0; i < 4; i++)
            w.v[i] = p256_sbb(p256_n[i], s.v[i], &b);
        scalar_bytes(it->rs + 32, &w);
        break;
    }
    case 7: case 16: {
        /* key G, u1 == u2 = u = a 2^35 or a (a <= 16): the engine's additions at bit 35
         * (or 0) meet, so the lane is flagged and re-verified. r = x(2uG) (+1 for kind 16:
         * invalid, which the engine's garbage would pass), e = r, s = r/u. */
        p256_jac j;
        p256_aff R;
        p256_scalar u, u2x;
        uint8_t xb[32];
        memset(&d, 0, sizeof d);
        d.v[0] = 1;
        pub_of(it->pub, &d);
        memset(&u, 0, sizeof u);
        u.v[0] = (1 + rng64() % 16) << (rng64() % 2 ? 35 : 0);
        p256_scalar_add(&u2x, &u, &u);
        p256_ecmult_gen(&j, &u2x);
        (void)p256_jac_to_aff(&R, &j);
        p256_fe_to_bytes(xb, &R.x);
        p256_scalar_set_bytes_reduce(&r, xb);
        if (kind == 16) {
            memset(&w, 0, sizeof w);
            w.v[0] = 1;
            p256_scalar_add(&r, &r, &w);
        }
        p256_scalar_inv(&w, &u);
        p256_scalar_mul(&s, &r, &w);
        set_sig(it, &r, &s, &r);
        break;
    }
    case 8: {
        /* key -G, e = 2r: u1 = 2k, u2 = k, valid with R = kG. */
        p256_jac j;
        p256_aff R;
        p256_scalar e, rd;
        uint8_t xb[32];
        memset(&d, 0, sizeof d);
        memcpy(d.v, p256_n, 32);
        d.v[0] -= 1;
        pub_of(it->pub, &d);
        random_scalar(&k);
        p256_ecmult_gen(&j, &k);
        (void)p256_jac_to_aff(&R, &j);
        p256_fe_to_bytes(xb, &R.x);
        p256_scalar_set_bytes_reduce(&r, xb);
        p256_scalar_add(&e, &r, &r);
        p256_scalar_mul(&rd, &r, &d);
        p256_scalar_add(&s, &e, &rd);
        p256_scalar_inv(&w, &k);
        p256_scalar_mul(&s, &s, &w);
        set_sig(it, &r, &s, &e);
        break;
    }
    case 9: make_r_plus_n(it, 0); break;
    case 10: make_r_plus_n(it, 1); break;
    case 11: it->pub[0] = 0x05; break;                 /* bad prefix */
    case 12: it->pub[64] ^= 1; break;                  /* off the curve */
    case 13: {                                         /* compressed key */
        it->pub[0] = (uint8_t)(0x02 | (it->pub[64] & 1));
        it->pub_len = 33;
        break;
    }
    case 14: { /* a 64-byte digest: its leftmost 256 bits count */
        uint8_t db[32];
        scalar_bytes(db, &d);
        rng_fill(it->digest, 64);
        it->digest_len = 64;
        (void)p256_sign(it->rs, db, it->digest, 64, P256_NONCE_SHA256);
        break;
    }
    case 15: /* a 20-byte digest */
    {
        uint8_t db[32];
        scalar_bytes(db, &d);
        rng_fill(it->digest, 20);
        it->digest_len = 20;
        (void)p256_sign(it->rs, db, it->digest, 20, P256_NONCE_SHA256);
        break;
    }
    }
}

/* The items as p256_batch_verify_vartime takes them: SEC1 keys, r||s, the digests. */
static void to_items(p256_batch_item *v, const item_buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        v[i].pub = b[i].pub;
        v[i].pub_len = b[i].pub_len;
        v[i].sig = b[i].rs;
        v[i].sig_len = 64;
        v[i].msg = b[i].digest;
        v[i].msg_len = b[i].digest_len;
    }
}

static int run_compare(const item_buf *b, size_t n, const char *what)
{
    p256_batch_item v[64] = {{0}};
    uint8_t res[64];
    int bad = 0;
    to_items(v, b, n);
    memset(res, 0xaa, sizeof res);
    CHECK(p256_batch_verify_vartime(res, v, n, 1, P256_BATCH_PREHASHED, P256_BATCH_IFMA) == 1,
          "engine refused");
    for (size_t i = 0; i < n; i++) {
        int want = p256_verify(b[i].pub, b[i].pub_len, b[i].rs, b[i].digest, b[i].digest_len);
        if (res[i] != want)
            bad = 1;
        CHECK(res[i] == want, "%s: item %zu of %zu: engine %d, p256_verify %d", what, i, n,
              res[i], want);
    }
    return bad;
}

static void test_engine(int rounds)
{
    static item_buf pool[NKINDS][4];
    item_buf b[17];
    int validity[NKINDS];
    for (int k = 0; k < NKINDS; k++)
        for (int j = 0; j < 4; j++)
            make_item(&pool[k][j], k);
    /* the constructions mean what they say: valid ones verify */
    for (int k = 0; k < NKINDS; k++) {
        item_buf *it = &pool[k][0];
        validity[k] = p256_verify(it->pub, it->pub_len, it->rs, it->digest, it->digest_len);
    }
    CHECK(validity[0] && validity[6] && validity[7] && validity[8] && validity[9] &&
              validity[13] && validity[14] && validity[15],
          "a valid construction does not verify");
    CHECK(!validity[1] && !validity[2] && !validity[3] && !validity[4] && !validity[5] &&
              !validity[10] && !validity[11] && !validity[12] && !validity[16],
          "an invalid construction verifies");
    /* every length 1..17, every kind at every position among valid and random items (at
     * fewer than 30 rounds: at the first, the last and one random position) */
    for (size_t n = 1; n <= 17; n++)
        for (int k = 0; k < NKINDS; k++)
            for (size_t j = 0, npos = rounds < 30 && n > 3 ? 3 : n; j < npos; j++) {
                size_t pos = npos == n ? j : j == 0 ? 0 : j == 1 ? n - 1 : 1 + rng64() % (n - 2);
                for (size_t i = 0; i < n; i++)
                    b[i] = pool[(i * 7 + n) % 3 == 0 ? (int)(rng64() % NKINDS) : 0]
                               [rng64() % 4];
                b[pos] = pool[k][rng64() % 4];
                run_compare(b, n, "positions");
            }
    /* random mixed batches of 16 (200 at the default P256_TEST_ITERS) */
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < 16; i++)
            b[i] = pool[rng64() % NKINDS][rng64() % 4];
        run_compare(b, 16, "mixed");
    }
}

/* The sections, in the order they run, named once here; -t selects among them by name. */
#define SECTIONS(X) X(FIELD, "field") X(POINTS, "points") X(ECMULT, "ecmult") X(GEN, "gen") \
    X(CONST, "const") X(ENGINE, "engine")
#define SECTION_ENUM(id, name) SEC_##id,
#define SECTION_NAME(id, name) name,
#define SECTION_WORD(id, name) " " name
enum { SECTIONS(SECTION_ENUM) N_SECTIONS };
static const char *const section_names[N_SECTIONS] = {SECTIONS(SECTION_NAME)};
#define SECTION_LIST (&SECTIONS(SECTION_WORD)[1]) /* "field points ... engine" */

int main(int argc, char **argv)
{
    int rounds = (int)harness_iters(200);
#if defined(P256_IFMA_EMULATE)
    /* the emulation is slower by about two orders of magnitude: fewer random lanes */
    int gen_calls = 4 * rounds, const_calls = rounds / 4 + 8;
#else
    /* natively 10^5 random lanes of each constant-time multiplication (calls of 8) */
    int gen_calls = (int)harness_iters(12500), const_calls = gen_calls;
#endif
    /* -t SECTION...: only those (a negative control runs the section its plant is in) */
    unsigned want = 0; /* bit k: section k named after -t; none named: every section */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
            /* -l LANES: that many random lanes of each constant-time multiplication (make
             * ctest-ifma-lanes: 10^5 on the emulation, where the default is fewer) */
            char *end;
            long lanes = strtol(argv[++i], &end, 10);
            if (*end != '\0' || lanes < 8 || lanes > 100000000) {
                fprintf(stderr, "test_batch_ifma: -l LANES wants a count of 8 to 10^8\n");
                return 2;
            }
            gen_calls = const_calls = (int)(lanes / 8);
        } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc && !want) {
            if (argv[i + 1][0] == '-') {
                fprintf(stderr, "test_batch_ifma: -t wants section names (%s)\n", SECTION_LIST);
                return 2;
            }
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                int k = 0;
                while (k < N_SECTIONS && strcmp(argv[i + 1], section_names[k]) != 0)
                    k++;
                if (k == N_SECTIONS) {
                    fprintf(stderr, "test_batch_ifma: no section %s (%s)\n", argv[i + 1], SECTION_LIST);
                    return 2;
                }
                want |= 1u << k;
                i++;
            }
        } else {
            fprintf(stderr, "usage: test_batch_ifma [-l LANES] [-t SECTION...] (%s)\n", SECTION_LIST);
            return 2;
        }
    }
    if (!p256_ifma_available()) {
        printf("test_batch_ifma: SKIP: this CPU lacks AVX-512 IFMA (the emulated build runs)\n");
        return 0;
    }
    if (!want)
        want = (1u << N_SECTIONS) - 1;
#define SECTION(name) (want & (1u << SEC_##name))
    CHECK(strcmp(p256_batch_engine(), P256_IFMA_ENGINE_NAME) == 0, "engine name %s",
          p256_batch_engine());
    if (SECTION(FIELD))
        test_field(rounds + 64);
    if (SECTION(POINTS))
        test_points(rounds);
    if (SECTION(ECMULT))
        test_ecmult(rounds / 4 + 8);
    if (SECTION(GEN))
        test_gen(gen_calls);
    if (SECTION(CONST))
        test_ecmult_const(const_calls);
    if (SECTION(ENGINE))
        test_engine(rounds);
#undef SECTION
    printf("test_batch_ifma (%s, %s): %ld checks, %ld failures\n", p256_backend_name(),
           p256_batch_engine(), checks, failures);
    return failures != 0;
}

#else

int main(void)
{
    uint8_t res[1];
    CHECK(p256_batch_verify_vartime(res, NULL, 0, 1, P256_BATCH_PREHASHED, P256_BATCH_IFMA) == 0,
          "IFMA accepted where it is not built");
    CHECK(strcmp(p256_batch_engine(), "scalar") == 0, "engine name");
    printf("test_batch_ifma: SKIP: AVX-512 IFMA engine not built here (%ld checks, %ld failures)\n",
           checks, failures);
    return failures != 0;
}

#endif
