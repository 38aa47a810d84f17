# SPDX-License-Identifier: Apache-2.0
"""The OS random generator failing, and the /dev/urandom fallback (csrc/random_impl.h).

The core asks the kernel for every random byte: getrandom(2) through syscall(2) on
Linux. A child interpreter runs with an LD_PRELOAD shim (SHIM_C below, compiled here
with the system C compiler) that makes getrandom fail on request, counts the calls, and
can also refuse or slow down /dev/urandom. It is armed around single calls only, so the
interpreter's own start-up randomness is untouched. Checked:

- getrandom failing (EIO, or a short read followed by EIO): PrivateKey.generate() and
  hedged sign raise OSError and return nothing; deterministic signing still works and
  gives the same signature as without the shim.
- ENOSYS (kernels before 3.17, some sandboxes) and EPERM (seccomp filters that refuse
  the call): the core falls back to /dev/urandom as CPython's os.urandom does; the shim
  sees both the getrandom call and the O_CLOEXEC open, keys are valid and distinct, no
  file descriptor is left open, and reads that are interrupted (EINTR) or return one
  byte at a time are completed.
- ENOSYS with /dev/urandom unavailable as well: OSError again.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="getrandom(2) and the /dev/urandom fallback are Linux-only")

SHIM_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Set by the child through ctypes. 0: pass everything through. */
int shim_mode;
#define MODE_EIO 1      /* getrandom fails with EIO */
#define MODE_SHORT 2    /* getrandom gives half of the first request, then EIO */
#define MODE_ENOSYS 3   /* getrandom is missing: ENOSYS */
#define MODE_EPERM 4    /* a seccomp filter refuses getrandom: EPERM */
#define MODE_NODEV 5    /* ENOSYS, and /dev/urandom cannot be opened either */
#define MODE_SLOWDEV 6  /* ENOSYS, and reads of /dev/urandom: EINTR, then 1 byte at a time */
long shim_getrandom_calls, shim_urandom_opens, shim_urandom_reads, shim_urandom_flags;
static int urandom_fd = -1;

static long fake_getrandom(void *buf, size_t len)
{
    shim_getrandom_calls++;
    switch (shim_mode) {
    case MODE_SHORT:
        if (shim_getrandom_calls == 1 && len > 1) {
            memset(buf, 0x41, len / 2);
            return (long)(len / 2);
        }
        errno = EIO;
        return -1;
    case MODE_ENOSYS: case MODE_NODEV: case MODE_SLOWDEV: errno = ENOSYS; return -1;
    case MODE_EPERM: errno = EPERM; return -1;
    default: errno = EIO; return -1;
    }
}

long syscall(long number, ...)
{
    static long (*real)(long, ...);
    long a[6];
    va_list ap;
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_getrandom && shim_mode)
        return fake_getrandom((void *)a[0], (size_t)a[1]);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    static ssize_t (*real)(void *, size_t, unsigned);
    if (shim_mode)
        return fake_getrandom(buf, len);
    if (!real)
        real = (ssize_t (*)(void *, size_t, unsigned))dlsym(RTLD_NEXT, "getrandom");
    return real(buf, len, flags);
}

/* Every libc entry that can open a path; the /dev/urandom opens are watched. */
static int watch_open(const char *name, int dirfd, const char *path, int flags, mode_t mode)
{
    int fd, urandom = shim_mode && strcmp(path, "/dev/urandom") == 0;
    if (urandom) {
        shim_urandom_opens++;
        shim_urandom_flags = flags;
        if (shim_mode == MODE_NODEV) {
            errno = ENOENT;
            return -1;
        }
    }
    if (dirfd == -1000) {
        int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
        fd = real(path, flags, mode);
    } else {
        int (*real)(int, const char *, int, ...) =
            (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, name);
        fd = real(dirfd, path, flags, mode);
    }
    if (urandom)
        urandom_fd = fd;
    return fd;
}
#define MODE_ARG (flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0)
#define OPEN(name)                                                                  \
    int name(const char *path, int flags, ...)                                      \
    {                                                                               \
        va_list ap;                                                                 \
        va_start(ap, flags);                                                        \
        mode_t mode = MODE_ARG;                                                     \
        va_end(ap);                                                                 \
        return watch_open(#name, -1000, path, flags, mode);                         \
    }
#define OPENAT(name)                                                                \
    int name(int dirfd, const char *path, int flags, ...)                           \
    {                                                                               \
        va_list ap;                                                                 \
        va_start(ap, flags);                                                        \
        mode_t mode = MODE_ARG;                                                     \
        va_end(ap);                                                                 \
        return watch_open(#name, dirfd, path, flags, mode);                         \
    }
OPEN(open) OPEN(open64) OPENAT(openat) OPENAT(openat64)
int __open_2(const char *path, int flags) { return watch_open("open", -1000, path, flags, 0); }
int __open64_2(const char *path, int flags) { return watch_open("open64", -1000, path, flags, 0); }

ssize_t read(int fd, void *buf, size_t len)
{
    static ssize_t (*real)(int, void *, size_t);
    if (!real)
        real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    if (shim_mode == MODE_SLOWDEV && fd == urandom_fd && len > 0) {
        if (shim_urandom_reads++ % 2 == 0) {
            errno = EINTR;
            return -1;
        }
        len = 1;
    }
    return real(fd, buf, len);
}
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
    (void)buflen;
    return read(fd, buf, len);
}

int close(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (fd == urandom_fd)
        urandom_fd = -1;
    return real(fd);
}
"""

# Runs in the child: every action with the shim armed in a given mode, reported as JSON.
CHILD = textwrap.dedent(r"""
    import ctypes, json, os, sys
    import p256

    shim = ctypes.CDLL(sys.argv[1])
    mode = ctypes.c_int.in_dll(shim, "shim_mode")
    counters = ("getrandom_calls", "urandom_opens", "urandom_reads", "urandom_flags")

    def armed(m, fn):
        for c in counters:
            ctypes.c_long.in_dll(shim, "shim_" + c).value = 0
        mode.value = m
        try:
            value, error = fn(), None
        except Exception as e:  # reported, the parent checks the type
            value, error = None, type(e).__name__ + ": " + str(e)
        finally:
            mode.value = 0
        seen = {c: ctypes.c_long.in_dll(shim, "shim_" + c).value for c in counters}
        return {"value": value, "error": error, **seen}

    key = p256.PrivateKey.from_int(0x1234567)
    msg = b"the OS random generator"
    fds = lambda: len(os.listdir("/proc/self/fd"))
    m = int(sys.argv[2])
    out = {
        "generate": armed(m, lambda: p256.PrivateKey.generate().to_bytes().hex()),
        "generate_again": armed(m, lambda: p256.PrivateKey.generate().to_bytes().hex()),
        "hedged": armed(m, lambda: key.sign(msg).hex()),
        "deterministic": armed(m, lambda: key.sign(msg, deterministic=True).hex()),
        "deterministic_unarmed": key.sign(msg, deterministic=True).hex(),
        "o_cloexec": os.O_CLOEXEC,
    }
    before = fds()
    out["many"] = armed(m, lambda: len({p256.PrivateKey.generate().to_bytes() for _ in range(50)}))
    out["fd_growth"] = fds() - before
    # The batch calls that draw randomness, on two threads; and those that draw none.
    out["generate_many"] = armed(m, lambda: len({
        sk.to_bytes() for sk in p256.PrivateKey.generate_many(40, threads=2)}))
    out["sign_many_hedged"] = armed(m, lambda: [
        s.hex() for s in p256.sign_many([(key, msg)] * 20, threads=2)])
    out["sign_many_deterministic"] = armed(m, lambda: [
        s.hex() for s in p256.sign_many([(key, msg)] * 20, deterministic=True, threads=2)])
    out["scalar_base_mult_many"] = armed(m, lambda: len(p256.scalar_base_mult_many(
        [key.to_bytes()] * 20, threads=2)))
    # PBES2 draws its salt and IV from os.urandom (through the same getrandom).
    out["encrypted_pem"] = armed(m, lambda: key.to_pem(password=b"pw").decode())
    if out["encrypted_pem"]["value"]:
        pem = out["encrypted_pem"]["value"].encode()
        out["encrypted_pem_decrypts"] = p256.PrivateKey.from_pem(pem, password=b"pw").to_int() == key.to_int()
    if out["hedged"]["value"]:
        sig = bytes.fromhex(out["hedged"]["value"])
        out["hedged_verifies"] = key.public_key.verify(sig, msg)
    # Unarmed again: everything works as before.
    out["after"] = key.public_key.verify(key.sign(msg), msg) and p256.PrivateKey.generate() is not None
    print(json.dumps(out))
""")

MODES = {"eio": 1, "short": 2, "enosys": 3, "eperm": 4, "nodev": 5, "slowdev": 6}


def _elf_machine(path):
    with open(path, "rb") as f:
        head = f.read(20)
    return head[4:6], head[18:20]  # class and byte order, e_machine


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    d = tmp_path_factory.mktemp("os_random")
    src, lib = d / "shim.c", d / "shim.so"
    src.write_text(SHIM_C)
    # The first compiler that builds a shim the interpreter can preload (under qemu, the
    # interpreter is another architecture than the host's cc).
    tried = []
    for cc in dict.fromkeys((os.environ.get("CC"), sysconfig.get_config_var("CC"),
                             "cc", "gcc", "clang")):
        if not cc or not shutil.which(cc.split()[0]):
            continue
        tried.append(cc)
        r = subprocess.run(cc.split() + ["-shared", "-fPIC", "-O1", "-o", str(lib), str(src),
                                         "-ldl"], capture_output=True)
        if r.returncode == 0 and _elf_machine(lib) == _elf_machine(sys.executable):
            return str(lib)
    pytest.skip("no C compiler builds a getrandom shim for this interpreter's architecture "
                f"(tried: {', '.join(tried) or 'none found'})")


def run_child(shim, mode):
    env = dict(os.environ)
    # After any preload already there (make asan's runtime must stay first).
    env["LD_PRELOAD"] = " ".join(p for p in (os.environ.get("LD_PRELOAD"), shim) if p)
    proc = subprocess.run([sys.executable, "-c", CHILD, shim, str(MODES[mode])], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def assert_refused(out, what):
    r = out[what]
    assert r["value"] is None, f"{what} returned {r['value']} with the OS generator failing"
    assert r["error"].startswith("OSError: "), r["error"]
    assert r["getrandom_calls"] >= 1, "the shim never saw getrandom: the test tests nothing"


def assert_deterministic_works(out):
    assert out["deterministic"]["error"] is None
    assert out["deterministic"]["value"] == out["deterministic_unarmed"]
    assert out["deterministic"]["getrandom_calls"] == 0
    assert out["after"] is True


# What draws randomness: refused when the generator fails, working on the fallback.
DRAWS = ("generate", "generate_again", "hedged", "many", "generate_many", "sign_many_hedged",
         "encrypted_pem")


def assert_without_randomness_works(out):
    """The batch calls that need no randomness work, and ask for none, whatever the mode."""
    det = out["sign_many_deterministic"]
    assert det["error"] is None and det["getrandom_calls"] == 0
    assert det["value"] == [out["deterministic_unarmed"]] * 20
    base = out["scalar_base_mult_many"]
    assert base["error"] is None and base["value"] == 20 and base["getrandom_calls"] == 0


@pytest.mark.parametrize("mode", ["eio", "short"])
def test_getrandom_failing_raises_oserror(shim, mode):
    out = run_child(shim, mode)
    for what in DRAWS:
        assert_refused(out, what)
        # An error other than ENOSYS/EPERM is the kernel's answer: no fallback.
        assert out[what]["urandom_opens"] == 0
    assert_deterministic_works(out)
    assert_without_randomness_works(out)


@pytest.mark.parametrize("mode", ["enosys", "eperm", "slowdev"])
def test_getrandom_missing_falls_back_to_dev_urandom(shim, mode):
    out = run_child(shim, mode)
    for what in DRAWS:
        r = out[what]
        assert r["error"] is None, f"{what}: {r['error']}"
        assert r["getrandom_calls"] >= 1, "the shim never saw getrandom: the test tests nothing"
        assert r["urandom_opens"] >= 1, "no /dev/urandom fallback"
        assert r["urandom_flags"] & out["o_cloexec"], "/dev/urandom opened without O_CLOEXEC"
    if mode == "slowdev":  # every read interrupted once, then one byte per read: >= 64 reads
        assert out["generate"]["urandom_reads"] >= 64
    d1, d2 = out["generate"]["value"], out["generate_again"]["value"]
    assert len(d1) == len(d2) == 64 and d1 != d2
    assert out["many"]["value"] == 50
    assert out["generate_many"]["value"] == 40
    assert len(set(out["sign_many_hedged"]["value"])) == 20  # hedged: 20 distinct nonces
    assert out["encrypted_pem_decrypts"] is True
    assert out["fd_growth"] == 0, "the fallback leaks file descriptors"
    assert out["hedged_verifies"] is True
    assert_deterministic_works(out)
    assert_without_randomness_works(out)


def test_getrandom_missing_and_no_dev_urandom_raises_oserror(shim):
    out = run_child(shim, "nodev")
    for what in DRAWS:
        assert_refused(out, what)
        assert out[what]["urandom_opens"] >= 1, "the fallback was not tried"
    assert_deterministic_works(out)
    assert_without_randomness_works(out)
