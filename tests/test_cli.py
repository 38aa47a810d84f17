# SPDX-License-Identifier: Apache-2.0
"""The key subcommands of the `p256` command: keygen, pubkey, sign, verify, ecdh.

Most tests run `p256._cli.main` in this process with its standard streams replaced by
byte buffers (a subprocess costs ~0.1 s of start-up, and this file runs once per
interpreter); what only a process shows runs as users run it, `python -m p256` in a
subprocess: the closed or broken descriptors, the terminal check, the file modes under a
umask, the console script (keygen, sign, verify), and the other commands once each
against their in-process twins (test_a_subprocess_matches_the_in_process_run). Keys are
made once per module. The openssl interop tests are skipped when `openssl` is missing,
except under CI (CI=true), where .ci/run installs it and its absence fails.
"""

import hashlib
import io
import os
import re
import select
import shutil
import stat
import subprocess
import sys
import traceback

import pytest

import p256
from p256 import _cli
from p256 import _der as der

OPENSSL = shutil.which("openssl")
if OPENSSL is None and os.environ.get("CI"):
    raise RuntimeError("openssl is required under CI (.ci/run installs it)")
needs_openssl = pytest.mark.skipif(OPENSSL is None, reason="the openssl command line is not installed")

MSG = b"the p256 command line\n" * 11
HASHES = ["sha256", "sha384", "sha512"]
COMMANDS = ["keygen", "pubkey", "sign", "verify", "ecdh"]
SCRIPT = os.path.join(os.path.dirname(sys.executable), "p256")


def p256_run(*args, input=None, script=None, subprocess_run=False, stdin_fd=None, **kw):
    """Run the command; returns a CompletedProcess (stdout, stderr as bytes).

    In this process unless a subprocess is asked for (subprocess_run, a console script,
    or any keyword of subprocess.run such as preexec_fn). stdin_fd: in this process, the
    standard input is that file descriptor (a real pipe, as a shell gives) instead of a
    buffer holding input."""
    argv = [str(a) for a in args]
    if script or subprocess_run or kw:
        cmd = [script] if script else [sys.executable, "-m", "p256"]
        return subprocess.run(cmd + argv, input=input, capture_output=True, timeout=60, **kw)
    return _run_in_process(argv, input, stdin_fd)


class _Stream(io.TextIOWrapper):
    """A standard stream over a byte buffer, as a pipe is: UTF-8, no terminal."""

    def __init__(self, data: bytes = b""):
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="strict", write_through=True)

    def value(self) -> bytes:
        self.flush()
        return self.buffer.getvalue()


def _run_in_process(argv, input, stdin_fd=None):
    """`python -m p256 ARGV` as a call: exit status from main's return or SystemExit
    (argparse's usage errors and --help), an uncaught exception's traceback on stderr
    with status 1, as the interpreter does."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    stdout, stderr = _Stream(), _Stream()
    if stdin_fd is None:
        stdin = _Stream(input or b"")
    else:
        assert input is None
        stdin = io.TextIOWrapper(open(stdin_fd, "rb", closefd=False), encoding="utf-8")
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        try:
            code = _cli.main(argv)
        except SystemExit as e:
            code = e.code
        except BaseException:
            traceback.print_exc()
            code = 1
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
        return subprocess.CompletedProcess(["p256", *argv], code, stdout.value(), stderr.value())
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams


def ok(*args, **kw) -> bytes:
    proc = p256_run(*args, **kw)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    return proc.stdout


def openssl(*args, input=None) -> bytes:
    proc = subprocess.run([OPENSSL, *map(str, args)], input=input, capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, "openssl %s: %s" % (" ".join(map(str, args)), proc.stderr.decode())
    return proc.stdout


def error_line(proc, command: str, shown: str) -> str:
    """The single stderr line of a failed command: exit 2, 'p256 <cmd>: <file>: <reason>'."""
    err = proc.stderr.decode()
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err
    assert proc.stdout == b""
    lines = err.splitlines()
    assert len(lines) == 1, err
    prefix = "p256 %s: %s: " % (command, shown)
    assert lines[0].startswith(prefix), (lines[0], prefix)
    return lines[0][len(prefix):]


class Keys:
    """One key in every input form, and a second key for ECDH, in one directory."""


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("keys")
    k = Keys()
    k.dir = d
    k.sk = p256.PrivateKey.generate()
    k.pk = k.sk.public_key
    k.sk2 = p256.PrivateKey.generate()
    files = {
        "pkcs8.pem": k.sk.to_pem("pkcs8"),
        "sec1.pem": k.sk.to_pem("sec1"),
        "pkcs8.der": k.sk.to_der("pkcs8"),
        "sec1.der": k.sk.to_der("sec1"),
        "pub.pem": k.pk.to_pem(),
        "pubc.pem": k.pk.to_pem(compressed=True),
        "pub.der": k.pk.to_der(),
        "other.pem": k.sk2.to_pem(),
        "other.pub.pem": k.sk2.public_key.to_pem(),
        "msg": MSG,
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
        setattr(k, name.replace(".", "_"), d / name)
    return k


# -- keygen -----------------------------------------------------------------------------------


def _umask_022():
    os.umask(0o022)  # so a 0600 file proves the mode is ours, not the umask's


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.parametrize("fmt, label", [(None, b"PRIVATE KEY"), ("pkcs8", b"PRIVATE KEY"),
                                        ("sec1", b"EC PRIVATE KEY")])
def test_keygen_stdout(fmt, label):
    out = ok("keygen", *(["--format", fmt] if fmt else []))
    assert out.startswith(b"-----BEGIN " + label + b"-----\n")
    sk = p256.PrivateKey.from_pem(out)
    assert sk.to_pem(fmt or "pkcs8") == out
    again = ok("keygen", "-o", "-", *(["--format", fmt] if fmt else []))
    assert again.startswith(b"-----BEGIN " + label + b"-----\n") and again != out
    p256.PrivateKey.from_pem(again)


def test_keygen_file_mode_refusal_and_force(tmp_path):
    path = tmp_path / "key.pem"
    assert ok("keygen", "-o", path, "--format", "sec1", preexec_fn=_umask_022) == b""
    assert mode(path) == 0o600
    first = path.read_bytes()
    assert first.startswith(b"-----BEGIN EC PRIVATE KEY-----")
    p256.PrivateKey.from_pem(first)

    # an existing file is kept: refused without --force
    proc = p256_run("keygen", "-o", path)
    assert "already exists" in error_line(proc, "keygen", str(path))
    assert "--force" in proc.stderr.decode()
    assert path.read_bytes() == first

    # --force replaces it with a new 0600 file, even over a 0644 one, and leaves no
    # temporary file behind
    os.chmod(path, 0o644)
    assert ok("keygen", "-o", path, "--force", preexec_fn=_umask_022) == b""
    second = path.read_bytes()
    assert second != first and second.startswith(b"-----BEGIN PRIVATE KEY-----")
    assert p256.PrivateKey.from_pem(second).to_bytes() != p256.PrivateKey.from_pem(first).to_bytes()
    assert mode(path) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["key.pem"]

    # --force on a new file works too
    fresh = tmp_path / "fresh.pem"
    ok("keygen", "-o", fresh, "--force", preexec_fn=_umask_022)
    assert mode(fresh) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["fresh.pem", "key.pem"]


def test_keygen_never_follows_symlinks(tmp_path):
    target = tmp_path / "target"
    target.write_bytes(b"precious\n")
    link = tmp_path / "link.pem"
    link.symlink_to(target)
    assert "already exists" in error_line(p256_run("keygen", "-o", link), "keygen", str(link))
    assert target.read_bytes() == b"precious\n"
    # a dangling link is not followed to create its target
    dangling = tmp_path / "dangling.pem"
    dangling.symlink_to(tmp_path / "nowhere")
    error_line(p256_run("keygen", "-o", dangling), "keygen", str(dangling))
    assert not (tmp_path / "nowhere").exists()
    # --force replaces the link itself; the file it pointed to is untouched
    ok("keygen", "-o", link, "--force")
    assert not link.is_symlink() and mode(link) == 0o600
    assert target.read_bytes() == b"precious\n"


def test_keygen_force_onto_directory_fails_cleanly(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    error_line(p256_run("keygen", "-o", d, "--force"), "keygen", str(d))
    assert os.listdir(d) == [] and sorted(os.listdir(tmp_path)) == ["d"]


# -- pubkey -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pkcs8.pem", "sec1.pem", "pkcs8.der", "sec1.der", "pub.pem",
                                  "pubc.pem", "pub.der"])
def test_pubkey_from_every_key_form(keys, name):
    path = keys.dir / name
    assert ok("pubkey", path) == keys.pk.to_pem()
    assert ok("pubkey", path, "--compressed") == keys.pk.to_pem(compressed=True)


def test_pubkey_to_file_and_from_stdin(keys, tmp_path):
    out = tmp_path / "pub.pem"
    assert ok("pubkey", keys.sec1_pem, "-o", out) == b""
    assert out.read_bytes() == keys.pk.to_pem()
    assert ok("pubkey", "-", input=keys.sk.to_pem()) == keys.pk.to_pem()


def test_pem_file_with_several_blocks(keys, tmp_path):
    """The first key block decides where a public key will do; sign finds the private one."""
    both = tmp_path / "both.pem"
    both.write_bytes(b"comment\n" + keys.sk2.public_key.to_pem() + keys.sk.to_pem("sec1"))
    assert ok("pubkey", both) == keys.sk2.public_key.to_pem()
    sig = ok("sign", both, keys.msg, "--deterministic")
    assert sig == keys.sk.sign(MSG, deterministic=True)
    both.write_bytes(keys.sk.to_pem() + keys.sk2.public_key.to_pem())
    assert ok("pubkey", both) == keys.pk.to_pem()


# -- sign and verify --------------------------------------------------------------------------


@pytest.mark.parametrize("hname", ["sha224", "sha256", "sha384", "sha512", "sha3_256",
                                   "sha3_384", "sha3_512"])
def test_prehashed_signing_is_the_api_signature(keys, hname):
    """The CLI hashes in chunks then signs the digest with sign_digest(hash=...): byte for
    byte sk.sign(msg, ...), for every hash (the nonce's HMAC is the digest's hash)."""
    digest = hashlib.new(hname, MSG).digest()
    for enc in ("der", "raw"):
        got = keys.sk.sign_digest(digest, hash=hname, encoding=enc, deterministic=True)
        assert got == keys.sk.sign(MSG, hash=hname, encoding=enc, deterministic=True)
        hedged = keys.sk.sign_digest(digest, hash=hname, encoding=enc)
        assert hedged != got
        assert keys.pk.verify(hedged, MSG, hash=hname, encoding=enc)
        assert keys.pk.verify_digest(hedged, digest, hash=hname, encoding=enc)


@pytest.mark.parametrize("hname", HASHES)
def test_sign_deterministic_equals_api(keys, tmp_path, hname):
    for raw in (False, True):
        enc = "raw" if raw else "der"
        flags = ["--hash", hname, "--deterministic"] + (["--raw"] if raw else [])
        expected = keys.sk.sign(MSG, hash=hname, encoding=enc, deterministic=True)
        assert ok("sign", keys.pkcs8_pem, keys.msg, *flags) == expected
        sig = tmp_path / ("sig." + enc)
        assert ok("sign", keys.sec1_der, "-", "-o", sig, *flags, input=MSG) == b""
        assert sig.read_bytes() == expected
        # and verify, message from a file and from stdin
        vflags = ["--hash", hname] + (["--raw"] if raw else [])
        assert ok("verify", keys.pub_pem, keys.msg, sig, *vflags) == b"OK\n"
        assert ok("verify", keys.pub_pem, sig, *vflags, input=MSG) == b"OK\n"


def test_sign_hedged(keys, tmp_path):
    a = ok("sign", keys.pkcs8_pem, keys.msg)
    b = ok("sign", keys.pkcs8_pem, input=MSG)
    assert a != b  # fresh randomness in every nonce
    assert keys.pk.verify(a, MSG) and keys.pk.verify(b, MSG)
    r = ok("sign", keys.pkcs8_pem, keys.msg, "--raw", "--hash", "sha512")
    assert len(r) == 64 and keys.pk.verify(r, MSG, hash="sha512", encoding="raw")


def test_large_message_is_streamed(keys, tmp_path):
    big = tmp_path / "big"
    data = os.urandom(1 << 16) * 40 + b"tail"  # 2.5 MiB: several chunks, a partial last one
    big.write_bytes(data)
    for hname in HASHES:
        expected = keys.sk.sign(data, hash=hname, deterministic=True)
        assert ok("sign", keys.sec1_pem, big, "--deterministic", "--hash", hname) == expected
    sig = tmp_path / "sig"
    sig.write_bytes(expected)
    assert ok("verify", keys.pub_der, "--hash", "sha512", sig, input=data) == b"OK\n"


def test_verify_argument_forms(keys, tmp_path):
    sig = tmp_path / "sig"
    sig.write_bytes(keys.sk.sign(MSG, encoding="raw"))
    # options anywhere, even between the positionals
    assert ok("verify", keys.pub_pem, keys.msg, "--raw", sig) == b"OK\n"
    assert ok("verify", "--raw", keys.pub_pem, "-", sig, input=MSG) == b"OK\n"
    # a private key (PEM or DER) as PUBKEY, a compressed public key
    for key in (keys.sec1_pem, keys.pkcs8_der, keys.pubc_pem):
        assert ok("verify", key, keys.msg, sig, "--raw") == b"OK\n"
    # the signature from stdin, the message from a file
    assert ok("verify", keys.pub_pem, keys.msg, "-", "--raw", input=sig.read_bytes()) == b"OK\n"


def test_verify_fail_exit_1(keys, tmp_path):
    der_sig = keys.sk.sign(MSG)
    sig = tmp_path / "sig"
    sig.write_bytes(der_sig)

    def fails(*args, **kw):
        proc = p256_run("verify", *args, **kw)
        assert (proc.returncode, proc.stdout, proc.stderr) == (1, b"FAIL\n", b"")

    fails(keys.pub_pem, sig, input=MSG + b".")                      # tampered message
    fails(keys.pub_pem, sig, "--hash", "sha384", input=MSG)         # other hash
    fails(keys.other_pub_pem, keys.msg, sig)                        # other key
    tampered = bytearray(der_sig)
    tampered[-1] ^= 1                                               # inside s: still DER
    sig.write_bytes(bytes(tampered))
    fails(keys.pub_pem, keys.msg, sig)
    # well-formed DER but r, s out of range: invalid signatures, not input errors
    for r, s in ((p256.N, 1), (0, 1), (-1, 5), (1, p256.N + 1)):
        sig.write_bytes(der.sequence(der.integer(r), der.integer(s)))
        fails(keys.pub_pem, keys.msg, sig)
    raw = bytearray(keys.sk.sign(MSG, encoding="raw"))
    raw[5] ^= 0x40
    sig.write_bytes(bytes(raw))
    fails(keys.pub_pem, keys.msg, sig, "--raw")
    sig.write_bytes(b"\xff" * 64)  # r, s >= n
    fails(keys.pub_pem, keys.msg, sig, "--raw")


def test_every_core_readable_der_signature_is_readable_here(keys):
    """The exit-2 check of a DER signature must never reject what the core would verify:
    real signatures (short r and s included), and the edge encodings the core accepts."""
    digest = hashlib.sha256(MSG).digest()
    lengths = set()
    for _ in range(2000):
        sig = keys.sk.sign_digest(digest)
        assert _cli._der_signature_problem(sig) is None, sig.hex()
        lengths.add(sig[3])
    assert {32, 33} <= lengths  # r with and without the sign byte
    for r, s in ((1, 1), (2**255, 2**256 - 1), (0x7F, 0x80), (p256.N - 1, p256.N - 1)):
        sig = der.sequence(der.integer(r), der.integer(s))
        assert _cli._der_signature_problem(sig) is None
    for bad in (b"", b"\x30\x00", b"\x30\x03\x02\x01\x01", b"\x30\x81\x06\x02\x01\x01\x02\x01\x01",
                b"\x30\x07\x02\x02\x00\x01\x02\x01\x01", b"\x30\x06\x02\x01\x01\x04\x01\x01"):
        assert _cli._der_signature_problem(bad)


def test_sign_refuses_binary_on_a_terminal(keys, tmp_path):
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "p256", "sign", str(keys.sec1_pem),
                               str(keys.msg)], stdout=slave, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=60)
        assert proc.returncode == 2
        err = proc.stderr.decode()
        assert err.startswith("p256 sign: <stdout>: is a terminal") and "-o FILE" in err
        assert len(err.splitlines()) == 1
        assert select.select([master], [], [], 0)[0] == []  # nothing reached the terminal
        # with -o, a terminal stdout is fine; text outputs go to the terminal
        out = tmp_path / "sig"
        proc = subprocess.run([sys.executable, "-m", "p256", "sign", str(keys.sec1_pem),
                               str(keys.msg), "-o", str(out)], stdout=slave, timeout=60)
        assert proc.returncode == 0 and keys.pk.verify(out.read_bytes(), MSG)
        proc = subprocess.run([sys.executable, "-m", "p256", "pubkey", str(keys.sec1_pem)],
                              stdout=slave, timeout=60)
        assert proc.returncode == 0
        assert select.select([master], [], [], 5)[0] == [master]
        assert os.read(master, 4096).startswith(b"-----BEGIN PUBLIC KEY-----")
    finally:
        os.close(slave)
        os.close(master)


# -- ecdh -------------------------------------------------------------------------------------


def test_ecdh(keys):
    shared = keys.sk.exchange(keys.sk2.public_key)
    assert ok("ecdh", keys.pkcs8_pem, keys.other_pub_pem) == shared.hex().encode() + b"\n"
    assert ok("ecdh", keys.other_pem, keys.pub_der) == shared.hex().encode() + b"\n"
    assert ok("ecdh", keys.other_pem, keys.sec1_der) == shared.hex().encode() + b"\n"
    assert ok("ecdh", "-", keys.other_pub_pem, input=keys.sk.to_pem()) == shared.hex().encode() + b"\n"


# -- errors: exit 2, one line naming the file and the reason ------------------------------------


@pytest.fixture(scope="module")
def bad(keys, tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    sig = keys.sk.sign(MSG)
    files = {
        "empty": b"",
        "text.pem": b"just some text\n",
        "jwk.json": b'{"kty": "EC"}\n',
        "broken.pem": b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n",
        "noend.pem": keys.sk.to_pem()[:-26],
        "cert.pem": b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "badder.der": b"\x30\x03\x02\x01\x07",
        "mismatch.pem": keys.sk.to_pem().replace(b"PRIVATE KEY", b"EC PRIVATE KEY"),
        "garbage.sig": b"\x01\x02garbage",
        "trailing.sig": sig + b"\n",
        "badlen.sig": b"\x30" + bytes([sig[1] + 1]) + sig[2:],
        "rawish.sig": b"\x11" * 64,
        "short.raw": keys.sk.sign(MSG, encoding="raw")[:63],
        "der.sig": sig,
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    (d / "dir").mkdir()
    return d


# (arguments with {k} = keys dir and {b} = bad dir, the file named, a part of the reason)
ERRORS = [
    ("sign {b}/missing.pem {k}/msg", "{b}/missing.pem", "No such file or directory"),
    ("sign {k}/pkcs8.pem {b}/missing", "{b}/missing", "No such file or directory"),
    ("sign {b}/dir {k}/msg", "{b}/dir", "Is a directory"),
    ("sign {k}/pkcs8.pem {b}/dir", "{b}/dir", "Is a directory"),
    ("sign {b}/empty {k}/msg", "{b}/empty", "empty file"),
    ("sign {b}/text.pem {k}/msg", "{b}/text.pem", "not a key: neither PEM"),
    ("pubkey {b}/jwk.json", "{b}/jwk.json", "not a key: neither PEM"),
    ("sign {b}/broken.pem {k}/msg", "{b}/broken.pem", "not valid base64"),
    ("pubkey {b}/noend.pem", "{b}/noend.pem", "has no END line"),
    ("pubkey {b}/cert.pem", "{b}/cert.pem", "no key found"),
    ("verify {b}/badder.der {k}/msg {b}/der.sig", "{b}/badder.der", "malformed"),
    ("sign {b}/mismatch.pem {k}/msg", "{b}/mismatch.pem", "does not fit its contents"),
    ("sign {k}/pub.pem {k}/msg", "{k}/pub.pem", "this is a public key; `p256 sign` needs the private key"),
    ("sign {k}/pub.der {k}/msg", "{k}/pub.der", "this is a public key"),
    ("ecdh {k}/pubc.pem {k}/pub.pem", "{k}/pubc.pem", "this is a public key; `p256 ecdh`"),
    ("ecdh {k}/sec1.pem {b}/text.pem", "{b}/text.pem", "not a key"),
    ("verify {k}/pub.pem {k}/msg {b}/missing.sig", "{b}/missing.sig", "No such file or directory"),
    ("verify {k}/pub.pem {k}/msg {b}/empty", "{b}/empty", "empty file"),
    ("verify {k}/pub.pem {k}/msg {b}/garbage.sig", "{b}/garbage.sig", "not a DER ECDSA signature"),
    ("verify {k}/pub.pem {k}/msg {b}/trailing.sig", "{b}/trailing.sig", "unexpected octet"),
    ("verify {k}/pub.pem {k}/msg {b}/badlen.sig", "{b}/badlen.sig", "not a DER ECDSA signature"),
    ("verify {k}/pub.pem {k}/msg {b}/rawish.sig", "{b}/rawish.sig", "use --raw"),
    ("verify --raw {k}/pub.pem {k}/msg {b}/short.raw", "{b}/short.raw", "64 bytes; this one has 63"),
    ("verify --raw {k}/pub.pem {k}/msg {b}/der.sig", "{b}/der.sig", "drop --raw"),
    ("verify {k}/pub.pem {b}/missing {b}/der.sig", "{b}/missing", "No such file or directory"),
    ("verify {k}/pub.pem - -", "<stdin>", "only one input"),
    ("sign - -", "<stdin>", "only one input"),
    ("sign {k}/sec1.pem {k}/msg -o {b}/nodir/sig", "{b}/nodir/sig", "No such file or directory"),
    ("pubkey {k}/sec1.pem -o {b}/dir", "{b}/dir", "Is a directory"),
    ("keygen -o {b}/nodir/key.pem", "{b}/nodir/key.pem", "No such file or directory"),
]


@pytest.mark.parametrize("args, shown, reason", ERRORS, ids=[e[0].split()[0] + ":" + e[2] for e in ERRORS])
def test_errors(keys, bad, args, shown, reason):
    fill = {"k": keys.dir, "b": bad}
    proc = p256_run(*args.format(**fill).split(), input=b"")
    assert reason in error_line(proc, args.split()[0], shown.format(**fill))


def test_output_never_replaces_an_input(keys, tmp_path):
    key = tmp_path / "key.pem"
    key.write_bytes(keys.sk.to_pem())
    link = tmp_path / "link"
    link.symlink_to(key)
    msg = tmp_path / "msg"
    msg.write_bytes(MSG)
    for args, out in ((["pubkey", key], key), (["pubkey", key], link),
                      (["sign", key, msg], msg), (["sign", link, msg], key)):
        proc = p256_run(*args, "-o", out)
        assert "is also an input" in error_line(proc, args[0], str(out))
    assert key.read_bytes() == keys.sk.to_pem() and msg.read_bytes() == MSG


def test_usage_errors_exit_2(keys):
    for args in (["verify", str(keys.pub_pem)], ["sign"], ["verify", "a", "b", "c", "d"],
                 ["sign", str(keys.sec1_pem), "--hash", "md5"], ["keygen", "--format", "jwk"]):
        proc = p256_run(*args)
        assert proc.returncode == 2 and b"usage: p256 " in proc.stderr
        assert b"Traceback" not in proc.stderr


def test_handler_boundary_in_process(keys, monkeypatch, capsys, tmp_path):
    out = str(tmp_path / "sig")

    def interrupted(path, hname):
        raise KeyboardInterrupt

    monkeypatch.setattr(_cli, "_digest", interrupted)
    assert _cli.main(["sign", str(keys.sec1_pem), str(keys.msg), "-o", out]) == 130
    assert "Traceback" not in capsys.readouterr().err

    def broken(path, hname):
        raise ValueError("something unexpected")

    monkeypatch.setattr(_cli, "_digest", broken)
    assert _cli.main(["sign", str(keys.sec1_pem), str(keys.msg), "-o", out]) == 2
    assert capsys.readouterr().err == "p256 sign: something unexpected\n"
    assert not os.path.exists(out)


def test_closed_stdin_and_stdout(keys):
    """Started with fd 0 or 1 closed, Python has no sys.stdin/sys.stdout: still one line."""
    proc = p256_run("sign", keys.sec1_pem, "-o", os.devnull, preexec_fn=lambda: os.close(0))
    assert "closed" in error_line(proc, "sign", "<stdin>")
    proc = p256_run("pubkey", "-", preexec_fn=lambda: os.close(0))
    assert "closed" in error_line(proc, "pubkey", "<stdin>")
    sig = keys.sk.sign(MSG)
    for args in (["ecdh", keys.sec1_pem, keys.pub_pem], ["pubkey", keys.sec1_pem],
                 ["keygen"], ["verify", keys.pub_pem, keys.msg, "-"]):
        proc = subprocess.run([sys.executable, "-m", "p256", *map(str, args)], input=sig,
                              stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), timeout=60)
        assert proc.returncode == 2
        assert proc.stderr.decode() == "p256 %s: <stdout>: closed (the process has no standard output)\n" % args[0]


def test_broken_pipe_is_quiet(keys):
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the command writes
    try:
        proc = subprocess.run([sys.executable, "-m", "p256", "pubkey", str(keys.sec1_pem)],
                              stdout=w, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    assert proc.returncode == 1 and proc.stderr == b""


# -- help and the console script ----------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_an_example(command):
    out = ok(command, "--help").decode()
    assert out.startswith("usage: p256 %s " % command)
    examples = out.split("examples:\n", 1)[1]
    assert ("  p256 %s " % command) in examples
    assert "exit status:" in examples


def test_top_level_help_lists_the_commands():
    out = ok("--help").decode()
    for command in COMMANDS + ["bench"]:
        assert "\n    %s " % command in out


@pytest.mark.parametrize("args, stdin", [
    ("pubkey {sec1_pem} --compressed", None),
    ("sign {pkcs8_pem} {msg} --deterministic --hash sha384 --raw", None),
    ("sign {sec1_der} - --deterministic", MSG),
    ("verify {pub_pem} {msg} {sig}", None),
    ("verify {pub_pem} - {sig}", MSG[:-1]),
    ("ecdh {other_pem} {pub_der}", None),
    ("pubkey {dir}/missing.pem", None),
    ("sign --hash md5 {sec1_pem}", None),
    ("verify --help", None),
    ("--version", None),
])
def test_a_subprocess_matches_the_in_process_run(keys, args, stdin, monkeypatch):
    """What the in-process runner reports is what `python -m p256` does: status, stdout
    and stderr byte for byte, for pubkey, sign, verify and ecdh (keygen's output is
    random: test_console_script runs it in a process), a failed verification, a file
    error, a usage error and the help (argparse wraps it to COLUMNS, set for both)."""
    sig = keys.dir / "twin.sig"
    if not sig.exists():
        sig.write_bytes(keys.sk.sign(MSG))
    argv = args.format(sig=sig, **{k: v for k, v in vars(keys).items() if not k.startswith("sk")})
    argv = argv.split()
    monkeypatch.setenv("COLUMNS", "80")
    here = p256_run(*argv, input=stdin)
    there = p256_run(*argv, input=stdin, subprocess_run=True)
    assert (there.returncode, there.stdout, there.stderr) == (here.returncode, here.stdout, here.stderr)
    assert b"Traceback" not in here.stderr


@pytest.mark.skipif(not os.path.exists(SCRIPT), reason="the p256 console script is not installed")
def test_console_script(keys, tmp_path):
    key = tmp_path / "k.pem"
    assert ok("keygen", "-o", key, script=SCRIPT) == b""
    sig = tmp_path / "sig"
    ok("sign", key, keys.msg, "-o", sig, script=SCRIPT)
    assert ok("verify", key, keys.msg, sig, script=SCRIPT) == b"OK\n"
    assert ok("--version", script=SCRIPT) == b"p256 %s\n" % p256.__version__.encode()


# -- openssl interop ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ossl(tmp_path_factory):
    """Keys written by openssl: SEC1 from ecparam, PKCS#8 from genpkey, their public keys."""
    if OPENSSL is None:
        pytest.skip("the openssl command line is not installed")
    d = tmp_path_factory.mktemp("openssl")
    (d / "sec1.pem").write_bytes(openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout"))
    (d / "pkcs8.pem").write_bytes(openssl("genpkey", "-algorithm", "EC", "-pkeyopt",
                                          "ec_paramgen_curve:P-256"))
    for name in ("sec1", "pkcs8"):
        (d / (name + ".pub.pem")).write_bytes(openssl("pkey", "-in", d / (name + ".pem"), "-pubout"))
    (d / "msg").write_bytes(MSG)
    return d


@needs_openssl
@pytest.mark.parametrize("name", ["sec1", "pkcs8"])
def test_openssl_keys_sign_here_verify_there(ossl, tmp_path, name):
    key, pub, msg = ossl / (name + ".pem"), ossl / (name + ".pub.pem"), ossl / "msg"
    for hname in HASHES:
        for det in ([], ["--deterministic"]):
            sig = tmp_path / "sig"
            ok("sign", key, msg, "-o", sig, "--hash", hname, *det)
            assert openssl("dgst", "-" + hname, "-verify", pub, "-signature", sig, msg) \
                == b"Verified OK\n"
            proc = subprocess.run([OPENSSL, "dgst", "-" + hname, "-verify", str(pub),
                                   "-signature", str(sig)], input=MSG + b"x", capture_output=True)
            assert proc.returncode == 1 and b"Verification failure" in proc.stdout


@needs_openssl
@pytest.mark.parametrize("name", ["sec1", "pkcs8"])
def test_openssl_signatures_verify_here(ossl, tmp_path, name):
    key, pub, msg = ossl / (name + ".pem"), ossl / (name + ".pub.pem"), ossl / "msg"
    sig = tmp_path / "sig"
    for hname in HASHES:
        openssl("dgst", "-" + hname, "-sign", key, "-out", sig, msg)
        assert ok("verify", pub, msg, sig, "--hash", hname) == b"OK\n"
        assert ok("verify", key, sig, "--hash", hname, input=MSG) == b"OK\n"
        proc = p256_run("verify", pub, sig, "--hash", hname, input=MSG[:-1])  # tampered message
        assert (proc.returncode, proc.stdout) == (1, b"FAIL\n")
    data = bytearray(sig.read_bytes())
    data[-2] ^= 0x10  # a tampered signature (inside s, still DER)
    sig.write_bytes(bytes(data))
    proc = p256_run("verify", pub, msg, sig, "--hash", "sha512")
    assert (proc.returncode, proc.stdout) == (1, b"FAIL\n")


@needs_openssl
@pytest.mark.parametrize("fmt", ["pkcs8", "sec1"])
def test_our_keys_in_openssl(ossl, tmp_path, fmt):
    key = tmp_path / "key.pem"
    ok("keygen", "-o", key, "--format", fmt)
    sk = p256.PrivateKey.from_pem(key.read_bytes())
    assert openssl("pkey", "-in", key) == sk.to_pem("pkcs8")
    assert openssl("ec", "-in", key) == sk.to_pem("sec1")
    assert ok("pubkey", key) == openssl("pkey", "-in", key, "-pubout")
    assert ok("pubkey", key, "--compressed") == \
        openssl("ec", "-in", key, "-pubout", "-conv_form", "compressed")
    peer = ossl / "pkcs8.pub.pem"
    expected = openssl("pkeyutl", "-derive", "-inkey", key, "-peerkey", peer).hex()
    assert ok("ecdh", key, peer) == expected.encode() + b"\n"


@needs_openssl
def test_openssl_key_errors(ossl, tmp_path):
    p384 = tmp_path / "p384.pem"
    p384.write_bytes(openssl("ecparam", "-name", "secp384r1", "-genkey", "-noout"))
    reason = error_line(p256_run("sign", p384, ossl / "msg"), "sign", str(p384))
    assert "secp384r1 (P-384), not P-256" in reason
    reason = error_line(p256_run("verify", p384, ossl / "msg", ossl / "msg"), "verify", str(p384))
    assert "secp384r1 (P-384), not P-256" in reason
    pub384 = tmp_path / "p384.pub.pem"
    pub384.write_bytes(openssl("pkey", "-in", p384, "-pubout"))
    reason = error_line(p256_run("ecdh", ossl / "sec1.pem", pub384), "ecdh", str(pub384))
    assert "secp384r1 (P-384)" in reason
    # encrypted keys: PKCS#8 EncryptedPrivateKeyInfo and the legacy PEM encryption
    enc8 = tmp_path / "enc8.pem"
    enc8.write_bytes(openssl("pkey", "-in", ossl / "pkcs8.pem", "-aes256", "-passout", "pass:pw"))
    enc1 = tmp_path / "enc1.pem"
    enc1.write_bytes(openssl("ec", "-in", ossl / "sec1.pem", "-aes256", "-passout", "pass:pw"))
    encd = tmp_path / "enc.der"
    encd.write_bytes(openssl("pkcs8", "-topk8", "-in", ossl / "pkcs8.pem", "-v2", "aes256",
                             "-passout", "pass:pw", "-outform", "DER"))
    for path in (enc8, enc1, encd):
        for cmd, *rest in (("sign", ossl / "msg"), ("pubkey",), ("ecdh", ossl / "sec1.pem")):
            reason = error_line(p256_run(cmd, path, *rest), cmd, str(path))
            # the CLI's own options, never the API's password=... (which it has no way to pass)
            assert "password=" not in reason
            assert "--password-file FILE or --password-fd N" in reason
            if path == enc1:  # legacy PEM encryption: how to convert it
                assert "Proc-Type: 4,ENCRYPTED" in reason and "openssl pkcs8 -topk8" in reason
            else:  # encrypted PKCS#8: how to give its password, or decrypt it
                assert "an encrypted private key" in reason
                assert "openssl pkey -in %s -out plain.pem" % path in reason
    # ... and with its password, from a file or a file descriptor, each command reads it
    pw = tmp_path / "pw.txt"
    pw.write_bytes(b"pw\n")
    want = openssl("pkey", "-in", ossl / "pkcs8.pem", "-pubout")
    for path in (enc8, encd):
        assert ok("pubkey", path, "--password-file", pw) == want
        r, w = os.pipe()
        os.write(w, b"pw\n")
        os.close(w)
        try:
            assert ok("pubkey", path, "--password-fd", r, pass_fds=(r,)) == want
        finally:
            os.close(r)
        sig = ok("sign", path, ossl / "msg", "--password-file", pw)
        assert ok("verify", ossl / "pkcs8.pem", ossl / "msg", "-", input=sig) == b"OK\n"
        assert ok("verify", path, ossl / "msg", "-", "--password-file", pw, input=sig) == b"OK\n"
        assert ok("ecdh", path, ossl / "sec1.pem", "--password-file", pw) \
            == ok("ecdh", ossl / "pkcs8.pem", ossl / "sec1.pem")
    wrong = tmp_path / "wrong.txt"
    wrong.write_bytes(b"not it\n")
    assert "wrong password" in error_line(p256_run("pubkey", enc8, "--password-file", wrong),
                                          "pubkey", str(enc8))
    reason = error_line(p256_run("pubkey", ossl / "pkcs8.pem", "--password-file", pw),
                        "pubkey", str(ossl / "pkcs8.pem"))
    assert "not encrypted" in reason and "password=" not in reason
    # openssl ecparam -genkey without -noout: an EC PARAMETERS block first, then the key
    both = tmp_path / "both.pem"
    both.write_bytes(openssl("ecparam", "-name", "prime256v1", "-genkey"))
    assert ok("pubkey", both) == openssl("pkey", "-in", both, "-pubout")


# -- --force refuses what is not a regular file ----------------------------------------------


def _special_files(tmp_path):
    """(path, what it is, check it is still that) for each non-regular target --force must
    refuse. The device node is a new one made in tmp_path (as root), or a symlink to
    /dev/null: no real device is ever replaced or written, before or after the fix."""
    out = []
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out.append((fifo, "a FIFO", lambda: stat.S_ISFIFO(os.lstat(fifo).st_mode)))
    link = tmp_path / "null-link"
    link.symlink_to(os.devnull)
    out.append((link, "a symlink to a character device",
                lambda: link.is_symlink() and os.readlink(link) == os.devnull))
    link_dir = tmp_path / "dir-link"
    (tmp_path / "somedir").mkdir()
    link_dir.symlink_to(tmp_path / "somedir")
    out.append((link_dir, "a symlink to a directory", lambda: link_dir.is_symlink()))
    fifo_link = tmp_path / "fifo-link"
    fifo_link.symlink_to(fifo)
    out.append((fifo_link, "a symlink to a FIFO", lambda: fifo_link.is_symlink()))
    if os.geteuid() == 0:
        node = tmp_path / "null-node"
        os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # like /dev/null, in tmp
        out.append((node, "a character device", lambda: stat.S_ISCHR(os.lstat(node).st_mode)))
    return out


def test_keygen_force_refuses_fifos_devices_and_links_to_them(tmp_path):
    for path, kind, unchanged in _special_files(tmp_path):
        proc = p256_run("keygen", "-o", path, "--force")
        reason = error_line(proc, "keygen", str(path))
        assert reason.startswith("is %s, not a regular file; not replaced" % kind), reason
        assert unchanged(), path
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]  # nothing left behind


def test_stdout_write_error_keeps_the_label(keys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        for args in (["keygen"], ["keygen", "--format", "sec1"], ["pubkey", keys.sec1_pem],
                     ["ecdh", keys.sec1_pem, keys.other_pub_pem]):
            proc = subprocess.run([sys.executable, "-m", "p256", *map(str, args)], stdout=full,
                                  stderr=subprocess.PIPE, timeout=60)
            assert proc.returncode == 2
            assert proc.stderr.decode() == "p256 %s: <stdout>: No space left on device\n" % args[0]


def test_key_files_with_a_utf8_bom(keys, tmp_path):
    """The CLI reads them as the API does (tests/test_formats.py), PEM and stdin alike."""
    bom = b"\xef\xbb\xbf"
    priv, pub = tmp_path / "bom.pem", tmp_path / "bom.pub.pem"
    priv.write_bytes(bom + keys.sk.to_pem())
    pub.write_bytes(bom + keys.pk.to_pem())
    assert ok("pubkey", priv) == keys.pk.to_pem()
    assert ok("pubkey", pub) == keys.pk.to_pem()
    assert ok("pubkey", "-", input=bom + keys.sk.to_pem("sec1")) == keys.pk.to_pem()
    sig = ok("sign", priv, keys.msg, "--deterministic")
    assert sig == keys.sk.sign(MSG, deterministic=True)
    (tmp_path / "sig").write_bytes(sig)
    assert ok("verify", pub, keys.msg, tmp_path / "sig") == b"OK\n"
    assert "needs the private key" in error_line(p256_run("sign", pub, keys.msg), "sign", str(pub))


def test_keygen_with_a_password(tmp_path):
    pw = tmp_path / "pw.txt"
    pw.write_bytes(b"correct horse\r\n")  # the line end, CRLF included, is not the password
    key = tmp_path / "key.pem"
    ok("keygen", "-o", key, "--password-file", pw)
    data = key.read_bytes()
    assert data.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n") and mode(key) == 0o600
    p256.PrivateKey.from_pem(data, password="correct horse")
    if OPENSSL:
        openssl("pkey", "-in", key, "-passin", "pass:correct horse", "-noout")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"\n")
    proc = p256_run("keygen", "-o", tmp_path / "k2.pem", "--password-file", empty)
    assert proc.returncode == 2 and b"the password is empty" in proc.stderr
    assert not (tmp_path / "k2.pem").exists()
    proc = p256_run("keygen", "--format", "sec1", "--password-file", pw)
    assert proc.returncode == 2 and b"--format pkcs8" in proc.stderr
    proc = p256_run("keygen", "--password-file", tmp_path / "missing.txt")
    assert proc.returncode == 2 and b"cannot read the password" in proc.stderr
    proc = p256_run("keygen", "--password-file", pw, "--password-fd", "0")
    assert proc.returncode == 2 and b"not allowed with" in proc.stderr


# -- a password beside the data: each input gets exactly its own bytes -------------------------
#
# A password can come from a file, from stdin (`--password-file -`, `--password-fd 0`) or
# from any file descriptor, and the data (key, message, signature, peer key) from files or
# stdin. The password is read first, one byte at a time up to its line end, so whatever
# reads the same stream next starts exactly after that line. The checker below knows each
# command's one right answer: a signature that verifies over the whole message, the key's
# own public key, the expected shared secret, a key that opens with exactly the password.

PW = b" pass  word\t "  # blanks at both ends are part of the password
BIG = hashlib.shake_256(b"a message longer than any read buffer").digest(10_000)
PASSWORD_INPUTS = {"keygen": (), "pubkey": ("key",), "sign": ("key", "msg"),
                   "verify": ("key", "msg", "sig"), "ecdh": ("key", "peer")}
# how the password is given; those marked stdin share the stream with stdin's data
PASSWORD_WAYS = {
    "file": False,           # --password-file FILE (its line ends in CRLF)
    "file -": True,          # --password-file -
    "fd pipe": False,        # --password-fd N, a pipe of its own
    "fd 0": True,            # --password-fd 0
    "fd dup": True,          # --password-fd N, N a duplicate of stdin's descriptor (3<&0)
    "file /dev/fd": True,    # --password-file /dev/fd/N, N stdin's descriptor: the same pipe
}
ON_LINUX = sys.platform.startswith("linux")


def _pipe_holding(data: bytes) -> int:
    """The read end of a pipe that holds data and then ends (the write end is closed)."""
    assert len(data) < 60_000  # within a pipe's buffer: written whole, no writer thread
    r, w = os.pipe()
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(w, view):]
    finally:
        os.close(w)
    return r


def _fast_pbes2(monkeypatch):
    """keygen encrypts with 1,000 PBKDF2 iterations instead of 600,000 (0.3 s each here):
    the reading of the password is under test, not the key derivation."""
    from p256 import _pbes2

    encrypt = _pbes2.encrypt
    monkeypatch.setattr(_pbes2, "encrypt", lambda plain, password, kdf="pbkdf2", iterations=0:
                        encrypt(plain, password, kdf, 1000))


@pytest.fixture(scope="module")
def enc(keys, tmp_path_factory):
    """An encrypted key (password PW, 1,000 iterations: fast), the inputs of each command
    and the one right answer of each."""
    from p256 import _pbes2, _pem

    d = tmp_path_factory.mktemp("enc")
    e = Keys()
    e.sk, e.pk = keys.sk, keys.pk
    e.data = {
        "key": _pem.encode("ENCRYPTED PRIVATE KEY", _pbes2.encrypt(keys.sk.to_der("pkcs8"), PW,
                                                                    iterations=1000)),
        "msg": BIG,
        "sig": keys.sk.sign(BIG),
        "peer": keys.sk2.public_key.to_pem(),
    }
    e.files = {}
    for name, data in e.data.items():
        (d / name).write_bytes(data)
        e.files[name] = d / name
    e.pwfile = d / "pw.txt"
    e.pwfile.write_bytes(PW + b"\r\n")
    e.secret = keys.sk.exchange(keys.sk2.public_key).hex().encode() + b"\n"
    return e


def check_password_case(e, command: str, proc, password: bytes = PW) -> None:
    """The command's one right answer, or an AssertionError."""
    assert proc.returncode == 0, (proc.returncode, proc.stderr.decode())
    assert proc.stderr == b""
    if command == "keygen":
        assert p256.PrivateKey.from_pem(proc.stdout, password=password)
    elif command == "pubkey":
        assert proc.stdout == e.pk.to_pem()
    elif command == "sign":
        assert e.pk.verify(proc.stdout, BIG), "the signature is not over the whole message"
    elif command == "verify":
        assert proc.stdout == b"OK\n"
    else:
        assert proc.stdout == e.secret


def run_password_case(e, command: str, on_stdin, way: str):
    """Run command in this process with its stdin a real pipe: the inputs from files but
    on_stdin (one of them, or None) from stdin; the password given the way named."""
    fds = []
    stdin = e.data[on_stdin] if on_stdin else b""
    args = [command] + ["-" if name == on_stdin else e.files[name]
                        for name in PASSWORD_INPUTS[command]]
    if PASSWORD_WAYS[way]:
        stdin = PW + b"\n" + stdin
    r = _pipe_holding(stdin)
    fds.append(r)
    if way == "file":
        args += ["--password-file", e.pwfile]
    elif way == "file -":
        args += ["--password-file", "-"]
    elif way == "fd 0":
        args += ["--password-fd", "0"]
    elif way == "fd pipe":
        fds.append(_pipe_holding(PW + b"\n"))
        args += ["--password-fd", fds[-1]]
    elif way == "fd dup":
        fds.append(os.dup(r))
        args += ["--password-fd", fds[-1]]
    else:
        args += ["--password-file", "/dev/fd/%d" % r]
    try:
        return p256_run(*args, stdin_fd=r)
    finally:
        for fd in fds:
            os.close(fd)


PASSWORD_CASES = [(command, on_stdin, way)
                  for command, inputs in PASSWORD_INPUTS.items()
                  for on_stdin in (None,) + inputs
                  for way in PASSWORD_WAYS if ON_LINUX or way != "file /dev/fd"]


@pytest.mark.parametrize("command, on_stdin, way", PASSWORD_CASES,
                         ids=["%s-%s-%s" % c for c in PASSWORD_CASES])
def test_password_and_data_each_get_their_own_bytes(enc, monkeypatch, command, on_stdin, way):
    _fast_pbes2(monkeypatch)
    check_password_case(enc, command, run_password_case(enc, command, on_stdin, way))


def test_password_checker_catches_a_buffered_password_reader(enc, monkeypatch):
    """Negative control: the password read through a buffered reader (as it once was,
    os.fdopen(fd).readline) takes the start of the data that shares its stream; the
    checker must see it in every such case."""
    _fast_pbes2(monkeypatch)

    def buffered(fd, limit):
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.readline(limit)

    monkeypatch.setattr(_cli, "_read_line", buffered)
    caught = set()
    for case in PASSWORD_CASES:
        try:
            check_password_case(enc, case[0], run_password_case(enc, *case))
        except AssertionError:
            caught.add(case)
    shared = {c for c in PASSWORD_CASES if c[1] is not None and PASSWORD_WAYS[c[2]]}
    assert shared and shared <= caught, sorted(shared - caught)


@pytest.mark.parametrize("line, password", [
    (b"pw  \n", b"pw  "),                        # trailing blanks are kept
    (b"pw  \r\n", b"pw  "),                      # CRLF is the line end
    (b" \tpw\t \r\r\n", b" \tpw\t \r"),          # a CR before the CRLF is the password's
    (b"caf\xc3\xa9 \r", b"caf\xc3\xa9 "),        # no LF: a last CR is still a line end
    (b"pw \nsecond line\n", b"pw "),             # only the first line
])
@pytest.mark.parametrize("way", ["file", "file -", "fd pipe", "fd 0", "fd dup"])
def test_keygen_encrypts_with_exactly_the_password_given(tmp_path, monkeypatch, line, password,
                                                        way):
    from p256 import _pbes2

    _fast_pbes2(monkeypatch)
    fds = [_pipe_holding(line if way in ("file -", "fd 0", "fd dup") else b"")]
    args = ["keygen"]
    if way == "file":
        (tmp_path / "pw").write_bytes(line)
        args += ["--password-file", tmp_path / "pw"]
    elif way == "file -":
        args += ["--password-file", "-"]
    elif way == "fd 0":
        args += ["--password-fd", "0"]
    else:
        fds.append(_pipe_holding(line) if way == "fd pipe" else os.dup(fds[0]))
        args += ["--password-fd", fds[-1]]
    try:
        proc = p256_run(*args, stdin_fd=fds[0])
    finally:
        for fd in fds:
            os.close(fd)
    check_password_case(None, "keygen", proc, password)
    for near in {password + b"\n", password + b"\r", password.rstrip(b"\r"), password.strip(),
                 line} - {password}:
        with pytest.raises(ValueError, match=re.escape(_pbes2.WRONG_PASSWORD)):
            p256.PrivateKey.from_pem(proc.stdout, password=near)


@pytest.mark.parametrize("args, stdin, reason", [
    ("sign - - --password-file {pw}", b"", "only one input"),
    ("verify {key} - - --password-fd 0", PW + b"\n", "only one input"),
    ("sign {key} - --password-fd 0", PW, "no line end after the password"),
    ("pubkey - --password-file -", PW, "no line end after the password"),
])
def test_password_and_data_on_stdin_refusals(enc, args, stdin, reason):
    """What cannot be told apart is refused: two data inputs on stdin, or a password on
    stdin that stdin's data cannot follow (stdin ends inside its line)."""
    argv = args.format(pw=enc.pwfile, key=enc.files["key"]).split()
    r = _pipe_holding(stdin)
    try:
        proc = p256_run(*argv, stdin_fd=r)
    finally:
        os.close(r)
    assert reason in error_line(proc, argv[0], "<stdin>")


def test_password_fd_0_when_stdin_is_closed(enc, keys):
    """Started with fd 0 closed, fd 0 is not stdin (a file opened later may have it)."""
    proc = p256_run("sign", enc.files["key"], keys.msg, "--password-fd", "0",
                    preexec_fn=lambda: os.close(0))
    assert error_line(proc, "sign", "--password-fd 0") == "cannot read the password: stdin is closed"


def test_password_on_fd_0_leaves_the_whole_message(enc, tmp_path):
    """`(echo pw; cat msg) | p256 sign enc.pem --password-fd 0 -o s.sig`: the password is
    stdin's first line and the message all the rest, byte for byte (a buffered read of
    the password once took the message's first kilobytes with it, and exit 0)."""
    sig = tmp_path / "s.sig"
    proc = p256_run("sign", enc.files["key"], "--password-fd", "0", "-o", sig,
                    input=PW + b"\n" + BIG, subprocess_run=True)
    assert proc.returncode == 0, proc.stderr.decode()
    assert enc.pk.verify(sig.read_bytes(), BIG)


@pytest.mark.parametrize("command, on_stdin, way", [
    ("keygen", None, "fd 0"), ("pubkey", "key", "fd 0"), ("sign", "msg", "fd 0"),
    ("verify", "msg", "fd 0"), ("ecdh", "peer", "fd 0"),
    ("sign", "msg", "file -"), ("sign", "msg", "fd pipe"), ("verify", "sig", "fd pipe"),
])
def test_password_ways_in_a_process(enc, command, on_stdin, way):
    """The real descriptors of a process: stdin is fd 0, the pipe is passed as fd N."""
    args = [command] + ["-" if name == on_stdin else enc.files[name]
                        for name in PASSWORD_INPUTS[command]]
    stdin = enc.data[on_stdin] if on_stdin else b""
    kw = {}
    if way == "fd pipe":
        r = _pipe_holding(PW + b"\n")
        args += ["--password-fd", r]
        kw["pass_fds"] = (r,)
    else:
        stdin = PW + b"\n" + stdin
        args += ["--password-file", "-"] if way == "file -" else ["--password-fd", "0"]
    try:
        proc = p256_run(*args, input=stdin, subprocess_run=True, **kw)
    finally:
        if kw:
            os.close(r)
    check_password_case(enc, command, proc)


# -- outputs: all or nothing ------------------------------------------------------------------
#
# Every output file (-o, bench --json) is written to a new temporary file in its
# directory, fsynced and renamed into place: a failure at any point leaves the previous
# file as it was (or no file) and no temporary file.

OLD = b"the previous contents, which a failed write must leave as they are\n" * 3


def _write_outputs(keys, tmp_path):
    """(name, arguments, the output path, existed before) for every command that writes a
    file: keygen (new, and --force over a file), pubkey -o, sign -o, bench --json."""
    return [
        ("keygen new", ["keygen", "-o", tmp_path / "new.pem"], tmp_path / "new.pem", False),
        ("keygen --force", ["keygen", "--force", "-o", tmp_path / "key.pem"], tmp_path / "key.pem", True),
        ("pubkey", ["pubkey", keys.sec1_pem, "-o", tmp_path / "pub.pem"], tmp_path / "pub.pem", True),
        ("sign", ["sign", keys.sec1_pem, keys.msg, "-o", tmp_path / "msg.sig"], tmp_path / "msg.sig", True),
        ("bench", ["bench", "--smoke", "--no-peers", "--json", tmp_path / "b.json"],
         tmp_path / "b.json", True),
    ]


def _fake_bench(monkeypatch):
    from p256 import _bench

    monkeypatch.setattr(_bench, "run", lambda settings, with_peers=True: {
        "figures": list(range(64)), "cpu": "test"})


def check_all_or_nothing(proc, command, path, existed, before):
    """A failed write: exit 2 with one line naming the file; the previous file intact
    (contents and mode) or still absent; nothing else left in the directory."""
    listing, mode_before = before
    assert sorted(os.listdir(path.parent)) == listing, "a temporary or partial file was left"
    if existed:
        assert path.read_bytes() == OLD, "the previous file was clobbered"
        assert mode(path) == mode_before
    else:
        assert not os.path.lexists(path), "a partial file was left"
    assert error_line(proc, command, str(path))


def _prepare(path, existed):
    if existed:
        path.write_bytes(OLD)
        os.chmod(path, 0o640)
    return sorted(os.listdir(path.parent)), mode(path) if existed else None


class _Fault:
    """os.write fails with ENOSPC once `after` bytes have gone to regular files (the
    call that crosses the mark writes up to it: a short write, then the error), or
    os.fsync / os.replace / os.link fail with EIO."""

    def __init__(self, monkeypatch, where, after=40):
        import errno

        self.left = after
        real_write = os.write

        def write(fd, data):
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return real_write(fd, data)
            if self.left <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            n = real_write(fd, bytes(data[:self.left]))
            self.left -= n
            return n

        def eio(*args, **kw):
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        if where == "write":
            monkeypatch.setattr(os, "write", write)
        else:
            for name in {"fsync": ["fsync"], "rename": ["replace", "link"]}[where]:
                monkeypatch.setattr(os, name, eio)


@pytest.mark.parametrize("where", ["write", "fsync", "rename"])
@pytest.mark.parametrize("name", ["keygen new", "keygen --force", "pubkey", "sign", "bench"])
def test_a_failed_write_leaves_no_partial_file(keys, tmp_path, monkeypatch, name, where):
    _fake_bench(monkeypatch)
    (_, args, path, existed), = [w for w in _write_outputs(keys, tmp_path) if w[0] == name]
    before = _prepare(path, existed)
    with monkeypatch.context() as m:
        _Fault(m, where)
        proc = p256_run(*args)
    check_all_or_nothing(proc, args[0], path, existed, before)


def test_the_write_checker_catches_a_direct_writer(keys, tmp_path, monkeypatch):
    """Negative control: a writer that truncates the file and writes into it in place
    (as `open(path, "wb")` does) leaves a partial file under the same fault."""

    def direct(path, data, mode, replace):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 if mode is None else mode)
        try:
            _cli._write_all(fd, data)
        finally:
            os.close(fd)

    monkeypatch.setattr(_cli, "_write_file", direct)
    _fake_bench(monkeypatch)
    for name, args, path, existed in _write_outputs(keys, tmp_path):
        before = _prepare(path, existed)
        with monkeypatch.context() as m:
            _Fault(m, "write")
            proc = p256_run(*args)
        with pytest.raises(AssertionError, match="partial|clobbered"):
            check_all_or_nothing(proc, args[0], path, existed, before)


def test_a_file_size_limit_leaves_no_partial_file(keys, tmp_path):
    """The kernel's own fault, in a process: RLIMIT_FSIZE makes write() fail with EFBIG
    past 40 bytes, for every command that writes a file. The limit is set once p256 is
    imported (an editable install rebuilds on import, and writes files doing it)."""
    pytest.importorskip("resource")
    code = ("import resource, sys; from p256 import _cli; "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40)); sys.exit(_cli.main())")
    for name, args, path, existed in _write_outputs(keys, tmp_path):
        if name == "bench":
            continue  # a process runs the real benchmark: in this process above
        before = _prepare(path, existed)
        proc = subprocess.run([sys.executable, "-c", code, *map(str, args)],
                              capture_output=True, timeout=60)
        check_all_or_nothing(proc, args[0], path, existed, before)
        assert "File too large" in proc.stderr.decode()


def test_outputs_replace_files_and_keep_their_modes(keys, tmp_path):
    """Public outputs keep an existing file's mode (a new one: 0666 less the umask) and
    write through a symlink, as openssl does; private keys are 0600; a FIFO is written
    into, never replaced; a symlink planted at the temporary name is not followed."""
    import threading

    pub = tmp_path / "pub.pem"
    pub.write_bytes(OLD)
    os.chmod(pub, 0o640)
    ok("pubkey", keys.sec1_pem, "-o", pub)
    assert pub.read_bytes() == keys.pk.to_pem() and mode(pub) == 0o640
    fresh = tmp_path / "fresh.sig"
    ok("sign", keys.sec1_pem, keys.msg, "-o", fresh, preexec_fn=_umask_022)
    assert keys.pk.verify(fresh.read_bytes(), MSG) and mode(fresh) == 0o644
    real = tmp_path / "real.pem"
    real.write_bytes(OLD)
    link = tmp_path / "link.pem"
    link.symlink_to(real.name)
    ok("pubkey", keys.sec1_pem, "-o", link)
    assert link.is_symlink() and real.read_bytes() == keys.pk.to_pem()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    ok("pubkey", keys.sec1_pem, "-o", fifo)
    reader.join(10)
    assert got == [keys.pk.to_pem()] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["fifo", "fresh.sig", "link.pem", "pub.pem", "real.pem"]
    if ON_LINUX:  # an open descriptor is written into: a pipe, a file opened to append
        assert ok("pubkey", keys.sec1_pem, "-o", "/dev/stdout", subprocess_run=True) \
            == keys.pk.to_pem()
        log = tmp_path / "log"
        log.write_bytes(OLD)
        with open(log, "ab") as f:
            proc = subprocess.run([sys.executable, "-m", "p256", "pubkey", str(keys.sec1_pem),
                                   "-o", "/dev/stdout"], stdout=f, timeout=60)
        assert proc.returncode == 0 and log.read_bytes() == OLD + keys.pk.to_pem()


def test_a_symlink_at_the_temporary_name_is_not_followed(keys, tmp_path, monkeypatch):
    import secrets

    victim = tmp_path / "victim"
    victim.write_bytes(OLD)
    names = iter(())
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: next(names))
    for args, out in ((["keygen", "-o"], tmp_path / "k.pem"),
                      (["pubkey", keys.sec1_pem, "-o"], tmp_path / "p.pem")):
        planted = tmp_path / (".%s.planted.tmp" % out.name)
        planted.symlink_to(victim)
        names = iter(["planted", "fresh"])
        ok(*args, out)
        assert victim.read_bytes() == OLD and planted.is_symlink()
        assert out.exists() and not out.is_symlink()
        planted.unlink()
    assert mode(tmp_path / "k.pem") == 0o600


def test_keygen_without_hard_links_still_never_overwrites(tmp_path, monkeypatch):
    """Where the file system has no hard links (os.link: EPERM), a new key is still
    written whole and renamed into place, and an existing file is still refused."""
    import errno

    def no_links(src, dst, **kw):
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    key = tmp_path / "key.pem"
    ok("keygen", "-o", key)
    first = key.read_bytes()
    assert p256.PrivateKey.from_pem(first) and mode(key) == 0o600
    assert "already exists" in error_line(p256_run("keygen", "-o", key), "keygen", str(key))
    assert key.read_bytes() == first and os.listdir(tmp_path) == ["key.pem"]


def test_bench_json_to_stdout(monkeypatch, tmp_path):
    """`--json -` is stdout, as its help says (not a file named '-')."""
    import json

    _fake_bench(monkeypatch)
    monkeypatch.chdir(tmp_path)
    out = ok("bench", "--smoke", "--no-peers", "--json", "-")
    assert json.loads(out) == {"figures": list(range(64)), "cpu": "test"}
    assert os.listdir(tmp_path) == []
