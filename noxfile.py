# SPDX-License-Identifier: Apache-2.0
"""One nox session per CPython 3.9-3.15 (make pythons; `nox --list` shows them).

Each session builds p256 from this tree into its own venv made with that interpreter
and runs the QUICK subset of the suite (tests/quick.txt: import, the core's self-test, the API, the
vectors); on the newest versions (FULL_CHECK_VERSIONS) also the type check (mypy and
tests/test_typing.py, stubtest against the extension that interpreter built) and the
package checks (a wheel built from the sdist there, tools/check_package.py). The
interpreter nox itself runs under (.venv's, made from the Makefile's $(PYTHON)) is skipped
with a note: `make test` runs the full suite on it. Arguments after `--` replace the test
files, and then the default interpreter runs them too: `nox -s py3.12 -- tests/test_cli.py`.
The venvs live in .nox/, made and filled by uv; nox, uv, build and auditwheel are the
`dev` dependency group of pyproject.toml (make pythons installs it into .venv).

Interpreters are taken from pyenv (`$(pyenv root)/versions/<X.Y.Z>/bin/pythonX.Y`, the
newest patch release), then from PATH, then, for the versions Debian's testing suite
carries (3.13, 3.14, 3.15), from a chroot of it that tools/debian_pythons.py makes once
and keeps (as root; the session then runs this file's own session inside it). A version
none of them has is reported as a skipped session with what would bring it; with
P256_STRICT=1 it fails. The closing summary names each version that ran and where it came
from, and fails a run in which no interpreter but the default one ran.
"""

from __future__ import annotations

import functools
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

import nox

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))
import debian_pythons  # noqa: E402  (tools/: the chroot of Debian's testing suite)

VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
# The versions whose sessions also run the type check and the package checks: the newest,
# where a new interpreter's C API, stdlib and packaging tools are first met (the older
# ones had both when they were newest; make test runs both on the default python).
FULL_CHECK_VERSIONS = ["3.14", "3.15"]

# ~20-40 s per interpreter here: what can differ between Python versions is the binding
# (C API), the Python layer with the stdlib it uses (argparse, json) and the test
# dependencies, not the field arithmetic; the pure-Python reference, the generators, leak,
# stress, bench and openssl-interop tests run on the default python only.
QUICK = [line.strip() for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "tests", "quick.txt"))
         if line.strip() and not line.startswith("#")]

# Of the quick set, what no interpreter version can change runs on the default python
# only (docs/development.md: a third of each session's tests): the fuzz runner's own
# tests (make fuzz-smoke runs the runner, on the default python), the random
# differential between the batch engines (the core's C over 10^5 items), and the memory
# bound of a streamed batch with its negative control (2 x 10^5 items each).
DEFAULT_PYTHON_ONLY = [
    "--deselect=tests/test_fuzz_targets.py::test_runner_fuzzes_and_catches_a_planted_bug",
    "--deselect=tests/test_fuzz_targets.py::test_runner_lists_every_target",
    "--deselect=tests/test_batch.py::test_engines_agree_on_random_mixed_items",
    "--deselect=tests/test_batch.py::test_a_generator_runs_in_bounded_memory",
    "--deselect=tests/test_batch.py::test_memory_bound_catches_a_copy_of_the_stream",
]

# Importing runs the core's known-answer self-test; it runs again here by name. The p256
# imported must be the one just installed, not the source tree.
IMPORT_CHECK = (
    "import os, sys, p256; from p256 import _core; "
    "(getattr(_core, 'selftest', None) or _core._selftest)(); "
    "assert os.path.realpath(p256.__file__).startswith(os.path.realpath(sys.prefix)), p256.__file__; "
    "print('CPython %d.%d.%d:' % sys.version_info[:3], 'p256', p256.__version__, "
    "'backend', p256.backend(), 'self-test passed')"
)

MISSING = "no CPython"
IS_DEFAULT = "is the default python"
# Inside the chroot the tools' python is no default: every session asked for runs.
DEFAULT = None if os.environ.get("P256_CHROOT") else "%d.%d" % sys.version_info[:2]
STRICT = os.environ.get("P256_STRICT") == "1"
ROOT = os.path.dirname(os.path.abspath(__file__))
CHROOT = "chroot"  # find_python's answer for a version the chroot serves
TYPING_REQ = re.findall(r'"([^"]+)"', re.search(r"^typing = \[(.*)\]", open(
    os.path.join(ROOT, "pyproject.toml")).read(), re.M).group(1))

nox.options.error_on_missing_interpreters = True
nox.options.reuse_existing_virtualenvs = False


@functools.lru_cache(maxsize=None)
def _pyenv_root() -> str | None:
    root = os.environ.get("PYENV_ROOT")
    if not root and shutil.which("pyenv"):
        out = subprocess.run(["pyenv", "root"], capture_output=True, text=True)
        root = out.stdout.strip() if out.returncode == 0 else None
    if not root and os.path.isdir(os.path.expanduser("~/.pyenv")):
        root = os.path.expanduser("~/.pyenv")
    return root


def _patch(path: str) -> tuple[int, ...]:
    m = re.search(r"/versions/(\d+)\.(\d+)\.(\d+)/", path)
    return tuple(int(x) for x in m.groups()) if m else (0,)


def find_python(ver: str) -> str | None:
    """The newest pyenv CPython X.Y, else a pythonX.Y on PATH that is not a pyenv shim,
    else CHROOT where tools/debian_pythons.py has or can make a chroot that carries it."""
    root = _pyenv_root()
    if root:
        found = [
            p
            for p in glob.glob(os.path.join(root, "versions", ver + ".*", "bin", "python" + ver))
            if re.search(r"/versions/%s\.\d+/" % re.escape(ver), p) and os.access(p, os.X_OK)
        ]
        if found:
            return max(found, key=_patch)
    exe = shutil.which("python" + ver)
    if exe and "/shims/" not in exe:
        return exe
    if ver in debian_pythons.VERSIONS and not os.environ.get("P256_CHROOT") and debian_pythons.why_not() is None:
        return CHROOT
    return None


def where_missing(ver: str) -> str:
    """What would bring a version this machine lacks."""
    if ver in debian_pythons.VERSIONS:
        return f"Debian {debian_pythons.SUITE} carries it, but {debian_pythons.why_not()}"
    return f"no Debian suite carries it: pyenv install {ver}"


_SDIST: list[str] = []


def sdist(session: nox.Session) -> str:
    """The sdist of this tree (P256_SDIST when given, as in the chroot): built once a run."""
    if os.environ.get("P256_SDIST"):
        return os.environ["P256_SDIST"]
    if not _SDIST:
        out = os.path.join(ROOT, "build", "pythons-sdist")
        shutil.rmtree(out, ignore_errors=True)
        session.run(sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT, external=True,
                    silent=True)
        _SDIST.append(os.path.join(out, os.listdir(out)[0]))
    return _SDIST[0]


def full_checks(session: nox.Session) -> None:
    """make typecheck's and make package's checks on this interpreter."""
    session.install("-q", *TYPING_REQ)
    session.run("python", "-m", "mypy")
    session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_typing.py")
    # The wheel built from the sdist by this interpreter, then tools/check_package.py
    # (the wheel's files and manylinux tag, the sdist, its install into a fresh venv).
    session.install("-q", "build", "auditwheel")
    dist = os.path.join(session.create_tmp(), "dist")
    shutil.rmtree(dist, ignore_errors=True)
    os.makedirs(dist)
    src = shutil.copy(sdist(session), dist)
    unpacked = os.path.join(session.create_tmp(), "sdist")
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(src) as tf:
        tf.extractall(unpacked)
    session.run("python", "-m", "build", "--wheel", "--outdir", dist,
                os.path.join(unpacked, os.listdir(unpacked)[0]), silent=True)
    session.run("python", os.path.join(ROOT, "tools", "check_package.py"), dist)


def _make_session(ver: str, exe: str | None) -> None:
    # uv (the dev group) makes the venv and installs in seconds where pip took ~40 s; it
    # builds p256 from this tree every time, as pip does.
    local = exe not in (None, CHROOT)
    @nox.session(name="py" + ver, python=exe if local else None, venv_backend="uv|venv" if local else "none")
    def tests(session: nox.Session) -> None:
        if exe is None:
            msg = (
                f"{MISSING} {ver} on this machine (looked in {_pyenv_root() or 'no pyenv root'}"
                f"/versions and PATH; {where_missing(ver)})"
            )
            if STRICT:
                session.error(msg + " (P256_STRICT=1)")
            session.skip(msg)
        files = session.posargs or QUICK + DEFAULT_PYTHON_ONLY
        if ver == DEFAULT and not session.posargs:
            session.skip(f"{exe} {IS_DEFAULT}: make test runs the full suite on it")
        if exe == CHROOT:  # this same session, run inside the chroot
            args = ["--sdist", sdist(session)] if ver in FULL_CHECK_VERSIONS else []
            session.run(sys.executable, os.path.join(ROOT, "tools", "debian_pythons.py"), "run", ver,
                        *args, "--", *session.posargs, external=True)
            return
        # p256 from this tree with its test extra, built (isolated build environment)
        # against this interpreter's headers.
        session.install("-q", ".[test]")
        session.run("python", "-c", IMPORT_CHECK)
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", *files)
        if ver in FULL_CHECK_VERSIONS and not session.posargs:
            full_checks(session)


for _ver in VERSIONS:
    _make_session(_ver, find_python(_ver))


def source(ver: str) -> str:
    """Where a version's interpreter comes from, for the summary."""
    exe = find_python(ver)
    if exe == CHROOT:
        return f"Debian {debian_pythons.SUITE} chroot"
    return "pyenv" if exe and "/versions/" in exe else exe or "none"


def summary(report_path: str) -> int:
    """make pythons' closing lines, from `nox --report`: make test's summary shows the last.
    Fails when a session failed, or when no interpreter but the default one ran (a check
    that passes having run nothing is no check)."""
    with open(report_path) as f:
        sessions = json.load(f)["sessions"]
    by: dict[str, list[str]] = {"passed": [], "failed": [], "missing": [], "default": []}
    for s in sessions:
        ver, reason = s["name"][2:], s.get("reason") or ""
        if s["result"] == "success":
            by["passed"].append(f"{ver} ({source(ver)})")
        elif s["result"] == "skipped" and IS_DEFAULT in reason:
            by["default"].append(ver)
        elif MISSING in reason:
            by["missing"].append(ver)
        else:
            by["failed"].append(ver)
    if by["missing"]:
        debian = ("3.11",) + debian_pythons.VERSIONS  # bookworm's python3, then the chroot's
        print(f"missing here: {' '.join(by['missing'])}. A fresh Debian machine can get its own python3 "
              f"(bookworm: 3.11) and, as root, {', '.join(debian[1:])} from Debian {debian_pythons.SUITE} "
              f"(tools/debian_pythons.py); no Debian suite carries "
              f"{' '.join(v for v in VERSIONS if v not in debian)}: pyenv's builds bring them")
    secs = sum(s.get("duration", 0) for s in sessions)
    names = "; ".join(f"{k}: {', '.join(v) if k == 'passed' else ' '.join(v)}" for k, v in by.items() if v)
    # Starts with the count, as pytest's closing line does, so make test's summary picks it.
    print(f"{len(by['passed'])} interpreters passed, {len(by['failed'])} failed, "
          f"{len(by['missing'])} missing ({names}) in {secs:.0f}s")
    if not by["passed"]:
        print("make pythons: FAILED: no interpreter ran (every version missing or the default)")
    return 1 if by["failed"] or not by["passed"] else 0


if __name__ == "__main__":  # python noxfile.py REPORT.json (make pythons)
    sys.exit(summary(sys.argv[1]))
