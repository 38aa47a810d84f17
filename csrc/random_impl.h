/* SPDX-License-Identifier: Apache-2.0 */
/*
 * random_impl.h: getrandom(2) on Linux (/dev/urandom where the kernel lacks it),
 * getentropy(3) on the BSDs and macOS, BCryptGenRandom on Windows. No user-space
 * state: every call asks the kernel. Only return codes and lengths steer the code,
 * never the bytes.
 */
#ifndef P256_RANDOM_IMPL_H
#define P256_RANDOM_IMPL_H

#include "random.h"

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The fallback of CPython's os.urandom: /dev/urandom, opened O_CLOEXEC (no descriptor
 * leaks into a child a thread forks meanwhile), read until len bytes came (EINTR and
 * short reads retried). Anything but a character device is refused: a regular file
 * planted there would give predictable keys.
 */
P256_FN int p256_random_urandom(uint8_t *buf, size_t len)
{
    struct stat st;
    int fd;
    do
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
        close(fd);
        return 0;
    }
    while (len > 0) {
        ssize_t got = read(fd, buf, len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        buf += got;
        len -= (size_t)got;
    }
    close(fd);
    return len == 0;
}

/* Wipes buf on failure, so a caller never holds half-random bytes. */
P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    uint8_t *const start = buf;
    const size_t total = len;
    while (len > 0) {
        /* The raw syscall avoids depending on glibc >= 2.25 for the wrapper. */
        long got = syscall(SYS_getrandom, buf, len, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
            /* No getrandom (Linux < 3.17), or a seccomp filter refusing it. */
            if (p256_random_urandom(buf, len))
                return 1;
            break;
        }
        if (got <= 0)
            break;
        buf += got;
        len -= (size_t)got;
    }
    if (len == 0)
        return 1;
    p256_memzero(start, total);
    return 0;
}
#elif defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>
#pragma comment(lib, "bcrypt.lib")
P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    if (BCryptGenRandom(NULL, buf, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0)
        return 1;
    p256_memzero(buf, len);
    return 0;
}
#else
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif
P256_FN int p256_random_bytes(uint8_t *buf, size_t len)
{
    uint8_t *const start = buf;
    const size_t total = len;
    while (len > 0) {
        size_t chunk = len > 256 ? 256 : len; /* getentropy's limit */
        if (getentropy(buf, chunk) != 0) {
            p256_memzero(start, total);
            return 0;
        }
        buf += chunk;
        len -= chunk;
    }
    return 1;
}
#endif

#endif /* P256_RANDOM_IMPL_H */
