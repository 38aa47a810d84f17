# SPDX-License-Identifier: Apache-2.0
"""The field backend chosen at import: p256.backend(), P256_BACKEND, agreement of backends.

`make test` runs the whole suite once per backend the machine has (on x86-64 with BMI2
and ADX: the default, x86_64-adx, and P256_BACKEND=portable), so every other test file
checks both; the tests here check the selection itself.
"""
import os
import platform
import subprocess
import sys

import pytest

import p256

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from cpuinfo import host_flags  # noqa: E402  (tools/: the one reader of /proc/cpuinfo's flags)

BACKENDS = ("x86_64-adx", "aarch64-asm", "portable")


def _is_x86_64():
    return platform.machine().lower() in ("x86_64", "amd64")


def _cpu_has_adx():
    flags = host_flags()
    return flags is not None and {"bmi2", "adx"} <= flags


def _expected_default():
    if _is_x86_64() and _cpu_has_adx() and sys.platform.startswith("linux"):
        return "x86_64-adx"
    if platform.machine().lower() in ("aarch64", "arm64") and sys.platform.startswith("linux"):
        return "aarch64-asm"
    return "portable"


def _run(code, backend):
    env = dict(os.environ)
    if backend is None:
        env.pop("P256_BACKEND", None)
    else:
        env["P256_BACKEND"] = backend
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_backend_matches_environment_and_cpu():
    requested = os.environ.get("P256_BACKEND", "")
    assert p256.backend() == (requested or _expected_default())
    assert p256.backend() in BACKENDS


@pytest.mark.skipif(host_flags() is None, reason="needs /proc/cpuinfo to know the CPU")
def test_default_is_the_fastest_the_cpu_runs():
    r = _run("import p256; print(p256.backend())", None)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == _expected_default()


def test_forced_portable():
    r = _run("import p256; print(p256.backend())", "portable")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "portable"


@pytest.mark.parametrize("name", ["bogus", "PORTABLE", "x86_64_adx", "adx"])
def test_unknown_backend_is_an_import_error_listing_the_valid_ones(name):
    r = _run("import p256", name)
    assert r.returncode != 0
    assert "ImportError" in r.stderr
    assert f"P256_BACKEND={name}: unknown backend; valid values: " in r.stderr
    for valid in BACKENDS:
        assert valid in r.stderr


def test_forcing_a_backend_this_machine_cannot_run():
    r = _run("import p256; print(p256.backend())", "x86_64-adx")
    if _is_x86_64() and _cpu_has_adx() and sys.platform.startswith("linux"):
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "x86_64-adx"
    else:
        assert r.returncode != 0 and "ImportError" in r.stderr
        assert "P256_BACKEND=x86_64-adx" in r.stderr


# Deterministic operations under every backend the machine runs must give the same bytes.
_PROGRAM = """
import hashlib, p256
k = hashlib.sha256(b"backend agreement").digest()
sk = p256.PrivateKey.from_bytes(k)
peer = p256.PrivateKey.from_bytes(hashlib.sha256(b"peer").digest()).public_key
out = [p256.backend(), sk.public_key.to_bytes().hex(),
       sk.sign(b"message", deterministic=True).hex(), sk.exchange(peer).hex(),
       p256.scalar_mult(k, peer.to_bytes()).hex(), p256.scalar_base_mult(k).hex()]
sig = sk.sign(b"message")
out.append(str(sk.public_key.verify(sig, b"message")))
out.append(str(sk.public_key.verify(sig, b"other message")))
print("\\n".join(out))
"""


def test_backends_agree():
    results = {}
    for backend in {None, "portable", _expected_default()}:
        r = _run(_PROGRAM, backend)
        assert r.returncode == 0, r.stderr
        name, *values = r.stdout.split()
        results[name] = values
    assert "portable" in results
    reference = results["portable"]
    assert reference[-2:] == ["True", "False"]
    for name, values in results.items():
        assert values == reference, name
