"""tests/c/hash_kat.h (the C hash harness's expected values) matches its generator."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_hash_kat_header_is_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_hash_kat.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
