#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run one fuzz target of tests/fuzz/targets.py under atheris (libFuzzer for Python).

    python tests/fuzz/run.py TARGET [libFuzzer options] [CORPUS_DIR ...]
    python tests/fuzz/run.py TARGET crash-file          # replay one input
    python tests/fuzz/run.py --list                     # target names and what they check

The p256 package's Python modules are instrumented for coverage (atheris
instrument_imports), so the fuzzer is guided through the DER/PEM/JWK parsers and the
API's argument handling; the C core is exercised but its coverage is not seen (the
libFuzzer harness tests/c/fuzz_parse.c, `make fuzz`, covers the C parsers with
coverage). The harness itself is instrumented as well, so its classification of the
inputs (DER structure, scalar ranges, verdicts) guides the search where the C core's
coverage cannot. cryptography, the oracle, is not instrumented. P256_FUZZ_PLANT=<name> runs
against a deliberately broken p256 (negative control; see targets.PLANTS).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import atheris  # noqa: E402

# The harness (targets, dertree) is instrumented too: its branches tell libFuzzer what
# reached the C core, whose own coverage it cannot see (see targets._hint_verify).
with atheris.instrument_imports(include=["p256", "targets", "dertree"]):
    import importlib
    import pkgutil

    import p256

    # Every module of the package, listed from the package itself (a hand list goes
    # stale when a module is added or removed); not __main__, which runs the CLI.
    for _module in pkgutil.iter_modules(p256.__path__, "p256."):
        if not _module.name.endswith(".__main__"):
            importlib.import_module(_module.name)
    import targets


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "--list":
        for name, text in targets.DESCRIPTIONS.items():
            print("%-11s %s" % (name, text))
        return
    name = sys.argv[1]
    if name not in targets.TARGETS:
        raise SystemExit("unknown target %r; known: %s" % (name, " ".join(targets.TARGETS)))
    atheris.Setup([sys.argv[0]] + sys.argv[2:], targets.TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
