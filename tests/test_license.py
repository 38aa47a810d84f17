# SPDX-License-Identifier: Apache-2.0
"""Every source file carries an SPDX line, and LICENSE is the Apache-2.0 text it names."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TAG = "SPDX-License-Identifier: Apache-2.0"
SOURCE_SUFFIXES = {".py", ".pyi", ".c", ".h", ".S", ".sh"}
SOURCE_NAMES = {"Makefile", "meson.build", "meson.options", "run"}  # run: .ci/run


def _tracked_sources():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an unpacked sdist): the file list comes from git")
    files = [ROOT / f for f in out.split()]
    return [f for f in files if f.suffix in SOURCE_SUFFIXES or f.name in SOURCE_NAMES]


def missing_spdx(files):
    """The files whose first three lines hold no SPDX line."""
    return [f for f in files if not any(TAG in line for line in
                                        f.read_text(errors="replace").splitlines()[:3])]


def test_every_source_file_has_an_spdx_line():
    files = _tracked_sources()
    assert len(files) > 100
    missing = missing_spdx(files)
    assert not missing, "no SPDX line in: " + ", ".join(str(f.relative_to(ROOT)) for f in missing)


def test_the_check_finds_a_file_without_one(tmp_path):
    bare = tmp_path / "bare.c"
    bare.write_text("/* a file without the line */\nint x;\n")
    late = tmp_path / "late.py"
    late.write_text("'''doc'''\n\n\n# " + TAG + "\n")
    tagged = tmp_path / "tagged.py"
    tagged.write_text("#!/usr/bin/env python3\n# " + TAG + "\n")
    assert missing_spdx([bare, late, tagged]) == [bare, late]


def test_license_is_the_apache_2_text():
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License")
    assert "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text() \
        or 'license = "Apache-2.0"' in (ROOT / "pyproject.toml").read_text()
