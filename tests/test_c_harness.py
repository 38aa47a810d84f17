# SPDX-License-Identifier: Apache-2.0
"""The C harnesses' iteration knobs (tests/c/harness.h): P256_TEST_ITERS, a percentage of
each harness's random cases that the caller sets, and P256_TEST_SHARE, the share that
tests/c/meson.build gives a run whose random cases another run has in full; the caller's
P256_TEST_ITERS wins over it, so `make ctest P256_TEST_ITERS=N` applies to every run."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
#include "harness.h"
int main(void)
{
    printf("%ld\n", harness_iters(1000));
    return 0;
}
"""


def compile_probe(directory, source, name, flags=()):
    """source compiled with the harnesses' flags against tests/c and csrc into directory/name
    (the C compiler: $CC's last word, or cc; the test is skipped without one)."""
    cc = shutil.which(os.environ.get("CC", "cc").split()[-1]) or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    (directory / (name + ".c")).write_text(source)
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-I" + os.path.join(ROOT, "tests", "c"),
                    "-I" + os.path.join(ROOT, "csrc"), *flags, "-o", str(directory / name),
                    str(directory / (name + ".c"))], check=True)
    return str(directory / name)


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    return compile_probe(tmp_path_factory.mktemp("harness"), PROBE, "probe")


def _run(exe, iters, share):
    env = {k: v for k, v in os.environ.items() if k not in ("P256_TEST_ITERS", "P256_TEST_SHARE")}
    env.update({k: v for k, v in (("P256_TEST_ITERS", iters), ("P256_TEST_SHARE", share)) if v is not None})
    r = subprocess.run([exe], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout.split()[-1] if r.stdout.split() else "", r.stdout + r.stderr


@pytest.mark.parametrize("iters, share, count", [
    (None, None, "1000"), ("10", None, "100"), ("", None, "1000"), ("0", None, "0"),
    (None, "10", "100"), ("", "5", "50"), ("50", "10", "500"), ("0", "10", "0"),
])
def test_the_caller_s_iterations_win_over_the_share(probe, iters, share, count):
    rc, got, out = _run(probe, iters, share)
    assert (rc, got) == (0, count), out
    assert ("P256_TEST_SHARE=" in out) == (share is not None and not iters), out


@pytest.mark.parametrize("iters, share", [(None, "ten"), (None, "1e3"), ("x", "10"), (None, "2000000")])
def test_a_malformed_value_stops_the_run(probe, iters, share):
    rc, _, out = _run(probe, iters, share)
    assert rc == 2 and "is not a percentage" in out, out
