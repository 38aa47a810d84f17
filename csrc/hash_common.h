/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hash_common.h: what the hash functions of the hash layer (hash.h) share: byte order
 * (big-endian words for SHA-2, little-endian lanes for SHA-3) and FIPS 180-4 4.1's Ch
 * and Maj, common to SHA-256 (4.1.2) and SHA-512 (4.1.3).
 */
#ifndef P256_HASH_COMMON_H
#define P256_HASH_COMMON_H

#include <stdint.h>

/* ------------------------------------------------------------------------------------------ */
/* Byte order                                                                                 */

static inline uint32_t p256_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void p256_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t p256_load_be64(const uint8_t *p)
{
    return ((uint64_t)p256_load_be32(p) << 32) | p256_load_be32(p + 4);
}

static inline void p256_store_be64(uint8_t *p, uint64_t v)
{
    p256_store_be32(p, (uint32_t)(v >> 32));
    p256_store_be32(p + 4, (uint32_t)v);
}

static inline uint64_t p256_load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
           ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

/* Ch and Maj of 4.1.2 and 4.1.3, written in equivalent forms with fewer operations. */
#define P256_CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define P256_MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

#endif /* P256_HASH_COMMON_H */
