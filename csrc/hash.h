/* SPDX-License-Identifier: Apache-2.0 */
/* p256 hashing layer: SHA-2 and SHA-3 (HMAC on them: hmac.h).
 *
 * Contract of csrc/hash_impl.h (the dispatch by id) and of the files of its algorithms
 * (hash_sha256_impl.h, hash_sha512_impl.h, hash_sha3_impl.h). Like the rest of the core, the
 * implementation is a set of `static` functions compiled into one translation unit: include
 * hash_impl.h (or a header that includes it, such as hmac_impl.h or rfc6979_impl.h), after
 * which everything declared here is available.
 *
 * Standards:
 *   SHA-224/256/384/512  FIPS 180-4, "Secure Hash Standard" (August 2015)
 *   SHA3-256/384/512     FIPS 202, "SHA-3 Standard: Permutation-Based Hash and
 *                        Extendable-Output Functions" (August 2015)
 *
 * Constant time: no function here branches on, or indexes memory with, the bytes it hashes;
 * only lengths and the hash identifier (public values) steer control flow. Contexts hold
 * secret-derived state: p256_hash_final wipes its context; callers that abandon a context
 * early call p256_hash_ctx_clear.
 *
 * Configuration macros (define before including hash_impl.h):
 *   P256_NO_SHA_EXT  disable the SHA-256 instruction-set paths (x86-64 SHA-NI, ARMv8 SHA2) and
 *                    always use the portable C compression function.
 */
#ifndef P256_HASH_H
#define P256_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Every function of the layer is `static` (one translation unit) and may be left unused by a
 * given user of the layer without a warning. */
#if defined(__GNUC__) || defined(__clang__)
#define P256_HASH_FN static __attribute__((unused))
#else
#define P256_HASH_FN static
#endif

typedef enum {
    P256_HASH_SHA224,
    P256_HASH_SHA256,
    P256_HASH_SHA384,
    P256_HASH_SHA512,
    P256_HASH_SHA3_256,
    P256_HASH_SHA3_384,
    P256_HASH_SHA3_512
} p256_hash_id;

/* Largest digest (SHA-512, SHA3-512) and largest block (the SHA3-256 rate), in bytes. */
#define P256_HASH_MAX_SIZE 64
#define P256_HASH_MAX_BLOCK 136

/* SHA-224 and SHA-256 (FIPS 180-4 section 6.2/6.3): eight 32-bit chaining words. */
typedef struct {
    uint32_t h[8];
    uint8_t buf[64];
    uint64_t bytes;   /* message bytes processed so far (buffered included) */
} p256_sha256_state;

/* SHA-384 and SHA-512 (FIPS 180-4 section 6.4/6.5): eight 64-bit chaining words. */
typedef struct {
    uint64_t h[8];
    uint8_t buf[128];
    uint64_t bytes;   /* message bytes so far; messages are limited to 2^64 - 1 bytes */
} p256_sha512_state;

/* SHA3-256/384/512 (FIPS 202): the Keccak-f[1600] state, absorbing in place. */
typedef struct {
    uint64_t a[25];   /* lane (x, y) is a[x + 5*y], bytes little-endian (FIPS 202 B.1) */
    size_t pos;       /* bytes absorbed into the current block */
    size_t rate;      /* block size r/8: 136, 104 or 72 */
} p256_sha3_state;

/* A hash computation in progress, for any of the supported functions. */
typedef struct p256_hash_ctx {
    p256_hash_id id;
    union {
        p256_sha256_state s256;   /* SHA-224, SHA-256 */
        p256_sha512_state s512;   /* SHA-384, SHA-512 */
        p256_sha3_state sha3;     /* SHA3-* */
    } u;
} p256_hash_ctx;

/* Digest size in bytes (28, 32, 48 or 64); 0 for an unknown id. */
P256_HASH_FN size_t p256_hash_size(p256_hash_id id);

/* Input block size in bytes (64, 128, or the SHA-3 rate 136/104/72), the B of RFC 2104;
 * 0 for an unknown id. */
P256_HASH_FN size_t p256_hash_block_size(p256_hash_id id);

/* Start hashing with function id (which must be one of the enumerated values). */
P256_HASH_FN void p256_hash_init(p256_hash_ctx *c, p256_hash_id id);

/* Absorb len bytes (data may be NULL when len is 0). Any split of a message into update calls
 * gives the same digest. */
P256_HASH_FN void p256_hash_update(p256_hash_ctx *c, const uint8_t *data, size_t len);

/* Write the p256_hash_size(id)-byte digest to out and wipe the context (it must be
 * re-initialised before further use). out may not overlap *c. */
P256_HASH_FN void p256_hash_final(p256_hash_ctx *c, uint8_t *out);

/* Wipe a context without producing a digest. */
P256_HASH_FN void p256_hash_ctx_clear(p256_hash_ctx *c);

/* One-shot: out = H(data[0..len)). */
P256_HASH_FN void p256_hash(p256_hash_id id, const uint8_t *data, size_t len, uint8_t *out);

/* Whether SHA-256/SHA-224 use an instruction-set extension (SHA-NI on x86-64, the ARMv8 SHA2
 * instructions on aarch64) on this CPU: 1 if so, 0 for the portable C code. */
P256_HASH_FN int p256_sha256_accel_active(void);

/* The SHA-256 compression in use: "sha-ni", "armv8-sha2" or "portable". */
P256_HASH_FN const char *p256_sha256_impl_name(void);

#endif /* P256_HASH_H */
