/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_group.c: the group API of p256.h (p256_point_*, p256_modn_*) and the layers under
 * it (the map of map_to_curve.h, the sums of ecmult_multi.h, k*P for a Jacobian P), run
 * by `make ctest` once per field backend:
 *   - known answers (tests/c/group_kat.h, tools/gen_group_kat.py): RFC 9380 J.1.1 and
 *     J.1.2 through the map from the uniform bytes (u, Q0, Q1, P), points from plain
 *     affine arithmetic (a sum, a double, k*A for edge k, a sum of multiples with a zero
 *     scalar, an identity term and a repeated point), scalars mod n, and reductions of
 *     byte strings mod n and mod p;
 *   - edge cases: the identity in every operation, P + P, P - P, k = 0 and n - 1, equal
 *     forms of one point under other Z, load and serialize of the identity;
 *   - random differential cases: k*P against the byte API's p256_mult, the variable-time
 *     k*P and k*G against the constant-time ones, k*P over a table of P (the Lim-Lee comb)
 *     against the ladder, both sums against a sum of single
 *     products (a chunk boundary, zero scalars and identity terms among them),
 *     Pippenger at every window width against Straus, sqrt_ratio's two answers, and the
 *     arithmetic mod n against its identities.
 * Its negative controls are the group plants (P256_PLANT=group:n, tools/plants.py).
 */
#include "harness.h"
#include "p256.c"

#include "group_kat.h"

/* p of the KAT's affine hex (x empty: the identity). */
static void group_point_of(p256_point *p, const char *x, const char *y)
{
    uint8_t b[65];
    if (x[0] == '\0') {
        p256_point_identity(p);
        return;
    }
    b[0] = 0x04;
    unhex(b + 1, 32, x);
    unhex(b + 33, 32, y);
    if (p256_point_load(p, b, 65) != P256_POINT_OK) {
        fprintf(stderr, "harness: a known answer is not a point\n");
        exit(2);
    }
}

/* 1 if p is the KAT's point. */
static int group_point_is(const p256_point *p, const char *x, const char *y)
{
    uint8_t got[65], want[65];
    size_t len = p256_point_serialize(got, p, 0);
    if (x[0] == '\0')
        return len == 1 && got[0] == 0;
    want[0] = 0x04;
    unhex(want + 1, 32, x);
    unhex(want + 33, 32, y);
    return len == 65 && memcmp(got, want, 65) == 0;
}

static void group_scalar_of(uint8_t k[32], const char *hex)
{
    unhex(k, 32, hex);
}

/* Another Jacobian form of p: (t^2 X, t^3 Y, t Z) for a random t != 0. */
static void group_rescale(p256_point *p)
{
    p256_jac j;
    p256_fe t, t2;
    uint8_t b[32];
    rng_fill(b, 32);
    b[0] &= 0x7f;
    b[31] |= 1;
    (void)p256_fe_from_bytes(&t, b);
    memcpy(&j, p, sizeof j);
    p256_fe_sqr(&t2, &t);
    p256_fe_mul(&j.x, &j.x, &t2);
    p256_fe_mul(&t2, &t2, &t);
    p256_fe_mul(&j.y, &j.y, &t2);
    p256_fe_mul(&j.z, &j.z, &t);
    memcpy(p, &j, sizeof j);
}

/* A random scalar below n, and a random point k*G in a random form. */
static void group_random_scalar(uint8_t k[32])
{
    do
        rng_fill(k, 32);
    while (!p256_modn_check(k));
}

static void group_random_point(p256_point *p)
{
    uint8_t k[32];
    group_random_scalar(k);
    p256_point_mult_base(p, k);
    group_rescale(p);
}

static void test_group_h2c_kats(void)
{
    const struct {
        const group_h2c_kat *v;
        size_t n, len;
    } suites[] = {{group_h2c_ro, sizeof group_h2c_ro / sizeof group_h2c_ro[0], 96},
                  {group_h2c_nu, sizeof group_h2c_nu / sizeof group_h2c_nu[0], 48}};
    for (size_t s = 0; s < 2; s++) {
        for (size_t i = 0; i < suites[s].n; i++) {
            const group_h2c_kat *v = &suites[s].v[i];
            uint8_t uniform[96], ub[32];
            p256_fe u;
            p256_jac q;
            p256_point pt;
            size_t len = unhex(uniform, sizeof uniform, v->uniform);
            CHECK(len == suites[s].len, "suite %zu vector %zu: %zu uniform bytes", s, i, len);
            /* hash_to_field: each 48 bytes reduced mod p is the vector's u */
            for (size_t e = 0; e < len / 48; e++) {
                p256_fe_from_bytes_reduce(&u, uniform + 48 * e, 48);
                p256_fe_to_bytes(ub, &u);
                {
                    uint8_t want[32];
                    unhex(want, 32, e == 0 ? v->u0 : v->u1);
                    CHECK(memcmp(ub, want, 32) == 0, "suite %zu vector %zu: u%zu", s, i, e);
                }
                /* map_to_curve of that u is the vector's Q_e */
                p256_map_to_curve_sswu(&q, &u);
                memcpy(&pt, &q, sizeof pt);
                CHECK(group_point_is(&pt, e == 0 ? v->q0x : v->q1x, e == 0 ? v->q0y : v->q1y),
                      "suite %zu vector %zu: Q%zu", s, i, e);
            }
            /* the whole: uniform bytes to P */
            CHECK(p256_point_map_to_curve(&pt, uniform, len) == 1, "map takes %zu bytes", len);
            CHECK(group_point_is(&pt, v->px, v->py), "suite %zu vector %zu: P", s, i);
        }
    }
    {
        uint8_t uniform[97] = {0};
        p256_point pt;
        for (size_t len = 0; len <= 97; len++)
            if (len != 48 && len != 96)
                CHECK(p256_point_map_to_curve(&pt, uniform, len) == 0, "map refuses %zu bytes", len);
    }
}

static void test_group_point_kats(void)
{
    p256_point a, b, r, g;
    uint8_t ka[32], kb[32];
    group_scalar_of(ka, group_a);
    group_scalar_of(kb, group_b);
    group_point_of(&a, group_pa[0], group_pa[1]);
    group_point_of(&b, group_pb[0], group_pb[1]);
    p256_point_mult_base(&r, ka);
    CHECK(p256_point_equal(&r, &a), "a*G");
    p256_point_generator(&g);
    p256_point_mult(&r, kb, &g);
    CHECK(p256_point_equal(&r, &b), "b*G by the ladder");
    group_rescale(&a);
    group_rescale(&b);
    p256_point_add(&r, &a, &b);
    CHECK(group_point_is(&r, group_sum[0], group_sum[1]), "A + B");
    p256_point_double(&r, &a);
    CHECK(group_point_is(&r, group_dbl[0], group_dbl[1]), "2A");
    p256_point_add(&r, &a, &a);
    CHECK(group_point_is(&r, group_dbl[0], group_dbl[1]), "A + A");

    for (size_t i = 0; i < sizeof group_mults / sizeof group_mults[0]; i++) {
        uint8_t k[32];
        group_scalar_of(k, group_mults[i].k);
        p256_point_mult(&r, k, &a);
        CHECK(group_point_is(&r, group_mults[i].x, group_mults[i].y), "k*A, case %zu", i);
        p256_point_mult_vartime(&r, k, &a);
        CHECK(group_point_is(&r, group_mults[i].x, group_mults[i].y), "k*A vartime, case %zu", i);
    }

    {
        enum { T = sizeof group_terms / sizeof group_terms[0] };
        uint8_t k[T][32], d[32];
        const uint8_t *kp[T];
        p256_point pts[T];
        const p256_point *pp[T];
        static uint64_t scratch[1 << 15];
        for (size_t i = 0; i < T; i++) {
            group_scalar_of(k[i], group_terms[i].k);
            group_scalar_of(d, group_terms[i].d);
            p256_point_mult_base(&pts[i], d);
            group_rescale(&pts[i]);
            kp[i] = k[i];
            pp[i] = &pts[i];
        }
        CHECK(p256_point_multi_mult_scratch_size(T) <= sizeof scratch, "scratch for %d terms", (int)T);
        CHECK(p256_point_multi_mult(&r, kp, pp, T, scratch, sizeof scratch) &&
              group_point_is(&r, group_terms_sum[0], group_terms_sum[1]), "sum of terms");
        CHECK(p256_point_multi_mult_vartime(&r, kp, pp, T, scratch, sizeof scratch) &&
              group_point_is(&r, group_terms_sum[0], group_terms_sum[1]), "sum of terms, vartime");
        CHECK(!p256_point_multi_mult(&r, kp, pp, T, scratch, p256_point_multi_mult_scratch_size(T) - 1),
              "too little scratch is refused");
    }
}

static void test_group_modn_kats(void)
{
    for (size_t i = 0; i < sizeof group_modn / sizeof group_modn[0]; i++) {
        const group_modn_kat *v = &group_modn[i];
        uint8_t x[32], y[32], want[32], r[32];
        int inv_ok;
        unhex(x, 32, v->x);
        unhex(y, 32, v->y);
        CHECK(p256_modn_check(x) && p256_modn_check(y), "case %zu: below n", i);
        p256_modn_add(r, x, y);
        unhex(want, 32, v->sum);
        CHECK(memcmp(r, want, 32) == 0, "case %zu: x + y", i);
        p256_modn_sub(r, x, y);
        unhex(want, 32, v->diff);
        CHECK(memcmp(r, want, 32) == 0, "case %zu: x - y", i);
        p256_modn_mul(r, x, y);
        unhex(want, 32, v->prod);
        CHECK(memcmp(r, want, 32) == 0, "case %zu: x y", i);
        p256_modn_neg(r, x);
        unhex(want, 32, v->neg);
        CHECK(memcmp(r, want, 32) == 0, "case %zu: -x", i);
        inv_ok = p256_modn_inv(r, x);
        unhex(want, 32, v->inv);
        CHECK(memcmp(r, want, 32) == 0 && inv_ok == !p256_modn_is_zero(x), "case %zu: 1/x", i);
        CHECK(p256_modn_equal(x, y) == (memcmp(x, y, 32) == 0), "case %zu: x == y", i);
    }
    for (size_t i = 0; i < sizeof group_reduce / sizeof group_reduce[0]; i++) {
        const group_reduce_kat *v = &group_reduce[i];
        uint8_t in[96], want[32], r[32];
        p256_fe f;
        size_t len = unhex(in, sizeof in, v->in);
        p256_modn_reduce(r, in, len);
        unhex(want, 32, v->mod_n);
        CHECK(memcmp(r, want, 32) == 0, "reduce case %zu (%zu bytes) mod n", i, len);
        p256_fe_from_bytes_reduce(&f, in, len);
        p256_fe_to_bytes(r, &f);
        unhex(want, 32, v->mod_p);
        CHECK(memcmp(r, want, 32) == 0, "reduce case %zu (%zu bytes) mod p", i, len);
    }
    {
        uint8_t n_bytes[32], nm1[32];
        unhex(n_bytes, 32, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
        memcpy(nm1, n_bytes, 32);
        nm1[31]--;
        CHECK(!p256_modn_check(n_bytes) && p256_modn_check(nm1), "check: n refused, n - 1 taken");
    }
}

static void test_group_edges(void)
{
    p256_point o, g, p, q, r, s;
    uint8_t b[65], k[32] = {0}, nm1[32];
    static uint64_t scratch[1 << 15];
    unhex(nm1, 32, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550");

    b[0] = 0x00;
    CHECK(p256_point_load(&o, b, 1) == P256_POINT_OK && p256_point_is_identity(&o), "00 loads as O");
    CHECK(p256_point_serialize(b, &o, 0) == 1 && b[0] == 0, "O serializes as 00");
    CHECK(p256_point_serialize(b, &o, 1) == 1 && b[0] == 0, "O compressed is 00 too");
    p256_point_generator(&g);
    CHECK(!p256_point_is_identity(&g) && !p256_point_equal(&g, &o) && !p256_point_equal(&o, &g),
          "G is not O");
    CHECK(p256_point_equal(&o, &o), "O == O");
    p256_point_double(&r, &o);
    CHECK(p256_point_is_identity(&r), "2O = O");
    p256_point_negate(&r, &o);
    CHECK(p256_point_is_identity(&r), "-O = O");
    p256_point_add(&r, &o, &o);
    CHECK(p256_point_is_identity(&r), "O + O = O");
    {
        static p256_point_table tab;
        CHECK(!p256_point_table_build_vartime(&tab, &o), "the identity has no table");
    }

    for (int round = 0; round < 4; round++) {
        group_random_point(&p);
        q = p;
        group_rescale(&q);
        CHECK(p256_point_equal(&p, &q), "two forms of P are equal");
        p256_point_add(&r, &p, &o);
        CHECK(p256_point_equal(&r, &p), "P + O = P");
        p256_point_add(&r, &o, &p);
        CHECK(p256_point_equal(&r, &p), "O + P = P");
        p256_point_add(&r, &p, &q);
        p256_point_double(&s, &p);
        CHECK(p256_point_equal(&r, &s), "P + P = 2P (other forms)");
        p256_point_negate(&s, &q);
        CHECK(!p256_point_equal(&p, &s), "P != -P");
        p256_point_add(&r, &p, &s);
        CHECK(p256_point_is_identity(&r), "P + (-P) = O");
        p256_point_mult(&r, k, &p);
        CHECK(p256_point_is_identity(&r), "0 P = O");
        p256_point_mult_vartime(&r, k, &p);
        CHECK(p256_point_is_identity(&r), "0 P = O, vartime");
        p256_point_mult(&r, nm1, &p);
        CHECK(p256_point_equal(&r, &s), "(n - 1) P = -P");
        p256_point_mult_vartime(&r, nm1, &p);
        CHECK(p256_point_equal(&r, &s), "(n - 1) P = -P, vartime");
        rng_fill(b, 32);
        p256_point_mult(&r, b, &o);
        CHECK(p256_point_is_identity(&r), "k O = O");
        p256_point_mult_vartime(&r, b, &o);
        CHECK(p256_point_is_identity(&r), "k O = O, vartime");
        {
            /* P - P through the sums: k P + k (-P) = O, and k P + (n - k) P = O */
            const uint8_t *kp[3] = {b, b, b};
            const p256_point *pp[3] = {&p, &s, &o};
            CHECK(p256_point_multi_mult(&r, kp, pp, 3, scratch, sizeof scratch) &&
                  p256_point_is_identity(&r), "k P + k (-P) + k O = O");
            CHECK(p256_point_multi_mult_vartime(&r, kp, pp, 3, scratch, sizeof scratch) &&
                  p256_point_is_identity(&r), "k P + k (-P) + k O = O, vartime");
        }
        {
            /* one point twice, the scalars meeting: k P + k P = 2k P */
            const uint8_t *kp[2] = {b, b};
            const p256_point *pp[2] = {&p, &q};
            p256_point_mult(&s, b, &p);
            p256_point_double(&s, &s);
            CHECK(p256_point_multi_mult(&r, kp, pp, 2, scratch, sizeof scratch) &&
                  p256_point_equal(&r, &s), "k P + k P = 2 k P");
            CHECK(p256_point_multi_mult_vartime(&r, kp, pp, 2, scratch, sizeof scratch) &&
                  p256_point_equal(&r, &s), "k P + k P = 2 k P, vartime");
        }
    }
    CHECK(p256_point_multi_mult(&r, NULL, NULL, 0, scratch, sizeof scratch) && p256_point_is_identity(&r),
          "the empty sum is O");
    CHECK(p256_point_multi_mult_vartime(&r, NULL, NULL, 0, scratch, sizeof scratch) &&
          p256_point_is_identity(&r), "the empty sum is O, vartime");
    {
        p256_pubkey pk;
        CHECK(!p256_point_to_pubkey(&pk, &o), "O is no public key");
        group_random_point(&p);
        CHECK(p256_point_to_pubkey(&pk, &p) && p256_point_from_pubkey(&q, &pk) && p256_point_equal(&p, &q),
              "point -> key -> point");
    }
}

/* The sum of single products, the oracle of both sums. */
static void group_sum_of_products(p256_point *r, uint8_t (*k)[32], const p256_point *p, size_t n)
{
    p256_point t;
    p256_point_identity(r);
    for (size_t i = 0; i < n; i++) {
        p256_point_mult(&t, k[i], &p[i]);
        p256_point_add(r, r, &t);
    }
}

static void test_group_random(void)
{
    enum { MAXT = 80 };
    static uint8_t k[MAXT][32];
    static p256_point pts[MAXT];
    static const uint8_t *kp[MAXT];
    static const p256_point *pp[MAXT];
    static uint64_t scratch[1 << 16];
    const long iters = harness_iters(40);
    p256_point p, r, s, g;

    p256_point_generator(&g);
    for (long it = 0; it < iters; it++) {
        uint8_t kk[32], enc[65], want[65];
        group_random_point(&p);
        rng_fill(kk, 32); /* any 32 bytes, taken mod n */
        /* against the byte API (affine P, its own table and ladder) */
        p256_point_serialize(enc, &p, 0);
        p256_point_mult(&r, kk, &p);
        if (p256_mult(want, kk, enc, 65)) {
            p256_point_serialize(enc, &r, 0);
            CHECK(memcmp(enc, want, 65) == 0, "k P against p256_mult");
        }
        p256_point_mult_vartime(&s, kk, &p);
        CHECK(p256_point_equal(&r, &s), "k P vartime");
        p256_point_mult_base(&r, kk);
        p256_point_mult(&s, kk, &g);
        CHECK(p256_point_equal(&r, &s), "k G: the comb and the ladder");
        {
            /* a table of P (in a random form) and several products over it, against the
             * ladder: any 32 bytes (mod n), 0, n - 1 */
            static p256_point_table tab;
            CHECK(p256_point_table_build_vartime(&tab, &p), "a table of a random point");
            for (int c = 0; c < 4; c++) {
                if (c == 1)
                    memset(kk, 0, 32);
                else if (c == 2)
                    group_scalar_of(kk, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550");
                else
                    rng_fill(kk, 32);
                p256_point_table_mult(&r, kk, &tab);
                p256_point_mult(&s, kk, &p);
                CHECK(p256_point_equal(&r, &s), "k P over a table of P, case %d", c);
            }
        }

        {
            /* sums: n terms, some scalars 0, some points O; 65 crosses a chunk of the
             * constant-time sum */
            size_t n = it % 8 == 7 ? 65 : 1 + (size_t)(rng64() % 12);
            for (size_t i = 0; i < n; i++) {
                const uint64_t what = rng64() % 8;
                group_random_scalar(k[i]);
                if (what == 0)
                    memset(k[i], 0, 32);
                if (what == 1)
                    p256_point_identity(&pts[i]);
                else if (what == 2 && i > 0)
                    pts[i] = pts[i - 1];
                else
                    group_random_point(&pts[i]);
                kp[i] = k[i];
                pp[i] = &pts[i];
            }
            group_sum_of_products(&s, k, pts, n);
            CHECK(p256_point_multi_mult(&r, kp, pp, n, scratch, sizeof scratch) && p256_point_equal(&r, &s),
                  "sum of %zu terms", n);
            CHECK(p256_point_multi_mult_vartime(&r, kp, pp, n, scratch, sizeof scratch) &&
                  p256_point_equal(&r, &s), "sum of %zu terms, vartime", n);
        }
    }

    /* Pippenger at every width against Straus (the cost model picks one of them only) */
    for (long it = 0; it < (iters + 3) / 4; it++) {
        enum { M = 24 };
        static p256_scalar ks[M];
        static p256_jac js[M];
        static uint32_t kept[M];
        p256_jac a, b;
        for (size_t i = 0; i < M; i++) {
            uint8_t kk[32];
            group_random_scalar(kk);
            (void)p256_scalar_set_bytes_checked(&ks[i], kk);
            group_random_point(&p);
            memcpy(&js[i], &p, sizeof p);
            kept[i] = (uint32_t)i;
        }
        p256_multi_straus_vartime(&a, ks, js, kept, M, scratch);
        for (int c = 2; c <= P256_MULTI_MAX_C; c++) {
            p256_multi_pippenger_vartime(&b, ks, js, kept, M, c, scratch);
            CHECK(p256_jac_mask_eq(&a, &b), "Pippenger with c = %d against Straus", c);
        }
    }
    {
        /* the cost model chooses: Straus for a few terms, Pippenger for many */
        CHECK(p256_multi_choose_vartime(1) == 0 && p256_multi_choose_vartime(64) == 0,
              "Straus for 1 and 64 terms");
        CHECK(p256_multi_choose_vartime(P256_MULTI_VARTIME_MAX) > 0, "Pippenger for the most");
    }
}

static void test_group_map_random(void)
{
    const long iters = harness_iters(200);
    for (long it = 0; it < iters; it++) {
        uint8_t b[48];
        p256_fe u, v, y, t;
        p256_jac q;
        p256_aff a;
        uint64_t qr;
        rng_fill(b, 48);
        p256_fe_from_bytes_reduce(&u, b, 48);
        rng_fill(b, 48);
        p256_fe_from_bytes_reduce(&v, b, 48);
        /* sqrt_ratio: y^2 v = u, or y^2 v = Z u */
        qr = p256_sqrt_ratio(&y, &u, &v);
        p256_fe_sqr(&t, &y);
        p256_fe_mul(&t, &t, &v);
        if (qr) {
            CHECK(p256_fe_mask_eq(&t, &u), "sqrt_ratio: a square's root");
        } else {
            p256_fe zu;
            p256_fe_mul(&zu, &u, &p256_sswu_z);
            CHECK(p256_fe_mask_eq(&t, &zu), "sqrt_ratio: the root of Z u/v");
        }
        /* the two maps of hash_to_curve side by side are the two maps alone */
        {
            p256_fe uu[2] = {u, v};
            p256_jac qq[2], q1;
            p256_map_to_curve_sswu_pair(qq, uu);
            p256_map_to_curve_sswu(&q, &u);
            p256_map_to_curve_sswu(&q1, &v);
            CHECK(p256_jac_mask_eq(&qq[0], &q) && p256_jac_mask_eq(&qq[1], &q1), "the paired maps");
        }
        /* the map's image is a point, and its y has u's parity (sgn0) */
        p256_map_to_curve_sswu(&q, &u);
        CHECK(!p256_jac_to_aff(&a, &q) && p256_aff_mask_on_curve(&a), "the map gives a point");
        {
            uint8_t ub[32], yb[32];
            p256_fe_to_bytes(ub, &u);
            p256_fe_to_bytes(yb, &a.y);
            CHECK((ub[31] & 1) == (yb[31] & 1), "sgn0(y) = sgn0(u)");
        }
    }
    {
        /* u = 0: the exceptional case of 6.6.2 (tv2 = 0), a point too */
        p256_fe u = p256_fe_zero;
        p256_jac q;
        p256_aff a;
        p256_map_to_curve_sswu(&q, &u);
        CHECK(!p256_jac_to_aff(&a, &q) && p256_aff_mask_on_curve(&a), "u = 0 maps to a point");
    }
}

int main(void)
{
    test_group_h2c_kats();
    test_group_point_kats();
    test_group_modn_kats();
    test_group_edges();
    test_group_random();
    test_group_map_random();
    printf("test_group (%s): %ld checks, %ld failures\n", p256_backend_name(), checks, failures);
    return failures != 0;
}
