# SPDX-License-Identifier: Apache-2.0
"""The known-answer self-test that p256._core runs when it is imported (csrc/py_selftest.c).

PyInit__core calls the same C function as _core._selftest(): if it fails, the import
raises ImportError. These tests show that the function passes on this build and that
each of its four checks can fail (the argument corrupts one expected value, as a
miscompiled core would produce a wrong one), so the import guard is not vacuous.
Building with CFLAGS=-DP256_SELFTEST_CORRUPT=<1..4> makes the import itself fail
(docs/security.md).
"""

import subprocess
import sys

import pytest

from p256 import _core

CHECKS = {
    1: "base-point multiplication",
    2: "deterministic signature",
    3: "verification of a valid signature",
    4: "rejection of a signature over another digest",
}


def test_selftest_passes():
    assert _core._selftest() is None
    assert _core._selftest(0) is None


@pytest.mark.parametrize("corrupt", sorted(CHECKS))
def test_each_check_can_fail(corrupt):
    with pytest.raises(ImportError, match="self-test failed.*" + CHECKS[corrupt]):
        _core._selftest(corrupt)
    assert _core._selftest() is None  # nothing stays broken


def test_selftest_arguments():
    with pytest.raises(TypeError):
        _core._selftest(0, 1)
    with pytest.raises(TypeError):
        _core._selftest("1")


def test_fresh_import_runs_it():
    # A fresh interpreter imports the module (running the self-test) and signs.
    code = (
        "import p256, sys; k = p256.PrivateKey.from_int(1); "
        "sys.exit(0 if k.public_key.verify(k.sign(b'x'), b'x') else 1)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
