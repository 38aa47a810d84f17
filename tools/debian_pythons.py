#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The CPythons of Debian's testing suite (forky: 3.13, 3.14, 3.15) in a chroot, for make
pythons (noxfile.py) on a machine whose pyenv or PATH lacks them.

    python tools/debian_pythons.py status           where the chroot is, or why it cannot be
    python tools/debian_pythons.py ensure           make it (debootstrap) unless it is there
    python tools/debian_pythons.py run VER [--sdist FILE] [-- NOX_POSARGS...]
                                                    nox's session pyVER inside it, over a
                                                    copy of this tree

The chroot: `debootstrap --variant=minbase` of forky with PACKAGES (bookworm's debootstrap
has no forky script; sid's serves), as root, from the Debian mirror of the machine's apt
sources. It is kept in CACHE (P256_CACHE, else $XDG_CACHE_HOME/p256 or ~/.cache/p256,
then /forky) and reused while PACKAGES is what made it (delete it to take newer packages);
so are, inside it, a venv with nox and uv (the `dev` group of pyproject.toml) and the
caches of uv and ccache, so a second run downloads and compiles next to nothing.
`run` copies the working tree (less venvs and build output) into the chroot, mounts /proc
and /dev, and runs noxfile.py's own session for VER there (P256_CHROOT=1: the tools'
python is not skipped as the default one), with a clean environment (the host's pip
settings name files that are not in the chroot) but for proxies and the host's CA bundle. One run at a time per chroot (a lock).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = "forky"
VERSIONS = ("3.13", "3.14", "3.15")
TOOLS_PY = "3.14"  # the chroot's python that runs nox
PACKAGES = sorted([f"python{v}-{p}" for v in VERSIONS for p in ("dev", "venv")] +
                  ["gcc", "libc6-dev", "make", "ccache", "ca-certificates"])
CACHE = os.path.join(os.environ.get("P256_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "p256"), SUITE)
STAMP = os.path.join(CACHE, ".p256-packages")
# What the copy of the tree leaves out (relative to its top).
SKIP = re.compile(r"^(\.git|\.venv[^/]*|\.nox|build|dist|tests/c/bin|tests/fuzz/bin|\.hypothesis|"
                  r"\.mypy_cache|\.pytest_cache|.*__pycache__)(/|$)")


def say(msg: str) -> None:
    print(f"debian_pythons: {msg}", flush=True)


def mirror() -> str:
    """The machine's Debian mirror (its apt sources), else deb.debian.org."""
    for path in ("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"):
        try:
            text = open(path).read()
        except OSError:
            continue
        m = re.search(r"^URIs:\s*(\S+/debian)/?\s*$", text, re.M) or \
            re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)/?\s", text, re.M)
        if m:
            return m.group(1)
    return "http://deb.debian.org/debian"


def ready() -> bool:
    return os.path.exists(STAMP) and open(STAMP).read().split() == PACKAGES


def why_not() -> str | None:
    """None when the chroot is there or can be made here, else the reason it cannot."""
    if ready():
        return None
    if sys.platform != "linux" or os.uname().machine != "x86_64":
        return f"the {SUITE} chroot is made on x86-64 Linux only"
    if os.geteuid() != 0:
        return f"making the {SUITE} chroot (debootstrap, chroot, mount) needs root"
    if not (shutil.which("debootstrap") or shutil.which("apt-get")):
        return f"making the {SUITE} chroot needs debootstrap (or apt-get to install it)"
    return None


def ensure() -> str:
    if ready():
        return CACHE
    reason = why_not()
    if reason:
        sys.exit(f"debian_pythons: {reason}")
    if not shutil.which("debootstrap"):
        say("installing debootstrap")
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "debootstrap"], check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    script = f"/usr/share/debootstrap/scripts/{SUITE}"
    if not os.path.exists(script):
        script = "/usr/share/debootstrap/scripts/sid"
    tmp = CACHE + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(CACHE, ignore_errors=True)
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    say(f"debootstrap {SUITE} into {CACHE} (a few minutes, once): {' '.join(PACKAGES)}")
    log = CACHE + ".log"
    with open(log, "w") as f:
        r = subprocess.run(["debootstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES),
                            SUITE, tmp, mirror(), script], stdout=f, stderr=subprocess.STDOUT)
    if r.returncode:
        sys.exit(f"debian_pythons: debootstrap failed (exit status {r.returncode}); its log: {log}\n"
                 + "".join(open(log).readlines()[-15:]))
    shutil.rmtree(os.path.join(tmp, "var/cache/apt/archives"), ignore_errors=True)
    os.rename(tmp, CACHE)
    with open(STAMP, "w") as f:
        f.write(" ".join(PACKAGES) + "\n")
    return CACHE


def copy_tree(dest: str) -> None:
    """The working tree as it is (uncommitted edits included), less SKIP, into dest."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for top, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(top, ROOT)
        rel = "" if rel == "." else rel + "/"
        dirs[:] = [d for d in dirs if not SKIP.match(rel + d)]
        for d in dirs:
            os.makedirs(os.path.join(dest, rel, d), exist_ok=True)
        for name in files:
            if not SKIP.match(rel + name):
                shutil.copy2(os.path.join(top, name), os.path.join(dest, rel, name),
                             follow_symlinks=False)


def dev_group() -> list[str]:
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    m = re.search(r"^dev = \[(.*)\]", text, re.M)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else ["nox", "uv", "build", "auditwheel"]


def run(ver: str, sdist: str | None, posargs: list[str]) -> int:
    root = ensure()
    lock = open(os.path.join(root, ".p256-lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    work = "/p256/src"
    copy_tree(root + work)
    if sdist:
        shutil.copy2(sdist, root + "/p256/" + os.path.basename(sdist))
    shutil.copy2("/etc/resolv.conf", root + "/etc/resolv.conf")
    env = {"PATH": "/p256/tools/bin:/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "CC": "ccache gcc", "P256_CHROOT": "1", "CI": os.environ.get("CI", ""),
           "P256_STRICT": os.environ.get("P256_STRICT", "")}
    env.update({k: v for k, v in os.environ.items() if k.lower().endswith("_proxy")})
    # The chroot trusts what the host trusts (a local CA of a proxy to the registries, too).
    bundle = os.environ.get("SSL_CERT_FILE") or "/etc/ssl/certs/ca-certificates.crt"
    if os.path.isfile(bundle):
        shutil.copy(bundle, root + "/p256/host-ca.crt")
        env.update(SSL_CERT_FILE="/p256/host-ca.crt", PIP_CERT="/p256/host-ca.crt")
    if sdist:
        env["P256_SDIST"] = "/p256/" + os.path.basename(sdist)
    mounts = [root + "/proc", root + "/dev"]
    subprocess.run(["mount", "-t", "proc", "proc", mounts[0]], check=True)
    try:
        subprocess.run(["mount", "--rbind", "/dev", mounts[1]], check=True)
        subprocess.run(["mount", "--make-rslave", mounts[1]], check=True)
        chroot = [shutil.which("chroot") or "/usr/sbin/chroot", root]
        if not os.path.exists(root + "/p256/tools/bin/nox"):
            say(f"a venv with {' '.join(dev_group())} in the chroot (once)")
            subprocess.run(chroot + [f"/usr/bin/python{TOOLS_PY}", "-m", "venv", "/p256/tools"], env=env,
                           check=True)
            subprocess.run(chroot + ["/p256/tools/bin/pip", "install", "-q", *dev_group()], env=env,
                           check=True)
        cmd = chroot + ["/bin/sh", "-c", f'cd {work} && exec nox -f noxfile.py -s "py{ver}" -- "$@"', "sh",
                        *posargs]
        return subprocess.run(cmd, env=env).returncode
    finally:
        for m in reversed(mounts):
            subprocess.run(["umount", "-R", m]) if os.path.ismount(m) else None


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["status"]:
        reason = why_not()
        print(reason or (f"{CACHE} is ready" if ready() else f"{CACHE} can be made here"))
        return 0 if reason is None else 1
    if args[:1] == ["ensure"]:
        print(ensure())
        return 0
    if args[:1] == ["run"] and len(args) >= 2 and args[1] in VERSIONS:
        sdist, rest = None, args[2:]
        if rest[:1] == ["--sdist"]:
            sdist, rest = rest[1], rest[2:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        return run(args[1], sdist, rest)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
