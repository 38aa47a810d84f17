/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_parse.c: libFuzzer harness for everything that reads untrusted bytes.
 *
 *   clang -O1 -g -std=c99 -Icsrc -fsanitize=fuzzer,address,undefined \
 *       -o tests/c/bin/fuzz_parse tests/c/fuzz_parse.c
 *   tests/c/bin/fuzz_parse -runs=200000 tests/c/fuzz_corpus
 *
 * (`make fuzz`, part of `make test`, runs a short campaign from the seeds.)
 * The first byte picks a target; properties, not just "no crash":
 *   0  SEC1 decoding: an accepted point re-encodes to 65 bytes that decode to itself,
 *      and a 65-byte input is accepted exactly when it is 04||X||Y of a curve point.
 *   1  DER signatures: an accepted encoding is the canonical DER of what it decodes to
 *      (strictness: exactly one encoding per (r, s) is accepted).
 *   2  verification of arbitrary (point, r||s, digest): returns 0 or 1, never crashes,
 *      and never accepts with r or s outside [1, n-1].
 *   3  scalar multiplication by an arbitrary 32-byte k of an arbitrary point encoding:
 *      the result, when there is one, decodes as a valid point.
 */
#include "p256.c"

#include <stdlib.h>

static const uint8_t n_be[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
};

static int in_range(const uint8_t v[32])
{
    static const uint8_t zero[32];
    return memcmp(v, zero, 32) != 0 && memcmp(v, n_be, 32) < 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t pt[65], again[65], rs[64], der[72];
    if (size == 0)
        return 0;
    switch (data[0] % 4) {
    case 0:
        if (p256_pubkey_parse(pt, data + 1, size - 1)) {
            if (!p256_pubkey_parse(again, pt, 65) || memcmp(pt, again, 65) != 0)
                abort();
            if (size - 1 == 65 && memcmp(pt, data + 1, 65) != 0)
                abort();
        }
        break;
    case 1:
        if (p256_sig_from_der(rs, data + 1, size - 1)) {
            size_t len = p256_sig_to_der(der, rs);
            if (len != size - 1 || memcmp(der, data + 1, len) != 0)
                abort();
        }
        break;
    case 2:
        if (size >= 1 + 65 + 64) {
            int ok = p256_verify(data + 1, 65, data + 66, data + 130, size - 130);
            if (ok != 0 && ok != 1)
                abort();
            if (ok && (!in_range(data + 66) || !in_range(data + 98)))
                abort();
        }
        break;
    case 3:
        if (size >= 1 + 32) {
            if (p256_mult(pt, data + 1, data + 33, size - 33) && !p256_pubkey_parse(again, pt, 65))
                abort();
        }
        break;
    }
    return 0;
}
