# SPDX-License-Identifier: Apache-2.0
"""`p256 bench` and the command-line skeleton: output shape, JSON schema, progress lines,
options and errors, and the allocation counter behind the alloc/op columns.

The benchmark itself runs once, in a subprocess, with the hidden --smoke setting (one
short batch of everything, about a second); no timing is asserted beyond "positive".
"""

import json
import math
import os
import re
import subprocess
import sys
import tracemalloc

import pytest

from p256 import _bench

TABLE1_ROWS = ["SignP256", "VerifyP256", "KeyGeneration", "BaseMultP256", "ScalarMultP256",
               "ECDHP256", "SignP384", "BaseMult"]
TABLE1_P256 = TABLE1_ROWS[:6]  # the generic rows have no p256 figure
TABLE1_HEAD = ["benchmark", "reference time/op", "p256 time/op", "reference alloc/op",
               "p256 alloc/op", "reference allocs/op", "p256 allocs/op"]
TABLE2_LABELS = [label for _, label in _bench.TABLE2_OPS]
# A time cell: the median, with its spread when there were two repeats or more.
TIME_CELL = r"[0-9.]+ (ms|µs)( ±[0-9.]+%)?"


def run_p256(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "p256", *args], capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    proc = run_p256("bench", "--smoke", "--json", str(path))
    assert proc.returncode == 0, proc.stderr
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return proc, doc


def table_lines(stdout, title):
    """The Markdown table that follows the line starting with `title`."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    table = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    return table


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_table1_shape(smoke):
    proc, _ = smoke
    table = table_lines(proc.stdout, "Table 1")
    head = cells(table[0])
    assert [h for h in head if h != "delta"] == TABLE1_HEAD
    assert head.count("delta") == 3
    assert re.fullmatch(r"\|(-+:?\|)+", table[1])
    rows = {cells(line)[0]: cells(line) for line in table[2:]}
    assert list(rows) == ["SignP256", "VerifyP256", "KeyGeneration", "BaseMultP256",
                          "ScalarMultP256", "ECDHP256", "SignP384", "BaseMult (P-224)"]
    for name, row in rows.items():
        assert len(row) == len(head)
        assert re.fullmatch(TIME_CELL, row[1]), row  # the reference always runs
        if name in TABLE1_P256:
            assert re.fullmatch(TIME_CELL, row[2]), row
            assert re.fullmatch(r"[-+][0-9.]+%", row[3]), row
            assert re.fullmatch(r"[0-9.]+ (B|kB|MB)", row[4]) and re.fullmatch(r"[0-9.]+ (B|kB|MB)", row[5])
        else:  # P-384 and P-224: reference only, explained by a note
            assert row[2] == row[3] == row[5] == row[8] == "—", row
    # Aligned for pasting: every line of the table has the same width.
    assert len({len(line) for line in table}) == 1
    assert "p256 implements P-256 only" in proc.stdout


def test_table2_shape(smoke):
    proc, doc = smoke
    peers = {k: v for k, v in doc["environment"]["peers"].items() if v}
    for name in _bench.PEERS:  # every peer is either a column or a "skipped" line
        if name in peers:
            assert "%s %s" % (name, peers[name]) in proc.stdout
        else:
            assert re.search(r"^skipped %s: " % name, proc.stdout, re.M)
            assert name in doc["skipped_peers"]
    if not peers:
        pytest.skip("no peer library installed")
    table = table_lines(proc.stdout, "Table 2")
    head = cells(table[0])
    assert head[:2] == ["operation", "p256"]
    assert ["%s/p256" % n for n in peers] == [h for h in head if h.endswith("/p256")]
    assert [cells(line)[0] for line in table[2:]] == TABLE2_LABELS
    for line in table[2:]:
        for ratio in cells(line)[3::2]:
            assert float(ratio) > 0
    assert "ratio = peer time / p256 time" in proc.stdout


def test_progress_on_stderr(smoke):
    proc, doc = smoke
    lines = [line for line in proc.stderr.splitlines() if re.match(r"p256 bench: \[", line)]
    rows = len(TABLE1_ROWS) + (len(TABLE2_LABELS) if any(doc["environment"]["peers"].values()) else 0)
    assert len(lines) == 2 * rows  # one line as each benchmark starts, one as it ends
    for i in range(rows):
        start, end = lines[2 * i], lines[2 * i + 1]
        tag = "[%*d/%d]" % (len(str(rows)), i + 1, rows)
        assert tag in start and start.endswith("...")
        assert tag in end and re.search(r"\([0-9.]+ s\)$", end)
    assert "p256 bench: done in" in proc.stderr
    assert "p256 bench:" not in proc.stdout  # progress never mixes into the tables


def positive(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


def test_json_schema(smoke):
    _, doc = smoke
    assert doc["schema"] == "p256-bench/1"
    assert doc["settings"]["mode"] == "smoke" and doc["settings"]["repeats"] == 1
    env = doc["environment"]
    for key in ("python", "p256", "p256_backend", "cpu", "machine", "platform", "date"):
        assert isinstance(env[key], str) and env[key], key
    assert env["python"] == "%d.%d.%d" % sys.version_info[:3]
    assert isinstance(env["cpu_count"], int) and env["cpu_count"] >= 1
    assert set(env["peers"]) == set(_bench.PEERS)
    assert positive(doc["elapsed_s"])
    seen = set()
    for b in doc["benchmarks"]:
        seen.add((b["table"], b["name"], b["impl"]))
        for key in ("ns_per_op", "median_ns", "min_ns", "max_ns"):
            assert positive(b[key]), (b["name"], key)
        assert b["min_ns"] <= b["median_ns"] <= b["max_ns"]
        assert b["ns_per_op"] == b["median_ns"]
        assert isinstance(b["repeats"], int) and b["repeats"] == len(b["samples_ns"]) >= 1
        assert isinstance(b["iterations"], int) and b["iterations"] >= 1
        if b["table"] == 1:
            assert b["allocs_per_op"] >= 0 and b["alloc_bytes_per_op"] >= 0
            assert isinstance(b["alloc_iterations"], int) and b["alloc_iterations"] >= 1
            assert isinstance(b["tracemalloc_peak_bytes"], int)
            # Cumulative bytes are at least what was alive at once (same allocator hooks).
            if b["impl"] == "reference":
                assert b["alloc_bytes_per_op"] >= b["tracemalloc_peak_bytes"] > 0
                assert b["allocs_per_op"] > 100  # pure Python: thousands of temporary ints
    expected = {(1, name, "reference") for name in TABLE1_ROWS}
    expected |= {(1, name, "p256") for name in TABLE1_P256}
    for key, _ in _bench.TABLE2_OPS:
        expected.add((2, key, "p256"))
        expected |= {(2, key, peer) for peer, v in env["peers"].items() if v}
    assert seen == expected


def test_no_peers_and_bad_options(tmp_path):
    proc = run_p256("bench", "--smoke", "--no-peers")
    assert proc.returncode == 0, proc.stderr
    assert "Table 1" in proc.stdout and "Table 2" not in proc.stdout

    missing = tmp_path / "no" / "such" / "dir" / "x.json"
    proc = run_p256("bench", "--smoke", "--json", str(missing))
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "cannot write" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""

    proc = run_p256("bench", "--repeat", "0")
    assert proc.returncode == 2 and proc.stderr.strip() == "p256 bench: --repeat must be at least 1"


def test_help():
    proc = run_p256("--help")
    assert proc.returncode == 0 and "bench" in proc.stdout and "usage: p256" in proc.stdout
    proc = run_p256("bench", "--help")
    assert proc.returncode == 0
    for option in ("--quick", "--json", "--repeat", "--min-time", "--no-peers", "examples:"):
        assert option in proc.stdout
    assert "--smoke" not in proc.stdout  # test-only
    proc = run_p256()
    assert proc.returncode == 2 and "usage: p256" in proc.stderr


def test_console_script():
    script = os.path.join(os.path.dirname(sys.executable), "p256")
    if not os.path.exists(script):
        pytest.skip("p256 is not installed as a console script next to this interpreter")
    proc = subprocess.run([script, "bench", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "usage: p256 bench" in proc.stdout


def test_main_in_process(capsys):
    from p256._cli import main

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("p256 ")
    assert main(["bench", "--min-time", "-1"]) == 2
    assert capsys.readouterr().err.strip() == "p256 bench: --min-time must be >= 0"


# -- the allocation counter ------------------------------------------------------------------


@pytest.fixture
def allocstat():
    if _bench._allocstat is None:
        pytest.fail("p256._allocstat is not built (meson.build)")
    return _bench._allocstat


def test_counter_counts_known_allocations(allocstat):
    # bytes(5000): one block of 5000 bytes plus the object header.
    c = _bench.count_allocations(lambda: bytes(5000), 50)
    assert c["allocs_per_op"] == 1
    assert 5000 < c["alloc_bytes_per_op"] < 5100
    # Freed at once, still counted (Go's alloc/op), unlike what tracemalloc keeps.
    c = _bench.count_allocations(lambda: [bytearray(1000) for _ in range(10)] and None, 20)
    assert c["alloc_bytes_per_op"] >= 10_000 and c["allocs_per_op"] >= 20
    # Nothing allocated: nothing counted (the loop's own cost is subtracted).
    c = _bench.count_allocations(lambda: None, 1000)
    assert c["allocs_per_op"] == 0 and c["alloc_bytes_per_op"] == 0


def test_counter_start_stop_rules(allocstat):
    assert not allocstat.is_running()
    with pytest.raises(RuntimeError):
        allocstat.stop()
    allocstat.start()
    try:
        with pytest.raises(RuntimeError):
            allocstat.start()
        blocks, nbytes = allocstat.stop()
    except BaseException:
        allocstat.stop()
        raise
    assert blocks >= 0 and nbytes >= 0 and not allocstat.is_running()


def test_counter_refuses_to_unhook_over_tracemalloc(allocstat):
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc already running (python -X tracemalloc)")
    allocstat.start()
    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError, match="tracemalloc"):
            allocstat.stop()  # would pull the allocators out from under tracemalloc
        assert allocstat.is_running()
    finally:
        tracemalloc.stop()  # restores our hook, which then comes off cleanly
    allocstat.stop()
    assert not allocstat.is_running()
    # And the benchmark does not count while tracemalloc runs (its hooks would interpose).
    tracemalloc.start()
    try:
        assert _bench.count_allocations(lambda: bytes(10), 5) is None
    finally:
        tracemalloc.stop()


def test_markdown_table_alignment():
    text = _bench.markdown_table(["a", "bbb"], [["xx", "1"], ["y", "22222"]], ["l", "r"])
    lines = text.splitlines()
    assert lines == ["| a  |   bbb |", "|----|------:|", "| xx |     1 |", "| y  | 22222 |"]


def test_formatting():
    assert _bench.fmt_time(1_234_567) == "1.23 ms"
    assert _bench.fmt_time(154_000) == "154 µs"
    assert _bench.fmt_time(14_420) == "14.4 µs"
    assert _bench.fmt_time(290) == "0.29 µs"
    assert _bench.fmt_time(None) == "—"
    assert _bench.fmt_delta(100.0, 7.0) == "-93.00%"
    assert _bench.fmt_delta(0, 7.0) == "—"
    assert _bench.fmt_ratio(30.0, 10.0) == "3.00"
    assert _bench.fmt_bytes(1_300_000) == "1.30 MB" and _bench.fmt_bytes(98) == "98 B"
    assert _bench.fmt_count(17_792.4) == "17,792" and _bench.fmt_count(1.0) == "1"


def test_bench_reference_script_still_runs():
    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "bench_reference.py")
    proc = subprocess.run([sys.executable, script, "--repeat", "1", "--min-time", "0.001",
                           "--curves", "P-224"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^P-224 .* ms", proc.stdout, re.M)


# ---- how sure: the spread, the warnings, the header -------------------------------------


def _row(name, label=None, **impls):
    """A result row as run() builds it, from {impl: samples in ns}."""
    return {"name": name, "label": label or name,
            "results": {impl: _bench.summarize(samples) for impl, samples in impls.items()}}


def test_summarize_spread():
    r = _bench.summarize([100.0, 104.0, 96.0, 101.0, 99.0])
    assert r["median_ns"] == r["ns_per_op"] == 100.0
    assert (r["min_ns"], r["max_ns"], r["repeats"]) == (96.0, 104.0, 5)
    assert r["spread"] == pytest.approx(0.04)  # half the range over the median
    assert _bench.summarize([50.0])["spread"] == 0.0
    assert _bench.fmt_spread(r) == "0.10 µs ±4.0%"
    assert _bench.fmt_spread(_bench.summarize([30_000.0, 40_000.0, 50_000.0])) == "40.0 µs ±25%"
    assert _bench.fmt_spread(_bench.summarize([30_000.0])) == "30.0 µs"  # one repeat: no spread


def test_a_large_spread_warns():
    rows = [_row("VerifyP256", p256=[35_600.0, 50_300.0, 36_000.0, 35_900.0],
                 reference=[1.1e6, 1.11e6, 1.09e6])]
    (warning,) = _bench.spread_warnings(rows)
    assert warning.startswith("warning: VerifyP256: p256 ±20%") and "reference" not in warning


def test_a_tight_spread_does_not_warn():
    """Negative control of the one above: repeats within 2% of each other, no warning."""
    rows = [_row("VerifyP256", p256=[35_600.0, 35_900.0, 36_000.0, 35_700.0],
                 reference=[1.1e6, 1.11e6, 1.09e6])]
    assert _bench.spread_warnings(rows) == []
    assert _bench.spread_warnings([_row("X", p256=[1.0, 100.0])], limit=1.0) == []


def test_the_tables_disagreeing_warns():
    """Table 1's ECDHP256 at 63.0 µs and table 2's ECDH at 32.9 µs in one run, each tight."""
    t1 = [_row("ECDHP256", p256=[63_000.0, 62_800.0, 63_300.0])]
    t2 = [_row("ecdh", "ECDH (shared secret)", p256=[32_900.0, 33_000.0, 32_800.0])]
    (warning,) = _bench.agreement_warnings(t1, t2)
    assert "table 1's ECDHP256 (63.0 µs)" in warning and "table 2's ECDH (shared secret) (32.9 µs)" in warning
    assert "differ by 91%" in warning


def test_tables_that_agree_do_not_warn():
    """Negative controls: the same call within the 5% floor, or apart by less than the two
    spreads together, or a pair with one side missing."""
    t1 = [_row("ECDHP256", p256=[31_600.0, 31_400.0, 31_800.0]),
          _row("VerifyP256", p256=[30_000.0, 36_000.0, 33_000.0])]
    t2 = [_row("ecdh", p256=[32_500.0, 32_400.0, 32_600.0]),
          _row("verify", p256=[36_000.0, 36_400.0, 35_600.0]),
          _row("sign", p256=[9_000.0, 9_100.0])]
    assert _bench.agreement_warnings(t1, t2) == []
    # The same figures with the floor and spreads taken away do disagree.
    tight = [_row("VerifyP256", p256=[33_000.0] * 3)]
    assert len(_bench.agreement_warnings(tight, t2[1:2], floor=0.0)) == 1


def test_load_warning():
    assert _bench.load_warnings({"others_busy_cpus": 1.56, "cpu_count": 2}) == [
        "warning: other processes kept 1.6 of 2 CPUs busy during the run"]
    assert _bench.load_warnings({"others_busy_cpus": 0.1, "cpu_count": 2}) == []
    assert _bench.load_warnings({"others_busy_cpus": None}) == []


def test_load_meter():
    load = _bench.LoadMeter().stop()
    assert set(load) == {"loadavg_before", "loadavg_after", "others_busy_cpus", "cpu_count"}
    if sys.platform.startswith("linux"):
        assert load["others_busy_cpus"] >= 0 and len(load["loadavg_after"]) == 3


def test_header_names_cpu_load_and_versions(smoke):
    proc, doc = smoke
    env = doc["environment"]
    head = proc.stdout.split("\n\n", 1)[0].splitlines()
    assert head[0].startswith("p256 %s (backend %s" % (env["p256"], env["p256_backend"]))
    assert env["cpu"] in head[0] and env["date"] in head[0]
    assert head[1].startswith("peers: ")
    for name, version in env["peers"].items():
        if version:
            assert "%s %s" % (name, version) in head[1]
    assert head[2].startswith("load: average ") and "CPUs busy during the run" in head[2]
    assert set(env["load"]) >= {"loadavg_before", "loadavg_after", "others_busy_cpus"}
    assert "± is half the range of the repeats" in head[3]
    assert isinstance(doc["warnings"], list)
    for b in doc["benchmarks"]:
        assert b["spread"] >= 0


def test_warnings_are_printed_after_the_tables(capsys, monkeypatch):
    """run() prints what the checks return, with the advice, after the tables."""
    monkeypatch.setattr(_bench, "load_warnings", lambda load: ["warning: planted"])
    doc = _bench.run(_bench.Settings("smoke"), with_peers=False, out=sys.stdout,
                     err=open(os.devnull, "w"))
    out = capsys.readouterr().out
    assert "warning: planted" in doc["warnings"]
    tail = out.split("Table 1", 1)[1]
    assert "warning: planted\n" + _bench.WARNINGS_ADVICE in tail


def test_bench_batch_script_runs_and_writes_json(tmp_path):
    """benchmarks/bench_batch.py end to end on two tiny batches: its table, and the JSON
    that benchmarks/plot.py draws from (one record per size and configuration)."""
    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "bench_batch.py")
    out = tmp_path / "batch.json"
    proc = subprocess.run([sys.executable, script, "--sizes", "1,8", "--threads", "1",
                           "--rounds", "3", "--budget", "8", "--json", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^\| 8 \| verify_many, 1 thread \|", proc.stdout, re.M)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["schema"] == "p256-bench-batch/1" and doc["environment"]["cpu"]
    assert sorted((r["size"], r["call"]) for r in doc["results"]) == [
        (1, "verify"), (1, "verify_many"), (8, "verify"), (8, "verify_many")]
    assert all(len(r["per_signature_s"]) == r["rounds"] == 3 for r in doc["results"])
