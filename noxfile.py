# SPDX-License-Identifier: Apache-2.0
"""One nox session per CPython 3.9-3.13 (make pythons; `nox --list` shows them).

Each session builds p256 from this tree into its own venv made with that interpreter
and runs the QUICK subset of the suite (tests/quick.txt: import, the core's self-test, the API, the
vectors). The interpreter nox itself runs under (.venv's, made from the Makefile's
$(PYTHON)) is skipped with a note: `make test` runs the full suite on it. Arguments after
`--` replace the test files, and then the default interpreter runs them too:
`nox -s py3.12 -- tests/test_cli.py`. The venvs live in .nox/, made and filled by uv; nox,
uv, build and auditwheel are the `dev` dependency group of pyproject.toml (make pythons
installs it into .venv).

Interpreters are taken from pyenv (`$(pyenv root)/versions/<X.Y.Z>/bin/pythonX.Y`, the
newest patch release), then from PATH. A version the machine lacks is reported as a
skipped session with the command that installs it; with P256_STRICT=1 it fails.
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

import nox

VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]

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
DEFAULT = "%d.%d" % sys.version_info[:2]
STRICT = os.environ.get("P256_STRICT") == "1"

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
    """The newest pyenv CPython X.Y, else a pythonX.Y on PATH that is not a pyenv shim."""
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
    return None


def _make_session(ver: str, exe: str | None) -> None:
    # uv (the dev group) makes the venv and installs in seconds where pip took ~40 s; it
    # builds p256 from this tree every time, as pip does.
    @nox.session(name="py" + ver, python=exe, venv_backend="uv|venv" if exe else "none")
    def tests(session: nox.Session) -> None:
        if exe is None:
            msg = (
                f"{MISSING} {ver} on this machine (looked in {_pyenv_root() or 'no pyenv root'}"
                f"/versions and PATH): pyenv install {ver}"
            )
            if STRICT:
                session.error(msg + " (P256_STRICT=1)")
            session.skip(msg)
        files = session.posargs or QUICK + DEFAULT_PYTHON_ONLY
        if ver == DEFAULT and not session.posargs:
            session.skip(f"{exe} {IS_DEFAULT}: make test runs the full suite on it")
        # p256 from this tree with its test extra, built (isolated build environment)
        # against this interpreter's headers.
        session.install("-q", ".[test]")
        session.run("python", "-c", IMPORT_CHECK)
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", *files)


for _ver in VERSIONS:
    _make_session(_ver, find_python(_ver))


def summary(report_path: str) -> int:
    """make pythons' closing line, from `nox --report`: make test's summary shows it."""
    with open(report_path) as f:
        sessions = json.load(f)["sessions"]
    by: dict[str, list[str]] = {"passed": [], "failed": [], "missing": [], "default": []}
    for s in sessions:
        ver, reason = s["name"][2:], s.get("reason") or ""
        if s["result"] == "success":
            by["passed"].append(ver)
        elif s["result"] == "skipped" and IS_DEFAULT in reason:
            by["default"].append(ver)
        elif MISSING in reason:
            by["missing"].append(ver)
        else:
            by["failed"].append(ver)
    secs = sum(s.get("duration", 0) for s in sessions)
    names = "; ".join(f"{k}: {' '.join(v)}" for k, v in by.items() if v)
    # Starts with the count, as pytest's closing line does, so make test's summary picks it.
    print(f"{len(by['passed'])} interpreters passed, {len(by['failed'])} failed, "
          f"{len(by['missing'])} missing ({names}) in {secs:.0f}s")
    return 1 if by["failed"] else 0


if __name__ == "__main__":  # python noxfile.py REPORT.json (make pythons)
    sys.exit(summary(sys.argv[1]))
