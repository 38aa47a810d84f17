# SPDX-License-Identifier: Apache-2.0
"""Source distributions of other projects that the tests read: their own test suites
(PyJWT, joserfc), their own fixtures (py_webauthn's registrations) and soft-webauthn's
software authenticator. Each is pinned by version and by the SHA-256 of its sdist,
downloaded once with pip (``pip download --no-binary :all: --no-deps``) into a cache
directory, and unpacked there:

    $P256_CACHE (default ~/.cache/p256)/sdists/<name>-<version>.tar.gz
    $P256_CACHE/sdists/<name>-<version>/...

``python tools/third_party.py`` fetches them all (what CI can do ahead of the tests).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
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


def cache_dir() -> pathlib.Path:
    root = os.environ.get("P256_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "p256")
    return pathlib.Path(root) / "sdists"


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


if __name__ == "__main__":
    for project in PINS:
        print(sdist(project))
