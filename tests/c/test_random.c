/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_random.c: the core's use of the OS generator (csrc/random_impl.h) when it fails,
 * seen from C, where the buffers can be inspected (tests/test_os_random.py covers the
 * same faults through Python, with an LD_PRELOAD shim). Linux: syscall(2) is renamed
 * to fake_syscall while p256.c is compiled here, so each getrandom call can be made to
 * fail:
 *   - EIO after a partial answer: p256_random_bytes, p256_seckey_generate and hedged
 *     p256_sign fail, and leave no random byte behind (buffers zeroed, rs untouched);
 *     deterministic signing still works;
 *   - EINTR: retried; ENOSYS, EPERM: the /dev/urandom fallback (real here) answers.
 */
#include "harness.h"

#if defined(__linux__)
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { PASS, SHORT_THEN_EIO, EINTR_ONCE, NOSYS, PERM };
static int mode;
static long calls;

long fake_syscall(long number, ...);
#define syscall fake_syscall
#include "p256.c"
#undef syscall

/* random_impl.h's only syscall: getrandom(buf, len, flags). */
long fake_syscall(long number, ...)
{
    va_list ap;
    uint8_t *buf;
    size_t len;
    unsigned flags;
    va_start(ap, number);
    buf = va_arg(ap, uint8_t *);
    len = va_arg(ap, size_t);
    flags = va_arg(ap, unsigned);
    va_end(ap);
    calls++;
    switch (mode) {
    case SHORT_THEN_EIO:
        if (calls == 1 && len > 1) {
            memset(buf, 0xa5, len / 2); /* a partial answer, then the kernel fails */
            return (long)(len / 2);
        }
        errno = EIO;
        return -1;
    case EINTR_ONCE:
        if (calls == 1) {
            errno = EINTR;
            return -1;
        }
        break;
    case NOSYS:
        errno = ENOSYS;
        return -1;
    case PERM:
        errno = EPERM;
        return -1;
    }
    return syscall(number, buf, len, flags);
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void arm(int m)
{
    mode = m;
    calls = 0;
}

int main(void)
{
    static const uint8_t d1[32] = {[31] = 1};
    uint8_t buf[100], d[32], rs[64], rs_det[64], digest[32];

    memset(digest, 0x5a, sizeof digest);
    CHECK(p256_sign(rs_det, d1, digest, 32, P256_NONCE_SHA256), "deterministic sign");

    arm(SHORT_THEN_EIO);
    memset(buf, 0x11, sizeof buf);
    CHECK(!p256_random_bytes(buf, sizeof buf), "a failing getrandom must fail");
    CHECK(calls == 2 && all_zero(buf, sizeof buf), "partial bytes left behind (%ld calls)", calls);
    arm(SHORT_THEN_EIO);
    memset(d, 0x11, sizeof d);
    CHECK(!p256_seckey_generate(d) && all_zero(d, sizeof d), "seckey_generate half-made");
    arm(SHORT_THEN_EIO);
    memset(rs, 0x11, sizeof rs);
    CHECK(!p256_sign(rs, d1, digest, 32, P256_NONCE_HEDGED), "hedged sign without randomness");
    for (size_t i = 0; i < sizeof rs; i++)
        CHECK(rs[i] == 0x11, "hedged sign wrote rs[%zu] on failure", i);
    arm(SHORT_THEN_EIO);
    CHECK(p256_sign(rs, d1, digest, 32, P256_NONCE_SHA256) && memcmp(rs, rs_det, 64) == 0 &&
              calls == 0, "deterministic sign needs no randomness");

    arm(EINTR_ONCE);
    CHECK(p256_seckey_generate(d) && p256_seckey_verify(d) && calls == 2, "EINTR is retried");
    for (int m = NOSYS; m <= PERM; m++) {
        uint8_t d2[32];
        arm(m);
        CHECK(p256_seckey_generate(d) && p256_seckey_generate(d2) && memcmp(d, d2, 32) != 0,
              "the /dev/urandom fallback (%s)", m == NOSYS ? "ENOSYS" : "EPERM");
        CHECK(calls == 2, "getrandom tried first (%ld calls)", calls);
        CHECK(p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED), "hedged sign via /dev/urandom");
    }
    arm(PASS);
    CHECK(p256_random_bytes(buf, sizeof buf) && !all_zero(buf, sizeof buf), "getrandom");

    printf("test_random (%s): %ld checks, %ld failures\n", p256_backend_name(), checks, failures);
    return failures != 0;
}
#else
#include "p256.c"
int main(void)
{
    printf("test_random: SKIP: the getrandom(2) fallback is Linux-only\n");
    return 0;
}
#endif
