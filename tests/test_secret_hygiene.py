# SPDX-License-Identifier: Apache-2.0
"""Secrets are wiped from every buffer the core or the binding held them in, checked by
scanning the process's own memory (docs/security.md, "What is wiped").

A child interpreter plants known secrets, uses them through one entry point, drops
every object that holds them, zeroes the caller's own bytearrays, and then reads all of
its writable memory (/proc/self/mem, region by region from /proc/self/maps: the heap,
every anonymous mapping, the thread stacks glibc keeps for reuse) looking for each
secret, big-endian and little-endian (the core's limbs). Found anywhere, a secret was
left behind in memory freed or reused without a wipe.

The scan never makes a plain copy of a secret itself: the secrets travel and are
searched for masked (each byte XOR 0x5A), the memory read is masked the same way before
it is searched, and the one buffer memory is read into is left out by its address.

The planted secrets: private scalars (with a common 8-byte prefix, so that thousands
are found with one search per block of memory), the RFC 6979 nonces k of deterministic
signatures and their inverses (computed here by p256.reference from the same scalars and
digests, in this process, so the child holds them only masked), and an AES key. Where
the documented limits apply (a Python bytes object is immutable and cannot be wiped:
``to_bytes()``, a PEM text, hashlib's PBKDF2 output; docs/security.md lists them), a
scenario does not make such copies.

The negative control, ``control_unwiped``: a copy of a secret in a buffer freed without a
wipe must be found, or the scan proves nothing. (Before the batch's items were wiped
when they grew, ``scalar_base_mult_many`` left about one scalar in seven behind.)
"""

import hashlib
import json
import subprocess
import sys
import textwrap

import pytest

from p256 import reference as ref

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/mem")

MASK = 0x5A

# Runs in the child: argv[1] the scenario, stdin the masked secrets (hex), stdout the
# number of each kind of secret found.
CHILD = textwrap.dedent(r"""
    import ctypes, gc, json, sys
    import p256
    from p256 import _core

    MASK = 0x5A
    XOR = bytes(b ^ MASK for b in range(256))
    spec = json.load(sys.stdin)
    MARK = bytes.fromhex(spec["mark"])               # masked
    scalars = [bytes.fromhex(h) for h in spec["scalars"]]  # masked, MARK first
    loose = {k: [bytes.fromhex(h) for h in v] for k, v in spec["loose"].items()}  # masked
    digests = [bytes.fromhex(h) for h in spec["digests"]]

    def plain(masked):
        # A bytearray with the plain secret, the only plain copy, which the caller zeroes.
        return bytearray(masked).translate(XOR)

    def zero(buffers):
        for b in buffers:
            b[:] = bytes(len(b))

    # What the scan needs, made before the scenario runs: made after, it could take the
    # very blocks a scenario freed (objects of a secret's size) and hide what they held.
    marked = set(scalars) | {s[::-1] for s in scalars}
    found = {"scalar": set(), **{k: set() for k in loose}}
    buf = bytearray(1 << 20)
    lo = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
    hi = lo + len(buf)

    def scan():
        # {kind: how many distinct secrets of that kind were found}, both byte orders.
        with open("/proc/self/maps") as f:
            regions = [line.split() for line in f]
        with open("/proc/self/mem", "rb", buffering=0) as mem:
            for r in regions:
                start, end = (int(x, 16) for x in r[0].split("-"))
                if not r[1].startswith("rw") or r[-1] in ("[vvar]", "[vsyscall]"):
                    continue
                pos = start
                while pos < end:
                    n = min(len(buf), end - pos)
                    try:
                        mem.seek(pos)
                        got = mem.readinto(memoryview(buf)[:n])
                    except OSError:
                        break
                    buf[got:] = bytes(len(buf) - got)
                    m = buf.translate(XOR)
                    def hits(needle):
                        i = m.find(needle)
                        while 0 <= i < got:
                            if not lo <= pos + i < hi:
                                yield i
                            i = m.find(needle, i + 1)
                    for i in hits(MARK):
                        if bytes(m[i:i + 32]) in marked:
                            found["scalar"].add(bytes(m[i:i + 32]))
                    for i in hits(MARK[::-1]):
                        if i >= 24 and bytes(m[i - 24:i + 8]) in marked:
                            found["scalar"].add(bytes(m[i - 24:i + 8]))
                    for kind, needles in loose.items():
                        for s in needles:
                            for form in (s, s[::-1]):
                                for _ in hits(form):
                                    found[kind].add(s)
                    del m
                    if got < n:
                        break
                    pos += n - 31 if pos + n < end else n
        return {k: len(v) for k, v in found.items()}

    def control_unwiped():
        # A secret in buffers freed with no wipe (bytes objects, which nothing can wipe,
        # whose freed blocks pymalloc keeps; of a size the scan does not allocate): the
        # scan must find it.
        secrets = [plain(scalars[0])] + [plain(needles[0]) for needles in loose.values()]
        copies = [bytes(200) + s + bytes(200) for s in secrets for _ in range(64)]
        zero(secrets)
        del copies

    def single_calls():
        ds = [plain(s) for s in scalars]
        keys = [p256.PrivateKey.from_bytes(d) for d in ds]
        peer = p256.PrivateKey.from_int(12345).public_key
        for sk, digest in zip(keys, digests):
            sk.sign_digest(digest, deterministic=True)
            sk.sign_digest(digest, deterministic=True, encoding="raw", low_s=True)
            sk.public_key
            sk.exchange(peer)
        for d in ds:
            p256.scalar_base_mult(d)
            p256.scalar_mult(d, peer.to_bytes())
        zero(ds)
        del keys, sk

    def many_calls():
        ds = [plain(s) for s in scalars]
        p256.scalar_base_mult_many(ds, threads=2)
        keys = [p256.PrivateKey.from_bytes(d) for d in ds]
        peers = [p256.PrivateKey.from_int(7 + i).public_key for i in range(len(keys))]
        p256.exchange_many(list(zip(keys, peers)), threads=2)
        zero(ds)
        del keys

    def many_streamed():
        # The same through generators: the batch grows its items as the stream comes in.
        ds = [plain(s) for s in scalars]
        p256.scalar_base_mult_many((d for d in ds), threads=2)
        keys = [p256.PrivateKey.from_bytes(d) for d in ds]
        peers = [p256.PrivateKey.from_int(7 + i).public_key for i in range(len(keys))]
        p256.exchange_many(((k, q) for k, q in zip(keys, peers)), threads=1)
        zero(ds)
        del keys

    def sign_many_calls():
        ds = [plain(s) for s in scalars]
        keys = [p256.PrivateKey.from_bytes(d) for d in ds]
        zero(ds)
        for threads in (1, 2):
            p256.sign_many(((k, m.encode()) for k, m in zip(keys, spec["messages"])),
                           deterministic=True, threads=threads)
        del keys

    def aes():
        key = plain(loose["aes_key"][0])
        _core.aes_cbc(False, key, bytes(16), bytes(64), 0)
        _core.aes_cbc(True, key, bytes(16), bytes(64), 0)
        zero([key])

    globals()[sys.argv[1]]()
    gc.collect()
    print(json.dumps(scan()))
""")


def masked(data):
    return bytes(b ^ MASK for b in data)


def secrets(count, seed):
    """count scalars in [1, n-1] sharing an 8-byte prefix (reproducible from seed)."""
    mark = hashlib.sha256(b"mark %d" % seed).digest()[:8]
    mark = bytes([mark[0] & 0x7F]) + mark[1:]  # below n's top bytes
    return mark, [mark + hashlib.sha256(b"%d/%d" % (seed, i)).digest()[:24]
                  for i in range(count)]


def run_child(scenario, count=8, signing=0, seed=0):
    """What the child found after `scenario` with `count` scalars, the first `signing` of
    them signing deterministically (each nonce is searched for on its own, unlike the
    scalars: a few dozen at most)."""
    mark, scalars = secrets(count, seed)
    messages = ["message %d" % i for i in range(count)]
    digests = [hashlib.sha256(m.encode()).digest() for m in messages]
    nonces, inverses = [], []
    for s, digest in zip(scalars[:signing], digests):
        k = ref.rfc6979_nonce(ref.P256, int.from_bytes(s, "big"), digest, "sha256")
        nonces.append(k.to_bytes(32, "big"))
        inverses.append(pow(k, -1, ref.P256.n).to_bytes(32, "big"))
    spec = {
        "mark": masked(mark).hex(),
        "scalars": [masked(s).hex() for s in scalars],
        "messages": messages,
        "digests": [d.hex() for d in digests],
        "loose": {
            "nonce": [masked(k).hex() for k in nonces],
            "nonce_inverse": [masked(k).hex() for k in inverses],
            "aes_key": [masked(hashlib.sha256(b"aes key %d" % seed).digest()).hex()],
        },
    }
    proc = subprocess.run([sys.executable, "-c", CHILD, scenario], input=json.dumps(spec),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_control_unwiped_copy_is_found():
    """The scan finds a secret left in freed memory: without this it proves nothing."""
    found = run_child("control_unwiped", signing=1)
    assert found == {k: 1 for k in found}, found


@pytest.mark.parametrize("scenario, count, signing", [
    ("single_calls", 8, 8),
    ("many_calls", 4000, 0),
    ("many_streamed", 4000, 0),
    ("sign_many_calls", 24, 24),
    ("aes", 1, 0),
])
def test_nothing_left_behind(scenario, count, signing):
    found = run_child(scenario, count=count, signing=signing)
    assert found == {k: 0 for k in found}, found
