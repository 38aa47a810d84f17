# SPDX-License-Identifier: Apache-2.0
"""benchmarks/plot.py: the performance page's charts and generated tables.

No benchmark runs here: the script is fed the committed results (benchmarks/results) or a
small sample cut from them, and must draw the SVGs, keep the pages' generated tables what
the JSON gives, and refuse what it cannot read.
"""

import importlib.util
import json
import pathlib
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PERF = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"


def _load_plot():
    spec = importlib.util.spec_from_file_location("bench_plot", ROOT / "benchmarks" / "plot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plot = _load_plot()


def _copy_pages(tmp_path):
    pages = []
    for page in (PERF, README):
        dest = tmp_path / page.name
        shutil.copy(page, dest)
        pages.append(str(dest))
    return pages


def _small_sample(dest):
    """The committed results cut down: two peers' rows of table 2, three batch sizes, and
    no c.json (a missing file leaves its chart and table out)."""
    dest.mkdir()
    ops = json.loads((RESULTS / "ops.json").read_text(encoding="utf-8"))
    ops["benchmarks"] = [b for b in ops["benchmarks"] if b["table"] == 1 or (
        b["name"] in ("sign", "verify") and b["impl"] in ("p256", "cryptography"))]
    batch = json.loads((RESULTS / "batch.json").read_text(encoding="utf-8"))
    sizes = sorted({r["size"] for r in batch["results"]})[:3]
    batch["results"] = [r for r in batch["results"] if r["size"] in sizes]
    (dest / "ops.json").write_text(json.dumps(ops), encoding="utf-8")
    (dest / "batch.json").write_text(json.dumps(batch), encoding="utf-8")
    shutil.copy(RESULTS / "precompute.json", dest / "precompute.json")
    return dest


def test_the_pages_tables_are_what_the_results_give():
    """docs/performance.md's and the README's generated tables match benchmarks/results
    (make bench-plot was run after the last make bench-docs)."""
    assert plot.main(["--check"]) == 0


def test_a_changed_figure_makes_the_tables_stale(tmp_path, capsys):
    """Negative control of the check above: one median changed in a copy of the results."""
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    ops = json.loads((results / "ops.json").read_text(encoding="utf-8"))
    b = next(b for b in ops["benchmarks"] if b["table"] == 2 and b["impl"] == "p256")
    b["ns_per_op"] = b["median_ns"] = b["median_ns"] * 3
    (results / "ops.json").write_text(json.dumps(ops), encoding="utf-8")
    pages = _copy_pages(tmp_path)
    assert plot.main(["--check", "--results", str(results), "--pages", *pages]) == 1
    assert "stale" in capsys.readouterr().err
    # Rewritten, the copies are current again, and only the copies changed.
    assert plot.main(["--no-charts", "--results", str(results), "--pages", *pages]) == 0
    assert plot.main(["--check", "--results", str(results), "--pages", *pages]) == 0
    assert pathlib.Path(pages[0]).read_text(encoding="utf-8") != PERF.read_text(encoding="utf-8")


def test_draws_the_charts_from_a_small_sample(tmp_path):
    pytest.importorskip("matplotlib")
    results = _small_sample(tmp_path / "results")
    pages = _copy_pages(tmp_path)
    svg = tmp_path / "img"
    assert plot.main(["--results", str(results), "--svg", str(svg), "--pages", *pages]) == 0
    drawn = sorted(p.name for p in svg.iterdir())
    assert drawn == ["batch.svg", "ops.svg", "precompute.svg"]
    texts = {}
    for name in drawn:
        root = ET.parse(svg / name).getroot()  # well-formed SVG
        assert root.tag.endswith("svg")
        texts[name] = " ".join(t for t in root.itertext())
    env = json.loads((results / "ops.json").read_text(encoding="utf-8"))["environment"]
    assert "pyca/cryptography" in texts["ops.svg"] and "python-ecdsa" not in texts["ops.svg"]
    assert env["date"][:10] in texts["ops.svg"] and env["cpu"] in texts["ops.svg"]
    assert "verify_many" in texts["batch.svg"] and "pays after" in texts["precompute.svg"]
    # Without c.json its table says how to get it; the SVGs are the same bytes when redrawn.
    assert "(no c.json in benchmarks/results" in pathlib.Path(pages[0]).read_text(encoding="utf-8")
    first = {name: (svg / name).read_bytes() for name in drawn}
    assert plot.main(["--results", str(results), "--svg", str(svg), "--pages", *pages]) == 0
    assert {name: (svg / name).read_bytes() for name in drawn} == first


def test_a_file_of_another_kind_is_refused(tmp_path, capsys):
    results = tmp_path / "results"
    results.mkdir()
    (results / "ops.json").write_text(json.dumps({"schema": "something-else/1"}), encoding="utf-8")
    assert plot.main(["--check", "--results", str(results), "--pages", str(PERF)]) == 2
    assert "not a p256-bench/1 document" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert plot.main(["--check", "--results", str(empty), "--pages", str(PERF)]) == 2
    assert "run make bench-docs" in capsys.readouterr().err


def _blocks(text):
    return {m.group(2): m.group(3) for m in plot._MARK.finditer(text)}


def test_every_generated_table_is_dated_and_attributed():
    """Each generated block opens with the date, the CPU and its source file; the page
    shows every block and every chart."""
    blocks = _blocks(PERF.read_text(encoding="utf-8"))
    assert set(blocks) == set(plot.BLOCKS)
    for name, body in blocks.items():
        first = body.splitlines()[0]
        assert re.match(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC on .+\(family \d+ model \d+\), \d+ CPUs;",
                        first), (name, first)
        assert "Source: `benchmarks/results/" in first, name
    page = PERF.read_text(encoding="utf-8")
    for chart in plot.CHARTS:
        assert "](img/%s)" % chart in page
        assert (ROOT / "docs" / "img" / chart).is_file(), chart
    readme = README.read_text(encoding="utf-8")
    assert set(_blocks(readme)) == {"ops"} and "](docs/img/ops.svg)" in readme


def test_the_performance_page_stays_short():
    lines = PERF.read_text(encoding="utf-8").count("\n")
    assert lines < 400, "docs/performance.md has %d lines: history belongs in git" % lines
