/* SPDX-License-Identifier: Apache-2.0 */
/* Tests of csrc/modinv_impl.h: p256_modinv and p256_modinv_vartime mod p and n.
 *
 * Built and run by `make ctest` (cc -O2 -std=c99 -Wall -Wextra -Werror -Icsrc).
 * The implementation is included with P256_MODINV_VERIFY, so every range that
 * its comments claim (d, e in (-2M, M), |u|+|v| <= 2^62, exact divisions by
 * 2^62, g = 0 and f = +-1 after the last batch, ...) is checked on every call.
 *
 * Checks: the constants (recomputed from the 4x64 form), known answers from
 * Python's pow(a, -1, m) (tests/c/modinv_kat.h, made by tools/gen_modinv_kat.py),
 * edge inputs, inputs >= m, and 100,000 random inputs per modulus (plus 20,000
 * "runs of equal bits" inputs), checked by multiplication a * r = 1 (mod m) with
 * an independent schoolbook multiplication and bit-by-bit reduction below;
 * both functions must agree, also when r aliases a, and p256_modinv_pair must
 * give what p256_modinv gives in either lane (known answers, a fourth of the rest).  A bit-serial divstep
 * checks the batched code step for step (test_trace).
 */
#define P256_MODINV_VERIFY 1
#include "harness.h"
#include "modinv_impl.h"
#include "modinv_kat.h"

__extension__ typedef unsigned __int128 p256_u128;

static const uint64_t P64[4] = {0xffffffffffffffffULL, 0x00000000ffffffffULL, 0x0000000000000000ULL,
                                0xffffffff00000001ULL};
static const uint64_t N64[4] = {0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
                                0xffffffff00000000ULL};

/* ---- A simple, independent 256-bit modular arithmetic (slow, obviously right). */

static int cmp256(const uint64_t a[4], const uint64_t b[4])
{
    int i;
    for (i = 3; i >= 0; i--) {
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

/* r = a - b, returns the borrow. */
static uint64_t sub256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    int i;
    for (i = 0; i < 4; i++) {
        uint64_t ai = a[i], bi = b[i];
        r[i] = ai - bi - borrow;
        borrow = (ai < bi) || (ai == bi && borrow);
    }
    return borrow;
}

/* r = a + b mod 2^256, returns the carry. */
static uint64_t add256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t carry = 0;
    int i;
    for (i = 0; i < 4; i++) {
        uint64_t s = a[i] + b[i];
        uint64_t c1 = s < a[i];
        r[i] = s + carry;
        carry = c1 | (r[i] < s);
    }
    return carry;
}

/* r = a * b mod m (m > 2^255).  Schoolbook 512-bit product, then reduction bit
 * by bit from the top: x <- 2x + bit, subtract m when x >= m (x < m before, so
 * 2x + 1 < 2m and one subtraction suffices; the bit shifted out of 2^256 is
 * tracked as `top`). */
static void mulmod_ref(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t prod[8] = {0};
    uint64_t x[4] = {0, 0, 0, 0};
    int i, j, bit;
    for (i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (j = 0; j < 4; j++) {
            p256_u128 t = (p256_u128)a[i] * b[j] + prod[i + j] + carry;
            prod[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        prod[i + 4] = carry;
    }
    for (bit = 511; bit >= 0; bit--) {
        uint64_t top = x[3] >> 63;
        x[3] = (x[3] << 1) | (x[2] >> 63);
        x[2] = (x[2] << 1) | (x[1] >> 63);
        x[1] = (x[1] << 1) | (x[0] >> 63);
        x[0] = (x[0] << 1) | ((prod[bit / 64] >> (bit % 64)) & 1);
        if (top || cmp256(x, m) >= 0)
            sub256(x, x, m);
    }
    memcpy(r, x, sizeof x);
}

/* a mod m for a < 2^256 (< 2m). */
static void reduce_ref(uint64_t r[4], const uint64_t a[4], const uint64_t m[4])
{
    memcpy(r, a, 4 * sizeof(uint64_t));
    if (cmp256(r, m) >= 0)
        sub256(r, r, m);
}

static int is_zero(const uint64_t a[4])
{
    return (a[0] | a[1] | a[2] | a[3]) == 0;
}

static void print256(const char *name, const uint64_t a[4])
{
    fprintf(stderr, " %s=0x%016llx%016llx%016llx%016llx", name, (unsigned long long)a[3], (unsigned long long)a[2],
            (unsigned long long)a[1], (unsigned long long)a[0]);
}

/* ---- The checks. */

struct mod {
    const char *name;
    const p256_modinv_modulus *m;
    const uint64_t *m64;
};

static const struct mod MODS[2] = {{"p", &p256_modinv_p, P64}, {"n", &p256_modinv_n, N64}};

/* Both functions on a: r < m, r equal, and a*r = 1 mod m (r = 0 if a = 0 mod m).
 * If expected is not NULL, r must equal it. */
static unsigned long pair_turn;

static void check_inverse(const struct mod *md, const uint64_t a[4], const uint64_t *expected, const char *what)
{
    uint64_t r1[4], r2[4], ar[4], prod[4], one[4] = {1, 0, 0, 0};
    int ok;
    p256_modinv(r1, a, md->m);
    p256_modinv_vartime(r2, a, md->m);
    reduce_ref(ar, a, md->m64);
    ok = cmp256(r1, md->m64) < 0 && cmp256(r2, md->m64) < 0 && memcmp(r1, r2, sizeof r1) == 0;
    if (ok) {
        if (is_zero(ar)) {
            ok = is_zero(r1);
        } else {
            mulmod_ref(prod, ar, r1, md->m64);
            ok = memcmp(prod, one, sizeof one) == 0;
        }
    }
    if (ok && expected != NULL)
        ok = memcmp(r1, expected, sizeof r1) == 0;
    if (ok && (expected != NULL || pair_turn++ % 4 == 0)) {
        /* p256_modinv_pair, on every known answer and every fourth other input: a in
         * either lane, beside another input b (a's words in reverse order) on the other
         * modulus or (a's top bit set) the same one, gives what two p256_modinv calls
         * give; the second time over its inputs. */
        const struct mod *other = &MODS[(md == &MODS[0]) ^ (int)(a[3] >> 63)];
        const uint64_t b[4] = {a[3], a[2], a[1], a[0]};
        uint64_t x[4], y[4], rb[4];
        p256_modinv(rb, b, other->m);
        p256_modinv_pair(x, a, md->m, y, b, other->m);
        ok = memcmp(x, r1, sizeof x) == 0 && memcmp(y, rb, sizeof y) == 0;
        memcpy(x, a, sizeof x);
        memcpy(y, b, sizeof y);
        p256_modinv_pair(y, y, other->m, x, x, md->m);
        ok = ok && memcmp(x, r1, sizeof x) == 0 && memcmp(y, rb, sizeof y) == 0;
    }
    if (ok) {
        /* r may alias a. */
        uint64_t x[4];
        memcpy(x, a, sizeof x);
        p256_modinv(x, x, md->m);
        ok = memcmp(x, r1, sizeof x) == 0;
        memcpy(x, a, sizeof x);
        p256_modinv_vartime(x, x, md->m);
        ok = ok && memcmp(x, r1, sizeof x) == 0;
    }
    checks++;
    if (!ok) {
        failures++;
        if (failures <= HARNESS_MAX_REPORTS) {
            fprintf(stderr, "FAIL mod %s, %s:", md->name, what);
            print256("a", a);
            print256("ct", r1);
            print256("vt", r2);
            if (expected)
                print256("expected", expected);
            fprintf(stderr, "\n");
        }
    }
}

/* The constants: signed-62 limbs recomputed from the 4x64 form, and m^-1 mod
 * 2^62 by Newton's iteration x <- x*(2 - m*x) (each step doubles the number of
 * correct low bits; x = m is right mod 8 for odd m). */
static void test_constants(void)
{
    int k, i;
    for (k = 0; k < 2; k++) {
        const struct mod *md = &MODS[k];
        p256_modinv_signed62 s;
        uint64_t x = md->m64[0], back[4];
        p256_modinv_from_u64(&s, md->m64);
        for (i = 0; i < 5; i++)
            CHECK(s.v[i] == md->m->modulus.v[i], "mod %s limb %d", md->name, i);
        for (i = 0; i < 6; i++)
            x *= 2 - md->m64[0] * x;
        CHECK(md->m64[0] * x == 1, "Newton inverse mod %s", md->name);
        CHECK((x & (UINT64_MAX >> 2)) == md->m->modulus_inv62, "inv62 mod %s", md->name);
        CHECK(((md->m->modulus_inv62 * (uint64_t)md->m->modulus.v[0]) & (UINT64_MAX >> 2)) == 1, "inv62 mod %s",
              md->name);
        CHECK(md->m->modulus.v[4] >= 128 && md->m->modulus.v[4] < 256, "top limb mod %s", md->name);
        p256_modinv_to_u64(back, &md->m->modulus);
        CHECK(memcmp(back, md->m64, sizeof back) == 0, "round trip mod %s", md->name);
    }
    /* p = 2^256 - 2^224 + 2^192 + 2^96 - 1, independently of the table above. */
    {
        uint64_t t[4] = {0, 0, 0, 0}, u[4];
        uint64_t a224[4] = {0, 0, 0, (uint64_t)1 << 32}, a192[4] = {0, 0, 0, 1}, a96[4] = {0, (uint64_t)1 << 32, 0, 0};
        uint64_t one[4] = {1, 0, 0, 0};
        sub256(u, t, a224); /* 2^256 - 2^224 mod 2^256 */
        add256(u, u, a192);
        add256(u, u, a96);
        sub256(u, u, one);
        CHECK(memcmp(u, P64, sizeof u) == 0, "p formula");
    }
    /* Arithmetic right shift of negative values, as assumed. */
    {
        volatile int64_t m5 = -5;
        volatile p256_modinv_int128 big = -((p256_modinv_int128)1 << 100) - 1;
        CHECK((m5 >> 1) == -3, "int64 asr");
        CHECK((int64_t)(big >> 98) == -5, "int128 asr");
    }
}

static void test_kat(void)
{
    size_t i;
    int maxhd = 0, maxplain = 0;
    for (i = 0; i < sizeof MODINV_KAT / sizeof MODINV_KAT[0]; i++) {
        const modinv_kat *k = &MODINV_KAT[i];
        check_inverse(&MODS[k->which], k->a, k->r, k->label);
        if (k->hd > maxhd)
            maxhd = k->hd;
        if (k->plain > maxplain)
            maxplain = k->plain;
    }
    printf("  %zu known answers (most hddivsteps needed: %d of 590; plain divsteps: %d)\n",
           sizeof MODINV_KAT / sizeof MODINV_KAT[0], maxhd, maxplain);
}

static void set_pow2(uint64_t a[4], int k)
{
    memset(a, 0, 4 * sizeof(uint64_t));
    a[k / 64] = (uint64_t)1 << (k % 64);
}

static void test_edges(void)
{
    int k, j;
    for (k = 0; k < 2; k++) {
        const struct mod *md = &MODS[k];
        uint64_t a[4], e[4], one[4] = {1, 0, 0, 0}, two[4] = {2, 0, 0, 0}, zero[4] = {0, 0, 0, 0};
        uint64_t mm1[4], mm2[4], half[4];
        sub256(mm1, md->m64, one);
        sub256(mm2, md->m64, two);
        /* (m+1)/2 = (m-1)/2 + 1 */
        half[0] = (mm1[0] >> 1) | (mm1[1] << 63);
        half[1] = (mm1[1] >> 1) | (mm1[2] << 63);
        half[2] = (mm1[2] >> 1) | (mm1[3] << 63);
        half[3] = mm1[3] >> 1;
        add256(half, half, one);

        check_inverse(md, zero, zero, "0");
        check_inverse(md, one, one, "1");
        check_inverse(md, two, half, "2 -> (m+1)/2");
        check_inverse(md, half, two, "(m+1)/2 -> 2");
        check_inverse(md, mm1, mm1, "m-1 -> m-1");
        check_inverse(md, mm2, NULL, "m-2");
        /* Inputs >= m are reduced first: m -> 0, m+1 -> 1, 2^256-1 -> (2^256-1-m)^-1. */
        check_inverse(md, md->m64, zero, "m");
        add256(a, md->m64, one);
        check_inverse(md, a, one, "m+1");
        add256(a, md->m64, two);
        check_inverse(md, a, half, "m+2");
        memset(a, 0xff, sizeof a);
        check_inverse(md, a, NULL, "2^256-1");
        for (j = 0; j < 256; j++) {
            set_pow2(a, j);
            check_inverse(md, a, NULL, "2^k");
            sub256(a, a, one);
            check_inverse(md, a, NULL, "2^k-1");
            sub256(e, md->m64, a); /* m - 2^k + 1 */
            check_inverse(md, e, NULL, "m-2^k+1");
            set_pow2(a, j);
            sub256(e, md->m64, a); /* m - 2^k (negative of 2^k) unless 2^k > m */
            if (cmp256(a, md->m64) < 0)
                check_inverse(md, e, NULL, "m-2^k");
            /* high bits set: 2^256 - 2^k */
            sub256(e, zero, a);
            check_inverse(md, e, NULL, "2^256-2^k");
        }
        /* Long runs: ones in [lo, hi). */
        for (j = 0; j < 256; j += 7) {
            int hi;
            for (hi = j + 1; hi <= 256; hi += 13) {
                int b;
                memset(a, 0, sizeof a);
                for (b = j; b < hi; b++)
                    a[b / 64] |= (uint64_t)1 << (b % 64);
                check_inverse(md, a, NULL, "run of ones");
                for (b = 0; b < 4; b++)
                    e[b] = ~a[b];
                check_inverse(md, e, NULL, "run of zeros");
            }
        }
        /* Inverses of small numbers (and their negatives): the inverse of
         * 1/s must be s.  1/s is obtained as the inverse of s, which the
         * multiplication check validates first. */
        for (j = 1; j <= 2000; j++) {
            uint64_t s[4] = {(uint64_t)j, 0, 0, 0}, inv[4], neg[4];
            check_inverse(md, s, NULL, "small");
            p256_modinv(inv, s, md->m);
            check_inverse(md, inv, s, "1/small");
            sub256(neg, md->m64, inv);
            sub256(s, md->m64, s);
            check_inverse(md, neg, s, "-1/small");
        }
    }
}

/* ---- Trace check: the batched code performs exactly the divsteps of [BY]
 * (half-delta for the constant-time code, plain for the variable-time code).
 * A bit-serial reference runs single divsteps on f, g as 320-bit two's
 * complement numbers; after every batch the library's f and g (obtained with
 * its internal batch and update functions) must equal the reference state, and
 * the number of steps the reference needs must match the count that Python
 * computed for the known answers. */

typedef struct {
    uint64_t w[5];
} ref320;

static void ref_add(ref320 *r, const ref320 *a, int negate)
{
    uint64_t carry = negate ? 1 : 0;
    int i;
    for (i = 0; i < 5; i++) {
        uint64_t x = negate ? ~a->w[i] : a->w[i];
        uint64_t s = r->w[i] + x;
        uint64_t c1 = s < x;
        r->w[i] = s + carry;
        carry = c1 | (r->w[i] < s);
    }
}

static void ref_half(ref320 *a)
{
    int i;
    for (i = 0; i < 4; i++)
        a->w[i] = (a->w[i] >> 1) | (a->w[i + 1] << 63);
    a->w[4] = (a->w[4] >> 1) | (a->w[4] & ((uint64_t)1 << 63));
}

static int ref_zero(const ref320 *a)
{
    return (a->w[0] | a->w[1] | a->w[2] | a->w[3] | a->w[4]) == 0;
}

/* One divstep; delta2 = 2*delta. */
static void ref_divstep(int *delta2, ref320 *f, ref320 *g)
{
    if (*delta2 > 0 && (g->w[0] & 1)) {
        ref320 old_g = *g;
        *delta2 = 2 - *delta2;
        ref_add(g, f, 1); /* g - f */
        *f = old_g;
    } else if (g->w[0] & 1) {
        *delta2 = 2 + *delta2;
        ref_add(g, f, 0);
    } else {
        *delta2 = 2 + *delta2;
    }
    ref_half(g);
}

static uint64_t ref_bits(const ref320 *a, int pos)
{
    int w = pos / 64, b = pos % 64;
    uint64_t x = a->w[w] >> b;
    if (b && w < 4)
        x |= a->w[w + 1] << (64 - b);
    return x;
}

static int ref_equal_s62(const ref320 *a, const p256_modinv_signed62 *s)
{
    int i;
    for (i = 0; i < 4; i++)
        if ((int64_t)(ref_bits(a, 62 * i) & (UINT64_MAX >> 2)) != s->v[i])
            return 0;
    return (int64_t)ref_bits(a, 248) == s->v[4];
}

/* Returns the number of divsteps the reference needed to reach g = 0 (or -1
 * if the states diverged). */
static int trace(const struct mod *md, const uint64_t a[4], int half)
{
    p256_modinv_signed62 f = md->m->modulus, g;
    p256_modinv_trans2x2 t;
    ref320 rf, rg;
    uint64_t zeta = P256_MODINV_ZETA0; /* the library's initial states */
    int64_t eta = P256_MODINV_ETA0;
    int delta2 = half ? 1 : 2, steps = 0, needed = -1, batch, i;
    const int per = half ? P256_MODINV_CT_BATCH : 62;
    uint64_t ar[4];
    reduce_ref(ar, a, md->m64);
    memset(&rf, 0, sizeof rf);
    memset(&rg, 0, sizeof rg);
    memcpy(rf.w, md->m64, 4 * sizeof(uint64_t));
    memcpy(rg.w, ar, 4 * sizeof(uint64_t));
    p256_modinv_from_u64(&g, ar);
    if (ref_zero(&rg))
        needed = 0;
    for (batch = 0; batch < 13; batch++) {
        if (half)
            zeta = p256_modinv_hddivsteps_54(zeta, p256_modinv_low64(&f), p256_modinv_low64(&g), &t);
        else
            eta = p256_modinv_divsteps_62_vartime(eta, (uint64_t)f.v[0], (uint64_t)g.v[0], &t);
        p256_modinv_update_fg(&f, &g, &t);
        for (i = 0; i < per; i++) {
            ref_divstep(&delta2, &rf, &rg);
            steps++;
            if (needed < 0 && ref_zero(&rg))
                needed = steps;
        }
        if (!ref_equal_s62(&rf, &f) || !ref_equal_s62(&rg, &g))
            return -1;
        /* zeta = -(delta + 1/2) = -(delta2 + 1)/2, eta = -delta. */
        if (half ? (int64_t)zeta != -(delta2 + 1) / 2 : eta != -delta2 / 2)
            return -1;
    }
    return needed;
}

static void test_trace(void)
{
    size_t i;
    int k, n;
    uint64_t state = 42;
    for (i = 0; i < sizeof MODINV_KAT / sizeof MODINV_KAT[0]; i++) {
        const modinv_kat *kat = &MODINV_KAT[i];
        int hd = trace(&MODS[kat->which], kat->a, 1), plain = trace(&MODS[kat->which], kat->a, 0);
        CHECK(hd == kat->hd && plain == kat->plain, "trace of %s mod %s: hd %d (want %d), plain %d (want %d)",
              kat->label, MODS[kat->which].name, hd, kat->hd, plain, kat->plain);
    }
    for (k = 0; k < 2; k++) {
        for (n = 0; n < 300; n++) {
            uint64_t a[4];
            int j;
            for (j = 0; j < 4; j++)
                a[j] = splitmix64(&state);
            CHECK(trace(&MODS[k], a, 1) > 0 && trace(&MODS[k], a, 0) > 0, "trace of random mod %s", MODS[k].name);
        }
    }
}

static void test_random(long count)
{
    uint64_t state = 0x1234567890abcdefULL;
    int k, i;
    long n;
    for (k = 0; k < 2; k++) {
        const struct mod *md = &MODS[k];
        for (n = 0; n < count; n++) {
            uint64_t a[4];
            for (i = 0; i < 4; i++)
                a[i] = splitmix64(&state);
            check_inverse(md, a, NULL, "random");
        }
        /* Values made of runs of equal bits of random lengths. */
        for (n = 0; n < count / 5; n++) {
            uint64_t a[4] = {0, 0, 0, 0}, rnd = splitmix64(&state);
            int pos = 0, bit = (int)(rnd & 1);
            while (pos < 256) {
                int len = 1 + (int)(splitmix64(&state) % 48), b;
                for (b = pos; b < pos + len && b < 256; b++)
                    if (bit)
                        a[b / 64] |= (uint64_t)1 << (b % 64);
                pos += len;
                bit ^= 1;
            }
            check_inverse(md, a, NULL, "runs");
        }
    }
}

int main(void)
{
    printf("test_modinv:\n");
    test_constants();
    test_kat();
    test_edges();
    test_trace();
    test_random(harness_iters(100000));
    printf("  %ld checks, %ld failures\n", checks, failures);
    printf("test_modinv: %s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
