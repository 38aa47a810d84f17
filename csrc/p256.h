/* SPDX-License-Identifier: Apache-2.0 */
/*
 * p256.h: the byte-level API of the P-256 core, used by the Python binding
 * (csrc/module.c, csrc/py_*.c) and by the C harnesses under tests/c.
 *
 * Integers are 32-byte big-endian strings; points are SEC1 (65-byte uncompressed
 * output; 65- or 33-byte input, always fully validated). Functions return 1 on success
 * and 0 on failure and never leave a partial result that could be mistaken for one.
 * Secrets are wiped from the core's stack before it returns.
 */
#ifndef P256_H
#define P256_H

#include <stddef.h>
#include <stdint.h>

/*
 * Hash ids, for p256_digest and for p256_sign's nonce: P256_NONCE_HEDGED, or plain
 * RFC 6979 with HMAC over one of these hashes (the values are hash.h's p256_hash_id;
 * p256.c checks they agree).
 */
#define P256_NONCE_HEDGED (-1)
#define P256_NONCE_SHA224 0
#define P256_NONCE_SHA256 1
#define P256_NONCE_SHA384 2
#define P256_NONCE_SHA512 3
#define P256_NONCE_SHA3_256 4
#define P256_NONCE_SHA3_384 5
#define P256_NONCE_SHA3_512 6

/* The largest digest p256_digest writes (SHA-512, SHA3-512), in bytes. */
#define P256_DIGEST_MAX 64

/*
 * Variants. A single-unit build (the C harnesses, which #include p256.c) gets these
 * functions as plain external functions. The extension compiles p256.c once per field
 * backend (portable, x86_64-adx, ...) with -DP256_VARIANT=<table name>: then every
 * function below is static to that variant's object and reachable only through the
 * variant's p256_api table (end of this file), and csrc/backend.c defines the external
 * p256_* functions that the binding calls, forwarding to the table chosen at import. A new
 * API function is declared here with P256_API, once; `python3 tools/gen_api_list.py >
 * csrc/api_list.h` then adds it to the list the tables are made from.
 */
#if defined(P256_VARIANT)
#define P256_API static
#else
#define P256_API
#endif

/*
 * A validated public key in the core's internal form: the affine point (x, y), each
 * coordinate four 64-bit limbs in the Montgomery domain, fully reduced (field.h). Every
 * variant of the core (every field backend) uses this representation, so a p256_pubkey
 * that one variant wrote is read correctly by any other (tests/c/test_pubkey.c checks it
 * across the variants a host builds); equal keys have equal bytes. Opaque: made only by
 * p256_pubkey_load, _derive, _mult and _recover, so it always holds a point of the
 * group (never infinity).
 */
typedef struct {
    uint64_t opaque[8];
} p256_pubkey;

/*
 * Why p256_pubkey_load refuses a SEC1 input (P256_POINT_OK: it does not): the first rule
 * that fails, in this order. The Python layer turns each into its message.
 */
#define P256_POINT_OK 0
#define P256_POINT_INFINITY 1          /* the single byte 00: the point at infinity */
#define P256_POINT_HYBRID 2            /* 65 bytes with prefix 06/07 (hybrid: refused) */
#define P256_POINT_X_RANGE 3           /* 04||X||Y with X >= p */
#define P256_POINT_Y_RANGE 4           /* 04||X||Y with Y >= p */
#define P256_POINT_NOT_ON_CURVE 5      /* 04||X||Y not on the curve */
#define P256_POINT_COMPRESSED_RANGE 6  /* 02/03||X with X >= p */
#define P256_POINT_NO_POINT 7          /* 02/03||X: no curve point has this X */
#define P256_POINT_ENCODING 8          /* any other length or prefix */

/*
 * Why p256_sig_parse refuses a signature (P256_SIG_OK: it does not). The DER reasons
 * (P256_SIG_DER_*) say the bytes are not a strict DER SEQUENCE { INTEGER, INTEGER }; the
 * others that the signature is well formed but cannot be valid.
 */
#define P256_SIG_OK 0
#define P256_SIG_RAW_LENGTH 1       /* raw r||s that is not 64 bytes */
#define P256_SIG_DER_EMPTY 2        /* no data */
#define P256_SIG_DER_NOT_SEQUENCE 3 /* it does not start with a SEQUENCE */
#define P256_SIG_DER_LENGTH 4       /* a length that is not DER (indefinite, not minimal,
                                     * cut short) */
#define P256_SIG_DER_OVERRUN 5      /* an element runs past the end of the data */
#define P256_SIG_DER_TRAILING 6     /* data after the SEQUENCE */
#define P256_SIG_DER_NOT_INTEGER 7  /* r or s missing, or not an INTEGER */
#define P256_SIG_DER_INTEGER 8      /* an empty or non-minimal INTEGER */
#define P256_SIG_DER_EXTRA 9        /* an element after s inside the SEQUENCE */
#define P256_SIG_R_RANGE 10         /* r not in [1, n-1] */
#define P256_SIG_S_RANGE 11         /* s not in [1, n-1] */

/* Why p256_pubkey_recover finds no key (P256_RECOVER_OK: it found one). */
#define P256_RECOVER_OK 0
#define P256_RECOVER_R_PLUS_N 1   /* recovery id 2 or 3, and r + n >= p */
#define P256_RECOVER_NO_POINT 2   /* no curve point has the x the id names */
#define P256_RECOVER_INFINITY 3   /* the key would be the point at infinity */
#define P256_RECOVER_UNVERIFIED 4 /* the key does not verify the signature */
#define P256_RECOVER_RANGE 5      /* r or s outside [1, n-1], or the id outside 0..3 */

/* Name of the field backend this build of the core uses ("portable", "x86_64-adx", ...). */
P256_API const char *p256_backend_name(void);

/* 1 if 1 <= d < n. Constant time in d. */
P256_API int p256_seckey_verify(const uint8_t d[32]);
/* d uniform in [1, n-1] from the OS CSPRNG by rejection sampling; 0 if the OS RNG fails. */
P256_API int p256_seckey_generate(uint8_t d[32]);
/* pub = d*G, uncompressed; 0 if d is not a valid secret key. */
P256_API int p256_pubkey_create(uint8_t pub[65], const uint8_t d[32]);
/* Validates a SEC1 point (see group.h) and writes it uncompressed. */
P256_API int p256_pubkey_parse(uint8_t pub[65], const uint8_t *in, size_t len);

/*
 * The key object. load validates SEC1 (65-byte 04||X||Y or 33-byte 02/03||X) into *pk:
 * P256_POINT_OK, or the reason (then *pk is unusable). serialize writes 65 bytes
 * uncompressed, or 33 compressed when `compressed` is nonzero, and returns the length.
 * derive sets *pk = d*G (0 if d is not a valid secret key; constant time in d). equal
 * is 1 for the same point. verify, ecdh and mult are p256_verify, p256_ecdh and
 * p256_mult on a loaded key (no decoding); mult writes k*Q as a key (0 for k = 0 mod n).
 */
P256_API int p256_pubkey_load(p256_pubkey *pk, const uint8_t *in, size_t len);
P256_API size_t p256_pubkey_serialize(uint8_t out[65], const p256_pubkey *pk, int compressed);
P256_API int p256_pubkey_derive(p256_pubkey *pk, const uint8_t d[32]);
P256_API int p256_pubkey_equal(const p256_pubkey *a, const p256_pubkey *b);
P256_API int p256_pubkey_verify(const p256_pubkey *pk, const uint8_t rs[64],
                                const uint8_t *digest, size_t digest_len);
P256_API int p256_pubkey_ecdh(uint8_t out[32], const uint8_t d[32], const p256_pubkey *pk);
P256_API int p256_pubkey_mult(p256_pubkey *out, const uint8_t k[32], const p256_pubkey *pk);
/*
 * Public-key recovery (SEC 1 v2 4.1.6) from r||s, the digest and the recovery id 0..3:
 * P256_RECOVER_OK with *pk set (a key under which the signature verifies), or the reason
 * there is none. Variable time (public data).
 */
P256_API int p256_pubkey_recover(p256_pubkey *pk, const uint8_t rs[64], const uint8_t *digest,
                                 size_t digest_len, int recid);

/*
 * ECDSA signature r||s of a digest (leftmost 256 bits used). nonce: P256_NONCE_HEDGED
 * mixes 32 fresh OS random bytes into RFC 6979's DRBG (HMAC-SHA-256); a hash id gives
 * plain RFC 6979 with HMAC over that hash. 0 if d is invalid or the OS RNG fails.
 */
P256_API int p256_sign(uint8_t rs[64], const uint8_t d[32], const uint8_t *digest, size_t digest_len,
              int nonce);
/*
 * p256_sign, also writing the recovery id (0..3, of the signature returned) to *recid
 * when recid is not NULL, and, when low_s is nonzero, the signature with s <= n/2 (s
 * replaced by n - s, the recovery id's parity bit flipped with it: -R has the other y).
 */
P256_API int p256_sign_recoverable(uint8_t rs[64], int *recid, const uint8_t d[32],
                                   const uint8_t *digest, size_t digest_len, int nonce,
                                   int low_s);
/* 1 if r||s is a valid signature of digest under the SEC1 public key pub. */
P256_API int p256_verify(const uint8_t *pub, size_t pub_len, const uint8_t rs[64], const uint8_t *digest,
                size_t digest_len);
/* Strict DER <-> r||s. encode returns the DER length (<= 72). */
P256_API int p256_sig_from_der(uint8_t rs[64], const uint8_t *der, size_t len);
/*
 * A signature, strict DER or (raw nonzero) exactly 64 bytes r||s, into r||s with r and s
 * in [1, n-1]: P256_SIG_OK, or the first reason it is refused (P256_SIG_*).
 */
P256_API int p256_sig_parse(uint8_t rs[64], const uint8_t *sig, size_t len, int raw);
/* 1 if s <= n/2 (the low-s form, BIP 62/146 and EIP-2's rule), for a parsed r||s. */
P256_API int p256_sig_is_low_s(const uint8_t rs[64]);
P256_API size_t p256_sig_to_der(uint8_t der[72], const uint8_t rs[64]);

/* ECDH: the x coordinate of d*Q (SEC 1 3.3.1, RFC 5903); 0 on invalid d or Q. */
P256_API int p256_ecdh(uint8_t out[32], const uint8_t d[32], const uint8_t *pub, size_t pub_len);

/* k*G and k*Q for any 32-byte k, reduced mod n; 0 if k = 0 mod n (infinity) or Q invalid. */
P256_API int p256_mult_base(uint8_t out[65], const uint8_t k[32]);
P256_API int p256_mult(uint8_t out[65], const uint8_t k[32], const uint8_t *pub, size_t pub_len);

/*
 * out = H(msg[0..len)) for H = hash (a P256_NONCE_SHA* id); msg may be NULL when len is
 * 0. Returns the digest size (28..P256_DIGEST_MAX), or 0 without writing out for an
 * unknown id. Constant time in the message bytes.
 */
P256_API size_t p256_digest(int hash, const uint8_t *msg, size_t len, uint8_t out[P256_DIGEST_MAX]);

/*
 * Per-key tables, for a public key that is verified against or agreed with again and
 * again (built and verified with in variable time: public data). A table of `bits`-bit
 * windows (4 to 8, the default P256_PUBTABLE_BITS) takes p256_pubtable_size(bits) bytes
 * (0: bits out of range), ~151 KB for 7; memory aligned as malloc's, owned by the caller.
 * build fills it from a SEC1 key (0 if pub is invalid, bits out of range or table_len too
 * small; the table is then unusable). verify_pubtable gives exactly p256_verify's
 * verdict for the key the table was built from, and 0 for memory that is not a completed
 * table's header.
 */
#define P256_PUBTABLE_BITS 7
P256_API size_t p256_pubtable_size(int bits);
P256_API int p256_pubtable_build_vartime(void *table, size_t table_len, int bits,
                                         const uint8_t *pub, size_t pub_len);
P256_API int p256_verify_pubtable_vartime(const void *table, const uint8_t rs[64],
                                          const uint8_t *digest, size_t digest_len);
/* build for a loaded key: 0 if bits is out of range or table_len too small. */
P256_API int p256_pubtable_build_pubkey_vartime(void *table, size_t table_len, int bits,
                                                const p256_pubkey *pk);
/*
 * ECDH with the peer's table: out = x(d*Q) for the key Q the table was built from, byte
 * for byte p256_ecdh's, by the comb over the table (no doublings; a reused peer key).
 * 0 if d is invalid or table is not a completed table's header. Constant time in d (the
 * table is public: every lookup scans a whole row).
 */
P256_API int p256_ecdh_pubtable(uint8_t out[32], const uint8_t d[32], const void *table);

/*
 * AES-CBC without padding (FIPS 197, SP 800-38A 6.2), for password-encrypted keys: out =
 * CBC encryption or decryption of in[0..len) under key (key_len 16, 24 or 32 bytes) and
 * iv. len must be a multiple of 16; out may equal in. impl: P256_AES_AUTO (AES-NI where
 * the CPU has it, else the portable code), P256_AES_PORTABLE or P256_AES_NI (aes.h).
 * Returns 1, or 0 with out untouched for a bad length, key length or impl, or AES-NI
 * asked for where the CPU lacks it. Constant time in key, iv and data.
 */
#define P256_AES_AUTO 0
#define P256_AES_PORTABLE 1
#define P256_AES_NI 2
P256_API int p256_aes_cbc_encrypt(uint8_t *out, const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], const uint8_t *in, size_t len, int impl);
P256_API int p256_aes_cbc_decrypt(uint8_t *out, const uint8_t *key, size_t key_len,
                                  const uint8_t iv[16], const uint8_t *in, size_t len, int impl);
/* "aes-ni" or "portable": the implementation P256_AES_AUTO uses on this CPU. */
P256_API const char *p256_aes_impl(void);

/*
 * The batch engines, for many signatures (and many secret-key operations) at once:
 * P256_BATCH_AUTO (the AVX-512 IFMA 8-lane engine where the CPU and OS have it, else the
 * scalar loop), P256_BATCH_SCALAR (one item at a time, the core's single calls) or
 * P256_BATCH_IFMA.
 */
#define P256_BATCH_AUTO 0
#define P256_BATCH_SCALAR 1
#define P256_BATCH_IFMA 2
/* "avx512-ifma" or "scalar": the engine P256_BATCH_AUTO uses on this CPU. */
P256_API const char *p256_batch_engine(void);
/*
 * Makes now, once per process, what `engine` builds on its first use (the IFMA engine's
 * tables, ~0.2 ms), so that no later call builds them. A call on an engine whose tables
 * another thread is building waits for them; a process forked meanwhile would wait
 * forever, so a program that may fork while its threads use the engine prepares it
 * first, where no fork can happen (the binding: at import, under the GIL). Returns 1, or
 * 0 for an engine that does not run here.
 */
P256_API int p256_batch_prepare(int engine);

/*
 * A batch as callers hold it (the batch module, csrc/modules/batch, decides the rest):
 * per item the key, loaded (key) or as SEC1 bytes (key NULL: validated here, an invalid
 * one is False), its per-key table or NULL, the signature as it came (strict DER, or
 * r||s when raw), and the message, hashed with `hash` (a P256_NONCE_SHA* id), or for
 * P256_BATCH_PREHASHED the digest itself. results[i] = 1 exactly when
 * p256_verify(key, parsed signature, H(msg)) would be 1, for every i < n, on `engine`
 * (P256_BATCH_*). Returns 1, or 0 with results untouched for an unknown engine or hash,
 * or IFMA asked for where it cannot run. Public data: variable time.
 */
typedef struct {
    const p256_pubkey *key;
    const uint8_t *pub; /* when key is NULL */
    size_t pub_len;
    const void *table;  /* NULL, or a table p256_pubtable_build* made for this key */
    const uint8_t *sig;
    size_t sig_len;
    const uint8_t *msg;
    size_t msg_len;
} p256_batch_item;
#define P256_BATCH_PREHASHED (-2)
P256_API int p256_batch_verify_vartime(uint8_t *results, const p256_batch_item *items, size_t n,
                                       int raw, int hash, int engine);

/*
 * Many secret-key operations at once (the batch module, csrc/modules/batch/secret.h):
 * constant time per item in every secret, the scalar multiplications eight at a time on
 * the AVX-512 IFMA engine where it runs and has constant-time lanes, else item by item.
 * Each item's answer is exactly the single call's; an item that fails (ok[i] = 0, its
 * output zeroed) changes no other. engine: P256_BATCH_* as for verification. Each
 * returns 1, or 0 with nothing written for an unknown engine (sign_many: or nonce), or
 * IFMA asked for where it cannot run. Secrets are wiped from the core's stack before they return.
 *
 * derive_many: out[i] = k[i]*G, as p256_pubkey_derive (reduce 0: ok[i] = 0 unless
 * 1 <= k[i] < n) or as p256_mult_base (reduce nonzero: k[i] taken mod n, ok[i] = 0 for
 * 0 mod n). sign_many: rs + 64 i = p256_sign_recoverable(items[i].d, items[i].digest,
 * nonce, low_s)'s r||s, byte for byte (hedged nonces draw their own randomness per
 * item); ok[i] = 0 for an invalid key or a failed OS RNG. ecdh_many: out + 32 i =
 * p256_pubkey_ecdh(items[i].d, items[i].pk); ok[i] = 0 for an invalid key.
 */
typedef struct {
    const uint8_t *d;      /* the 32-byte secret key */
    const uint8_t *digest; /* the message digest (leftmost 256 bits used) */
    size_t digest_len;
} p256_sign_item;
typedef struct {
    const uint8_t *d;      /* the 32-byte secret key */
    const p256_pubkey *pk; /* the peer's key */
    const void *table;     /* NULL, or the peer's per-key table (p256_pubtable_build*): then
                            * d*Q over it, as p256_ecdh_pubtable (memory that is not a
                            * table's header: pk's way) */
} p256_ecdh_item;
P256_API int p256_pubkey_derive_many(p256_pubkey *out, uint8_t *ok, const uint8_t *const *k,
                                     size_t n, int reduce, int engine);
P256_API int p256_sign_many(uint8_t *rs, uint8_t *ok, const p256_sign_item *items, size_t n,
                            int nonce, int low_s, int engine);
P256_API int p256_ecdh_many(uint8_t *out, uint8_t *ok, const p256_ecdh_item *items, size_t n,
                            int engine);
/* "avx512-ifma" or "scalar": what runs the scalar multiplications of `op` (k*G for keys,
 * base multiples and signatures; k*Q for ECDH) on `engine`; NULL for an unknown op or an
 * engine that does not run here. */
#define P256_BATCH_OP_GEN 0
#define P256_BATCH_OP_ECDH 1
P256_API const char *p256_batch_secret_engine(int op, int engine);

/*
 * The group: points and scalars as values, for protocols built on P-256 (commitments,
 * ElGamal, Schnorr proofs, OPRFs, PAKEs), after Go's crypto/internal/nistec: a point that
 * cannot be invalid, and every operation constant time unless its name ends in _vartime.
 *
 * p256_point: a point of the group in the core's Jacobian coordinates (X, Y, Z) standing
 * for (X/Z^2, Y/Z^3), each four 64-bit limbs in the Montgomery domain, fully reduced; Z =
 * 0 is the identity (the point at infinity). Opaque: made only by the functions below, so
 * it always holds a point of the group. One point has many forms (any nonzero t gives
 * (t^2 X, t^3 Y, t Z)): compare with p256_point_equal, never memcmp. Every variant of the
 * core reads the forms every other writes.
 *
 * Scalars are 32-byte big-endian integers. Those of p256_point_mult* may be any 32 bytes
 * (taken mod n: a multiple of n gives the identity, where p256_mult refuses it); those of
 * the p256_modn_* functions must be below n (p256_modn_check), and so are their results.
 * Every function returns a value (1 where nothing can fail); r may alias any input.
 */
typedef struct {
    uint64_t opaque[12];
} p256_point;

/*
 * load: SEC1 as p256_pubkey_load reads it, or the single byte 00 for the identity:
 * P256_POINT_OK with *p set, or the reason it is refused (*p then unusable). Variable
 * time (an encoding is public). serialize: the identity as the single byte 00 (length 1),
 * else 65 bytes 04||X||Y or, with compressed nonzero, 33 bytes 02/03||X; returns the
 * length. Constant time in p but for whether it is the identity (the length tells).
 */
P256_API int p256_point_load(p256_point *p, const uint8_t *in, size_t len);
P256_API size_t p256_point_serialize(uint8_t out[65], const p256_point *p, int compressed);
/* *p = G (FIPS 186-5), *p = the identity. */
P256_API int p256_point_generator(p256_point *p);
P256_API int p256_point_identity(p256_point *p);
/* 1 if a and b are the same point (whatever their forms), else 0; 1 if p is the identity. */
P256_API int p256_point_equal(const p256_point *a, const p256_point *b);
P256_API int p256_point_is_identity(const p256_point *p);
/* r = a + b by the complete formula (right for equal, opposite and identity operands,
 * with no branch on which), r = 2a, r = -a. */
P256_API int p256_point_add(p256_point *r, const p256_point *a, const p256_point *b);
P256_API int p256_point_double(p256_point *r, const p256_point *a);
P256_API int p256_point_negate(p256_point *r, const p256_point *a);
/*
 * r = k*P for any point P (the identity gives the identity), constant time in k and in P
 * (the point may be secret: a hashed password); r = k*G by the comb of G; and k*P in
 * variable time, for public k and P only.
 */
P256_API int p256_point_mult(p256_point *r, const uint8_t k[32], const p256_point *p);
P256_API int p256_point_mult_base(p256_point *r, const uint8_t k[32]);
P256_API int p256_point_mult_vartime(p256_point *r, const uint8_t k[32], const p256_point *p);
/*
 * Several products k_1 P, k_2 P, ... of one public point P: a table of P built once in
 * variable time (P must be public: a peer's element), then each product constant time in
 * its scalar, under half the time of p256_point_mult, after a build that costs about two
 * thirds of one (the Lim-Lee comb, ecmult_limlee.h). For a protocol that multiplies one
 * public point by several secrets, such as a VOPRF server's evaluation of one blinded
 * element and its proof (RFC 9497 2.2.1). build: 1, or 0 for the identity, which has no
 * table (t is then unusable); table_mult: r = k*P for t's P, k any 32 bytes (mod n).
 */
typedef struct {
    uint64_t opaque[120];
} p256_point_table;
P256_API int p256_point_table_build_vartime(p256_point_table *t, const p256_point *p);
P256_API int p256_point_table_mult(p256_point *r, const uint8_t k[32], const p256_point_table *t);
/*
 * r = k[0]*p[0] + ... + k[n-1]*p[n-1] (n = 0: the identity), each k[i] 32 bytes:
 * multi_mult constant time in every scalar and point (Straus), multi_mult_vartime for
 * public ones only (Straus for a few terms, Pippenger's buckets for many). scratch:
 * memory aligned as malloc's of scratch_len >= p256_point_multi_mult_scratch_size(n)
 * bytes, the caller's (the core allocates nothing); a long sum is worked in chunks, so the
 * size stays bounded whatever n (about 100 KB constant time, 1.5 MB variable time at
 * most). Return 1, or 0 with r untouched when scratch_len is too small.
 */
P256_API size_t p256_point_multi_mult_scratch_size(size_t n);
P256_API int p256_point_multi_mult(p256_point *r, const uint8_t *const *k, const p256_point *const *p,
                                   size_t n, void *scratch, size_t scratch_len);
P256_API int p256_point_multi_mult_vartime(p256_point *r, const uint8_t *const *k,
                                           const p256_point *const *p, size_t n, void *scratch,
                                           size_t scratch_len);
/* Between the key object and a point: *p = pk's point; *pk = p's affine form, unless p is
 * the identity (0). Constant time in p but for that verdict. */
P256_API int p256_point_from_pubkey(p256_point *p, const p256_pubkey *pk);
P256_API int p256_point_to_pubkey(p256_pubkey *pk, const p256_point *p);
/*
 * RFC 9380's map for the suites P256_XMD:SHA-256_SSWU_NU_ and _RO_ from hash_to_field's
 * uniform bytes (expand_message_xmd's output, the caller's): 48 bytes are one field
 * element (the big-endian integer mod p), mapped by the simplified SWU map
 * (encode_to_curve); 96 bytes are two, each mapped, the images added (hash_to_curve; the
 * cofactor is 1). Constant time in the bytes. Returns 1, or 0 (r untouched) for another
 * length.
 */
P256_API int p256_point_map_to_curve(p256_point *r, const uint8_t *uniform, size_t len);

/*
 * Scalars mod n, 32 bytes big-endian, every input below n (results are too). check: 1 if
 * a < n (0 allowed). reduce: r = in[0..len) mod n, a big-endian integer of any length
 * (hash_to_field over n reads 48 bytes). add, sub, mul, neg: mod n. inv: r = a^-1, or 0
 * (r = 0) for a = 0. equal: 1 if a == b; is_zero: 1 if a == 0. All constant time in the
 * values (inv's verdict excepted: zero has no inverse, which its caller learns anyway).
 */
P256_API int p256_modn_check(const uint8_t a[32]);
P256_API int p256_modn_reduce(uint8_t r[32], const uint8_t *in, size_t len);
P256_API int p256_modn_add(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);
P256_API int p256_modn_sub(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);
P256_API int p256_modn_mul(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);
P256_API int p256_modn_neg(uint8_t r[32], const uint8_t a[32]);
P256_API int p256_modn_inv(uint8_t r[32], const uint8_t a[32]);
P256_API int p256_modn_equal(const uint8_t a[32], const uint8_t b[32]);
P256_API int p256_modn_is_zero(const uint8_t a[32]);

/* Wipes n bytes at p (secrets the caller held) in a way the compiler may not drop;
 * returns p, as memset does (and so that every API function returns a value). */
P256_API void *p256_wipe(void *p, size_t n);

/*
 * The API as data, X(return type, name without p256_, (parameters), (arguments)), for the
 * variant tables, their type and backend.c's forwarding functions: generated from the
 * declarations above by tools/gen_api_list.py (tests/test_generated.py checks it is fresh).
 */
#include "api_list.h"

/* One variant of the core: a pointer per API function, in list order. */
#define P256_API_MEMBER(ret, name, params, args) ret(*name) params;
typedef struct {
    P256_API_LIST(P256_API_MEMBER)
} p256_api;
#undef P256_API_MEMBER

#endif /* P256_H */
