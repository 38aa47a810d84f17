/* SPDX-License-Identifier: Apache-2.0 */
/*
 * map_to_curve.h: field elements to points of P-256 by RFC 9380's simplified SWU map
 * (section 6.6.2; Z = -10, the suites P256_XMD:SHA-256_SSWU_RO_ and _NU_ of section
 * 8.2), the core of hash_to_curve and encode_to_curve. The hashing itself
 * (expand_message_xmd) is the caller's; from its uniform bytes on, the core reduces,
 * maps and adds. Constant time in every input: the message hashed may be secret (a
 * password, in an OPRF or a PAKE). Code: map_to_curve_impl.h.
 */
#ifndef P256_MAP_TO_CURVE_H
#define P256_MAP_TO_CURVE_H

#include <stddef.h>

#include "group.h"

/*
 * RFC 9380's sqrt_ratio for p = 3 mod 4 (appendix F.2.1.2): returns all-ones and y =
 * sqrt(u/v) when u/v is a square in GF(p), else 0 and y = sqrt(Z u/v) (one of the two
 * is, Z being a non-square). v must be nonzero. One exponentiation, no inversion.
 */
P256_FN uint64_t p256_sqrt_ratio(p256_fe *y, const p256_fe *u, const p256_fe *v);

/* r = map_to_curve_simple_swu(u) (RFC 9380 6.6.2, in appendix F.2's straight-line
 * form), Jacobian: never the identity. _pair: r[j] for u[j], j = 0, 1, faster than two
 * calls (their exponentiations interleaved). */
P256_FN void p256_map_to_curve_sswu(p256_jac *r, const p256_fe *u);
P256_FN void p256_map_to_curve_sswu_pair(p256_jac r[2], const p256_fe u[2]);

/*
 * From uniform bytes (expand_message's output) to a point: 48 bytes are one element of
 * hash_to_field (L = 48, the big-endian integer reduced mod p), mapped: encode_to_curve.
 * 96 bytes are two, each mapped, the images added: hash_to_curve. P-256's cofactor is 1,
 * so clear_cofactor is the identity map. Returns 1, or 0 (r untouched) for another length.
 */
P256_FN int p256_map_uniform(p256_jac *r, const uint8_t *uniform, size_t len);

#endif /* P256_MAP_TO_CURVE_H */
