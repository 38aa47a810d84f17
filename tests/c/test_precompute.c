/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_precompute.c: the per-key tables of ecmult_pubtable.h. Every entry of tables
 * of each window size against the constant-time k*P; 2 x 10^4 random differential cases
 * (at P256_TEST_ITERS=100, which scales every random loop here; make ci runs 10^5) of the
 * two-comb u1*G + u2*Q and of ECDSA verification against the wNAF path (random, tampered,
 * x(R) = r + n, u1*G = +-u2*Q, edge keys and scalars); the byte-level API's refusals;
 * and negative controls: a corrupted entry and a wrong magic must be noticed.
 * ECDH over a table (the constant-time comb, p256_ecmult_pubtable / p256_ecdh_pubtable)
 * against p256_ecmult_const and p256_ecdh for every width, on edge scalars (1, 2, 3,
 * n-1..n-3, powers of two and their neighbours, all-ones windows, the largest top digit)
 * and random ones; with the plant pubtable:1 (the last row dropped) armed it must fail
 * (tools/plants.py).
 */
#include "harness.h"
#include "p256.c"

static void random_scalar_mod_n(p256_scalar *k)
{
    uint8_t b[32];
    rng_fill(b, 32);
    p256_scalar_set_bytes_reduce(k, b);
}

static void scalar_small(p256_scalar *k, uint64_t v)
{
    uint8_t b[32] = {0};
    for (int i = 0; i < 8; i++)
        b[31 - i] = (uint8_t)(v >> (8 * i));
    p256_scalar_set_bytes_reduce(k, b);
}

/* r = -a mod n, as a * (n - 1). */
static void scalar_negate(p256_scalar *r, const p256_scalar *a)
{
    static const uint8_t n_minus_1[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x50};
    p256_scalar m;
    p256_scalar_set_bytes_reduce(&m, n_minus_1);
    p256_scalar_mul(r, a, &m);
}

/* Affine encodings of two Jacobian points, or all zeros for infinity: equal iff same point. */
static int same_point(const p256_jac *a, const p256_jac *b)
{
    p256_aff x, y;
    uint8_t ea[65] = {0}, eb[65] = {0};
    if (!p256_jac_to_aff(&x, a))
        p256_aff_encode(ea, &x);
    if (!p256_jac_to_aff(&y, b))
        p256_aff_encode(eb, &y);
    return memcmp(ea, eb, 65) == 0;
}

static p256_pubtable *table_new(int bits, const p256_aff *q)
{
    p256_pubtable *t = (p256_pubtable *)malloc(p256_pubtable_size_of(bits));
    if (t == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    p256_pubtable_build_core_vartime(t, bits, q);
    return t;
}

/* Every entry of a table of each size: row i, entry j is (j + 1) 2^(bits i) Q. */
static void test_entries(const p256_aff *q, const char *what)
{
    for (int bits = P256_PUBTABLE_MIN_BITS; bits <= P256_PUBTABLE_MAX_BITS; bits++) {
        p256_pubtable *t = table_new(bits, q);
        const int entries = 1 << (bits - 1), rows = (257 + bits - 1) / bits;
        p256_scalar pow, m, k;
        long bad = 0;
        CHECK(t->rows == (uint32_t)rows && t->bits == (uint32_t)bits &&
                  t->magic == P256_PUBTABLE_MAGIC, "%s bits %d: header", what, bits);
        CHECK(rows * bits >= 257, "bits %d: the top digit is never negative", bits);
        scalar_small(&pow, 1);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < entries; j++) {
                p256_jac want, got;
                scalar_small(&m, (uint64_t)j + 1);
                p256_scalar_mul(&k, &m, &pow);
                p256_ecmult_const(&want, &k, q);
                p256_jac_from_aff(&got, &t->t[(size_t)i * (size_t)entries + (size_t)j]);
                bad += !same_point(&want, &got);
            }
            for (int d = 0; d < bits; d++)
                p256_scalar_add(&pow, &pow, &pow);
        }
        CHECK(bad == 0, "%s bits %d: %ld wrong entries", what, bits, bad);
        free(t);
    }
}

/* u1*G + u2*Q both ways; returns 1 if they agree. */
static int ecmult_agrees(const p256_pubtable *t, const p256_aff *q, const p256_scalar *u1,
                         const p256_scalar *u2)
{
    p256_jac a, b;
    p256_ecmult_pubtable_vartime(&a, u1, u2, t);
    p256_ecmult_vartime(&b, u1, u2, q);
    return same_point(&a, &b);
}

static int verify_agrees(const p256_pubtable *t, const p256_aff *q, const uint8_t rs[64],
                         const uint8_t *dg, size_t len, int *verdict)
{
    int a = p256_ecdsa_verify_pubtable_vartime(t, rs, dg, len);
    int b = p256_ecdsa_verify_vartime(q, rs, dg, len);
    *verdict = b;
    return a == b;
}

/* Q = d G for the scalar d; 0 if d = 0. */
static int point_of(p256_aff *q, const p256_scalar *d)
{
    p256_jac j;
    p256_ecmult_gen(&j, d);
    return !p256_jac_to_aff(q, &j);
}

static long differential(int bits, long cases_per_key, int keys)
{
    long disagree = 0;
    for (int key = 0; key < keys; key++) {
        p256_scalar d, u1, u2, e, r, s, w;
        p256_aff q;
        p256_pubtable *t;
        uint8_t rs[64], dg[48], sk[32];
        int v;
        do
            random_scalar_mod_n(&d);
        while (!point_of(&q, &d));
        t = table_new(bits, &q);
        for (long c = 0; c < cases_per_key; c++) {
            switch (c % 5) {
            case 0: /* random u1, u2 */
                random_scalar_mod_n(&u1);
                random_scalar_mod_n(&u2);
                disagree += !ecmult_agrees(t, &q, &u1, &u2);
                break;
            case 1: /* u1 G = +-u2 Q: u1 = +-u2 d */
                random_scalar_mod_n(&u2);
                p256_scalar_mul(&u1, &u2, &d);
                if (c % 2)
                    scalar_negate(&u1, &u1);
                disagree += !ecmult_agrees(t, &q, &u1, &u2);
                break;
            case 2: /* a valid signature, and the same with a digest bit flipped */
                rng_fill(dg, sizeof dg);
                p256_scalar_to_bytes(sk, &d);
                p256_ecdsa_sign(rs, &d, dg, 32, P256_HASH_SHA256, NULL);
                disagree += !verify_agrees(t, &q, rs, dg, 32, &v);
                disagree += !v; /* must be valid */
                dg[rng64() % 32] ^= (uint8_t)(1u << (rng64() % 8));
                disagree += !verify_agrees(t, &q, rs, dg, 32, &v);
                disagree += v;
                break;
            case 3: /* tampered r or s, or the digest longer than 32 bytes */
                rng_fill(dg, sizeof dg);
                p256_ecdsa_sign(rs, &d, dg, 48, P256_HASH_SHA256, NULL);
                rs[rng64() % 64] ^= (uint8_t)(1u << (rng64() % 8));
                disagree += !verify_agrees(t, &q, rs, dg, 48, &v);
                break;
            default: /* e = -+r d: R = infinity or a doubling inside the sum */
                random_scalar_mod_n(&r);
                random_scalar_mod_n(&s);
                p256_scalar_mul(&e, &r, &d);
                if (c % 2)
                    scalar_negate(&e, &e);
                p256_scalar_to_bytes(rs, &r);
                p256_scalar_to_bytes(rs + 32, &s);
                p256_scalar_to_bytes(dg, &e);
                disagree += !verify_agrees(t, &q, rs, dg, 32, &v);
                p256_scalar_inv_vartime(&w, &s);
                p256_scalar_mul(&u1, &e, &w);
                p256_scalar_mul(&u2, &r, &w);
                disagree += !ecmult_agrees(t, &q, &u1, &u2);
                break;
            }
        }
        free(t);
    }
    return disagree;
}

/* x(R) = r + n (r + n < p): a key and signature built from a chosen R. */
static void test_r_plus_n(void)
{
    static const uint8_t n_be[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
    int found = 0;
    for (uint32_t r0 = 1; found < 8 && r0 < 4096; r0++) {
        uint8_t enc[33], rs[64], dg[32];
        unsigned c = 0;
        p256_aff rpt, q;
        p256_scalar r, s, u1, u2, u2inv, e;
        p256_jac t1, t2;
        p256_pubtable *t;
        int v;
        /* x = n + r0 (< p for small r0), big endian */
        enc[0] = 0x02;
        for (int i = 31; i >= 0; i--) {
            unsigned add = (i >= 28) ? (r0 >> (8 * (31 - i))) & 0xff : 0;
            unsigned sum = n_be[i] + add + c;
            enc[1 + i] = (uint8_t)sum;
            c = sum >> 8;
        }
        if (!p256_aff_decode_vartime(&rpt, enc, 33))
            continue;
        found++;
        scalar_small(&r, r0);
        random_scalar_mod_n(&u1);
        do
            random_scalar_mod_n(&u2);
        while (p256_scalar_mask_is_zero(&u2));
        /* Q = u2^-1 (R - u1 G), s = r / u2, e = u1 s */
        p256_scalar_inv_vartime(&u2inv, &u2);
        p256_ecmult_gen(&t1, &u1);
        p256_fe_neg(&t1.y, &t1.y);
        p256_jac_add_aff(&t1, &t1, &rpt, 0);
        if (p256_jac_to_aff(&q, &t1))
            continue;
        p256_ecmult_const(&t2, &u2inv, &q);
        if (p256_jac_to_aff(&q, &t2))
            continue;
        p256_scalar_mul(&s, &r, &u2inv);
        p256_scalar_mul(&e, &u1, &s);
        p256_scalar_to_bytes(rs, &r);
        p256_scalar_to_bytes(rs + 32, &s);
        p256_scalar_to_bytes(dg, &e);
        t = table_new(P256_PUBTABLE_BITS, &q);
        CHECK(verify_agrees(t, &q, rs, dg, 32, &v) && v == 1, "r + n case r0=%u: verdict %d", r0, v);
        free(t);
    }
    CHECK(found == 8, "found %d x = r + n points", found);
}

/* Edge keys: +-G, 2G, (n-1)/2 G and points with small x, against edge scalars too. */
static void test_edge_keys(void)
{
    p256_aff keys[8];
    int nkeys = 0;
    p256_scalar k, u1, u2;
    p256_jac j;

    keys[nkeys++] = p256_generator;
    keys[nkeys] = p256_generator;
    p256_fe_neg(&keys[nkeys].y, &keys[nkeys].y);
    nkeys++;
    scalar_small(&k, 2);
    p256_ecmult_gen(&j, &k);
    p256_jac_to_aff(&keys[nkeys++], &j);
    for (uint32_t x = 0; nkeys < 6 && x < 64; x++) { /* the smallest x on the curve */
        uint8_t enc[33] = {0x02};
        enc[32] = (uint8_t)x;
        if (p256_aff_decode_vartime(&keys[nkeys], enc, 33))
            nkeys++;
    }
    CHECK(nkeys == 6, "found %d edge keys", nkeys);

    for (int i = 0; i < nkeys; i++) {
        p256_pubtable *t = table_new(P256_PUBTABLE_BITS, &keys[i]);
        long bad = 0;
        static const uint64_t small[] = {0, 1, 2, 3, 63, 64, 65, 127, 128};
        for (size_t a = 0; a < sizeof small / sizeof small[0]; a++)
            for (size_t b = 0; b < sizeof small / sizeof small[0]; b++) {
                scalar_small(&u1, small[a]);
                scalar_small(&u2, small[b]);
                bad += !ecmult_agrees(t, &keys[i], &u1, &u2);
                scalar_negate(&u2, &u2); /* n - small */
                bad += !ecmult_agrees(t, &keys[i], &u1, &u2);
                scalar_negate(&u1, &u1);
                bad += !ecmult_agrees(t, &keys[i], &u1, &u2);
            }
        for (long c = 0; c < harness_iters(200); c++) {
            random_scalar_mod_n(&u1);
            random_scalar_mod_n(&u2);
            bad += !ecmult_agrees(t, &keys[i], &u1, &u2);
            /* u1 = -+u2 for Q = +-G: the sum is infinity or a doubling */
            u1 = u2;
            if (c % 2)
                scalar_negate(&u1, &u1);
            bad += !ecmult_agrees(t, &keys[i], &u1, &u2);
        }
        CHECK(bad == 0, "edge key %d: %ld disagreements", i, bad);
        free(t);
    }
    test_entries(&keys[1], "-G");
    test_entries(&keys[3], "small x");
}

/* The byte-level API: sizes, refusals, the magic, verdicts equal to p256_verify's. */
static void test_api(void)
{
    uint8_t pub[65], bad[65], d[32], rs[64] = {0}, dg[32] = {0};
    size_t size = p256_pubtable_size(P256_PUBTABLE_BITS);
    void *t = malloc(size);
    CHECK(p256_pubtable_size(3) == 0 && p256_pubtable_size(9) == 0, "bits out of range");
    CHECK(size == 16 + 37 * 64 * 64, "size of the default table: %zu", size);
    CHECK(p256_pubtable_size(4) == 16 + 65 * 8 * 64, "size for 4 bits");
    CHECK(p256_seckey_generate(d) && p256_pubkey_create(pub, d), "keygen");
    memcpy(bad, pub, 65);
    bad[64] ^= 1; /* not on the curve */
    CHECK(!p256_pubtable_build_vartime(t, size, P256_PUBTABLE_BITS, bad, 65), "invalid key");
    CHECK(!p256_verify_pubtable_vartime(t, rs, dg, 32), "a failed build is not a table");
    CHECK(!p256_pubtable_build_vartime(t, size - 1, P256_PUBTABLE_BITS, pub, 65), "short memory");
    CHECK(!p256_pubtable_build_vartime(t, size, 9, pub, 65), "bits 9");
    CHECK(p256_pubtable_build_vartime(t, size, P256_PUBTABLE_BITS, pub, 65), "build");
    for (long i = 0; i < harness_iters(200); i++) {
        rng_fill(dg, 32);
        CHECK(p256_sign(rs, d, dg, 32, P256_NONCE_SHA256), "sign");
        if (i % 2)
            rs[rng64() % 64] ^= 0x10;
        CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == p256_verify(pub, 65, rs, dg, 32) &&
                  p256_verify(pub, 65, rs, dg, 32) == !(i % 2),
              "verdicts, case %ld", i);
    }
    /* negative control: a table whose magic is wrong verifies nothing */
    rng_fill(dg, 32);
    p256_sign(rs, d, dg, 32, P256_NONCE_SHA256);
    CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == 1, "valid before");
    ((p256_pubtable *)t)->magic ^= 1;
    CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == 0, "wrong magic refused");
    ((p256_pubtable *)t)->magic ^= 1;
    ((p256_pubtable *)t)->bits = 99; /* bits out of range: refused, no out-of-bounds read */
    CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == 0, "bad bits refused");
    /* a failed rebuild over a good table leaves no usable table behind */
    CHECK(p256_pubtable_build_vartime(t, size, P256_PUBTABLE_BITS, pub, 65), "rebuild");
    CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == 1, "valid again");
    CHECK(!p256_pubtable_build_vartime(t, size - 1, P256_PUBTABLE_BITS, pub, 65), "short");
    CHECK(p256_verify_pubtable_vartime(t, rs, dg, 32) == 0, "a failed build left a table");
    free(t);
}

/* Negative control: one corrupted entry (row 3, entry 5, y negated) must be seen. */
static void test_corrupted(void)
{
    p256_scalar d, u1, u2;
    p256_aff q;
    p256_pubtable *t;
    long disagree = 0, cases = 0;
    do
        random_scalar_mod_n(&d);
    while (!point_of(&q, &d));
    t = table_new(P256_PUBTABLE_BITS, &q);
    p256_fe_neg(&t->t[3 * 64 + 5].y, &t->t[3 * 64 + 5].y);
    while (cases < 5000 && disagree == 0) {
        random_scalar_mod_n(&u1);
        random_scalar_mod_n(&u2);
        disagree += !ecmult_agrees(t, &q, &u1, &u2);
        cases++;
    }
    CHECK(disagree > 0, "a corrupted entry went unnoticed in %ld cases", cases);
    free(t);
}

/* k = n - v for small v > 0. */
static void scalar_n_minus(p256_scalar *k, uint64_t v)
{
    scalar_small(k, v);
    scalar_negate(k, k);
}

/* k from 32 big-endian bytes, reduced mod n. */
static void scalar_from_bytes(p256_scalar *k, const uint8_t b[32])
{
    p256_scalar_set_bytes_reduce(k, b);
}

/* k = 2^e mod n, e < 256 (2^255 < n). */
static void scalar_pow2(p256_scalar *k, int e)
{
    uint8_t b[32] = {0};
    b[31 - e / 8] = (uint8_t)(1u << (e % 8));
    scalar_from_bytes(k, b);
}

/* k*Q over the table agrees with the windowed ladder; 1 if so. */
static int pubtable_ecdh_agrees(const p256_pubtable *t, const p256_aff *q, const p256_scalar *k)
{
    p256_jac a, b;
    p256_ecmult_pubtable(&a, k, t);
    p256_ecmult_const(&b, k, q);
    return same_point(&a, &b);
}

/* The edge scalars of one width: returns the disagreements. */
static long pubtable_ecdh_edges(const p256_pubtable *t, const p256_aff *q, int bits)
{
    const int rows = (257 + bits - 1) / bits;
    p256_scalar k, one;
    uint8_t b[32];
    long bad = 0;
    scalar_small(&one, 1);
    for (uint64_t v = 1; v <= 3; v++) { /* 1, 2, 3 and n-1, n-2, n-3 */
        scalar_small(&k, v);
        bad += !pubtable_ecdh_agrees(t, q, &k);
        scalar_n_minus(&k, v);
        bad += !pubtable_ecdh_agrees(t, q, &k);
    }
    for (int e = 0; e < 256; e++) { /* 2^e, 2^e - 1, 2^e + 1, n - 2^e */
        scalar_pow2(&k, e);
        bad += !pubtable_ecdh_agrees(t, q, &k);
        scalar_negate(&k, &k);
        bad += !pubtable_ecdh_agrees(t, q, &k);
        scalar_pow2(&k, e);
        p256_scalar_add(&k, &k, &one);
        bad += !pubtable_ecdh_agrees(t, q, &k);
        memset(b, 0, 32); /* 2^(e+1) - 1: the low e + 1 bits all ones */
        for (int j = 0; j <= e; j++)
            b[31 - j / 8] |= (uint8_t)(1u << (j % 8));
        scalar_from_bytes(&k, b);
        bad += !pubtable_ecdh_agrees(t, q, &k);
    }
    for (int i = 0; i < rows; i++) { /* window i all ones (digit 2^(bits-1) carries), alone */
        memset(b, 0, 32);
        for (int j = bits * i; j < bits * (i + 1) && j < 256; j++)
            b[31 - j / 8] |= (uint8_t)(1u << (j % 8));
        scalar_from_bytes(&k, b);
        bad += !pubtable_ecdh_agrees(t, q, &k);
        for (int j = 0; j < 32; j++) /* and every other window all ones */
            b[j] = (uint8_t)~b[j];
        scalar_from_bytes(&k, b);
        bad += !pubtable_ecdh_agrees(t, q, &k);
    }
    memset(b, 0xff, 32); /* 2^256 - 1 mod n */
    scalar_from_bytes(&k, b);
    bad += !pubtable_ecdh_agrees(t, q, &k);
    memset(b, 0x55, 32); /* alternating bits: digits that change sign every window */
    scalar_from_bytes(&k, b);
    bad += !pubtable_ecdh_agrees(t, q, &k);
    memset(b, 0xaa, 32);
    scalar_from_bytes(&k, b);
    bad += !pubtable_ecdh_agrees(t, q, &k);
    /* The top window's largest digit: k = 2^s floor(n / 2^s) - 1 ... n - 1 (s its start). */
    {
        const int s = bits * (rows - 1);
        if (s < 256) {
            scalar_pow2(&k, s);
            scalar_negate(&k, &k); /* n - 2^s: top bits as n's, bit s - 1 as n's */
            bad += !pubtable_ecdh_agrees(t, q, &k);
            scalar_pow2(&k, s - 1);
            scalar_negate(&k, &k);
            bad += !pubtable_ecdh_agrees(t, q, &k);
        }
    }
    return bad;
}

/* ECDH over each width's table against the ladder and the byte-level p256_ecdh. */
static void test_pubtable_ecdh(void)
{
    p256_aff keys[3];
    p256_scalar d, k;
    int nkeys = 0;
    keys[nkeys++] = p256_generator;
    keys[nkeys] = p256_generator;
    p256_fe_neg(&keys[nkeys].y, &keys[nkeys].y);
    nkeys++;
    do
        random_scalar_mod_n(&d);
    while (!point_of(&keys[nkeys], &d));
    nkeys++;
    for (int bits = P256_PUBTABLE_MIN_BITS; bits <= P256_PUBTABLE_MAX_BITS; bits++) {
        long bad = 0, edges = 0;
        for (int i = 0; i < nkeys; i++) {
            p256_pubtable *t = table_new(bits, &keys[i]);
            edges += pubtable_ecdh_edges(t, &keys[i], bits);
            for (long c = 0; c < harness_iters(300); c++) {
                random_scalar_mod_n(&k);
                bad += !pubtable_ecdh_agrees(t, &keys[i], &k);
            }
            scalar_small(&k, 0); /* k = 0: the point at infinity, as the ladder gives */
            bad += !pubtable_ecdh_agrees(t, &keys[i], &k);
            free(t);
        }
        CHECK(edges == 0, "ecdh bits %d: %ld edge scalars disagree", bits, edges);
        CHECK(bad == 0, "ecdh bits %d: %ld random scalars disagree", bits, bad);
    }

    /* The byte-level API: the same bytes as p256_ecdh, and its refusals. */
    for (int bits = P256_PUBTABLE_MIN_BITS; bits <= P256_PUBTABLE_MAX_BITS; bits++) {
        static const uint8_t n_be[32] = {
            0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
        uint8_t sk[32], peer_sk[32], peer[65], want[32], got[32], zero[32] = {0};
        size_t size = p256_pubtable_size(bits);
        void *t = malloc(size);
        long bad = 0;
        CHECK(t != NULL && p256_seckey_generate(peer_sk) && p256_pubkey_create(peer, peer_sk),
              "peer key");
        CHECK(p256_pubtable_build_vartime(t, size, bits, peer, 65), "build %d", bits);
        for (long c = 0; c < 3 + harness_iters(197); c++) { /* 3 fixed, then random */
            CHECK(p256_seckey_generate(sk), "keygen");
            if (c < 3) { /* 1, n-1 and n-2 as bytes */
                p256_scalar e;
                if (c == 0)
                    scalar_small(&e, 1);
                else
                    scalar_n_minus(&e, (uint64_t)c);
                p256_scalar_to_bytes(sk, &e);
            }
            memset(got, 0, 32);
            bad += !(p256_ecdh(want, sk, peer, 65) && p256_ecdh_pubtable(got, sk, t) &&
                     memcmp(want, got, 32) == 0);
        }
        CHECK(bad == 0, "p256_ecdh_pubtable bits %d: %ld differ from p256_ecdh", bits, bad);
        memset(got, 0x5a, 32);
        CHECK(!p256_ecdh_pubtable(got, zero, t) && !p256_ecdh_pubtable(got, n_be, t) &&
                  got[0] == 0x5a, "bits %d: d = 0 and d = n refused, out untouched", bits);
        ((p256_pubtable *)t)->magic ^= 1; /* negative control: not a table, refused */
        CHECK(!p256_ecdh_pubtable(got, sk, t), "bits %d: a wrong magic is refused", bits);
        ((p256_pubtable *)t)->magic ^= 1;
        ((p256_pubtable *)t)->bits = 3;
        CHECK(!p256_ecdh_pubtable(got, sk, t), "bits %d: bits out of range refused", bits);
        free(t);
    }
}

int main(void)
{
    p256_scalar d;
    p256_aff q;
    long dis;
    do
        random_scalar_mod_n(&d);
    while (!point_of(&q, &d));
    test_entries(&q, "random");
    test_edge_keys();
    test_r_plus_n();
    test_api();
    test_corrupted();
    test_pubtable_ecdh();
    /* The random differential cases (at P256_TEST_ITERS=100): 9 keys x 2000 at the default
     * size, one key x 500 at each other size; make ci runs 10^5 (ctest-precompute-random). */
    dis = differential(P256_PUBTABLE_BITS, harness_iters(2000), 9);
    CHECK(dis == 0, "default table: %ld disagreements", dis);
    for (int bits = P256_PUBTABLE_MIN_BITS; bits <= P256_PUBTABLE_MAX_BITS; bits++) {
        if (bits == P256_PUBTABLE_BITS)
            continue;
        dis = differential(bits, harness_iters(500), 1);
        CHECK(dis == 0, "bits %d: %ld disagreements", bits, dis);
    }
    printf("test_precompute: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
