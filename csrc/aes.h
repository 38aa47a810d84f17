/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes.h: AES (FIPS 197) block cipher and CBC mode (NIST SP 800-38A 6.2), for reading and
 * writing password-encrypted private keys (PKCS#8 PBES2, RFC 8018). No padding here: the
 * caller adds and checks PKCS#7 padding.
 *
 * Two implementations behind one interface, chosen at run time:
 *   - AES-NI (x86-64, CPUID.1:ECX bit 25), intrinsics in functions compiled with
 *     target("aes,sse2"); the instructions are constant time by design.
 *   - portable C, constant time: no table is indexed by a secret. The S-box is computed
 *     as FIPS 197 5.1.1 defines it, the inverse in GF(2^8) (as x^254, an addition chain of
 *     4 multiplications and 7 squarings) followed by the affine map; multiplication is
 *     shift-and-add with the branches replaced by masks, eight bytes at once in a 64-bit
 *     word ("SIMD within a register"). The chain x^2, x^3, x^12, x^15, x^240, x^252,
 *     x^254 is the one of Rivain & Prouff, "Provably Secure Higher-Order Masking of AES"
 *     (CHES 2010, section 3.2). Plain rather than fast: encrypted keys are a
 *     few blocks.
 * The key schedule (FIPS 197 5.2) always runs the portable code (its S-box is the
 * constant-time one); AES-NI decryption uses the equivalent inverse cipher (FIPS 197
 * 5.3.5, AESIMC on the round keys).
 *
 * Bounds: key_len is 16, 24 or 32 bytes; CBC lengths are whole blocks (len % 16 == 0).
 * Everything is constant time in the key, the IV and the data; lengths are public.
 */
#ifndef P256_AES_H
#define P256_AES_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifndef P256_AES_AUTO /* p256.h has the same values */
#define P256_AES_AUTO 0     /* AES-NI when the CPU has it, else portable */
#define P256_AES_PORTABLE 1 /* always the portable constant-time code */
#define P256_AES_NI 2       /* AES-NI; calls fail (return 0) where the CPU lacks it */
#endif

/* Encryption round keys: Nr + 1 of them, Nr = 10, 12 or 14 (FIPS 197 table 4). */
typedef struct {
    uint8_t rk[15][16];
    int nr;
} p256_aes_key;

/* 1 if the CPU has AES-NI (and this build can use it). Public: about the machine. */
P256_FN int p256_aes_ni_available(void);

/* Expands key (16/24/32 bytes); 0 for any other length. Wipe k with p256_memzero. */
P256_FN int p256_aes_key_init(p256_aes_key *k, const uint8_t *key, size_t key_len);

/* One block, out may equal in. impl: P256_AES_PORTABLE or P256_AES_NI (available). */
P256_FN void p256_aes_encrypt_block(const p256_aes_key *k, int impl, uint8_t out[16],
                                    const uint8_t in[16]);
P256_FN void p256_aes_decrypt_block(const p256_aes_key *k, int impl, uint8_t out[16],
                                    const uint8_t in[16]);

/*
 * CBC over len bytes (a multiple of 16), out may equal in. impl as above or
 * P256_AES_AUTO. Returns 1, or 0 (out untouched) for a bad length/key length or when
 * P256_AES_NI is asked for on a CPU without it.
 */
P256_FN int p256_aes_cbc(int decrypt, int impl, uint8_t *out, const uint8_t *key,
                         size_t key_len, const uint8_t iv[16], const uint8_t *in, size_t len);

/* "aes-ni" or "portable": what P256_AES_AUTO uses on this machine. */
P256_FN const char *p256_aes_impl_name(void);

#endif /* P256_AES_H */
