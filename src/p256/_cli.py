# SPDX-License-Identifier: Apache-2.0
"""The ``p256`` command line (``python -m p256`` and the console script ``p256``).

Each subcommand is one ``_cmd_<name>(subparsers)`` function that adds its parser and sets
``handler`` (a function ``args -> int``, the exit status), plus one entry in ``_COMMANDS``.
Handlers report a user error (missing file, bad input) by raising ``CLIError``: ``main``
prints it as one line on stderr and returns 2, without a traceback. Handlers import what
they need lazily, so ``p256 --help`` does not load the benchmark machinery.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import secrets
import stat
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from ._keys import PrivateKey, PublicKey

_Subparsers = Any  # argparse's _SubParsersAction (private in typeshed)
_Handler = Callable[[argparse.Namespace], int]


class CLIError(Exception):
    """A user error: printed as one ``p256 <command>: <message>`` line; exit status 2."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples in epilogs as written."""


def _cmd_bench(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark p256 against the pure-Python reference and installed peers",
        formatter_class=_Formatter,
        description=(
            "Table 1 (Go's benchstat layout): the generic pure-Python reference against p256,\n"
            "time/op with the delta in %, then alloc/op (bytes) and allocs/op (blocks).\n"
            "Table 2: p256 beside pyca/cryptography, python-ecdsa and pycryptodome, when\n"
            "installed, with ratios peer time / p256 time.\n"
            "Progress goes to stderr, the tables to stdout."),
        epilog=(
            "examples:\n"
            "  p256 bench                    # full run, about a minute\n"
            "  p256 bench --quick            # about 12 s, fewer and shorter repeats\n"
            "  p256 bench --json out.json    # also write the raw figures"),
    )
    p.add_argument("--quick", action="store_true",
                   help="7 repeats of ~30 ms per implementation (about 12 s in all)")
    p.add_argument("--json", metavar="FILE",
                   help="write the raw figures (medians, min, max, repeats, iterations, "
                        "allocations, versions, CPU) as JSON to FILE ('-' for stdout)")
    p.add_argument("--repeat", type=int, metavar="N",
                   help="timed repeats per implementation, the median is reported "
                        "(default 20, 7 with --quick)")
    p.add_argument("--min-time", type=float, metavar="SECONDS",
                   help="duration of one repeat; iterations per repeat are calibrated to it "
                        "(default 0.06, 0.03 with --quick)")
    p.add_argument("--no-peers", action="store_true",
                   help="skip table 2 (pyca/cryptography, python-ecdsa, pycryptodome)")
    # For the test suite: one short repeat of everything, seconds in all.
    p.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)

    p.set_defaults(handler=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    """The `p256 bench` handler: settings from the options, then p256._bench.run."""

    from . import _bench

    mode = "smoke" if args.smoke else "quick" if args.quick else "default"
    try:
        settings = _bench.Settings(mode, repeats=args.repeat, min_time=args.min_time)
    except ValueError as e:
        raise CLIError(str(e)) from None
    if args.json and args.json != _STDIN:
        parent = os.path.dirname(os.path.abspath(args.json))
        if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
            raise CLIError("cannot write %s: directory %s is missing or not writable" % (args.json, parent))
    for stream in (sys.stdout, sys.stderr):  # "µs" and "—" on an ASCII console: escape, not crash
        try:
            "µ—".encode(stream.encoding or "ascii")
        except (LookupError, UnicodeEncodeError):
            reconfigure = getattr(stream, "reconfigure", None)  # a TextIOWrapper's
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")
    doc = _bench.run(settings, with_peers=not args.no_peers)
    if args.json:
        _write_public(args.json, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))
        if args.json != _STDIN:
            print("p256 bench: raw figures written to %s" % args.json, file=sys.stderr)
    return 0



# ---------------------------------------------------------------------------------------
# The key subcommands: keygen, pubkey, sign, verify, ecdh
#
# Inputs: a key file is PEM (any block "PRIVATE KEY", "EC PRIVATE KEY" or "PUBLIC KEY";
# other text and blocks around it are skipped, as openssl does) or, when it has no
# "-----BEGIN" line, DER (PKCS#8, SEC1 or SubjectPublicKeyInfo, told apart by structure).
# Where a public key is expected, a private key file is accepted too (its public key is
# used). An encrypted PKCS#8 key ("ENCRYPTED PRIVATE KEY") is read with the password
# given by --password-file FILE or --password-fd N (its first line), never on the
# command line (where every user of the machine sees it). "-" reads stdin, for at most
# one data input of a command; a password may come from stdin too (--password-file -,
# --password-fd 0): it is read first, one byte at a time up to its line end, and the
# data is the rest of stdin, byte for byte. Messages are hashed in
# chunks, so files of any size are signed and verified in constant memory.
#
# Outputs: every output file is written whole to a temporary file in its directory,
# fsynced and renamed into place, so a failure leaves the previous file or none, never
# part of one. Private keys are created with mode 0600 and never overwrite a file unless
# --force (only a regular file, or a symlink to one, is ever replaced: never a FIFO,
# device or directory). Public outputs replace a file as openssl does, keeping its mode;
# a FIFO, device or open descriptor (-o /dev/stdout) is written into.
# Binary signatures are refused on a terminal (like `age`, unlike `openssl dgst`): bytes
# sprayed on a terminal are useless and can garble it; use -o FILE or a redirect.
#
# Errors: one line "p256 <command>: <file>: <reason>" on stderr and exit status 2.
# ---------------------------------------------------------------------------------------

_STDIN = "-"
_KEY_LIMIT = 1 << 20  # a key file is a few hundred bytes; do not slurp a huge file by mistake
_SIG_LIMIT = 1 << 12  # a DER signature is at most 72 bytes
_CHUNK = 1 << 20
_HASH_NAMES = ("sha256", "sha224", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512")
_PEM_PRIVATE = ("PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY")
_PEM_PUBLIC = "PUBLIC KEY"
_EXIT_HELP = (
    "exit status: 0 success, 2 bad usage or input (one line on stderr naming the file).")


def _shown(path: str) -> str:
    return "<stdin>" if path == _STDIN else path


def _os_reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _stdin() -> BinaryIO:
    """The binary stdin; CLIError when the process has none (started with fd 0 closed)."""
    if sys.stdin is None:
        raise CLIError("<stdin>: closed; name a file instead of '-'")
    return sys.stdin.buffer


def _stdout() -> BinaryIO:
    if sys.stdout is None:
        raise CLIError("<stdout>: closed (the process has no standard output)")
    return sys.stdout.buffer


def _discard_stdout() -> None:
    """Point fd 1 at /dev/null after a failed write, so the interpreter's final flush of
    what is still buffered does not print a second error."""

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _one_stdin(*paths: str) -> None:
    """At most one data input from stdin. A password on stdin is not one of them: it is
    read first, its line only, and the data is what follows (_password)."""
    if sum(p == _STDIN for p in paths) > 1:
        raise CLIError("<stdin>: only one input can be read from stdin ('-')")


def _read_upto(f: BinaryIO, limit: int) -> bytes:
    """Up to limit bytes of f, read in chunks: memory follows the file, not the limit
    (f.read(limit) allocates all of limit first)."""
    chunks = []
    total = 0
    while total < limit:
        chunk = f.read(min(1 << 16, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _read_small(path: str, limit: int, what: str) -> bytes:
    """All bytes of a small input file ('-': stdin), or CLIError naming it."""
    try:
        if path == _STDIN:
            data = _read_upto(_stdin(), limit + 1)
        else:
            with open(path, "rb") as f:
                data = _read_upto(f, limit + 1)
    except OSError as exc:
        raise CLIError("%s: %s" % (_shown(path), _os_reason(exc))) from None
    if len(data) > limit:
        raise CLIError("%s: too large for %s (over %d bytes)" % (_shown(path), what, limit))
    if not data:
        raise CLIError("%s: empty file, expected %s" % (_shown(path), what))
    return data


def _digest(path: str, hash_name: str) -> bytes:
    """The hash of a whole file ('-': stdin), read in chunks."""

    h = hashlib.new(hash_name)  # what p256's sign()/verify() compute
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    try:
        f: Any = _stdin() if path == _STDIN else open(path, "rb")
        try:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                h.update(view[:n])
        finally:
            if path != _STDIN:
                f.close()
    except OSError as exc:
        raise CLIError("%s: %s" % (_shown(path), _os_reason(exc))) from None
    return h.digest()


_PASSWORD_LIMIT = 1 << 12
_PASSWORD_HOW = "--password-file FILE or --password-fd N"


def _add_password_options(p: argparse.ArgumentParser, verb: str) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--password-file", metavar="FILE",
                       help="%s with the password on the first line of FILE" % verb)
    group.add_argument("--password-fd", metavar="N", type=int,
                       help="%s with the password on the first line read from file "
                            "descriptor N (for instance 3, with 3<<<\"$PW\" in the shell)" % verb)


def _stdin_fd() -> Optional[int]:
    """The file descriptor under sys.stdin, or None (no stdin, or a stream in memory)."""
    try:
        return sys.stdin.fileno() if sys.stdin is not None else None
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return None


def _read_line(fd: int, limit: int) -> bytes:
    """The bytes of fd up to and including the first line end, at most limit of them,
    read one byte at a time: nothing after the line end is taken, so what reads the same
    stream next (stdin's data after a password on stdin, a pipe named twice) starts
    exactly there. A buffered reader would take a whole buffer's worth with it."""

    line = bytearray()
    while len(line) < limit:
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
        if byte == b"\n":
            break
    return bytes(line)


def _password(args: argparse.Namespace, stdin_data: bool = False) -> Optional[bytes]:
    """The password of --password-file or --password-fd: the first line, without its
    line end (as `openssl -pass file:` reads it), or None if neither was given.

    Called before any data is read: from stdin (--password-file -, --password-fd 0 or
    the descriptor of sys.stdin) the password is stdin's first line and the data, if
    stdin_data, all that follows it, byte for byte."""

    path: Optional[str] = getattr(args, "password_file", None)
    fd: Optional[int] = getattr(args, "password_fd", None)
    if path is None and fd is None:
        return None
    on_stdin = path == _STDIN or fd == 0 or (fd is not None and fd == _stdin_fd())
    shown = "--password-fd %d" % fd if fd is not None else _shown(str(path))
    try:
        if on_stdin:
            if sys.stdin is None:  # fd 0 closed at start-up: whatever has it now is not stdin
                raise CLIError("%s: cannot read the password: stdin is closed" % shown)
            stdin = sys.stdin.buffer
            stdin_fd = _stdin_fd()
            line = (_read_line(stdin_fd, _PASSWORD_LIMIT + 1) if stdin_fd is not None
                    else stdin.readline(_PASSWORD_LIMIT + 1))  # in memory: its own buffer
        elif fd is not None:
            line = _read_line(fd, _PASSWORD_LIMIT + 1)
        else:
            f = os.open(str(path), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
                        | getattr(os, "O_BINARY", 0))
            try:
                line = _read_line(f, _PASSWORD_LIMIT + 1)
            finally:
                os.close(f)
    except (OSError, ValueError) as exc:
        reason = _os_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise CLIError("%s: cannot read the password: %s" % (shown, reason)) from None
    if len(line) > _PASSWORD_LIMIT:
        raise CLIError("%s: the password line is over %d bytes" % (shown, _PASSWORD_LIMIT))
    if on_stdin and stdin_data and not line.endswith(b"\n"):
        raise CLIError("<stdin>: no line end after the password; with the password on stdin "
                       "the data follows its line")
    password = line[:-1] if line.endswith(b"\n") else line
    return password[:-1] if password.endswith(b"\r") else password


def _password_problem(exc: ValueError, path: str) -> Optional[str]:
    """The CLI's wording for the API's password errors (which name password=...), or None."""
    from . import _pbes2, _pem

    text = str(exc)
    if text == _pbes2.MISSING_PASSWORD:
        return ("an encrypted private key (PKCS#8 EncryptedPrivateKeyInfo): give its password "
                "with %s, or decrypt it first with `openssl pkey -in %s -out plain.pem`"
                % (_PASSWORD_HOW, path))
    if text == _pbes2.NOT_ENCRYPTED:
        return ("a password was given (--password-file or --password-fd), but this private key "
                "is not encrypted")
    if text == _pem.ENCRYPTED:
        return ("legacy PEM encryption (Proc-Type: 4,ENCRYPTED) is not supported; convert the "
                "key to encrypted PKCS#8 with `openssl pkcs8 -topk8 -v2 aes256 -in %s -out "
                "key8.pem` and give its password with %s" % (path, _PASSWORD_HOW))
    return None


def _load_key(path: str, command: str, private: bool, password: Optional[bytes] = None
              ) -> Tuple[Optional[PrivateKey], PublicKey]:
    """(PrivateKey or None, PublicKey) from a PEM or DER key file; password: that of an
    encrypted PKCS#8 key (--password-file, --password-fd).

    private=True: the file must hold a private key. Otherwise a public or a private key
    (then the first key block of a PEM file decides)."""
    from . import _formats, _pem
    from ._keys import PrivateKey, PublicKey

    data = _read_small(path, _KEY_LIMIT, "a key")
    shown = _shown(path)
    try:
        if b"-----BEGIN " in data:
            labels = _pem.labels(data)  # the BEGIN lines that the API's PEM reader sees
            keys = [x for x in labels if x in _PEM_PRIVATE or x == _PEM_PUBLIC]
            if not keys:
                hint = ""
                if "CERTIFICATE" in labels:
                    hint = ("; extract a certificate's public key with "
                            "`openssl x509 -pubkey -noout -in cert.pem`")
                raise CLIError("%s: no key found: expected a PEM block 'PRIVATE KEY', "
                               "'EC PRIVATE KEY'%s, found %s%s"
                               % (shown, "" if private else " or 'PUBLIC KEY'",
                                  ", ".join(repr(x) for x in labels) or "none", hint))
            if private and all(x == _PEM_PUBLIC for x in keys):
                raise CLIError("%s: this is a public key; `p256 %s` needs the private key"
                               % (shown, command))
            if not private and keys[0] == _PEM_PUBLIC:
                if password is not None:
                    raise CLIError("%s: a password was given, but this is a public key" % shown)
                return None, PublicKey.from_pem(data)
            sk = PrivateKey.from_pem(data, password=password)
            return sk, sk.public_key
        if data[0] != 0x30:
            raise CLIError("%s: not a key: neither PEM (no '-----BEGIN' line) nor DER"
                           % shown)
        if _formats.sniff(data) == "spki":
            if private:
                raise CLIError("%s: this is a public key; `p256 %s` needs the private key"
                               % (shown, command))
            if password is not None:
                raise CLIError("%s: a password was given, but this is a public key" % shown)
            return None, PublicKey.from_der(data)
        sk = PrivateKey.from_der(data, password=password)
        return sk, sk.public_key
    except ValueError as exc:
        raise CLIError("%s: %s" % (shown, _password_problem(exc, shown) or exc)) from None


def _load_private(path: str, command: str, password: Optional[bytes] = None) -> PrivateKey:
    """The private key of a key file (CLIError for a public key or anything else)."""
    sk, _ = _load_key(path, command, private=True, password=password)
    if sk is None:  # _load_key(private=True) raises instead; for the type checker
        raise CLIError("%s: this is a public key; `p256 %s` needs the private key"
                       % (_shown(path), command))
    return sk


def _read_signature(path: str, raw: bool) -> bytes:
    """The signature bytes, checked for shape: exactly 64 bytes with --raw, else a DER
    SEQUENCE of two INTEGERs. A well-formed signature that does not verify is a FAIL
    (exit 1); an unreadable one is an input error (exit 2)."""
    sig = _read_small(path, _SIG_LIMIT, "a signature")
    shown = _shown(path)
    if raw:
        if len(sig) != 64:
            raise CLIError("%s: a raw signature is r||s, 64 bytes; this one has %d bytes%s"
                           % (shown, len(sig), "" if sig[0] != 0x30 else
                              " (it looks like DER: drop --raw)"))
        return sig
    problem = _der_signature_problem(sig)
    if problem:
        hint = "; a raw r||s signature? use --raw" if len(sig) == 64 else ""
        raise CLIError("%s: not a DER ECDSA signature (%s)%s" % (shown, problem, hint))
    return sig


def _der_signature_problem(sig: bytes) -> Optional[str]:
    """None if sig is a strict DER SEQUENCE { INTEGER, INTEGER } (X.690 10), else what is
    wrong: the core's parser says (p256._sig.der_problem). What passes here but does not
    verify (a negative, zero or huge r) is a well-formed invalid signature: FAIL."""
    from . import _sig

    return _sig.der_problem(sig)


def _not_an_input(path: Optional[str], *inputs: str) -> None:
    """Refuse an output file that is one of the inputs (`p256 pubkey key.pem -o key.pem`
    would replace the private key by its public key)."""

    if path is None or path == _STDIN or not os.path.exists(path):
        return
    for other in inputs:
        try:
            same = other != _STDIN and os.path.samefile(path, other)
        except OSError:
            same = False
        if same:
            raise CLIError("%s: is also an input of this command; not overwritten" % path)


def _write_public(path: Optional[str], data: bytes) -> None:
    """data to path ('-' or None: stdout), replacing an existing file as openssl does, but
    whole or not at all: a new file renamed over it (_write_file), with its mode. A
    symlink is followed, as openssl does; a FIFO, device or terminal, or an open
    descriptor (-o /dev/stdout), is written into, never replaced."""

    if path is None or path == _STDIN:
        out = _stdout()
        try:
            out.write(data)
            out.flush()
        except BrokenPipeError:
            raise  # main() handles it: the reader went away
        except OSError as exc:  # `> /dev/full`: ENOSPC, EIO, ...
            _discard_stdout()
            raise CLIError("<stdout>: %s" % _os_reason(exc)) from None
        return
    try:
        try:
            st: Optional[os.stat_result] = os.stat(path)
        except FileNotFoundError:
            st = None
        if st is not None and (not stat.S_ISREG(st.st_mode) or _names_a_descriptor(path)):
            # "ab": a file behind /dev/stdout is as the shell left it (`>` emptied it,
            # `>>` appends), not truncated again; a directory fails: "Is a directory"
            with open(path, "ab") as f:
                f.write(data)
            return
        target = os.path.realpath(path)
        if st is not None and not os.access(target, os.W_OK):
            raise PermissionError(13, os.strerror(13))  # open(path, "wb") would refuse it
        _write_file(target, data, None if st is None else stat.S_IMODE(st.st_mode), True)
    except OSError as exc:
        raise CLIError("%s: %s" % (path, _os_reason(exc))) from None


def _names_a_descriptor(path: str) -> bool:
    """Whether path leads through /dev/fd or /proc (-o /dev/stdout, /dev/fd/3): an open
    file of this process, which the caller redirected, to be written into, not replaced
    by a new file."""

    name = os.path.abspath(path)
    for _ in range(40):  # the kernel's own bound on a chain of symlinks
        if name.startswith(("/dev/fd/", "/proc/")):
            return True
        if not os.path.islink(name):
            return False
        name = os.path.normpath(os.path.join(os.path.dirname(name), os.readlink(name)))
    return False


def _write_all(fd: int, data: bytes) -> None:
    """All of data to fd (os.write may write less than asked)."""

    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        view = view[n:]


def _write_file(path: str, data: bytes, mode: Optional[int], replace: bool) -> None:
    """data as the file path, whole or not at all. It goes to a new temporary file in
    path's directory (O_CREAT|O_EXCL|O_NOFOLLOW: a file or symlink already at that name
    is never followed or written; mode None: 0666 less the umask, as open() creates;
    else created 0600, then given mode), is fsynced, then renamed over path (replace:
    os.replace, atomic on POSIX; a symlink at path is replaced, not followed) or linked
    to path (os.link fails if anything is at path, so nothing is overwritten). On any
    error the temporary file is removed and path is as it was; the OSError is raised."""

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    head, tail = os.path.split(path)
    for attempt in range(16):
        temp = os.path.join(head, ".%s.%s.tmp" % (tail[:200], secrets.token_hex(6)))
        try:
            fd = os.open(temp, flags, 0o666 if mode is None else 0o600)
            break
        except FileExistsError:
            if attempt == 15:
                raise
    try:
        try:
            fchmod = getattr(os, "fchmod", None)  # Windows before 3.13 has none
            if mode is not None and mode != 0o600 and fchmod is not None:
                fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(temp, path)
            return
        try:
            os.link(temp, path)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS):
                raise
            # no hard links on this file system: reserve path (O_EXCL), rename over it
            os.close(os.open(path, flags, 0o600))
            try:
                os.replace(temp, path)
            except BaseException:
                os.unlink(path)
                raise
            return
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    try:
        os.unlink(temp)  # path is the file now; the temporary name goes
    except OSError:
        pass


def _replaceable(path: str) -> None:
    """Refuse to replace anything but a regular file, a symlink to one, a dangling symlink
    (the link itself is replaced, never followed) or nothing: --force once turned
    /dev/full into a key file when run as root."""

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CLIError("%s: %s" % (path, _os_reason(exc))) from None
    via = ""
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return  # dangling: nothing is behind it
        except OSError as exc:
            raise CLIError("%s: %s" % (path, _os_reason(exc))) from None
        via = "a symlink to "
    if stat.S_ISREG(st.st_mode):
        return
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(st.st_mode)), "not a regular file")
    raise CLIError("%s: is %s%s, not a regular file; not replaced (--force replaces only a "
                   "regular file)" % (path, via, kind))


def _write_private(path: str, data: bytes, force: bool) -> None:
    """A new file with mode 0600, written whole then put at path (_write_file): without
    force, linked there (an existing file or symlink is never followed or overwritten);
    with force, renamed over a regular file (a symlink at path is replaced, not
    followed; anything else is refused: _replaceable)."""
    if force:
        _replaceable(path)
    try:
        _write_file(path, data, 0o600, force)
    except FileExistsError:
        raise CLIError("%s: already exists; not overwritten (--force replaces it)"
                       % path) from None
    except OSError as exc:
        raise CLIError("%s: %s" % (path, _os_reason(exc))) from None


def _refuse_binary_tty(output: Optional[str]) -> None:
    if output in (None, _STDIN) and sys.stdout is not None and sys.stdout.isatty():
        raise CLIError("<stdout>: is a terminal; refusing to write a binary signature there "
                       "(use -o FILE or a redirect, e.g. '> msg.sig' or '| xxd -p')")


def _guarded(handler: _Handler) -> _Handler:
    """The subcommand boundary: an unexpected OSError/ValueError/TypeError becomes one line
    on stderr and exit 2 (the handlers name the file for every expected one)."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (CLIError, BrokenPipeError):
            raise
        except (OSError, ValueError, TypeError) as exc:
            raise CLIError(str(exc) or type(exc).__name__) from None

    return run


def _cmd_keygen(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "keygen",
        help="generate a private key (PEM)",
        formatter_class=_Formatter,
        description=(
            "Generate a P-256 private key from the OS CSPRNG and write it as PEM: PKCS#8\n"
            "('PRIVATE KEY', as `openssl genpkey` writes) or SEC1 ('EC PRIVATE KEY', as\n"
            "`openssl ecparam -genkey` writes). A file is created with mode 0600 and an\n"
            "existing file is never overwritten unless --force, which replaces only a\n"
            "regular file (never a FIFO, a device or a directory, nor a symlink to one)."),
        epilog=(
            "examples:\n"
            "  p256 keygen -o key.pem                  # PKCS#8 PEM, mode 0600\n"
            "  p256 keygen --format sec1 -o key.pem    # SEC1 'EC PRIVATE KEY'\n"
            "  p256 keygen -o key.pem --force          # replace key.pem atomically\n"
            "  p256 keygen -o key.pem --password-file pw.txt   # encrypted PKCS#8\n"
            "  openssl pkey -in key.pem -noout -text   # openssl reads it\n\n" + _EXIT_HELP),
    )
    p.add_argument("-o", "--out", metavar="FILE",
                   help="write the key to FILE (mode 0600) instead of stdout")
    p.add_argument("--format", choices=("pkcs8", "sec1"), default="pkcs8",
                   help="PKCS#8 (default) or SEC1 ECPrivateKey")
    p.add_argument("--force", action="store_true",
                   help="replace FILE if it is a regular file (a new 0600 file renamed over it)")
    _add_password_options(p, "encrypt the key (PKCS#8 'ENCRYPTED PRIVATE KEY', PBES2)")

    def handler(args: argparse.Namespace) -> int:
        from ._keys import PrivateKey

        password = _password(args)
        if password is not None and args.format != "pkcs8":
            raise CLIError("a password needs --format pkcs8 (SEC1 has no standard encryption)")
        if password == b"":
            raise CLIError("the password is empty; an encrypted key needs a non-empty one")
        pem = PrivateKey.generate().to_pem(args.format, password=password)
        if args.out in (None, _STDIN):
            _write_public(None, pem)
        else:
            _write_private(args.out, pem, args.force)
        return 0

    p.set_defaults(handler=_guarded(handler))


def _cmd_pubkey(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "pubkey",
        help="the public key (SPKI PEM) of a private key",
        formatter_class=_Formatter,
        description=(
            "Write the public key of KEY as a SubjectPublicKeyInfo PEM ('PUBLIC KEY'),\n"
            "byte for byte what `openssl pkey -pubout` writes. KEY is a private key (PKCS#8\n"
            "or SEC1) or a public key (re-encoded), in PEM or DER."),
        epilog=(
            "examples:\n"
            "  p256 pubkey key.pem -o pub.pem          # = openssl pkey -in key.pem -pubout\n"
            "  p256 pubkey key.pem --compressed        # = openssl ec -in key.pem -pubout \\\n"
            "                                          #       -conv_form compressed\n"
            "  p256 pubkey pub.pem --compressed        # re-encode a public key\n\n" + _EXIT_HELP),
    )
    p.add_argument("key", metavar="KEY", help="private or public key file, PEM or DER ('-': stdin)")
    p.add_argument("-o", "--out", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--compressed", action="store_true",
                   help="encode the point compressed (33 bytes) instead of uncompressed (65)")
    _add_password_options(p, "decrypt an encrypted KEY")

    def handler(args: argparse.Namespace) -> int:
        _not_an_input(args.out, args.key)
        password = _password(args, stdin_data=args.key == _STDIN)  # first: see _password
        _, pk = _load_key(args.key, args.command, private=False, password=password)
        _write_public(args.out, pk.to_pem(compressed=args.compressed))
        return 0

    p.set_defaults(handler=_guarded(handler))


def _cmd_sign(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "sign",
        help="sign a file (ECDSA; DER by default)",
        formatter_class=_Formatter,
        description=(
            "Sign FILE (default '-': stdin) with the private key KEY (PEM or DER) and write\n"
            "the signature: DER (X9.62, what `openssl dgst -sign` writes) or with --raw r||s\n"
            "(64 bytes: IEEE P1363, JWS ES256). The nonce is hedged (fresh randomness mixed\n"
            "with the key and the digest) unless --deterministic (RFC 6979 with HMAC over the\n"
            "--hash). Signatures are binary: they are not written to a terminal."),
        epilog=(
            "examples:\n"
            "  p256 sign key.pem msg.txt -o msg.sig               # DER, SHA-256\n"
            "  p256 sign enc.pem msg.txt --password-file pw.txt -o msg.sig   # encrypted key\n"
            "  (echo \"$PW\"; cat msg.txt) | p256 sign enc.pem --password-fd 0 -o msg.sig\n"
            "  p256 sign key.pem < msg.txt > msg.sig              # message from stdin\n"
            "  p256 sign key.pem msg.txt --raw --deterministic -o msg.raw\n"
            "  openssl dgst -sha256 -verify pub.pem -signature msg.sig msg.txt\n\n" + _EXIT_HELP),
    )
    p.add_argument("key", metavar="KEY", help="private key file, PEM or DER")
    p.add_argument("file", metavar="FILE", nargs="?", default=_STDIN,
                   help="the message (default '-': stdin)")
    p.add_argument("-o", "--out", metavar="SIG", help="write the signature to SIG, not stdout")
    p.add_argument("--raw", action="store_true", help="r||s (64 bytes) instead of DER")
    p.add_argument("--deterministic", action="store_true",
                   help="RFC 6979 nonce (same signature for the same key and message)")
    p.add_argument("--hash", choices=_HASH_NAMES, default="sha256", metavar="HASH",
                   help="message hash: %s (default sha256)" % ", ".join(_HASH_NAMES[1:]))
    _add_password_options(p, "decrypt an encrypted KEY")

    def handler(args: argparse.Namespace) -> int:
        _refuse_binary_tty(args.out)
        _one_stdin(args.key, args.file)
        _not_an_input(args.out, args.key, args.file)
        password = _password(args, stdin_data=_STDIN in (args.key, args.file))
        sk = _load_private(args.key, args.command, password)
        digest = _digest(args.file, args.hash)
        # sign_digest with the digest's hash: byte for byte sk.sign(msg, hash=...)
        _write_public(args.out, sk.sign_digest(digest, hash=args.hash,
                                               encoding="raw" if args.raw else "der",
                                               deterministic=args.deterministic))
        return 0

    p.set_defaults(handler=_guarded(handler))


def _cmd_verify(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "verify",
        help="verify a signature: prints OK (exit 0) or FAIL (exit 1)",
        formatter_class=_Formatter,
        description=(
            "Verify the signature SIG of FILE with PUBKEY (a public key, or a private key\n"
            "whose public key is used; PEM or DER). With two arguments after PUBKEY they are\n"
            "FILE and SIG; with one it is SIG and the message is read from stdin.\n"
            "Prints OK and exits 0 for a valid signature, prints FAIL and exits 1 otherwise.\n"
            "A signature file that cannot be read as DER (or, with --raw, is not 64 bytes)\n"
            "is an input error (exit 2)."),
        epilog=(
            "examples:\n"
            "  p256 verify pub.pem msg.txt msg.sig           # OK or FAIL\n"
            "  p256 verify pub.pem msg.sig < msg.txt         # message from stdin\n"
            "  p256 verify --raw pub.pem msg.txt msg.raw     # r||s signature\n"
            "  openssl dgst -sha384 -sign key.pem -out msg.sig msg.txt\n"
            "  p256 verify --hash sha384 pub.pem msg.txt msg.sig\n\n"
            "exit status: 0 valid (OK), 1 invalid (FAIL), 2 bad usage or input."),
    )
    p.add_argument("pubkey", metavar="PUBKEY", help="public (or private) key file, PEM or DER")
    p.add_argument("file", metavar="FILE", nargs="?", default=_STDIN,
                   help="the message (default '-': stdin)")
    p.add_argument("sig", metavar="SIG", help="the signature file")
    p.add_argument("--raw", action="store_true", help="SIG is r||s (64 bytes), not DER")
    p.add_argument("--hash", choices=_HASH_NAMES, default="sha256", metavar="HASH",
                   help="message hash: %s (default sha256)" % ", ".join(_HASH_NAMES[1:]))
    _add_password_options(p, "decrypt PUBKEY when it is an encrypted private key")

    def handler(args: argparse.Namespace) -> int:
        _one_stdin(args.pubkey, args.file, args.sig)
        password = _password(args, stdin_data=_STDIN in (args.pubkey, args.file, args.sig))
        _, pk = _load_key(args.pubkey, args.command, private=False, password=password)
        sig = _read_signature(args.sig, args.raw)
        digest = _digest(args.file, args.hash)
        ok = pk.verify_digest(sig, digest, hash=args.hash, encoding="raw" if args.raw else "der")
        _write_public(None, b"OK\n" if ok else b"FAIL\n")
        return 0 if ok else 1

    p.set_defaults(handler=_guarded(handler))


def _cmd_ecdh(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "ecdh",
        help="ECDH shared secret (hex) with a peer's public key",
        formatter_class=_Formatter,
        description=(
            "Print the ECDH shared secret of the private key KEY and the public key PEERKEY\n"
            "(or a private key, whose public key is used), PEM or DER: the x coordinate of\n"
            "d*Q, 32 bytes in hex (SEC 1, RFC 5903), what `openssl pkeyutl -derive` writes.\n"
            "Feed it to a KDF (HKDF) before using it as a key."),
        epilog=(
            "examples:\n"
            "  p256 ecdh alice.pem bob.pub.pem          # 64 hex digits\n"
            "  openssl pkeyutl -derive -inkey alice.pem -peerkey bob.pub.pem | xxd -p -c 32\n\n"
            + _EXIT_HELP),
    )
    p.add_argument("key", metavar="KEY", help="your private key file, PEM or DER")
    p.add_argument("peerkey", metavar="PEERKEY", help="the peer's public (or private) key file")
    _add_password_options(p, "decrypt an encrypted KEY")

    def handler(args: argparse.Namespace) -> int:
        _one_stdin(args.key, args.peerkey)
        password = _password(args, stdin_data=_STDIN in (args.key, args.peerkey))
        sk = _load_private(args.key, args.command, password)
        _, peer = _load_key(args.peerkey, args.command, private=False)
        _write_public(None, sk.exchange(peer).hex().encode("ascii") + b"\n")
        return 0

    p.set_defaults(handler=_guarded(handler))


# One entry per subcommand, in the order `p256 --help` lists them.
_COMMANDS = (
    _cmd_keygen,
    _cmd_pubkey,
    _cmd_sign,
    _cmd_verify,
    _cmd_ecdh,
    _cmd_bench,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p256",
        formatter_class=_Formatter,
        description="Fast constant-time P-256 (secp256r1): keys, ECDSA, ECDH, benchmarks.",
        epilog="Run 'p256 <command> --help' for a command's options and an example.",
    )
    from ._core import __version__

    parser.add_argument("--version", action="version", version="p256 " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for add in _COMMANDS:
        add(sub)
    setattr(parser, "p256_commands", sub.choices)  # name -> subparser, for _parse_args
    return parser


def _parse_args(parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """parser.parse_args, except that a subcommand's options and positionals may be
    intermixed (`p256 verify pub.pem msg --raw sig`): plain argparse assigns the positionals
    seen before an option at once, and would take "msg" for SIG here. The command is the
    first argument (the top-level options, --help and --version, exit)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    commands: Dict[str, argparse.ArgumentParser] = getattr(parser, "p256_commands", {})
    if argv and argv[0] in commands:
        args = commands[argv[0]].parse_intermixed_args(argv[1:])
        args.command = argv[0]
        return args
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = _parse_args(parser, argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except CLIError as e:
        print("p256 %s: %s" % (args.command, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("p256 %s: interrupted" % args.command, file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`p256 bench | head`): not an error of ours. Point stdout
        # at devnull so the interpreter's final flush does not complain again.

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
