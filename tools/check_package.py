# SPDX-License-Identifier: Apache-2.0
"""make package: checks the sdist and the wheel that `python -m build` put in DIST_DIR.

    python tools/check_package.py build/dist

1. the wheel holds only the package: every file matches WHEEL_ALLOWED (p256's modules,
   stubs, py.typed, its two extension modules, the dist-info), every file of src/p256 in
   the sdist is in it, RECORD lists every file with its right hash;
2. `auditwheel show` reports a manylinux platform tag for it;
3. the sdist is one p256-<version>/ tree holding what the build needs (pyproject.toml,
   meson.build, every file of csrc/ and src/ that git has at HEAD) and no build leftover
   (SDIST_JUNK), within SDIST_MAX_BYTES;
4. the sdist installs into a fresh venv, and there p256 imports (which runs the core's
   known-answer self-test), the self-test passes again and can fail, a key signs and
   verifies, the `p256` command runs, and the version is the sdist's and the wheel's.
Each check of 1-3 is run first on a planted defect, which it must report (negative
controls), so a check that cannot fail is caught. Nothing here names the version or the
C sources: they come from the built files and from git.
"""

from __future__ import annotations

import base64
import ctypes.util
import email.parser
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_EXT = r"(\.[A-Za-z0-9_.-]+)?\.so"  # _core.cpython-311-x86_64-linux-gnu.so, _core.abi3.so
WHEEL_ALLOWED = [
    # modules and stubs, subpackages too, but no tests, test_*.py or conftest.py
    rf"p256/((?!tests?/|testing/){_ID}/)*(?!test_|conftest\.){_ID}\.pyi?",
    r"p256/py\.typed",
    rf"p256/_core{_EXT}",
    rf"p256/_allocstat{_EXT}",
    r"p256-[^/]+\.dist-info/(METADATA|WHEEL|RECORD|entry_points\.txt|licenses/[^/]+|LICENSE[^/]*)",
]
# In the sdist: compiled or generated files, caches, venvs, build trees, VCS data.
SDIST_JUNK = [
    r"(^|/)__pycache__/",
    r"\.(pyc|pyo|so|o|a|dylib|pyd|whl)$",
    r"(^|/)(\.venv[^/]*|\.nox|\.tox|\.git|\.hypothesis|\.pytest_cache|\.mypy_cache)/",
    r"(^|/)[^/]*\.egg-info/",
    r"^(build|dist|site)/",
    r"^tests/(c|fuzz)/bin/",
]
# The sdist keeps tests/ and the vectors (no export-ignore): it is the source release that
# distributions build and run the suite from. Today ~2.7 MB, ~1.7 MB of it the vectors.
SDIST_MAX_BYTES = 8 << 20


def fail(msg: str) -> None:
    print(f"check_package: FAILED: {msg}")
    sys.exit(1)


def ok(msg: str) -> None:
    print(f"check_package: ok: {msg}")


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def record_hash(data: bytes) -> str:
    """A RECORD entry's hash (PEP 376 / wheel spec): urlsafe base64 of SHA-256, no padding."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# -- 1. wheel contents ---------------------------------------------------------------------


def wheel_strays(names: list[str]) -> list[str]:
    return [n for n in names if not any(re.fullmatch(p, n) for p in WHEEL_ALLOWED)]


def wheel_missing(names: list[str], src_files: list[str]) -> list[str]:
    """Required entries absent from the wheel: src/p256/* of the sdist, the extension."""
    have = set(names)
    missing = [f for f in src_files if f not in have]
    if not any(re.fullmatch(rf"p256/_core{_EXT}", n) for n in names):
        missing.append("p256/_core*.so")
    for f in ("METADATA", "WHEEL", "RECORD"):
        if not any(re.fullmatch(rf"p256-[^/]+\.dist-info/{f}", n) for n in names):
            missing.append(f"*.dist-info/{f}")
    return missing


def record_errors(zf: zipfile.ZipFile) -> list[str]:
    names = [n for n in zf.namelist() if not n.endswith("/")]
    rec_name = next((n for n in names if n.endswith(".dist-info/RECORD")), None)
    if rec_name is None:
        return ["no RECORD"]
    rec = {}
    for line in zf.read(rec_name).decode().splitlines():
        if line.strip():
            path, digest, _size = line.rsplit(",", 2)
            rec[path] = digest
    errors = [f"{n} not in RECORD" for n in names if n not in rec]
    for n in names:
        if n == rec_name or n not in rec:
            continue
        want = record_hash(zf.read(n))
        if rec[n] != want:
            errors.append(f"{n}: RECORD hash {rec[n]} != {want}")
    errors += [f"RECORD lists {p}, not in the wheel" for p in rec if p not in names]
    return errors


def check_wheel(whl: str, src_files: list[str]) -> dict[str, str]:
    # Negative control: a listing with what the check exists to keep out.
    planted = ["tests/test_api.py", "p256/__pycache__/_keys.cpython-311.pyc", ".venv/bin/python",
               "build/cp311/meson-logs/meson-log.txt", "p256/_core.c", "p256/tests/test_x.py",
               "p256/_keys.py.orig", "tools/check_package.py", "p256/conftest.py"]
    caught = wheel_strays(["p256/__init__.py"] + planted)
    if caught != planted:
        fail(f"negative control: the wheel check let through {sorted(set(planted) - set(caught))}")
    if wheel_missing(["p256/__init__.py"], ["p256/__init__.py", "p256/py.typed"]) == []:
        fail("negative control: the wheel check missed absent files")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:  # a file changed after RECORD was written
        zf.writestr("p256/__init__.py", b"x = 2\n")
        zf.writestr("p256-0.dist-info/RECORD", f"p256/__init__.py,{record_hash(b'x = 1')},6\n"
                                               "p256-0.dist-info/RECORD,,\n")
    with zipfile.ZipFile(buf) as zf:
        if not record_errors(zf):
            fail("negative control: RECORD check missed a wrong hash")
    ok(f"negative control: a wheel listing with {len(planted)} planted files "
       f"({', '.join(planted[:3])}, ...), one lacking _core/py.typed, and a RECORD with a "
       "wrong hash are rejected")

    with zipfile.ZipFile(whl) as zf:
        names = [n for n in zf.namelist() if not n.endswith("/")]
        stray = wheel_strays(names)
        if stray:
            fail(f"{os.path.basename(whl)} holds files outside the package: {stray}")
        missing = wheel_missing(names, src_files)
        if missing:
            fail(f"{os.path.basename(whl)} lacks {missing}")
        errors = record_errors(zf)
        if errors:
            fail(f"{os.path.basename(whl)}: RECORD: {errors}")
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(zf.read(meta_name).decode())
        ep = next((n for n in names if n.endswith(".dist-info/entry_points.txt")), None)
        if ep is None or not re.search(r"(?m)^p256\s*=", zf.read(ep).decode()):
            fail(f"{os.path.basename(whl)}: no `p256` console script in entry_points.txt")
    ok(f"wheel {os.path.basename(whl)}: {len(names)} files, all allowed, RECORD hashes right, "
       f"all {len(src_files)} src/p256 files of the sdist in it:")
    for n in names:
        print(f"    {n}")
    return {"name": meta["Name"], "version": meta["Version"]}


# -- 2. auditwheel -------------------------------------------------------------------------


def auditwheel_tag(whl: str) -> tuple[str | None, str]:
    r = run([sys.executable, "-m", "auditwheel", "show", whl])
    text = " ".join((r.stdout + r.stderr).split())
    m = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
    return (m.group(1) if m else None), text


def control_wheel(tmp: str) -> tuple[str, str]:
    """A wheel whose extension links a library outside every manylinux policy."""
    lib = next((ctypes.util.find_library(n) for n in ("ffi", "crypto", "sqlite3")
                if ctypes.util.find_library(n)), None)
    if lib is None:
        fail("negative control for auditwheel: no libffi/libcrypto/libsqlite3 to link against")
    cc = os.environ.get("CC") or "cc"
    so = os.path.join(tmp, "_bad.so")
    c = os.path.join(tmp, "bad.c")
    with open(c, "w") as f:
        f.write("extern int ctl_missing_fn(void); int ctl(void) { return 0; }\n")
    r = run([*cc.split(), "-shared", "-fPIC", "-o", so, c, "-Wl,--no-as-needed", f"-l:{lib}"])
    if r.returncode:
        fail(f"negative control for auditwheel: {cc} failed: {r.stderr.strip()}")
    whl = os.path.join(tmp, "ctl-1.0-cp311-cp311-linux_x86_64.whl")
    files = {
        "ctl/_bad.so": open(so, "rb").read(),
        "ctl-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: ctl\nVersion: 1.0\n",
        "ctl-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: check_package\n"
                                   b"Root-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n",
    }
    with zipfile.ZipFile(whl, "w") as zf:
        rec = []
        for n, data in files.items():
            zf.writestr(n, data)
            rec.append(f"{n},{record_hash(data)},{len(data)}")
        rec.append("ctl-1.0.dist-info/RECORD,,")
        zf.writestr("ctl-1.0.dist-info/RECORD", "\n".join(rec) + "\n")
    return whl, lib


def check_auditwheel(whl: str, tmp: str) -> None:
    bad, lib = control_wheel(tmp)
    tag, text = auditwheel_tag(bad)
    if tag is None or tag.startswith("manylinux"):
        fail(f"negative control: auditwheel did not refuse a wheel linking {lib}: {text}")
    ok(f"negative control: a wheel whose extension links {lib} gets tag {tag!r}, not manylinux")
    tag, text = auditwheel_tag(whl)
    if tag is None or not tag.startswith("manylinux"):
        fail(f"auditwheel show: no manylinux tag for {os.path.basename(whl)}: {text}")
    ok(f"auditwheel show {os.path.basename(whl)}: consistent with {tag!r}")
    m = re.search(r"system-provided shared libraries: (.*?) This constrains", text)
    if m:
        print(f"    external versioned symbols: {m.group(1)}")


# -- 3. sdist contents ---------------------------------------------------------------------


def sdist_junk(names: list[str]) -> list[str]:
    return [n for n in names if any(re.search(p, n) for p in SDIST_JUNK)]


def git_head_files() -> list[str] | None:
    """git HEAD's files, or None outside a git checkout (or where git is not installed:
    make pythons runs this in a chroot with neither)."""
    try:
        r = run(["git", "-C", ROOT, "ls-tree", "-r", "--name-only", "HEAD"])
    except OSError:
        return None
    return r.stdout.split() if r.returncode == 0 else None


def check_sdist(sdist: str) -> tuple[dict[str, str], list[str]]:
    planted = ["src/p256/__pycache__/_keys.cpython-311.pyc", "build/meson-logs/meson-log.txt",
               ".venv/pyvenv.cfg", "tests/c/bin/test_core-gcc-portable", "csrc/p256.o",
               "src/p256/_core.cpython-311-x86_64-linux-gnu.so", ".nox/py3-9/bin/python",
               "p256.egg-info/PKG-INFO", "dist/p256-0.1.0.tar.gz"]
    if sdist_junk(["src/p256/__init__.py", "tests/c/test_core.c"] + planted) != planted:
        fail("negative control: the sdist junk check let a planted file through")
    ok(f"negative control: {len(planted)} planted build leftovers ({', '.join(planted[:3])}, ...) "
       "are flagged in an sdist listing")

    size = os.path.getsize(sdist)
    with tarfile.open(sdist) as tf:
        members = [m for m in tf.getmembers() if m.isfile()]
        tops = {m.name.split("/", 1)[0] for m in tf.getmembers()}
        if len(tops) != 1:
            fail(f"{os.path.basename(sdist)}: more than one top directory: {sorted(tops)}")
        top = tops.pop()
        names = [m.name.split("/", 1)[1] for m in members]
        pkg_info = tf.extractfile(f"{top}/PKG-INFO")
        meta = email.parser.Parser().parsestr(pkg_info.read().decode()) if pkg_info else None
    if meta is None:
        fail(f"{os.path.basename(sdist)}: no PKG-INFO")
    if top != f"{meta['Name']}-{meta['Version']}":
        fail(f"sdist top directory {top!r} is not <name>-<version> of its PKG-INFO")
    junk = sdist_junk(names)
    if junk:
        fail(f"{os.path.basename(sdist)} holds build leftovers: {junk}")
    needed = ["pyproject.toml", "meson.build", "src/p256/__init__.py"]
    head = git_head_files()
    if head is not None:
        needed += [f for f in head if f.startswith(("csrc/", "src/"))]
    missing = sorted(set(needed) - set(names))
    if missing:
        fail(f"{os.path.basename(sdist)} lacks {missing}")
    if size > SDIST_MAX_BYTES:
        fail(f"{os.path.basename(sdist)} is {size} bytes, over {SDIST_MAX_BYTES}: what grew?")
    by_dir: dict[str, list[int]] = {}
    for m, n in zip(members, names):
        d = n.split("/", 1)[0] if "/" in n else "."
        by_dir.setdefault(d, [0, 0])
        by_dir[d][0] += 1
        by_dir[d][1] += m.size
    src_note = (f"every csrc/ and src/ file of git HEAD ({len(needed) - 3})" if head is not None
                else "not a git checkout: csrc/src completeness not compared")
    ok(f"sdist {os.path.basename(sdist)}: {size} bytes, {len(names)} files, no build leftover, "
       f"{src_note} in it; by top directory (files, bytes unpacked):")
    print("    " + ", ".join(f"{d} {c}/{b}" for d, (c, b) in sorted(by_dir.items())))
    if head is not None:
        dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"]).stdout.split("\n")
        dirty = [line[3:] for line in dirty if line.strip()]
        if dirty:
            print(f"    NOTE: the sdist is git HEAD: uncommitted changes are not in it: {dirty}")
    src_files = ["p256/" + n[len("src/p256/"):] for n in names if n.startswith("src/p256/")]
    return {"name": meta["Name"], "version": meta["Version"]}, src_files


# -- 4. the sdist installed into a fresh venv ----------------------------------------------

IMPORT_CHECK = r"""
import os, subprocess, sys
import p256
from p256 import _core
assert os.path.realpath(p256.__file__).startswith(os.path.realpath(sys.prefix)), p256.__file__
selftest = getattr(_core, "selftest", None) or _core._selftest
selftest()
try:
    selftest(1)  # a corrupted expected value: the self-test must be able to fail
except ImportError as e:
    failing = str(e)
else:
    sys.exit("selftest(1) did not fail: the import's self-test cannot fail")
k = p256.PrivateKey.generate()
assert k.public_key.verify(k.sign(b"check_package"), b"check_package")
assert not k.public_key.verify(k.sign(b"check_package"), b"check_packagf")
cli = os.path.join(os.path.dirname(sys.executable), "p256")
subprocess.run([cli, "--help"], check=True, stdout=subprocess.DEVNULL)
print(p256.__version__, p256.backend(), failing)
"""


def check_install(sdist: str, version: str, tmp: str) -> None:
    venv = os.path.join(tmp, "venv")
    r = run([sys.executable, "-m", "venv", venv])
    if r.returncode:
        fail(f"python -m venv: {r.stderr.strip()}")
    py = os.path.join(venv, "bin", "python")
    r = run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", sdist])
    if r.returncode:
        fail(f"pip install {os.path.basename(sdist)} into a fresh venv:\n{r.stdout}{r.stderr}")
    # From an empty directory, so that nothing of the source tree can be imported.
    r = run([py, "-c", IMPORT_CHECK], cwd=tmp)
    if r.returncode:
        fail(f"the fresh venv's p256: {r.stdout}{r.stderr}")
    got_version, backend, failing = r.stdout.strip().split(" ", 2)
    if got_version != version:
        fail(f"installed p256.__version__ {got_version!r} != the sdist's {version!r}")
    ok(f"{os.path.basename(sdist)} installed into a fresh venv ({run([py, '-V']).stdout.strip()}): "
       f"p256 {got_version} imported (self-test at import), backend {backend}, selftest() passes, "
       f"selftest(1) fails ({failing!r}), sign/verify, `p256 --help`")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dist = sys.argv[1]
    sdists = sorted(f for f in os.listdir(dist) if f.endswith(".tar.gz"))
    wheels = sorted(f for f in os.listdir(dist) if f.endswith(".whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        fail(f"{dist} must hold one sdist and one wheel (clear it before building): {sdists + wheels}")
    sdist, whl = os.path.join(dist, sdists[0]), os.path.join(dist, wheels[0])
    tmp = tempfile.mkdtemp(prefix="p256-check-package-")
    try:
        sdist_meta, src_files = check_sdist(sdist)
        wheel_meta = check_wheel(whl, src_files)
        if wheel_meta != sdist_meta or not wheels[0].startswith(f"{sdist_meta['name']}-{sdist_meta['version']}-"):
            fail(f"the wheel {wheels[0]} ({wheel_meta}) and the sdist ({sdist_meta}) disagree")
        ok(f"sdist and wheel are both {sdist_meta['name']} {sdist_meta['version']}")
        check_auditwheel(whl, tmp)
        check_install(sdist, sdist_meta["version"], tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("check_package: all passed")


if __name__ == "__main__":
    main()
