#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make tsan: ThreadSanitizer over the code that runs without the GIL.

    python tools/tsan.py [PYTEST_ARG...]     (default: TESTS below)

The extension (binding and core) is built with gcc -fsanitize=thread into its own venv
(.venv-tsan, rebuilt when a source changed) and run under an interpreter that is not
instrumented, with gcc's TSan runtime preloaded (it intercepts the pthread locks and
semaphores the GIL and PyThread locks are made of, so their ordering is seen) and
PYTHONMALLOC=malloc (Python's objects through the runtime's allocator, whose frees reset
what it knows of their memory). The interpreter is the venv's python, the real binary:
a preload through a shell shim (pyenv's) would start the shell under TSan.

1. the extension carries TSan's hooks (__tsan_read*, __tsan_write*);
2. the negative control: the build has the planted race of csrc/py_batch_work.c (a plain
   counter every claim of a batch increments, armed by P256_PLANT_RACE=1 at import):
   verify_many and sign_many on helper threads with it armed must give a TSan report of a
   data race in batch_claim, or the setup is blind;
3. pytest PYTEST_ARG... (the thread-hammer tests) with nothing armed: any TSan report,
   or pytest's own failure, fails the target. Every report goes to a file under LOGS.
Environment: PYTHON (the interpreter the venv is made from; default python3), TSAN_CC
(gcc: its runtime is a shared library to preload), CC_WRAP (default ccache when installed).
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-tsan")
PY = os.path.join(VENV, "bin", "python")
LOGS = os.path.join(ROOT, "build", "tsan")
CC = os.environ.get("TSAN_CC", "gcc")
# -O1 as the other sanitizer builds; frame pointers and line tables for the reports'
# stacks. The IFMA engine stays in: on a CPU with IFMA it is what *_many runs off the GIL.
FLAGS = "-O1 -g1 -fno-omit-frame-pointer -fsanitize=thread -DP256_PLANT_RACE"
# The tests that hammer shared objects from many threads at once: every shared key object
# from 8 threads (test_stress), each *_many with helper threads, a table built while
# verifiers use its key, PublicKeyCache's one build per key.
TESTS = [
    "tests/test_stress.py",
    "tests/test_batch.py::test_thread_counts",
    "tests/test_batch.py::test_worker_threads_are_kept_across_chunks_and_closed",
    "tests/test_batch_secret.py::test_a_large_batch_equals_the_single_calls",
    "tests/test_precompute.py::test_threads_build_one_table_and_never_see_half_of_one",
    "tests/test_precompute.py::test_public_key_cache_threads_share_one_build",
    "tests/test_batch_stream.py::test_the_stream_gives_the_list_forms_answers[p256verify-2]",
]
# The negative control's work: each kind of batch claimed by 4 threads (many claims each).
PLANTED = """
import p256
k = p256.PrivateKey.from_int(7); m = [b"%d" % i for i in range(512)]
sigs = p256.sign_many([(k, x) for x in m], threads=4)
assert all(p256.verify_many([(k.public_key, s, x) for s, x in zip(sigs, m)], threads=4))
"""


def say(msg: str) -> None:
    print("tsan: " + msg, flush=True)


def runtime() -> str:
    out = subprocess.run([CC, "-print-file-name=libtsan.so"], capture_output=True, text=True)
    path = os.path.realpath(out.stdout.strip())
    if out.returncode or not os.path.isfile(path):
        sys.exit(f"tsan: no TSan runtime for {CC} (Debian: libtsan2 with gcc)")
    return path


def sources_digest() -> str:
    h = hashlib.sha256(FLAGS.encode() + CC.encode())
    for top in ("csrc", "src"):
        for path in sorted(glob.glob(os.path.join(ROOT, top, "**", "*"), recursive=True)):
            if os.path.isfile(path) and "__pycache__" not in path:
                h.update(path.encode() + open(path, "rb").read())
    for name in ("meson.build", "pyproject.toml"):
        h.update(open(os.path.join(ROOT, name), "rb").read())
    return h.hexdigest()


def install() -> None:
    stamp, digest = os.path.join(VENV, ".p256-tsan"), sources_digest()
    if os.path.exists(stamp) and open(stamp).read() == digest:
        return
    # One build: with the test extra into a new venv, else p256 alone again.
    what = [".[test]"]
    if os.path.exists(PY):
        what = ["--force-reinstall", "--no-deps", "."]
    else:
        subprocess.run([os.environ.get("PYTHON", "python3"), "-m", "venv", VENV], check=True)
        subprocess.run([PY, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    wrap = os.environ.get("CC_WRAP", "ccache " if shutil.which("ccache") else "")
    env = dict(os.environ, CC=(wrap + " " + CC).strip(), CFLAGS=FLAGS, LDFLAGS="-fsanitize=thread")
    say(f"building the extension with {CC} {FLAGS} into {VENV}")
    subprocess.run([PY, "-m", "pip", "install", "-q", *what], cwd=ROOT, env=env, check=True)
    with open(stamp, "w") as f:
        f.write(digest)


def sanitized(args: list[str], rt: str, armed: bool) -> int:
    env = dict(os.environ, LD_PRELOAD=rt, PYTHONMALLOC="malloc",
               TSAN_OPTIONS=f"log_path={LOGS}/report:exitcode=66:second_deadlock_stack=1")
    env.pop("P256_PLANT_RACE", None)
    if armed:
        env["P256_PLANT_RACE"] = "1"
    return subprocess.run([PY, *args], cwd=ROOT, env=env).returncode


def reports() -> str:
    text = ""
    for path in sorted(glob.glob(os.path.join(LOGS, "report*"))):
        text += open(path, errors="replace").read()
        os.remove(path)
    return text


def main() -> int:
    tests = sys.argv[1:] or TESTS
    rt = runtime()
    install()
    so = glob.glob(os.path.join(VENV, "lib", "python*", "site-packages", "p256", "_core*.so"))
    undefined = subprocess.run(["nm", "-D", "--undefined-only", so[0]], capture_output=True,
                               text=True).stdout if so else ""
    if "__tsan_read" not in undefined or "__tsan_write" not in undefined:
        say(f"FAILED: {so} carries no TSan hooks: not instrumented")
        return 1
    say(f"{os.path.relpath(so[0], ROOT)} is instrumented; runtime {rt}")
    shutil.rmtree(LOGS, ignore_errors=True)
    os.makedirs(LOGS)

    rc = sanitized(["-c", PLANTED], rt, armed=True)
    found = reports()
    if "ThreadSanitizer: data race" not in found or "batch_claim" not in found:
        print(found)
        say(f"FAILED: the planted race in batch_claim was not reported (exit status {rc}): "
            "the check is blind")
        return 1
    frames = [line.strip() for line in found.splitlines() if "#0 " in line][:2]
    say("negative control: the planted race is reported: " + "; ".join(frames))

    say("pytest " + " ".join(tests))
    rc = sanitized(["-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], rt, armed=False)
    found = reports()
    if found:
        print(found)
        say("FAILED: ThreadSanitizer reports above")
        return 1
    if rc:
        say(f"FAILED: pytest exit status {rc}")
        return 1
    say("no ThreadSanitizer report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
