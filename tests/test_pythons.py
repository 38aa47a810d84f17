# SPDX-License-Identifier: Apache-2.0
"""make pythons (noxfile.py): the versions the metadata claims are the versions it tests,
a claimed version that is missing fails under P256_STRICT=1, and a run that ran no
interpreter fails whatever the setting (a check that passes having run nothing is no
check).

noxfile.py is imported with a stand-in for nox (the test extra does not install it): its
session decorator records each session function, so a session can be called with a
stand-in session object.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


class _Stop(Exception):
    """What the stand-in session raises for skip() and error()."""


class _Session:
    def __init__(self, posargs=()):
        self.posargs = list(posargs)
        self.calls = []

    def skip(self, msg):
        raise _Stop("skip: " + msg)

    def error(self, msg):
        raise _Stop("error: " + msg)

    def run(self, *args, **kw):
        self.calls.append(args)

    def install(self, *args, **kw):
        self.calls.append(("install",) + args)


def _load_noxfile(monkeypatch, strict=False):
    sessions = {}
    fake = types.ModuleType("nox")
    fake.options = types.SimpleNamespace()
    fake.Session = _Session

    def session(name, **kw):
        def record(fn):
            sessions[name] = (fn, kw)
            return fn
        return record
    fake.session = session
    monkeypatch.setitem(sys.modules, "nox", fake)
    monkeypatch.setenv("P256_STRICT", "1" if strict else "0")
    monkeypatch.delenv("P256_CHROOT", raising=False)
    spec = importlib.util.spec_from_file_location("noxfile_under_test", ROOT / "noxfile.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, sessions


def _classifier_versions(text):
    return sorted(re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text),
                  key=lambda v: tuple(map(int, v.split("."))))


def test_the_classifiers_name_exactly_the_versions_make_pythons_tests(monkeypatch):
    nf, _ = _load_noxfile(monkeypatch)
    text = (ROOT / "pyproject.toml").read_text()
    assert _classifier_versions(text) == nf.VERSIONS
    low = re.search(r'^requires-python = ">=(3\.\d+)"', text, re.M).group(1)
    assert low == nf.VERSIONS[0]
    assert set(nf.FULL_CHECK_VERSIONS) <= set(nf.VERSIONS)
    # negative control: a classifier the noxfile does not test is seen
    planted = text.replace('"Programming Language :: Python :: 3.15",',
                           '"Programming Language :: Python :: 3.15",\n    '
                           '"Programming Language :: Python :: 3.16",')
    assert _classifier_versions(planted) != nf.VERSIONS


def _report(tmp_path, sessions):
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"sessions": [
        {"name": "py" + v, "result": r, "reason": why, "duration": 1.0} for v, r, why in sessions]}))
    return str(path)


def test_a_run_that_ran_no_interpreter_fails(monkeypatch, tmp_path, capsys):
    nf, _ = _load_noxfile(monkeypatch)
    missing = [(v, "skipped", nf.MISSING + " " + v + " on this machine") for v in ("3.9", "3.10")]
    default = [("3.11", "skipped", "/usr/bin/python3.11 " + nf.IS_DEFAULT)]
    assert nf.summary(_report(tmp_path, missing + default)) == 1
    out = capsys.readouterr().out
    assert "0 interpreters passed" in out and "no interpreter ran" in out
    assert "no Debian suite carries 3.9 3.10 3.12" in out  # what a fresh machine cannot get
    # with one interpreter run, the same report passes; a failed one fails it
    assert nf.summary(_report(tmp_path, missing + default + [("3.14", "success", "")])) == 0
    assert re.search(r"^1 interpreters passed, 0 failed, 2 missing \(passed: 3\.14 \(", capsys.readouterr().out,
                     re.M)
    assert nf.summary(_report(tmp_path, [("3.14", "success", ""), ("3.15", "failed", "")])) == 1


@pytest.mark.parametrize("strict", [False, True])
def test_a_missing_claimed_version_fails_only_when_strict(monkeypatch, strict):
    nf, sessions = _load_noxfile(monkeypatch, strict=strict)
    monkeypatch.setattr(nf, "find_python", lambda ver: None)
    fn = _session_for(nf, "3.10", None)
    with pytest.raises(_Stop) as stop:
        fn(_Session())
    assert str(stop.value).startswith("error: " if strict else "skip: ")
    assert nf.MISSING + " 3.10" in str(stop.value)
    assert "no Debian suite carries it: pyenv install 3.10" in str(stop.value)


def _session_for(nf, ver, exe):
    """The session function the noxfile makes for ver when its interpreter is exe."""
    made = {}
    real = nf.nox.session
    nf.nox.session = lambda name, **kw: (lambda fn: made.setdefault(name, fn))
    try:
        nf._make_session(ver, exe)
    finally:
        nf.nox.session = real
    return made["py" + ver]


def test_a_version_from_the_chroot_runs_the_same_session_there(monkeypatch):
    nf, _ = _load_noxfile(monkeypatch)
    monkeypatch.setattr(nf, "sdist", lambda session: "/tmp/p256-0.1.0.tar.gz")
    s = _Session()
    _session_for(nf, "3.15", nf.CHROOT)(s)
    (cmd,) = s.calls
    assert cmd[1].endswith("tools/debian_pythons.py") and cmd[2:5] == ("run", "3.15", "--sdist")
    s = _Session()
    _session_for(nf, "3.13", nf.CHROOT)(s)  # no package checks there: no sdist
    assert s.calls[0][2:] == ("run", "3.13", "--")
