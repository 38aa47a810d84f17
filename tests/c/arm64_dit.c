/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arm64_dit.c: PSTATE.DIT around the secret-handling byte-level API (csrc/cpu_aarch64.h).
 *
 * Built with the AArch64 field backend and run by `make test-arm64` under qemu-aarch64,
 * once on a CPU model with FEAT_DIT (-cpu max) with the argument "dit", once on one
 * without it (-cpu cortex-a72) with "nodit":
 *   - the detection agrees with the CPU model;
 *   - every probe (below) inside seckey_generate/verify, pubkey_create, sign, ecdh,
 *     ecdh_pubtable, mult_base, mult and the batch's derive_many, sign_many, ecdh_many
 *     sees DIT set ("dit"), and DIT is clear again when they return;
 *     if the caller had set DIT, it stays set;
 *   - without FEAT_DIT nothing touches DIT (an MSR DIT would be SIGILL there) and the
 *     results are the same;
 *   - the results are right (sign/verify, ECDH both ways, mult vs mult_base), so the
 *     probes below watch real work;
 *   - negative control: the same probes see DIT clear in core internals called directly.
 *
 * The probes record PSTATE.DIT at points inside the core without any hook in it: while
 * p256.c is compiled here,
 *   - the field backend's two entry points are renamed to probe_fe_mul/probe_fe_sqr,
 *     which record and call the real assembly (every field operation: the middle of the
 *     work);
 *   - p256_memzero calls probe() first (common.h's P256_MEMZERO_PROBE hook): the wipes
 *     at the end of every secret-handling function;
 *   - syscall is renamed to probe_syscall: the getrandom(2) calls of seckey_generate and
 *     hedged signing, before any other work.
 */
#ifndef P256_ASM_AARCH64
#error "build with -DP256_ASM_AARCH64 and csrc/asm/field_aarch64.S"
#endif
#include "harness.h" /* first: _GNU_SOURCE, for syscall(2) as p256.c asks too */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

static void probe(void);
long probe_syscall(long number, ...);

#define P256_MEMZERO_PROBE() probe()

#define p256_fe_mul_aarch64 probe_fe_mul
#define p256_fe_sqr_aarch64 probe_fe_sqr
#define syscall probe_syscall
#include "p256.c"
#undef p256_fe_mul_aarch64
#undef p256_fe_sqr_aarch64
#undef syscall

#ifndef P256_DIT_CONTROL
#error "cpu_aarch64.h did not enable DIT control on this target"
#endif

void p256_fe_mul_aarch64(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void p256_fe_sqr_aarch64(uint64_t r[4], const uint64_t a[4]);

static int cpu_has_dit; /* what the test expects, from the command line */
static long probe_calls, probe_with_dit;

static void probe(void)
{
    probe_calls++;
    if (cpu_has_dit && p256_dit_read())
        probe_with_dit++;
}

void probe_fe_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    probe();
    p256_fe_mul_aarch64(r, a, b);
}

void probe_fe_sqr(uint64_t r[4], const uint64_t a[4])
{
    probe();
    p256_fe_sqr_aarch64(r, a);
}

/* random_impl.h's only syscall: getrandom(buf, len, flags). */
long probe_syscall(long number, ...)
{
    va_list ap;
    void *buf;
    size_t len;
    unsigned flags;
    probe();
    va_start(ap, number);
    buf = va_arg(ap, void *);
    len = va_arg(ap, size_t);
    flags = va_arg(ap, unsigned);
    va_end(ap);
    return syscall(number, buf, len, flags);
}

static void dit_set(int on)
{
    if (on)
        __asm__ __volatile__(".inst 0xd503415f" ::: "memory");
    else
        __asm__ __volatile__(".inst 0xd503405f" ::: "memory");
}

static int dit_now(void)
{
    return cpu_has_dit ? p256_dit_read() != 0 : 0;
}

/*
 * Runs one API call (the statement) with DIT initially `before`, then checks that
 * (a) some probe ran, (b) with FEAT_DIT every probe inside a secret-handling function saw
 * DIT set, and (c) DIT is back to `before`. `secret` is 0 for public-data functions:
 * they leave DIT as it was and are not required to set it.
 */
#define RUN(name, secret, before, stmt)                                                   \
    do {                                                                                  \
        if (cpu_has_dit)                                                                  \
            dit_set(before);                                                              \
        probe_calls = probe_with_dit = 0;                                                 \
        stmt;                                                                             \
        CHECK(probe_calls > 0, "%s: no probe reached", name);                             \
        if ((secret) && cpu_has_dit)                                                      \
            CHECK(probe_with_dit == probe_calls, "%s (DIT before: %d): %ld of %ld probes "\
                  "saw DIT clear", name, before, probe_calls - probe_with_dit,             \
                  probe_calls);                                                           \
        if (!(secret) && cpu_has_dit)                                                     \
            CHECK(probe_with_dit == ((before) ? probe_calls : 0),                         \
                  "%s: a public-data function changed DIT", name);                        \
        CHECK(dit_now() == ((before) && cpu_has_dit), "%s (DIT before: %d): DIT is %d "   \
              "after the call", name, before, dit_now());                                 \
    } while (0)

int main(int argc, char **argv)
{
    uint8_t d[32], d2[32], pub[65], pub2[65], rs[64], digest[32], s1[32], s2[32];
    uint8_t k[32], out1[65], out2[65];
    int ok;

    if (argc != 2 || (strcmp(argv[1], "dit") && strcmp(argv[1], "nodit"))) {
        fprintf(stderr, "usage: %s dit|nodit (whether the CPU model implements FEAT_DIT)\n",
                argv[0]);
        return 2;
    }
    cpu_has_dit = strcmp(argv[1], "dit") == 0;
    CHECK(p256_cpu_has(P256_CPU_DIT) == cpu_has_dit, "detection says %d, the CPU model %d",
          p256_cpu_has(P256_CPU_DIT), cpu_has_dit);
    CHECK(dit_now() == 0, "DIT set at process start");

    /* Negative control: the core's internals, called without the byte-level bracket,
     * must be seen running with DIT clear, or the probes could not tell. */
    if (cpu_has_dit) {
        p256_scalar sk;
        p256_jac j;
        memset(k, 0x42, sizeof k);
        p256_scalar_set_bytes_reduce(&sk, k);
        probe_calls = probe_with_dit = 0;
        p256_ecmult_gen(&j, &sk);
        CHECK(probe_calls > 0 && probe_with_dit == 0,
              "negative control: %ld of %ld probes saw DIT set outside the API", probe_with_dit,
              probe_calls);
    }

    memset(digest, 0x5a, sizeof digest);
    memset(k, 0x33, sizeof k);
    for (int before = 0; before <= 1; before++) {
        RUN("seckey_verify", 1, before, ok = p256_seckey_verify(digest));
        CHECK(ok, "seckey_verify");
        RUN("seckey_generate", 1, before, ok = p256_seckey_generate(d) && p256_seckey_generate(d2));
        CHECK(ok, "seckey_generate");
        RUN("pubkey_create", 1, before, ok = p256_pubkey_create(pub, d));
        CHECK(ok, "pubkey_create");
        RUN("pubkey_create", 1, before, ok = p256_pubkey_create(pub2, d2));
        CHECK(ok, "pubkey_create 2");
        RUN("sign hedged", 1, before, ok = p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED));
        CHECK(ok, "sign hedged");
        RUN("verify", 0, before, ok = p256_verify(pub, 65, rs, digest, 32));
        CHECK(ok, "verify of the hedged signature");
        RUN("sign rfc6979", 1, before, ok = p256_sign(rs, d, digest, 32, P256_NONCE_SHA256));
        CHECK(ok, "sign rfc6979");
        RUN("verify", 0, before, ok = p256_verify(pub, 65, rs, digest, 32));
        CHECK(ok, "verify of the deterministic signature");
        RUN("ecdh", 1, before, ok = p256_ecdh(s1, d, pub2, 65));
        CHECK(ok, "ecdh");
        RUN("ecdh", 1, before, ok = p256_ecdh(s2, d2, pub, 65));
        CHECK(ok && memcmp(s1, s2, 32) == 0, "ecdh: both sides agree");
        {
            const size_t size = p256_pubtable_size(P256_PUBTABLE_BITS);
            void *tab = malloc(size);
            CHECK(tab != NULL, "table memory");
            if (tab == NULL)
                return 1;
            RUN("pubtable_build", 0, before,
                ok = p256_pubtable_build_vartime(tab, size, P256_PUBTABLE_BITS, pub2, 65));
            CHECK(ok, "pubtable_build");
            RUN("ecdh_pubtable", 1, before, ok = p256_ecdh_pubtable(s2, d, tab));
            CHECK(ok && memcmp(s1, s2, 32) == 0, "ecdh_pubtable: the plain ecdh's bytes");
            free(tab);
        }
        RUN("mult_base", 1, before, ok = p256_mult_base(out1, k));
        CHECK(ok, "mult_base");
        RUN("mult", 1, before, ok = p256_mult(out2, k, pub, 65));
        CHECK(ok, "mult");
        {
            /* k*(d*G) == (k*d)*G is too much for this test; k*G via mult on G instead */
            uint8_t g[65];
            RUN("mult_base(1)", 1, before, ok = p256_mult_base(g, (const uint8_t[32]){[31] = 1}));
            CHECK(ok, "mult_base(1)");
            RUN("mult(k, G)", 1, before, ok = p256_mult(out2, k, g, 65));
            CHECK(ok && memcmp(out1, out2, 65) == 0, "mult(k, G) == mult_base(k)");
        }
        {
            /* the batch module's work with secrets: one region per call, as the others */
            const uint8_t *ks[2] = {d, d2};
            p256_pubkey many[2], q2;
            p256_sign_item si[2] = {{d, digest, 32}, {d2, digest, 32}};
            p256_ecdh_item ei[2];
            uint8_t ok2[2], rs2[128], x2[64];
            (void)p256_pubkey_load(&q2, pub2, 65);
            ei[0].d = d;
            ei[0].pk = &q2;
            ei[0].table = NULL;
            ei[1] = ei[0];
            RUN("pubkey_derive_many", 1, before,
                ok = p256_pubkey_derive_many(many, ok2, ks, 2, 0, P256_BATCH_AUTO));
            CHECK(ok && ok2[0] && ok2[1], "pubkey_derive_many");
            RUN("sign_many", 1, before,
                ok = p256_sign_many(rs2, ok2, si, 2, P256_NONCE_HEDGED, 1, P256_BATCH_AUTO));
            CHECK(ok && ok2[0] && p256_verify(pub, 65, rs2, digest, 32), "sign_many");
            RUN("ecdh_many", 1, before, ok = p256_ecdh_many(x2, ok2, ei, 2, P256_BATCH_AUTO));
            CHECK(ok && ok2[0] && memcmp(x2, s1, 32) == 0, "ecdh_many agrees with ecdh");
        }
        RUN("pubkey_parse 33", 0, before,
            (pub2[0] = 2 + (pub[64] & 1), memcpy(pub2 + 1, pub + 1, 32),
             ok = p256_pubkey_parse(out1, pub2, 33)));
        CHECK(ok && memcmp(out1, pub, 65) == 0, "pubkey_parse");
    }
    if (cpu_has_dit)
        dit_set(0);

    printf("arm64_dit (%s): %ld checks, %ld failures\n", argv[1], checks, failures);
    return failures != 0;
}
