# SPDX-License-Identifier: Apache-2.0
"""Generated files are exactly what their generators produce (Go's generated-code check).

Each generator writes the file to stdout; the DO NOT EDIT header of each file names the
command that regenerates it.
"""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

GENERATED = [
    ("tools/gen_tables.py", "csrc/precomputed.h"),
    ("tools/gen_core_kat.py", "tests/c/core_kat.h"),
    ("tools/gen_hash_kat.py", "tests/c/hash_kat.h"),
    ("tools/gen_modinv_kat.py", "tests/c/modinv_kat.h"),
    ("tools/gen_api_kat.py", "tests/c/api_kat.h"),
    ("tools/gen_ecmult_kat.py", "tests/c/ecmult_kat.h"),
    ("tools/gen_group_kat.py", "tests/c/group_kat.h"),
    ("tools/gen_api_list.py", "csrc/api_list.h"),
]


@pytest.mark.parametrize("generator,output", GENERATED, ids=[o for _, o in GENERATED])
def test_generated_file_is_fresh(generator, output):
    fresh = subprocess.run([sys.executable, str(ROOT / generator)], check=True,
                           capture_output=True, text=True).stdout
    committed = (ROOT / output).read_text()
    assert fresh == committed, f"stale: run python3 {generator} > {output}"
    assert "DO NOT EDIT" in committed.splitlines()[0]
