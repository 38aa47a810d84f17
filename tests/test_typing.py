# SPDX-License-Identifier: Apache-2.0
"""Types: mypy --strict on the package and on a typed usage sample, the sample's negative
twin, and stubtest of the native modules' stubs.

mypy runs with the project's configuration ([tool.mypy] in pyproject.toml: strict,
python_version 3.9, p256 from src/), except where the installed package is the point
(py.typed and the .pyi files must be installed, and stubtest compares the stubs with the
built extension).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "mypy", reason="mypy is not installed: pip install '.[typing]' (make typecheck installs it)"
)

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
SAMPLE = ROOT / "tests" / "typing" / "usage.py"
TWIN = ROOT / "tests" / "typing" / "usage_bad.py"
NATIVE = ("p256._core", "p256._allocstat")

# "file:line: error: message  [code]" (mypy's default one-line form; notes are skipped).
_ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: .*\[(?P<code>[a-z0-9-]+)\]$")
_TAG = re.compile(r"#\s*E:\s*(?P<codes>[a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)\s*$")


def _mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "mypy", "--no-pretty", "--no-error-summary",
           "--show-error-codes", "--no-color-output", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


def _errors(out: str, path: Path) -> set[tuple[int, str]]:
    """(line, code) of every error mypy printed for the file `path`."""
    found = set()
    for text in out.splitlines():
        m = _ERROR.match(text.strip())
        if m and (ROOT / m["file"]).resolve() == path:
            found.add((int(m["line"]), m["code"]))
    return found


def _tags(path: Path) -> set[tuple[int, str]]:
    tags = set()
    for number, text in enumerate(path.read_text().splitlines(), 1):
        m = _TAG.search(text)
        if m:
            tags.update((number, c.strip()) for c in m["codes"].split(","))
    return tags


def test_package_and_sample_are_strict_clean():
    # [tool.mypy] files: src/p256 (reference.py, _core.pyi, _allocstat.pyi) and usage.py.
    r = _mypy("--config-file", str(CONFIG))
    assert r.returncode == 0, "mypy --strict reported:\n" + r.stdout + r.stderr


def test_negative_twin_reports_exactly_the_tagged_lines():
    tags = _tags(TWIN)
    lines = TWIN.read_text().splitlines()
    # The twin keeps the classic wrong calls (text for bytes, unknown names); each is tagged.
    for needle in ('sk.sign("text")', 'hash="md5"', 'encoding="pem"', 'deterministic="yes"'):
        tagged = [n for n, text in enumerate(lines, 1) if needle in text and _TAG.search(text)]
        assert tagged, f"usage_bad.py has no tagged line with {needle}"
    r = _mypy("--config-file", str(CONFIG), str(TWIN))
    assert r.returncode == 1, r.stdout + r.stderr  # 1: errors found (2 would be a crash)
    # Errors in p256 itself are test_package_and_sample_are_strict_clean's to report.
    reported = _errors(r.stdout, TWIN)
    missed = sorted(tags - reported)
    unexpected = sorted(reported - tags)
    assert not missed and not unexpected, (
        "usage_bad.py: tagged but not reported by mypy: %s\nreported but not tagged: %s\n"
        "mypy printed:\n%s" % (
            ["%d: %s (%s)" % (n, c, lines[n - 1].strip()) for n, c in missed],
            ["%d: %s" % (n, c) for n, c in unexpected], r.stdout)
    )


def _installed_package() -> Path:
    spec = importlib.util.find_spec("p256")
    assert spec is not None and spec.origin is not None
    pkg = Path(spec.origin).parent
    if pkg == ROOT / "src" / "p256":
        pytest.skip("p256 is imported from src/, not installed: nothing installed to check")
    return pkg


def _no_config(tmp_path: Path) -> str:
    """An empty mypy configuration in tmp_path: no project settings, no warning."""
    path = tmp_path / "mypy.ini"
    path.write_text("[mypy]\n")
    return str(path)


def test_installed_package_ships_its_types(tmp_path):
    pkg = _installed_package()
    # stubtest passes silently when a stub is missing (it then has nothing to compare), so
    # the files are checked first.
    for name in ("py.typed", "_core.pyi", "_allocstat.pyi"):
        assert (pkg / name).is_file(), f"the installed package lacks {name} ({pkg})"
    # From a directory outside the checkout, with no configuration: p256 is the installed one.
    r = _mypy("--strict", "--python-version", "3.9", "--config-file", _no_config(tmp_path),
              "--cache-dir", str(ROOT / ".mypy_cache" / "installed"), str(SAMPLE), cwd=tmp_path)
    assert r.returncode == 0, "mypy --strict with the installed p256:\n" + r.stdout + r.stderr


def test_stubtest_accepts_the_native_stubs(tmp_path):
    _installed_package()
    cmd = [sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", _no_config(tmp_path), *NATIVE]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, "stubtest:\n" + r.stdout + r.stderr


def test_sample_runs():
    # The sample is a real program: its calls must also work, not only type-check.
    r = subprocess.run([sys.executable, str(SAMPLE)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0 and "usage.py: ok" in r.stdout, r.stdout + r.stderr
