# SPDX-License-Identifier: Apache-2.0
import importlib.metadata
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
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


# -- the test extra and pyca/cryptography ---------------------------------------------------
# The tests and the benchmarks measure p256 against the newest pyca/cryptography, so nothing
# the test extra installs may cap it below that. pyOpenSSL does (26.4.0: cryptography < 51)
# and py_webauthn requires pyOpenSSL: py_webauthn runs in a venv of its own
# (tools/third_party.py's VENVS, tests/py_webauthn_oracle.py), never in the test extra.
CAPS_CRYPTOGRAPHY = {
    "webauthn": "py_webauthn requires pyOpenSSL (tools/third_party.py's VENVS runs it apart)",
    "pyopenssl": "pyOpenSSL caps cryptography below its newest release (26.4.0: < 51)",
}


def _extra(pyproject_text, name):
    """The requirement strings of one extra in pyproject.toml (no tomllib on 3.9 and 3.10)."""
    found = re.search(r'^%s = \[((?:\s*"[^"]*"\s*,?)*)\s*\]' % re.escape(name), pyproject_text,
                      re.M)
    assert found, name
    return re.findall(r'"([^"]*)"', found.group(1))


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def capping_requirements(requirements):
    """Each requirement of the list that is, or brings, a cap on cryptography's version."""
    from packaging.requirements import Requirement

    found = []
    for text in requirements:
        req = Requirement(text)
        name = _canonical(req.name)
        if name in CAPS_CRYPTOGRAPHY:
            found.append("%s: %s" % (text, CAPS_CRYPTOGRAPHY[name]))
        elif name == "cryptography" and any(s.operator in ("<", "<=", "==", "===", "~=")
                                            for s in req.specifier):
            found.append("%s: an upper bound" % text)
    return found


def test_the_test_extra_holds_nothing_that_caps_cryptography():
    pytest.importorskip("packaging")
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("not run from a source tree")
    test = _extra(pyproject.read_text(), "test")
    assert "cryptography>=43" in test and len(test) >= 8
    assert capping_requirements(test) == []
    # the negative control: the extra as it was, with py_webauthn; a capped cryptography
    assert len(capping_requirements(test + ["webauthn==3.0.1", "pyOpenSSL>=26"])) == 2
    assert capping_requirements(["cryptography>=43,<51"]) == ["cryptography>=43,<51: an upper bound"]


def _installed_closure(requirements):
    """{distribution "name version": its requirements} over what requirements install,
    from the installed metadata; None when one of them is not installed here."""
    from packaging.requirements import Requirement

    seen, todo = {}, [(Requirement(r), "test") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        try:
            dist = importlib.metadata.distribution(req.name)
        except importlib.metadata.PackageNotFoundError:
            return None
        key = "%s %s" % (dist.metadata["Name"], dist.version)
        if key in seen:
            continue
        seen[key] = dist.requires or []
        for wanted in [""] + sorted(req.extras):
            todo += [(Requirement(r), wanted) for r in seen[key]]
    return seen


def caps_below(closure, newest):
    """Each requirement on cryptography in closure that the version newest does not meet."""
    from packaging.requirements import Requirement

    return ["%s requires %s" % (dist, text) for dist, texts in sorted(closure.items())
            for text in texts if _canonical(Requirement(text).name) == "cryptography"
            and (Requirement(text).marker is None
                 or Requirement(text).marker.evaluate({"extra": ""}))
            and not Requirement(text).specifier.contains(newest)]


def _newest_cryptography():
    """The newest release of cryptography for this interpreter, as pip resolves it."""
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "-q",
                          "--ignore-installed", "--no-deps", "--report", "-", "cryptography"],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0 and "No module named pip" in out.stderr:
        pytest.skip("no pip next to this interpreter")
    if out.returncode != 0:
        sys.path.insert(0, str(ROOT / "tools"))
        import third_party

        if third_party.no_network(out.stderr):
            why = "the package index cannot be reached: %s" % out.stderr[-300:]
            if os.environ.get("P256_STRICT") == "1":
                pytest.fail(why + " (P256_STRICT=1)", pytrace=False)
            pytest.skip(why)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["install"][0]["metadata"]["version"]


def test_the_test_extra_installs_admit_the_newest_cryptography():
    """What the test extra installed (this venv's metadata, followed through every
    requirement) admits the newest cryptography: no cap below it anywhere."""
    pytest.importorskip("packaging")
    try:
        extra = [r for r in importlib.metadata.requires("p256") or [] if 'extra == "test"' in r]
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("p256 is not installed (no distribution metadata)")
    closure = _installed_closure(extra)
    if closure is None:
        pytest.skip("the test extra is not installed here")
    assert any(d.startswith(("pyjwt ", "PyJWT ")) for d in closure), sorted(closure)
    assert caps_below(closure, _newest_cryptography()) == []
    # the negative control: pyOpenSSL 26.4.0's requirement, as the test extra once brought it
    planted = dict(closure, **{"pyOpenSSL 26.4.0": ["cryptography<51,>=49.0.0"]})
    assert caps_below(planted, "51.0.1") == ["pyOpenSSL 26.4.0 requires cryptography<51,>=49.0.0"]
