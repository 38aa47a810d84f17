# SPDX-License-Identifier: Apache-2.0
import importlib.metadata
import pathlib
import re

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
