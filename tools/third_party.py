# SPDX-License-Identifier: Apache-2.0
"""Source distributions of other projects that the tests read: their own test suites
(PyJWT, joserfc), their own fixtures (py_webauthn's registrations) and soft-webauthn's
software authenticator. Each is pinned by version and by the SHA-256 of its sdist,
downloaded once with pip (``pip download --no-binary :all: --no-deps``) into a cache
directory, and unpacked there:

    $P256_CACHE (default ~/.cache/p256)/sdists/<name>-<version>.tar.gz
    $P256_CACHE/sdists/<name>-<version>/...

And the venvs of the oracles that cannot share the test venv (VENVS): py_webauthn, whose
pyOpenSSL caps cryptography below its newest release, which the test venv must keep. Each
is made once per pinned requirement list and Python version, with pip:

    $P256_CACHE/venvs/<name>-<sha256 of requirements and Python>/

``python tools/third_party.py`` fetches them all (what CI can do ahead of the tests).
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile

#: name -> (version, SHA-256 of the sdist). The versions of pyjwt, joserfc and webauthn
#: are those of pyproject.toml's test extra: the suites and fixtures of the code installed.
PINS = {
    "pyjwt": ("2.15.1", "4f259e80cdfb6b3fc18a7de51fd1ef9ec79652f25019bae68975ca2468a34df8"),
    "joserfc": ("1.8.0", "cbf03cb2c6db8cc5289f1ef8718842e53dba244b4c0de5fefa0c0eaee4bde8db"),
    "webauthn": ("3.0.1", "da862342c91fc03fbcf9a89cee7346e55c56f8b93fbaf66cfe8a55e2f0a05f6c"),
    "soft-webauthn": ("0.1.4", "e96513342e69bbfde5a60adcb03ab0d562d70d5d2e20ee7203fcfbdf4f1b06d0"),
}

#: name -> what pip installs into that venv. py_webauthn at the version of its pinned sdist
#: (whose fixtures the tests read: tests/py_webauthn_oracle.py runs there).
VENVS = {
    "webauthn": ["webauthn==%s" % PINS["webauthn"][0]],
}


def _root() -> pathlib.Path:
    return pathlib.Path(os.environ.get("P256_CACHE")
                        or os.path.join(os.path.expanduser("~"), ".cache", "p256"))


def cache_dir() -> pathlib.Path:
    return _root() / "sdists"


def _sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sdist(name: str) -> pathlib.Path:
    """The unpacked sdist of a pinned project (downloaded and checked the first time)."""
    version, digest = PINS[name]
    cache = cache_dir()
    tree = cache / ("%s-%s" % (name, version))
    done = tree / ".unpacked"
    if done.exists():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    archive = next((p for p in cache.glob("*.tar.gz")
                    if p.name.lower().replace("_", "-") == "%s-%s.tar.gz" % (name, version)), None)
    if archive is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:",
                        "--no-deps", "--dest", str(cache), "%s==%s" % (name, version)],
                       check=True, timeout=600)
        archive = next(p for p in cache.glob("*.tar.gz")
                       if p.name.lower().replace("_", "-") == "%s-%s.tar.gz" % (name, version))
    if _sha256(archive) != digest:
        bad = archive.with_suffix(".bad")
        archive.rename(bad)
        raise RuntimeError("%s has SHA-256 %s, not the pinned %s (moved to %s)"
                           % (archive, _sha256(bad), digest, bad))
    with tarfile.open(archive) as tar:
        top = tar.getmembers()[0].name.split("/")[0]
        for member in tar.getmembers():
            if member.name.startswith("/") or ".." in member.name.split("/"):
                raise RuntimeError("unsafe path %r in %s" % (member.name, archive))
        staging = cache / (".unpack-%s-%s" % (name, version))
        if staging.exists():
            shutil.rmtree(staging)
        tar.extractall(staging, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    if tree.exists():
        shutil.rmtree(tree)
    (staging / top).rename(tree)
    staging.rmdir()
    done.write_text(digest + "\n")
    return tree


class Offline(RuntimeError):
    """pip could not reach the package index (no network): the venv could not be made."""


#: What pip prints when the index cannot be reached at all (no route, no DNS, refused).
_NO_NETWORK = re.compile(r"NewConnectionError|Failed to establish a new connection|"
                         r"Temporary failure in name resolution|Name or service not known|"
                         r"Network is unreachable|No route to host|Connection refused|"
                         r"ConnectTimeoutError|ProxyError")


def no_network(pip_output: str) -> bool:
    """Whether pip's output says it could not reach the index (not: it found no match)."""
    return _NO_NETWORK.search(pip_output) is not None


def venv_dir(name: str) -> pathlib.Path:
    """Where the venv of VENVS[name] is (made or not), for this Python."""
    key = json.dumps([VENVS[name], sys.implementation.name, list(sys.version_info[:2])])
    return _root() / "venvs" / ("%s-%s" % (name, hashlib.sha256(key.encode()).hexdigest()[:12]))


def _venv_python(tree: pathlib.Path) -> pathlib.Path:
    return tree / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def venv(name: str) -> pathlib.Path:
    """The Python of the venv that holds VENVS[name], made the first time (``python -m
    venv`` and ``pip install``; the next calls find it done). Raises Offline when pip
    could not reach the index, RuntimeError when it failed otherwise."""
    tree = venv_dir(name)
    done = tree / ".installed"
    if done.exists():
        return _venv_python(tree)
    tree.parent.mkdir(parents=True, exist_ok=True)
    with open(str(tree) + ".lock", "w") as lock:
        try:
            import fcntl
            fcntl.flock(lock, fcntl.LOCK_EX)  # two test runs at once make it once
        except ImportError:  # Windows: no lock
            pass
        if done.exists():
            return _venv_python(tree)
        if tree.exists():  # an earlier attempt that did not finish
            shutil.rmtree(tree)
        python = _venv_python(tree)
        if _pip_installs_elsewhere():  # this pip installs there: a venv without pip (0.1 s, not 5)
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tree)],
                           check=True, timeout=600, capture_output=True)
            pip = [sys.executable, "-m", "pip", "--python", str(python)]
        else:
            subprocess.run([sys.executable, "-m", "venv", str(tree)], check=True, timeout=600,
                           capture_output=True)
            pip = [str(python), "-m", "pip"]
        out = subprocess.run(pip + ["install", "-q", "--disable-pip-version-check", *VENVS[name]],
                             capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            shutil.rmtree(tree)
            what = "pip install %s failed (exit %d): %s" % (
                " ".join(VENVS[name]), out.returncode, (out.stderr or out.stdout)[-2000:])
            raise (Offline if no_network(out.stdout + out.stderr) else RuntimeError)(what)
        freeze = subprocess.run(pip + ["freeze", "--all"], capture_output=True, text=True,
                                timeout=300, check=True)
        done.write_text(freeze.stdout)
    return python


def _pip_installs_elsewhere() -> bool:
    """Whether this interpreter has a pip with --python (22.3 and later)."""
    out = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True,
                         text=True, timeout=120)
    found = re.match(r"pip (\d+)\.(\d+)", out.stdout) if out.returncode == 0 else None
    return found is not None and (int(found.group(1)), int(found.group(2))) >= (22, 3)


if __name__ == "__main__":
    for project in PINS:
        print(sdist(project))
    for env in VENVS:
        print(venv(env))
