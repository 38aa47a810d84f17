/*
 * random_impl.h: getrandom(2) on Linux, getentropy(3) on the BSDs and macOS,
 * BCryptGenRandom on Windows. No user-space state: every call asks the kernel.
 */
#ifndef P256_RANDOM_IMPL_H
#define P256_RANDOM_IMPL_H

#include "random.h"

#if defined(__linux__)
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    while (len > 0) {
        /* The raw syscall avoids depending on glibc >= 2.25 for the wrapper. */
        long got = syscall(SYS_getrandom, buf, len, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        buf += got;
        len -= (size_t)got;
    }
    return 1;
}
#elif defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>
#pragma comment(lib, "bcrypt.lib")
P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    return BCryptGenRandom(NULL, buf, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}
#else
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif
P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    while (len > 0) {
        size_t chunk = len > 256 ? 256 : len; /* getentropy's limit */
        if (getentropy(buf, chunk) != 0)
            return 0;
        buf += chunk;
        len -= chunk;
    }
    return 1;
}
#endif

#endif /* P256_RANDOM_IMPL_H */
