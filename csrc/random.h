/* SPDX-License-Identifier: Apache-2.0 */
/* random.h: the operating system's CSPRNG. */
#ifndef P256_RANDOM_H
#define P256_RANDOM_H

#include "common.h"

/* Fills buf with len bytes from the OS CSPRNG; returns 1, or 0 with buf zeroed if the OS
 * refused. */
P256_FN int p256_random_bytes(uint8_t *buf, size_t len);

#endif /* P256_RANDOM_H */
