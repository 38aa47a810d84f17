# SPDX-License-Identifier: Apache-2.0
"""The binding's shared mutable state, as docs/development.md (Threads without the GIL)
lists it: every file-scope variable of the binding that is not const is in that list,
and a batch's answers are made by one results() call at a time.

Two threads calling results() on one batch at once (each waits for the other's groups
without the GIL) once both made the answers, and the second read the items the first
had freed: a crash. Now the second gets RuntimeError, or the answers if the first had
finished; run in a subprocess, so that a crash fails this test and not the whole run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINDING = ["module.c", "backend.c"] + sorted(p.name for p in (ROOT / "csrc").glob("py_*.c"))
# A file-scope declaration of a variable: `static int x = 0;`, `int y;`, `T *p = ...;`.
_DECL = re.compile(r"^(?:static\s+)?(?P<type>[A-Za-z_][\w ]*?[\s*]+)(?P<name>\w+)\s*(?:\[[^]]*\])?"
                   r"\s*(?:=|;)")


def mutable_statics(text: str) -> list[str]:
    """The names of the file-scope variables of C source text that can change: not
    extern declarations, typedefs or functions, and not const objects (a pointer to
    const is a variable)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    names, depth = [], 0
    for line in text.splitlines(keepends=True):
        m = _DECL.match(line) if depth == 0 else None
        depth += line.count("{") - line.count("}")
        if m is None or "(" in line.split("=")[0]:
            continue
        words = m.group("type").replace("*", " * ").split()
        if words[0] in ("extern", "typedef", "return") or words[-1] == "const":
            continue
        if words[0] == "const" and "*" not in words:
            continue
        names.append(m.group("name"))
    return names


def test_every_mutable_static_of_the_binding_is_listed():
    doc = (ROOT / "docs" / "development.md").read_text()
    table = doc[doc.index("## Threads without the GIL"):doc.index("## Documentation")]
    found = {f: mutable_statics((ROOT / "csrc" / f).read_text()) for f in BINDING}
    unlisted = [(f, n) for f, names in found.items() for n in names if f"`{n}`" not in table]
    assert not unlisted, f"shared state not in docs/development.md, Threads without the GIL: {unlisted}"
    assert "batch_engine" in found["py_batch_engine.c"] and "p256_active" in found["backend.c"]
    # negative control: a new counter at file scope is found, and one inside a function is not
    planted = ("static long calls;\nint total = 0;\nstatic const int k = 1;\nstatic const char *name = \"a\";\n"
               "static const T *const fixed[] = {&x};\nextern const T t;\nstatic int f(void)\n{\n"
               "    static int inner;\n    return inner;\n}\n")
    assert mutable_statics(planted) == ["calls", "total", "name"]


RESULTS_TWICE = r"""
import threading
import p256
from p256 import _core
k = p256.PrivateKey.from_int(5)
items = [(k.public_key, k.sign(b"%d" % i), b"%d" % i) for i in range(3000)]
for _ in range(20):
    b = _core.Batch(_core.BATCH_VERIFY, iter(items), limit=4096, pk_type=p256.PublicKey,
                    hash=_core.NONCE_HASH["sha256"])
    out, errors = [], []
    def call():
        try:
            out.append(b.results())
        except RuntimeError as e:
            errors.append(str(e))
    ts = [threading.Thread(target=call) for _ in range(2)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert out and all(o == [True] * 3000 for o in out), [len(o) for o in out]
    assert all("running in another thread" in e for e in errors), errors
    assert b.results() == [True] * 3000
print("ok")
"""


def test_two_threads_asking_one_batch_for_its_results():
    r = subprocess.run([sys.executable, "-c", RESULTS_TWICE], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stdout, r.stderr[-2000:])
