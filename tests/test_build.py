# SPDX-License-Identifier: Apache-2.0
import importlib.metadata
import os
import pathlib
import re
import shutil
import subprocess
import sysconfig

import pytest

import p256
from p256 import _core

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_core_is_compiled():
    assert _core.__file__.endswith((".so", ".pyd"))
    assert _core.backend() in ("portable", "x86_64-adx", "aarch64-asm")


def test_one_version_number():
    # meson.build's project(version:) is the only one: the extension gets it as
    # -DP256_VERSION, the distribution metadata through pyproject's dynamic version.
    assert p256.__version__ == _core.__version__
    meson_build = ROOT / "meson.build"
    if meson_build.exists():  # the tests run from a source checkout
        meson = meson_build.read_text()
        assert re.search(r"^\s*version: '([^']+)',", meson, re.M).group(1) == p256.__version__
        pyproject = (ROOT / "pyproject.toml").read_text()
        assert re.search(r"^dynamic = \[\"version\"\]", pyproject, re.M)
        assert not re.search(r"^version\s*=", pyproject, re.M)


def test_distribution_metadata_has_the_version():
    try:
        dist = importlib.metadata.version("p256")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("p256 is imported from a tree without distribution metadata "
                    "(PYTHONPATH, as tools/test_arm64_python.sh runs it), not installed")
    assert p256.__version__ == dist


# p256_batch_engine()'s name for the IFMA engine built on csrc/modules/batch/ifma_emu.h.
EMULATED_ENGINE = b"avx512-ifma-emulated"


def test_extension_does_not_contain_the_ifma_emulation():
    # The portable emulation of the IFMA engine's intrinsics (-DP256_IFMA_EMULATE) is for
    # the C harnesses and make ctime only; the extension runs the real instructions.
    so = pathlib.Path(_core.__file__).read_bytes()
    assert b"avx512-ifma" in so  # the scan sees the extension's strings
    assert EMULATED_ENGINE not in so
    assert p256.batch_backend() in ("avx512-ifma", "scalar")


def test_the_emulation_switch_is_seen_and_refused_in_the_extension_build():
    # The negative control of the test above (the switch puts the emulated engine's name
    # into the core) and the build's guard: with -DP256_VARIANT, as meson.build compiles
    # every copy of the core, -DP256_IFMA_EMULATE stops the compiler.
    src = ROOT / "csrc" / "p256.c"
    cc = next((c for c in (os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc")
               if c and shutil.which(c.split()[0])), None)
    if not src.exists() or cc is None:
        pytest.skip("needs the source tree and a C compiler")
    pre = cc.split() + ["-E", "-std=c99", "-I" + str(src.parent), "-DP256_IFMA_EMULATE",
                        str(src)]
    out = subprocess.run(pre, capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    assert EMULATED_ENGINE in out.stdout
    out = subprocess.run(pre + ["-DP256_VARIANT=p256_api_portable"], capture_output=True,
                         timeout=120)
    assert out.returncode != 0
    assert b"P256_IFMA_EMULATE is for the C harnesses and make ctime" in out.stderr
    meson = (ROOT / "meson.build").read_text()
    assert "P256_IFMA_EMULATE" not in meson
