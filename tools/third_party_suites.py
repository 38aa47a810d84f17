# SPDX-License-Identifier: Apache-2.0
"""Run PyJWT's and joserfc's own test suites, from their pinned sdists (tools/third_party.py),
with p256's ES256 registered in place of theirs (tools/p256_suite_plugin.py), against the
installed libraries (the versions of the test extra), and say what happened:

    python tools/third_party_suites.py [--only pyjwt|joserfc] [--plant] [--json FILE]

Every test must pass except those named in NOT_APPLICABLE (deselected, each with the
reason it cannot apply to p256's ES256), and at least MIN_REACHING tests of each suite
must have signed or verified with p256 (so a registration that silently did not apply
fails). --plant runs with a broken ES256 (every signature verifies): then the suite
must fail, the negative control (the exit status is inverted: 0 when it failed).
Exit status 0 on success. tests/test_contrib_jose.py runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import third_party  # noqa: E402

#: Tests of each suite that cannot apply to p256's ES256, by node id, with the reason.
NOT_APPLICABLE = {
    "pyjwt": {},
    "joserfc": {},
}
#: How many tests of each suite must reach p256 (its ES256 handed a P-256 key to p256, or
#: p256 signed or verified), at least: a registration that silently did not apply fails.
MIN_REACHING = {"pyjwt": 12, "joserfc": 5}


def run_suite(library: str, plant: bool = False, paths=("tests",)) -> dict:
    """Run one suite; its per-test report (outcome, p256 calls), the time and the
    pytest exit status."""
    tree = third_party.sdist(library)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        env = dict(os.environ, P256_SUITE=library, P256_SUITE_REPORT=report,
                   PYTHONPATH=os.pathsep.join([str(HERE)] + [
                       p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        env.pop("P256_SUITE_PLANT", None)
        if plant:
            env["P256_SUITE_PLANT"] = "1"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-p", "p256_suite_plugin", "-W", "ignore::DeprecationWarning", *paths]
        for nodeid in NOT_APPLICABLE[library]:
            command.append("--deselect=" + nodeid)
        start = time.monotonic()
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                              timeout=600)
        seconds = time.monotonic() - start
        if not os.path.exists(report):
            raise RuntimeError("the %s suite wrote no report:\n%s\n%s"
                               % (library, done.stdout[-3000:], done.stderr[-3000:]))
        with open(report, encoding="utf-8") as f:
            result = json.load(f)
    result.update(seconds=round(seconds, 1), status=done.returncode, tail=done.stdout[-3000:])
    return result


def summary(library: str, result: dict) -> dict:
    tests = result["tests"]
    count = {o: sum(1 for t in tests.values() if t["outcome"] == o)
             for o in ("passed", "failed", "skipped")}
    reaching = sorted(n for n, t in tests.items() if t["p256_calls"] or t["es256_calls"])
    return {"library": library, "seconds": result["seconds"], **count,
            "reaching_p256": len(reaching),
            "reaching_p256_passed": sum(1 for n in reaching if tests[n]["outcome"] == "passed"),
            "reaching_tests": reaching,
            "failed_tests": sorted(n for n, t in tests.items() if t["outcome"] == "failed"),
            "not_applicable": NOT_APPLICABLE[library], "modules": result["modules"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=sorted(NOT_APPLICABLE))
    parser.add_argument("--plant", action="store_true")
    parser.add_argument("--json")
    parser.add_argument("paths", nargs="*", default=["tests"])
    args = parser.parse_args(argv)
    ok, out = True, []
    for library in [args.only] if args.only else sorted(NOT_APPLICABLE):
        result = run_suite(library, args.plant, args.paths)
        s = summary(library, result)
        out.append(s)
        print("%s: %d passed, %d failed, %d skipped, %d not applicable; %d tests reached "
              "p256 (%d passed); %.1f s" % (library, s["passed"], s["failed"], s["skipped"],
                                            len(s["not_applicable"]), s["reaching_p256"],
                                            s["reaching_p256_passed"], s["seconds"]))
        for name in s["failed_tests"]:
            print("  FAILED %s" % name)
        good = (result["status"] == 0 and not s["failed"]
                and s["reaching_p256"] >= MIN_REACHING[library])
        if not good and not args.plant:
            print(result["tail"])
        ok = ok and (not good if args.plant else good)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
