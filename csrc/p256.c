/* SPDX-License-Identifier: Apache-2.0 */
/*
 * p256.c: the core as one translation unit. Every layer is a header of static
 * functions (the libsecp256k1 layout), so the compiler sees, inlines and schedules
 * across all of them; this file adds the byte-level API of p256.h. Guarded, so that
 * one test binary can include it once for several harnesses (tests/c/run_core.c).
 */
#ifndef P256_C
#define P256_C
/* getrandom(2) via syscall(2) needs the GNU/default feature set under -std=c99. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "p256.h"

#include "field_impl.h"
#include "scalar_impl.h"
#include "group_impl.h"
#include "ecmult_impl.h"
#include "map_to_curve_impl.h"
#include "ecdsa_impl.h"
#include "random_impl.h"
#include "aes_impl.h"
#include "cpu_aarch64.h" /* PSTATE.DIT around secret work: p256_dit_on/restore */

/* p256.h's nonce ids are hash.h's ids (C99 has no static_assert: a negative array size). */
typedef char p256_nonce_ids_agree[(P256_NONCE_SHA224 == P256_HASH_SHA224 &&
                                   P256_NONCE_SHA256 == P256_HASH_SHA256 &&
                                   P256_NONCE_SHA384 == P256_HASH_SHA384 &&
                                   P256_NONCE_SHA512 == P256_HASH_SHA512 &&
                                   P256_NONCE_SHA3_256 == P256_HASH_SHA3_256 &&
                                   P256_NONCE_SHA3_384 == P256_HASH_SHA3_384 &&
                                   P256_NONCE_SHA3_512 == P256_HASH_SHA3_512) ? 1 : -1];
typedef char p256_digest_max_agrees[P256_DIGEST_MAX == P256_HASH_MAX_SIZE ? 1 : -1];
/* The reasons of p256.h are the layers' (group.h, ecdsa.h); the key is an affine point. */
typedef char p256_point_reasons_agree[(P256_POINT_OK == P256_SEC1_OK &&
                                       P256_POINT_INFINITY == P256_SEC1_INFINITY &&
                                       P256_POINT_HYBRID == P256_SEC1_HYBRID &&
                                       P256_POINT_X_RANGE == P256_SEC1_X_RANGE &&
                                       P256_POINT_Y_RANGE == P256_SEC1_Y_RANGE &&
                                       P256_POINT_NOT_ON_CURVE == P256_SEC1_NOT_ON_CURVE &&
                                       P256_POINT_COMPRESSED_RANGE == P256_SEC1_COMPRESSED_RANGE &&
                                       P256_POINT_NO_POINT == P256_SEC1_NO_POINT &&
                                       P256_POINT_ENCODING == P256_SEC1_ENCODING) ? 1 : -1];
typedef char p256_sig_reasons_agree[(P256_SIG_OK == P256_SIGDER_OK &&
                                     P256_SIG_RAW_LENGTH == P256_SIGDER_RAW_LENGTH &&
                                     P256_SIG_DER_EMPTY == P256_SIGDER_EMPTY &&
                                     P256_SIG_DER_NOT_SEQUENCE == P256_SIGDER_NOT_SEQUENCE &&
                                     P256_SIG_DER_LENGTH == P256_SIGDER_LENGTH &&
                                     P256_SIG_DER_OVERRUN == P256_SIGDER_OVERRUN &&
                                     P256_SIG_DER_TRAILING == P256_SIGDER_TRAILING &&
                                     P256_SIG_DER_NOT_INTEGER == P256_SIGDER_NOT_INTEGER &&
                                     P256_SIG_DER_INTEGER == P256_SIGDER_INTEGER &&
                                     P256_SIG_DER_EXTRA == P256_SIGDER_EXTRA &&
                                     P256_SIG_R_RANGE == P256_SIGDER_R_RANGE &&
                                     P256_SIG_S_RANGE == P256_SIGDER_S_RANGE) ? 1 : -1];
typedef char p256_pubkey_is_an_affine_point[sizeof(p256_pubkey) == sizeof(p256_aff) ? 1 : -1];
typedef char p256_point_is_a_jacobian_point[sizeof(p256_point) == sizeof(p256_jac) ? 1 : -1];

const char *p256_backend_name(void)
{
#if defined(P256_ASM_X86_64_ADX)
    return "x86_64-adx";
#elif defined(P256_ASM_AARCH64)
    return "aarch64-asm";
#else
    return "portable";
#endif
}

/* Loads d and checks 1 <= d < n; the verdict is public (the caller learns it anyway). */
static int p256_load_seckey(p256_scalar *d, const uint8_t d32[32])
{
    uint64_t ok = p256_scalar_set_bytes_checked(d, d32) & ~p256_scalar_mask_is_zero(d);
    P256_DECLASSIFY(&ok, sizeof ok);
    return ok != 0;
}

int p256_seckey_verify(const uint8_t d32[32])
{
    const int dit = p256_dit_on();
    p256_scalar d;
    int ok = p256_load_seckey(&d, d32);
    p256_memzero(&d, sizeof d);
    p256_dit_restore(dit);
    return ok;
}

int p256_seckey_generate(uint8_t d32[32])
{
    const int dit = p256_dit_on();
    int ok = 0;
    /* Each draw is accepted with probability > 1 - 2^-32; 64 failures means a broken RNG. */
    for (int tries = 0; tries < 64 && !ok; tries++) {
        if (!p256_random_bytes(d32, 32))
            break;
        P256_SECRET(d32, 32);
        ok = p256_seckey_verify(d32);
    }
    if (!ok)
        p256_memzero(d32, 32);
    p256_dit_restore(dit);
    return ok;
}

/* out = encode(to_affine(p)) unless p is infinity; the verdict is public. */
static int p256_output_point(uint8_t out[65], const p256_jac *p)
{
    p256_aff a;
    uint64_t inf = p256_jac_to_aff(&a, p);
    P256_DECLASSIFY(&inf, sizeof inf);
    if (inf)
        return 0;
    p256_aff_encode(out, &a);
    P256_DECLASSIFY(out, 65);
    return 1;
}

/* The byte forms of the key functions below: load, compute, serialize. */
int p256_pubkey_create(uint8_t pub[65], const uint8_t d32[32])
{
    /* DIT over the encoding too: one region per entry point (tests/c/arm64_dit.c) */
    const int dit = p256_dit_on();
    p256_pubkey pk;
    int ok = p256_pubkey_derive(&pk, d32) && p256_pubkey_serialize(pub, &pk, 0);
    p256_dit_restore(dit);
    return ok;
}

int p256_pubkey_parse(uint8_t pub[65], const uint8_t *in, size_t len)
{
    p256_pubkey pk;
    return p256_pubkey_load(&pk, in, len) == P256_POINT_OK && p256_pubkey_serialize(pub, &pk, 0);
}

/* n/2 (n is odd: the largest s of a low-s signature), big endian. */
static const uint8_t p256_half_n[32] = {
    0x7f, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xde, 0x73, 0x7d, 0x56, 0xd3, 0x8b, 0xcf, 0x42, 0x79, 0xdc, 0xe5, 0x61, 0x7e, 0x31, 0x92, 0xa8};

int p256_sig_is_low_s(const uint8_t rs[64])
{
    return memcmp(rs + 32, p256_half_n, 32) <= 0; /* public: variable time */
}

int p256_sign_recoverable(uint8_t rs[64], int *recid, const uint8_t d32[32],
                          const uint8_t *digest, size_t digest_len, int nonce, int low_s)
{
    const int dit = p256_dit_on();
    p256_scalar d;
    uint8_t extra[32];
    int id = 0;
    int ok = p256_load_seckey(&d, d32);
    if (ok && nonce == P256_NONCE_HEDGED) {
        ok = p256_random_bytes(extra, sizeof extra);
        P256_SECRET(extra, sizeof extra);
        if (ok)
            ok = p256_ecdsa_sign_recoverable(rs, &id, &d, digest, digest_len, P256_HASH_SHA256,
                                             extra);
    } else if (ok && nonce >= P256_NONCE_SHA224 && nonce <= P256_NONCE_SHA3_512) {
        ok = p256_ecdsa_sign_recoverable(rs, &id, &d, digest, digest_len, (p256_hash_id)nonce,
                                         NULL);
    } else {
        ok = 0;
    }
    /* s is public now: s > n/2 becomes n - s, which signs with -R (the other y parity). */
    if (ok && low_s && !p256_sig_is_low_s(rs)) {
        p256_scalar s;
        (void)p256_scalar_set_bytes_checked(&s, rs + 32);
        p256_scalar_negate(&s, &s);
        p256_scalar_to_bytes(rs + 32, &s);
        id ^= 1;
    }
    if (ok && recid != NULL)
        *recid = id;
    p256_memzero(&d, sizeof d);
    p256_memzero(extra, sizeof extra);
    p256_dit_restore(dit);
    return ok;
}

int p256_sign(uint8_t rs[64], const uint8_t d32[32], const uint8_t *digest, size_t digest_len,
              int nonce)
{
    return p256_sign_recoverable(rs, NULL, d32, digest, digest_len, nonce, 0);
}

int p256_verify(const uint8_t *pub, size_t pub_len, const uint8_t rs[64], const uint8_t *digest,
                size_t digest_len)
{
    return p256_ecdsa_verify_sec1_vartime(pub, pub_len, rs, digest, digest_len);
}

int p256_sig_parse(uint8_t rs[64], const uint8_t *sig, size_t len, int raw)
{
    return p256_sig_parse_any(rs, sig, len, raw);
}

/* -- the key object (p256_pubkey: a p256_aff, p256.h) ---------------------------------- */

static const p256_aff *p256_pubkey_point(const p256_pubkey *pk)
{
    return (const p256_aff *)(const void *)pk;
}

int p256_pubkey_load(p256_pubkey *pk, const uint8_t *in, size_t len)
{
    p256_aff a;
    int st = p256_aff_decode_status_vartime(&a, in, len);
    if (st == P256_SEC1_OK)
        memcpy(pk, &a, sizeof a);
    return st;
}

size_t p256_pubkey_serialize(uint8_t out[65], const p256_pubkey *pk, int compressed)
{
    const p256_aff *a = p256_pubkey_point(pk);
    if (!compressed) {
        p256_aff_encode(out, a);
        return 65;
    }
    {
        uint8_t y[32];
        p256_fe_to_bytes(y, &a->y);
        out[0] = (uint8_t)(0x02 | (y[31] & 1));
        p256_fe_to_bytes(out + 1, &a->x);
    }
    return 33;
}

/* *pk = the affine form of p unless p is infinity; the verdict is public. */
static int p256_output_pubkey(p256_pubkey *pk, const p256_jac *p)
{
    p256_aff a;
    uint64_t inf = p256_jac_to_aff(&a, p);
    P256_DECLASSIFY(&inf, sizeof inf);
    if (inf)
        return 0;
    P256_DECLASSIFY(&a, sizeof a);
    memcpy(pk, &a, sizeof a);
    return 1;
}

int p256_pubkey_derive(p256_pubkey *pk, const uint8_t d32[32])
{
    const int dit = p256_dit_on();
    p256_scalar d;
    p256_jac q;
    int ok = p256_load_seckey(&d, d32);
    if (ok) {
        p256_ecmult_gen(&q, &d);
        ok = p256_output_pubkey(pk, &q);
    }
    p256_memzero(&d, sizeof d);
    p256_memzero(&q, sizeof q);
    p256_dit_restore(dit);
    return ok;
}

int p256_pubkey_equal(const p256_pubkey *a, const p256_pubkey *b)
{
    /* One representation per element (field.h): equal points have equal limbs. */
    return memcmp(a, b, sizeof *a) == 0;
}

int p256_pubkey_verify(const p256_pubkey *pk, const uint8_t rs[64], const uint8_t *digest,
                       size_t digest_len)
{
    return p256_ecdsa_verify_vartime(p256_pubkey_point(pk), rs, digest, digest_len);
}

size_t p256_pubtable_size(int bits)
{
    return p256_pubtable_size_of(bits);
}

int p256_pubtable_build_vartime(void *table, size_t table_len, int bits, const uint8_t *pub,
                                size_t pub_len)
{
    p256_aff q;
    const size_t need = p256_pubtable_size_of(bits);
    if (table_len >= sizeof(p256_pubtable))
        ((p256_pubtable *)table)->magic = 0; /* whatever follows, not a table until done */
    if (need == 0 || table_len < need || !p256_aff_decode_vartime(&q, pub, pub_len))
        return 0;
    p256_pubtable_build_core_vartime((p256_pubtable *)table, bits, &q);
    return 1;
}

int p256_pubtable_build_pubkey_vartime(void *table, size_t table_len, int bits,
                                       const p256_pubkey *pk)
{
    const size_t need = p256_pubtable_size_of(bits);
    if (table_len >= sizeof(p256_pubtable))
        ((p256_pubtable *)table)->magic = 0; /* whatever follows, not a table until done */
    if (need == 0 || table_len < need)
        return 0;
    p256_pubtable_build_core_vartime((p256_pubtable *)table, bits, p256_pubkey_point(pk));
    return 1;
}

/* table as a completed per-key table, or NULL for memory that is not one's header. */
static const p256_pubtable *p256_pubtable_checked(const void *table)
{
    const p256_pubtable *tab = (const p256_pubtable *)table;
    if (tab->magic != P256_PUBTABLE_MAGIC || p256_pubtable_size_of((int)tab->bits) == 0)
        return NULL;
    return tab;
}

int p256_verify_pubtable_vartime(const void *table, const uint8_t rs[64], const uint8_t *digest,
                                 size_t digest_len)
{
    const p256_pubtable *tab = p256_pubtable_checked(table);
    return tab != NULL && p256_ecdsa_verify_pubtable_vartime(tab, rs, digest, digest_len);
}

int p256_sig_from_der(uint8_t rs[64], const uint8_t *der, size_t len)
{
    return p256_sig_der_decode(rs, der, len);
}

size_t p256_sig_to_der(uint8_t der[72], const uint8_t rs[64])
{
    return p256_sig_der_encode(der, rs);
}

/* out = x(d*Q) for a valid point q, or for the Q of the table tab when tab is not NULL
 * (public: which one is the caller's choice); 0 if d is invalid (or d*Q infinity: cannot
 * be). */
static int p256_ecdh_point(uint8_t out[32], const uint8_t d32[32], const p256_aff *q,
                           const p256_pubtable *tab)
{
    const int dit = p256_dit_on();
    p256_scalar d;
    p256_jac s;
    uint8_t pt[65];
    int ok = p256_load_seckey(&d, d32);
    if (ok) {
        if (tab != NULL)
            p256_ecmult_pubtable(&s, &d, tab);
        else
            p256_ecmult_const(&s, &d, q);
        ok = p256_output_point(pt, &s);
        if (ok)
            memcpy(out, pt + 1, 32);
    }
    p256_memzero(&d, sizeof d);
    p256_memzero(&s, sizeof s);
    p256_memzero(pt, sizeof pt);
    p256_dit_restore(dit);
    return ok;
}

/* The byte forms below hold DIT over the whole call, decoding included: the peer's point is
 * public, but one DIT region per entry point is what tests/c/arm64_dit.c can check. */
int p256_ecdh(uint8_t out[32], const uint8_t d32[32], const uint8_t *pub, size_t pub_len)
{
    const int dit = p256_dit_on();
    p256_aff q;
    int ok = p256_aff_decode_vartime(&q, pub, pub_len) && p256_ecdh_point(out, d32, &q, NULL);
    p256_dit_restore(dit);
    return ok;
}

int p256_pubkey_ecdh(uint8_t out[32], const uint8_t d32[32], const p256_pubkey *pk)
{
    return p256_ecdh_point(out, d32, p256_pubkey_point(pk), NULL);
}

int p256_ecdh_pubtable(uint8_t out[32], const uint8_t d32[32], const void *table)
{
    const p256_pubtable *tab = p256_pubtable_checked(table);
    return tab != NULL && p256_ecdh_point(out, d32, NULL, tab);
}

/* k mod n, and whether it is nonzero (public: a zero k has an infinite, refused result). */
static int p256_load_any_scalar(p256_scalar *k, const uint8_t k32[32])
{
    uint64_t ok;
    p256_scalar_set_bytes_reduce(k, k32);
    ok = ~p256_scalar_mask_is_zero(k);
    P256_DECLASSIFY(&ok, sizeof ok);
    return ok != 0;
}

int p256_mult_base(uint8_t out[65], const uint8_t k32[32])
{
    const int dit = p256_dit_on();
    p256_scalar k;
    p256_jac r;
    int ok = p256_load_any_scalar(&k, k32);
    if (ok) {
        p256_ecmult_gen(&r, &k);
        ok = p256_output_point(out, &r);
    }
    p256_memzero(&k, sizeof k);
    p256_memzero(&r, sizeof r);
    p256_dit_restore(dit);
    return ok;
}

int p256_pubkey_mult(p256_pubkey *out, const uint8_t k32[32], const p256_pubkey *pk)
{
    const int dit = p256_dit_on();
    p256_scalar k;
    p256_jac r;
    int ok = p256_load_any_scalar(&k, k32);
    if (ok) {
        p256_ecmult_const(&r, &k, p256_pubkey_point(pk));
        ok = p256_output_pubkey(out, &r);
    }
    p256_memzero(&k, sizeof k);
    p256_memzero(&r, sizeof r);
    p256_dit_restore(dit);
    return ok;
}

int p256_mult(uint8_t out[65], const uint8_t k32[32], const uint8_t *pub, size_t pub_len)
{
    const int dit = p256_dit_on();
    p256_pubkey q, r;
    int ok = p256_pubkey_load(&q, pub, pub_len) == P256_POINT_OK &&
             p256_pubkey_mult(&r, k32, &q) && p256_pubkey_serialize(out, &r, 0);
    p256_dit_restore(dit);
    return ok;
}

/* Hashing is the hash layer's: compiled once per variant, the binding has no copy. */
size_t p256_digest(int hash, const uint8_t *msg, size_t len, uint8_t out[P256_DIGEST_MAX])
{
    if (hash < P256_NONCE_SHA224 || hash > P256_NONCE_SHA3_512)
        return 0;
    p256_hash((p256_hash_id)hash, msg, len, out);
    return p256_hash_size((p256_hash_id)hash);
}

int p256_aes_cbc_encrypt(uint8_t *out, const uint8_t *key, size_t key_len,
                         const uint8_t iv[16], const uint8_t *in, size_t len, int impl)
{
    return p256_aes_cbc(0, impl, out, key, key_len, iv, in, len);
}

int p256_aes_cbc_decrypt(uint8_t *out, const uint8_t *key, size_t key_len,
                         const uint8_t iv[16], const uint8_t *in, size_t len, int impl)
{
    return p256_aes_cbc(1, impl, out, key, key_len, iv, in, len);
}

const char *p256_aes_impl(void)
{
    return p256_aes_impl_name();
}

void *p256_wipe(void *p, size_t n)
{
    p256_memzero(p, n);
    return p;
}

/* -- the group (p256_point: a p256_jac, p256.h) ---------------------------------------- */

static const p256_jac p256_identity_jac = {{{0x0000000000000001ULL, 0xffffffff00000000ULL,
                                             0xffffffffffffffffULL, 0x00000000fffffffeULL}},
                                           {{0x0000000000000001ULL, 0xffffffff00000000ULL,
                                             0xffffffffffffffffULL, 0x00000000fffffffeULL}},
                                           {{0, 0, 0, 0}}}; /* (1, 1, 0) */

static void p256_point_get(p256_jac *r, const p256_point *p)
{
    memcpy(r, p, sizeof *r);
}

static int p256_point_put(p256_point *p, const p256_jac *a)
{
    memcpy(p, a, sizeof *a);
    return 1;
}

int p256_point_load(p256_point *p, const uint8_t *in, size_t len)
{
    p256_aff a;
    p256_jac j;
    int st = p256_aff_decode_status_vartime(&a, in, len);
    if (st == P256_SEC1_INFINITY) {
        p256_point_identity(p);
        return P256_POINT_OK;
    }
    if (st != P256_SEC1_OK)
        return st;
    p256_jac_from_aff(&j, &a);
    p256_point_put(p, &j);
    return P256_POINT_OK;
}

size_t p256_point_serialize(uint8_t out[65], const p256_point *p, int compressed)
{
    const int dit = p256_dit_on();
    p256_jac j;
    p256_aff a;
    uint64_t inf;
    size_t len;
    p256_point_get(&j, p);
    inf = p256_jac_to_aff(&a, &j);
    P256_DECLASSIFY(&inf, sizeof inf);
    if (inf) {
        out[0] = 0x00;
        len = 1;
    } else if (!compressed) {
        p256_aff_encode(out, &a);
        len = 65;
    } else {
        uint8_t y[32];
        p256_fe_to_bytes(y, &a.y);
        out[0] = (uint8_t)(0x02 | (y[31] & 1));
        p256_fe_to_bytes(out + 1, &a.x);
        p256_memzero(y, sizeof y);
        len = 33;
    }
    p256_memzero(&a, sizeof a);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return len;
}

int p256_point_generator(p256_point *p)
{
    p256_jac j;
    p256_jac_from_aff(&j, &p256_generator);
    return p256_point_put(p, &j);
}

int p256_point_identity(p256_point *p)
{
    return p256_point_put(p, &p256_identity_jac);
}

int p256_point_equal(const p256_point *a, const p256_point *b)
{
    const int dit = p256_dit_on();
    p256_jac ja, jb;
    uint64_t eq;
    p256_point_get(&ja, a);
    p256_point_get(&jb, b);
    eq = p256_jac_mask_eq(&ja, &jb);
    P256_DECLASSIFY(&eq, sizeof eq); /* the verdict is the answer */
    p256_dit_restore(dit);
    return eq != 0;
}

int p256_point_is_identity(const p256_point *p)
{
    p256_jac j;
    uint64_t inf;
    p256_point_get(&j, p);
    inf = p256_fe_mask_is_zero(&j.z);
    P256_DECLASSIFY(&inf, sizeof inf);
    return inf != 0;
}

int p256_point_add(p256_point *r, const p256_point *a, const p256_point *b)
{
    const int dit = p256_dit_on();
    p256_jac ja, jb;
    p256_point_get(&ja, a);
    p256_point_get(&jb, b);
    p256_jac_add(&ja, &ja, &jb);
    p256_point_put(r, &ja);
    p256_dit_restore(dit);
    return 1;
}

int p256_point_double(p256_point *r, const p256_point *a)
{
    const int dit = p256_dit_on();
    p256_jac j;
    p256_point_get(&j, a);
    p256_jac_double(&j, &j);
    p256_point_put(r, &j);
    p256_dit_restore(dit);
    return 1;
}

int p256_point_negate(p256_point *r, const p256_point *a)
{
    const int dit = p256_dit_on();
    p256_jac j;
    p256_point_get(&j, a);
    p256_jac_neg(&j, &j);
    p256_point_put(r, &j);
    p256_dit_restore(dit);
    return 1;
}

int p256_point_mult(p256_point *r, const uint8_t k32[32], const p256_point *p)
{
    const int dit = p256_dit_on();
    p256_scalar k;
    p256_jac j;
    p256_scalar_set_bytes_reduce(&k, k32);
    p256_point_get(&j, p);
    p256_ecmult_const_jac(&j, &k, &j);
    p256_point_put(r, &j);
    p256_memzero(&k, sizeof k);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return 1;
}

int p256_point_mult_base(p256_point *r, const uint8_t k32[32])
{
    const int dit = p256_dit_on();
    p256_scalar k;
    p256_jac j;
    p256_scalar_set_bytes_reduce(&k, k32);
    p256_ecmult_gen(&j, &k);
    p256_point_put(r, &j);
    p256_memzero(&k, sizeof k);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return 1;
}

int p256_point_mult_vartime(p256_point *r, const uint8_t k32[32], const p256_point *p)
{
    p256_scalar k;
    p256_jac j;
    p256_scalar_set_bytes_reduce(&k, k32);
    p256_point_get(&j, p);
    p256_ecmult_one_vartime(&j, &k, &j);
    return p256_point_put(r, &j);
}

typedef char p256_point_table_holds_a_comb[sizeof(p256_point_table) == sizeof(p256_limlee_table) ? 1 : -1];

int p256_point_table_build_vartime(p256_point_table *t, const p256_point *p)
{
    p256_jac j;
    p256_point_get(&j, p);
    if (p256_fe_mask_is_zero(&j.z)) /* the identity: public, as the whole point is */
        return 0;
    p256_limlee_build_vartime((p256_limlee_table *)(void *)t, &j);
    return 1;
}

int p256_point_table_mult(p256_point *r, const uint8_t k32[32], const p256_point_table *t)
{
    const int dit = p256_dit_on();
    p256_scalar k;
    p256_jac j;
    p256_scalar_set_bytes_reduce(&k, k32);
    p256_ecmult_limlee(&j, &k, (const p256_limlee_table *)(const void *)t);
    p256_point_put(r, &j);
    p256_memzero(&k, sizeof k);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return 1;
}

/* Each chunk of the sum: its scalars and points converted into the scratch, then the layer's
 * own room (ecmult_multi.h), for at most `max` terms. */
static size_t p256_multi_chunk_scratch(size_t n, size_t max, int vartime)
{
    const size_t m = n < max ? n : max;
    return m * (sizeof(p256_scalar) + sizeof(p256_jac)) + p256_ecmult_multi_scratch_size(m, vartime);
}

size_t p256_point_multi_mult_scratch_size(size_t n)
{
    const size_t c = p256_multi_chunk_scratch(n, P256_MULTI_CONST_MAX, 0);
    const size_t v = p256_multi_chunk_scratch(n, P256_MULTI_VARTIME_MAX, 1);
    return c > v ? c : v;
}

static int p256_point_multi(p256_point *r, const uint8_t *const *k, const p256_point *const *p,
                            size_t n, void *scratch, size_t scratch_len, int vartime)
{
    const size_t max = vartime ? P256_MULTI_VARTIME_MAX : P256_MULTI_CONST_MAX;
    p256_jac acc = p256_identity_jac, part;
    if (scratch_len < p256_point_multi_mult_scratch_size(n))
        return 0;
    for (size_t at = 0; at < n; at += max) {
        const size_t m = n - at < max ? n - at : max;
        p256_scalar *ks = (p256_scalar *)scratch;
        p256_jac *ps = (p256_jac *)(void *)(ks + m);
        for (size_t i = 0; i < m; i++) {
            p256_scalar_set_bytes_reduce(&ks[i], k[at + i]);
            p256_point_get(&ps[i], p[at + i]);
        }
        if (vartime)
            p256_ecmult_multi_vartime(&part, ks, ps, m, ps + m);
        else
            p256_ecmult_multi(&part, ks, ps, m, ps + m);
        p256_jac_add(&acc, &acc, &part);
        p256_memzero(scratch, m * (sizeof(p256_scalar) + sizeof(p256_jac)));
    }
    p256_point_put(r, &acc);
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&part, sizeof part);
    return 1;
}

int p256_point_multi_mult(p256_point *r, const uint8_t *const *k, const p256_point *const *p,
                          size_t n, void *scratch, size_t scratch_len)
{
    const int dit = p256_dit_on();
    int ok = p256_point_multi(r, k, p, n, scratch, scratch_len, 0);
    p256_dit_restore(dit);
    return ok;
}

int p256_point_multi_mult_vartime(p256_point *r, const uint8_t *const *k, const p256_point *const *p,
                                  size_t n, void *scratch, size_t scratch_len)
{
    return p256_point_multi(r, k, p, n, scratch, scratch_len, 1);
}

int p256_point_from_pubkey(p256_point *p, const p256_pubkey *pk)
{
    p256_jac j;
    p256_jac_from_aff(&j, p256_pubkey_point(pk));
    return p256_point_put(p, &j);
}

int p256_point_to_pubkey(p256_pubkey *pk, const p256_point *p)
{
    const int dit = p256_dit_on();
    p256_jac j;
    int ok;
    p256_point_get(&j, p);
    ok = p256_output_pubkey(pk, &j);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return ok;
}

int p256_point_map_to_curve(p256_point *r, const uint8_t *uniform, size_t len)
{
    const int dit = p256_dit_on();
    p256_jac j;
    int ok = p256_map_uniform(&j, uniform, len);
    if (ok)
        p256_point_put(r, &j);
    p256_memzero(&j, sizeof j);
    p256_dit_restore(dit);
    return ok;
}

/* -- scalars mod n (32 bytes big-endian, below n) ------------------------------------- */

int p256_modn_check(const uint8_t a[32])
{
    p256_scalar s;
    uint64_t ok = p256_scalar_set_bytes_checked(&s, a);
    p256_memzero(&s, sizeof s);
    P256_DECLASSIFY(&ok, sizeof ok); /* the verdict is the answer */
    return ok != 0;
}

int p256_modn_reduce(uint8_t r[32], const uint8_t *in, size_t len)
{
    const int dit = p256_dit_on();
    p256_scalar s;
    p256_scalar_set_bytes_wide(&s, in, len);
    p256_scalar_to_bytes(r, &s);
    p256_memzero(&s, sizeof s);
    p256_dit_restore(dit);
    return 1;
}

/* The binary operations: a and b loaded (below n by the contract), op, r written. */
static int p256_modn_binary(uint8_t r[32], const uint8_t a[32], const uint8_t b[32],
                            void (*op)(p256_scalar *, const p256_scalar *, const p256_scalar *))
{
    const int dit = p256_dit_on();
    p256_scalar x, y;
    (void)p256_scalar_set_bytes_checked(&x, a);
    (void)p256_scalar_set_bytes_checked(&y, b);
    op(&x, &x, &y);
    p256_scalar_to_bytes(r, &x);
    p256_memzero(&x, sizeof x);
    p256_memzero(&y, sizeof y);
    p256_dit_restore(dit);
    return 1;
}

int p256_modn_add(uint8_t r[32], const uint8_t a[32], const uint8_t b[32])
{
    return p256_modn_binary(r, a, b, p256_scalar_add);
}

int p256_modn_sub(uint8_t r[32], const uint8_t a[32], const uint8_t b[32])
{
    return p256_modn_binary(r, a, b, p256_scalar_sub);
}

int p256_modn_mul(uint8_t r[32], const uint8_t a[32], const uint8_t b[32])
{
    return p256_modn_binary(r, a, b, p256_scalar_mul);
}

int p256_modn_neg(uint8_t r[32], const uint8_t a[32])
{
    const int dit = p256_dit_on();
    p256_scalar x;
    (void)p256_scalar_set_bytes_checked(&x, a);
    p256_scalar_negate(&x, &x);
    p256_scalar_to_bytes(r, &x);
    p256_memzero(&x, sizeof x);
    p256_dit_restore(dit);
    return 1;
}

int p256_modn_inv(uint8_t r[32], const uint8_t a[32])
{
    const int dit = p256_dit_on();
    p256_scalar x;
    uint64_t zero;
    (void)p256_scalar_set_bytes_checked(&x, a);
    zero = p256_scalar_mask_is_zero(&x);
    p256_scalar_inv(&x, &x); /* 0 for 0 */
    p256_scalar_to_bytes(r, &x);
    p256_memzero(&x, sizeof x);
    P256_DECLASSIFY(&zero, sizeof zero);
    p256_dit_restore(dit);
    return zero == 0;
}

int p256_modn_equal(const uint8_t a[32], const uint8_t b[32])
{
    uint64_t diff = 0;
    for (int i = 0; i < 32; i++)
        diff |= (uint64_t)(a[i] ^ b[i]);
    diff = p256_mask_is_zero(diff);
    P256_DECLASSIFY(&diff, sizeof diff); /* the verdict is the answer */
    return diff != 0;
}

int p256_modn_is_zero(const uint8_t a[32])
{
    uint64_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= a[i];
    acc = p256_mask_is_zero(acc);
    P256_DECLASSIFY(&acc, sizeof acc);
    return acc != 0;
}

/* The modules of the core, after it (each defines its API functions). */
#include "modules/recovery/main_impl.h"
#include "modules/batch/main_impl.h"

/* In the extension, this variant's table (p256.h, Variants); backend.c picks one. */
#if defined(P256_VARIANT)
#define P256_API_ENTRY(ret, name, params, args) p256_##name,
const p256_api P256_VARIANT = {P256_API_LIST(P256_API_ENTRY)};
#undef P256_API_ENTRY
#endif

#endif /* P256_C */
