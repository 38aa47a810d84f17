# SPDX-License-Identifier: Apache-2.0
"""The C harnesses' planted bugs (tools/plants.py, csrc/common.h's P256_PLANT).

tools/plants.py's table is the one list of them, so it must match the code: every
P256_PLANT(kind, n) site of csrc/ is a row armed at run time, every such row has its site,
and every row planted in the assembly names a define that some .S file tests for. And
the switch itself: outside a plant build P256_PLANT is the constant 0; in one, only the
plant the environment names is armed, and a malformed or unknown name stops the run with
status 2 instead of arming nothing (which a harness would pass, and a negative control
would then report as a blind harness, for the wrong reason)."""

import os
import re
import subprocess
import sys

import pytest

from test_c_harness import compile_probe
from test_structure_csrc import ROOT, c_sources, strip_comments

sys.path.insert(0, os.path.join(ROOT, "tools"))
import plants  # noqa: E402

SITE = re.compile(r"\bP256_PLANT\(\s*(\w+)\s*,\s*(\d+)\s*\)")


def sites():
    """{"kind:n": [file, ...]} of the P256_PLANT uses in the core (comments aside)."""
    out = {}
    for path, text in c_sources().items():
        if path.startswith("csrc/") and path != "csrc/common.h":
            for kind, n in SITE.findall(strip_comments(text)):
                out.setdefault("%s:%s" % (kind, n), []).append(path)
    return out


def test_every_plant_site_is_a_row_and_every_row_a_site():
    found = sites()
    armed = {p[0] for p in plants.PLANTS if p[4] is None}
    assert len(armed) >= 15, armed
    assert set(found) == armed, (sorted(set(found) - armed), sorted(armed - set(found)))


def test_every_assembly_plant_is_tested_by_an_assembly_file():
    # the .S files and the assembler macro headers they include (csrc/asm/x86_64_mont.h)
    code = "\n".join(strip_comments(t) for p, t in c_sources().items()
                     if p.endswith(".S") or p.startswith("csrc/asm/"))
    asm = [p for p in plants.PLANTS if p[4] is not None]
    assert asm
    for plant, _, _, archs, define, _ in asm:
        name, value = define.split("=")
        assert re.search(r"%s\s*[!=]=\s*%s\b" % (name, value), code), (plant, define)
        assert set(archs) <= {"x86_64", "aarch64"}, plant


def test_plant_kinds_match_common_h():
    with open(os.path.join(ROOT, "csrc", "common.h"), encoding="utf-8") as f:
        kinds = re.search(r"#define P256_PLANT_KINDS\(X\)((?:.*\\\n)*.*)", f.read()).group(1)
    declared = set(re.findall(r"X\((\w+)\)", kinds))
    assert {p[0].split(":")[0] for p in plants.PLANTS} == declared


def test_list_names_every_plant():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "plants.py"), "--list"],
                         capture_output=True, text=True, check=True).stdout
    assert [line.split()[0] for line in out.splitlines()] == [p[0] for p in plants.PLANTS]


PROBE = r"""
#include "common.h"
#include <stdio.h>
int main(void)
{
    printf("%d%d%d%d\n", P256_PLANT(point, 2), P256_PLANT(point, 1), P256_PLANT(ifma_emu, 2),
           P256_PLANT(scalar, 4));
    return 0;
}
"""


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    d = tmp_path_factory.mktemp("plants")
    return {name: compile_probe(d, PROBE, name, flags)
            for name, flags in (("plants", ["-DP256_PLANTS"]), ("release", []))}


def _run(exe, value):
    env = dict(os.environ)
    env.pop("P256_PLANT", None)
    if value is not None:
        env["P256_PLANT"] = value
    r = subprocess.run([exe], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout.strip(), r.stderr


@pytest.mark.parametrize("value, armed", [
    (None, "0000"), ("", "0000"), ("point:2", "1000"), ("point:1", "0100"),
    ("ifma_emu:2", "0010"), ("scalar:4", "0001"), ("batch:2", "0000"),
])
def test_the_environment_arms_one_plant(probes, value, armed):
    assert _run(probes["plants"], value)[:2] == (0, armed)


@pytest.mark.parametrize("value", ["bogus:1", "point", "point:", "point:x", "point:0", "point:2x",
                                   "poin:2", "pointt:2", "point:100", ":2"])
def test_a_malformed_plant_stops_the_run(probes, value):
    rc, out, err = _run(probes["plants"], value)
    assert rc == 2 and out == "" and "P256_PLANT=" in err, (value, rc, out, err)


@pytest.mark.parametrize("value", [None, "point:2", "bogus:1"])
def test_outside_a_plant_build_nothing_is_armed(probes, value):
    assert _run(probes["release"], value)[:2] == (0, "0000")
