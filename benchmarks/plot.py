#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The performance page's charts and tables, from the benchmarks' JSON output.

    python benchmarks/plot.py            # draw docs/img/*.svg, rewrite the generated tables
    python benchmarks/plot.py --check    # exit 1 if a page's generated table is stale
    make bench-docs                      # run every benchmark anew, then this

Reads --results (benchmarks/results): ops.json (`p256 bench --json`), c.json
(`benchmarks/bench_c.py --json`), batch.json (`benchmarks/bench_batch.py --json`) and
precompute.json (`benchmarks/bench_precompute.py --json`). Draws, with matplotlib (the
`bench` extra), into --svg (docs/img): ops.svg, p256 beside the other libraries per
operation; batch.svg, verify_many's throughput against batch size and threads;
precompute.svg, the total time of n uses of one key, plain and precomputed (where a
precomputed key breaks even). Rewrites the tables between the markers
``<!-- plot.py: NAME -->`` and ``<!-- plot.py: end NAME -->`` in docs/performance.md and
README.md, each under a line that says when, on what CPU and under what load its figures
were taken. The SVGs are byte-for-byte reproducible from the same JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys

from p256 import _bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmarks", "results")
SVG_DIR = os.path.join(ROOT, "docs", "img")
PAGES = [os.path.join(ROOT, "docs", "performance.md"), os.path.join(ROOT, "README.md")]
SCHEMAS = {"ops": "p256-bench/1", "c": "p256-bench-c/1", "batch": "p256-bench-batch/1",
           "precompute": "p256-bench-precompute/1"}
PEER_NAMES = {"cryptography": "pyca/cryptography", "ecdsa": "python-ecdsa",
              "pycryptodome": "pycryptodome"}
WINDOWS = ("4", "5", "6", "7", "8")
DEFAULT_WINDOW = "7"


class PlotError(Exception):
    """A results file that is not what this script reads."""


def load(results_dir: str) -> dict:
    """{kind: document} of the result files present in results_dir, schemas checked."""
    docs = {}
    for kind, schema in SCHEMAS.items():
        path = os.path.join(results_dir, kind + ".json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or doc.get("schema") != schema:
            raise PlotError("%s: not a %s document (schema %r)" % (path, schema,
                                                                   doc.get("schema") if isinstance(doc, dict) else None))
        docs[kind] = doc
    if not docs:
        raise PlotError("no results in %s: run make bench-docs" % results_dir)
    return docs


# -- what the figures were measured on ------------------------------------------------------


def machine(env: dict) -> str:
    """'Intel(R) Xeon(R) Processor (family 6 model 207), 2 CPUs' from a run's environment."""
    d = env.get("cpu_details") or {}
    ident = " (family %s model %s)" % (d["family"], d["model"]) if d.get("family") and d.get("model") else ""
    return "%s%s, %s CPUs" % (env.get("cpu", "unknown CPU"), ident, env.get("cpu_count"))


def _load_text(env: dict) -> str:
    load = env.get("load") or {}
    avg = load.get("loadavg_before")
    busy = load.get("others_busy_cpus")
    parts = []
    if avg:
        parts.append("load average %.1f" % avg[0])
    if busy is not None:
        parts.append("other processes kept %.1f CPUs busy" % busy)
    return ", ".join(parts) or "load not recorded"


def caption(doc: dict, source: str, peers_of: tuple = tuple(PEER_NAMES)) -> str:
    """One line: the date, the CPU, the build, the versions of the peers in `peers_of`,
    the load, the file."""
    env = doc["environment"]
    peers = ", ".join("%s %s" % (PEER_NAMES.get(n, n), v) for n, v in env.get("peers", {}).items()
                      if v and n in peers_of)
    if peers and "cryptography" in peers_of and env.get("openssl"):
        peers += " (%s)" % env["openssl"]
    return ("Measured %s UTC on %s; %s %s, p256 %s built by %s, backend `%s`%s; %s. "
            "Source: `benchmarks/results/%s`." % (
                env["date"][:16].replace("T", " "), machine(env), env.get("python_implementation"),
                env.get("python"), env.get("p256"), env.get("p256_compiler"), env.get("p256_backend"),
                "; " + peers if peers else "", _load_text(env), source))


def noise_note(spreads: list, warnings: list = ()) -> str:
    """A warning under a table whose figures spread more than `p256 bench` accepts."""
    worst = max(spreads, default=0.0)
    if worst <= _bench.SPREAD_WARN and not warnings:
        return ""
    said = "; `p256 bench` printed %d warnings (in the JSON)" % len(warnings) if warnings else ""
    return ("**A noisy run**: spreads up to ±%.0f%%%s. Rerun `make bench-docs` on an idle "
            "machine before quoting these times; the ratios within a row hold better."
            % (worst * 100, said))


def _with_note(lines: list, note: str) -> str:
    return "\n".join(lines + (["", note] if note else []))


def chart_note(doc: dict) -> str:
    env = doc["environment"]
    return "%s UTC, %s; %s" % (env["date"][:16].replace("T", " "), machine(env), _load_text(env))


# -- tables ---------------------------------------------------------------------------------


def _rows(doc: dict, table: int) -> list:
    """The rows of a `p256 bench` table in run()'s shape, rebuilt from the flat JSON."""
    rows: dict = {}
    for b in doc["benchmarks"]:
        if b["table"] != table:
            continue
        row = rows.setdefault(b["name"], {"name": b["name"], "label": b["operation"], "results": {}})
        row["results"][b["impl"]] = b
    return list(rows.values())


def table_ops(docs: dict) -> str:
    ops = docs["ops"]
    rows = _rows(ops, 2)
    measured = {impl for row in rows for impl in row["results"]}
    versions = {n: v for n, v in ops["environment"]["peers"].items() if v and n in measured}
    out = [caption(ops, "ops.json"), "", _bench.render_table2(rows, versions), "",
           "± is half the range of the repeats; ratio = the peer's time / p256's (2.00: p256 "
           "takes half the time)."]
    spreads = [r["spread"] for row in rows for r in row["results"].values()]
    return _with_note(out, noise_note(spreads, ops.get("warnings", [])))


def table_reference(docs: dict) -> str:
    ops = docs["ops"]
    rows = []
    for row in _rows(ops, 1):
        r, p = row["results"].get("reference"), row["results"].get("p256")
        if not (r and p):
            continue
        rows.append([row["name"], _bench.fmt_spread(r),
                     _bench.fmt_spread(p), "%.0fx" % (r["ns_per_op"] / p["ns_per_op"]),
                     _bench.fmt_bytes(p.get("alloc_bytes_per_op")),
                     _bench.fmt_count(p.get("allocs_per_op"))])
    head = ["operation", "p256.reference", "p256", "speed-up", "p256 alloc/op", "p256 allocs/op"]
    spreads = [r["spread"] for row in _rows(ops, 1) for r in row["results"].values()]
    return _with_note([caption(ops, "ops.json", ()), "",
                       _bench.markdown_table(head, rows, ["l", "r", "r", "r", "r", "r"])],
                      noise_note(spreads))


_C_LABELS = {"SignP256": "sign", "VerifyP256": "verify", "ECDHP256": "ECDH",
             "ECDHP256Precomputed7": "ECDH, precomputed peer (window 7)"}


def table_c(docs: dict) -> str:
    c = docs["c"]
    names = list(c["backends"])
    head = ["operation (C)", "OpenSSL"]
    for n in names:
        head += ["p256 %s" % n, "/ OpenSSL"]
    rows = []
    for bench, op in c["ops"]:
        if bench not in _C_LABELS:
            continue
        ossl = (c.get("openssl") or {}).get(op)
        cells = [_C_LABELS[bench], _c_cell(ossl)]
        for n in names:
            ours = c["backends"][n].get(bench)
            cells += [_c_cell(ours), "%.2f" % (ours["best_ns"] / ossl["best_ns"]) if ours and ossl else "—"]
        rows.append(cells)
    version = (c.get("openssl_version") or "OpenSSL").split(" (Library")[0]
    note = ("Best of %d rounds, each the median of `bench_core`'s batches (thread CPU time), "
            "beside `openssl speed` (%s) in the same rounds; ± is half the range of the rounds."
            % (c["rounds"], version))
    spreads = [f["spread"] for figs in c["backends"].values() for f in figs.values()]
    spreads += [f["spread"] for f in (c.get("openssl") or {}).values()]
    return _with_note([caption(c, "c.json", ()), "",
                       _bench.markdown_table(head, rows, ["l"] + ["r"] * (len(head) - 1)), "", note],
                      noise_note(spreads))


def _c_cell(fig: dict | None) -> str:
    if not fig:
        return "—"
    return _bench.fmt_spread({"ns_per_op": fig["best_ns"], "spread": fig["spread"],
                              "repeats": len(fig["rounds_ns"])})


def _batch_configs(batch: dict) -> list:
    """The verify configurations in the order measured: (call, threads, label)."""
    seen = []
    for r in batch["results"]:
        key = (r["call"], r["threads"], r["configuration"])
        if r["call"] in ("verify", "verify_many") and key not in seen:
            seen.append(key)
    return seen


def table_batch(docs: dict) -> str:
    batch = docs["batch"]
    configs = _batch_configs(batch)
    by = {(r["size"], r["call"], r["threads"]): r for r in batch["results"]}
    sizes = sorted({r["size"] for r in batch["results"]})
    head = ["batch"] + [label for _, _, label in configs] + ["best / loop"]
    rows = []
    for n in sizes:
        cells = ["{:,}".format(n)]
        times = []
        for call, threads, _ in configs:
            r = by.get((n, call, threads))
            if r is None:
                cells.append("—")
                continue
            times.append(r["median_s"])
            cells.append("%s (%s/s)" % (_bench.fmt_spread({"ns_per_op": r["median_s"] * 1e9,
                                                            "spread": r["spread"],
                                                            "repeats": r["rounds"]}),
                                        _fmt_rate(r["throughput_per_s"])))
        loop = by.get((n, "verify", 0))
        cells.append("%.1fx" % (loop["median_s"] / min(times)) if loop and times else "—")
        rows.append(cells)
    note = ("Time per signature (median of the rounds, ± half their range) and throughput; "
            "batch engine `%s`; %s." % (batch.get("batch_engine"), batch.get("what", "")))
    return _with_note([caption(batch, "batch.json", ()), "",
                       _bench.markdown_table(head, rows, ["r"] * len(head)), "", note],
                      noise_note([r["spread"] for r in batch["results"]]))


def _fmt_rate(per_s: float) -> str:
    return "{:,.0f}".format(per_s) if per_s < 1e4 else "{:,.0f}k".format(per_s / 1e3)


def break_even(part: dict, window: str) -> int | None:
    """Uses of one key after which building its table has paid: build / (plain - precomputed)."""
    cases = part["cases"]
    saved = cases["plain"]["median_us"] - cases["precomputed w=%s" % window]["median_us"]
    if saved <= 0:
        return None
    return math.ceil(cases["build w=%s" % window]["median_us"] / saved)


def table_precompute(docs: dict) -> str:
    pre = docs["precompute"]
    parts = [p for p in ("verify", "ecdh") if p in pre]
    head = ["key"]
    for p in parts:
        head += ["%s" % ("verify" if p == "verify" else "ECDH")]
    head += ["table build"] + ["pays after (%s)" % ("verify" if p == "verify" else "ECDH") for p in parts] + ["table"]
    first = pre[parts[0]]
    rows = []

    def cell(part: dict, name: str) -> str:
        c = part["cases"].get(name)
        if c is None:
            return "—"
        return _bench.fmt_spread({"ns_per_op": c["median_us"] * 1e3, "spread": c["spread"],
                                  "repeats": len(c["us"])})

    for name, label in (("plain", "plain `PublicKey`"), ("cryptography", "pyca/cryptography")):
        rows.append([label] + [cell(pre[p], name) for p in parts] + ["—"] + ["—"] * len(parts) + ["—"])
    for w in WINDOWS:
        label = "`precompute(window=%s)`%s" % (w, " (default)" if w == DEFAULT_WINDOW else "")
        evens = []
        for p in parts:
            n = break_even(pre[p], w)
            evens.append("—" if n is None else "%d %s" % (n, "verifications" if p == "verify" else "exchanges"))
        rows.append([label] + [cell(pre[p], "precomputed w=%s" % w) for p in parts]
                    + [cell(first, "build w=%s" % w)] + evens
                    + ["%d KB" % round(first["table_bytes"][w] / 1000)])
    note = ("Medians of %d rounds of %d calls (verify: wall time; ECDH: the thread's CPU time); "
            "\"pays after\" = the build / the time a precomputed key saves per use."
            % (pre["rounds"], pre["number"]))
    spreads = [c["spread"] for p in parts for c in pre[p]["cases"].values()]
    return _with_note([caption(pre, "precompute.json", ("cryptography",)), "",
                       _bench.markdown_table(head, rows, ["l"] + ["r"] * (len(head) - 1)), "", note],
                      noise_note(spreads))


BLOCKS = {"ops": (table_ops, "ops"), "reference": (table_reference, "ops"), "c": (table_c, "c"),
          "batch": (table_batch, "batch"), "precompute": (table_precompute, "precompute")}
_MARK = re.compile(r"(<!-- plot\.py: (\w+) -->\n)(.*?)(<!-- plot\.py: end \2 -->)", re.S)


def render_page(text: str, docs: dict) -> str:
    """The page with every generated block rewritten from docs (a block whose results file
    is missing says so)."""
    def block(m: re.Match) -> str:
        name = m.group(2)
        if name not in BLOCKS:
            raise PlotError("unknown generated block %r" % name)
        fn, needs = BLOCKS[name]
        body = fn(docs) if needs in docs else "(no %s.json in benchmarks/results: run make bench-docs)" % needs
        return m.group(1) + body + "\n" + m.group(4)
    return _MARK.sub(block, text)


# -- charts ---------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "p256", "svg.fonttype": "none", "font.size": 9,
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _save(fig, path: str) -> None:
    fig.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None})


def chart_ops(docs: dict, path: str) -> None:
    """Grouped horizontal bars, log time: p256 and each peer per operation, with OpenSSL's
    and p256's C beside them where c.json has them; whiskers from the fastest to the
    slowest repeat."""
    plt = _pyplot()
    ops = docs["ops"]
    rows = {r["name"]: r for r in _rows(ops, 2)}
    names = [("keygen", "keygen"), ("sign", "sign"), ("verify", "verify"), ("ecdh", "ECDH")]
    series = [("p256", "p256", "#1f6feb")]
    measured = {impl for row in rows.values() for impl in row["results"]}
    series += [(n, PEER_NAMES[n], color) for n, color in
               (("cryptography", "#d97706"), ("pycryptodome", "#7c3aed"), ("ecdsa", "#6b7280"))
               if n in measured]
    c = docs.get("c")
    c_ops = {"sign": "SignP256", "verify": "VerifyP256", "ecdh": "ECDHP256"}
    if c:
        best_backend = list(c["backends"])[-1]  # the fastest this CPU runs comes last
        series += [("c:p256", "p256's C core (%s)" % best_backend, "#93c5fd")]
        if c.get("openssl"):
            series += [("c:openssl", "OpenSSL's C (openssl speed)", "#fcd34d")]
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    height = 0.8 / len(series)
    for i, (key, label, color) in enumerate(series):
        ys, xs, lo, hi = [], [], [], []
        for j, (name, _) in enumerate(names):
            if key == "c:p256":
                fig_ = c["backends"][best_backend].get(c_ops.get(name, ""))
                vals = fig_ and (fig_["best_ns"], min(fig_["rounds_ns"]), max(fig_["rounds_ns"]))
            elif key == "c:openssl":
                fig_ = c["openssl"].get(name)
                vals = fig_ and (fig_["best_ns"], min(fig_["rounds_ns"]), max(fig_["rounds_ns"]))
            else:
                r = rows.get(name, {}).get("results", {}).get(key)
                vals = r and (r["median_ns"], r["min_ns"], r["max_ns"])
            if not vals:
                continue
            y = j - 0.4 + height * (i + 0.5)
            ys.append(y)
            xs.append(vals[0] / 1e3)
            lo.append((vals[0] - vals[1]) / 1e3)
            hi.append((vals[2] - vals[0]) / 1e3)
        ax.barh(ys, xs, height=height * 0.9, color=color, label=label,
                xerr=[lo, hi], error_kw={"elinewidth": 0.6, "capsize": 1.5, "ecolor": "#333333"})
        for y, x, h in zip(ys, xs, hi):
            ax.text((x + h) * 1.06, y, _bench.fmt_time(x * 1e3), va="center", fontsize=6.5)
    ax.set_xscale("log")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels([label for _, label in names])
    ax.invert_yaxis()
    ax.set_xlabel("time per operation, µs (log scale; shorter is faster)")
    ax.set_title("P-256 per operation: p256 beside the other libraries", loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False)
    fig.text(0.01, -0.02, chart_note(ops), fontsize=6.5, color="#555555")
    _save(fig, path)
    plt.close(fig)


def chart_batch(docs: dict, path: str) -> None:
    """Throughput against batch size (log-log), one line per configuration; whiskers from
    the slowest to the fastest round."""
    plt = _pyplot()
    batch = docs["batch"]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    colors = ["#6b7280", "#1f6feb", "#16a34a", "#dc2626", "#7c3aed"]
    for k, (call, threads, label) in enumerate(_batch_configs(batch)):
        pts = sorted((r["size"], r) for r in batch["results"] if r["call"] == call and r["threads"] == threads)
        xs = [n for n, _ in pts]
        ys = [r["throughput_per_s"] for _, r in pts]
        lo = [y - 1 / max(r["per_signature_s"]) for y, (_, r) in zip(ys, pts)]
        hi = [1 / min(r["per_signature_s"]) - y for y, (_, r) in zip(ys, pts)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", markersize=3.5, linewidth=1.4,
                    capsize=2, color=colors[k % len(colors)], label=label,
                    linestyle="--" if threads == 0 else "-")
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("signatures per call (batch size, log scale)")
    ax.set_ylabel("signatures verified per second")
    ax.set_title("verify_many: throughput against batch size and threads (engine %s)"
                 % batch.get("batch_engine"), loc="left")
    fig.text(0.01, -0.02, chart_note(batch), fontsize=6.5, color="#555555")
    ax.legend(fontsize=7, frameon=False)
    ax.grid(True, which="major", alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def chart_precompute(docs: dict, path: str) -> None:
    """Total time of n uses of one key (log-log): a plain key, cryptography, precomputed
    keys (their build first); a dot where the default window breaks even."""
    plt = _pyplot()
    pre = docs["precompute"]
    parts = [p for p in ("verify", "ecdh") if p in pre]
    fig, axes = plt.subplots(1, len(parts), figsize=(7.5, 3.9), squeeze=False)
    uses = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 1000]
    for ax, p in zip(axes[0], parts):
        cases = pre[p]["cases"]
        what = "verifications" if p == "verify" else "exchanges"
        lines = [("plain p256 key", 0.0, cases["plain"]["median_us"], "#6b7280", "--"),
                 ("pyca/cryptography", 0.0, cases["cryptography"]["median_us"], "#d97706", "--")]
        for w, color in (("4", "#93c5fd"), (DEFAULT_WINDOW, "#1f6feb")):
            lines.append(("precompute(window=%s)%s" % (w, ", default" if w == DEFAULT_WINDOW else ""),
                          cases["build w=%s" % w]["median_us"], cases["precomputed w=%s" % w]["median_us"],
                          color, "-"))
        for label, build, per, color, style in lines:
            ax.plot(uses, [(build + n * per) / 1e3 for n in uses], style, color=color, label=label,
                    linewidth=1.4)
        n = break_even(pre[p], DEFAULT_WINDOW)
        if n is not None:
            total = n * cases["plain"]["median_us"] / 1e3
            ax.plot([n], [total], "o", color="#1f6feb", markersize=5)
            ax.annotate("pays after %d %s" % (n, what), (n, total), xytext=(8, -14),
                        textcoords="offset points", fontsize=7)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("%s with one key (log scale)" % what)
        ax.set_ylabel("total time, ms (log scale)")
        ax.set_title("%s: the table's build against its saving" % ("verify" if p == "verify" else "ECDH"),
                     loc="left", fontsize=8.5)
        ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=len(labels),
               fontsize=7, frameon=False)
    fig.text(0.01, -0.03, chart_note(pre), fontsize=6.5, color="#555555")
    _save(fig, path)
    plt.close(fig)


CHARTS = {"ops.svg": (chart_ops, "ops"), "batch.svg": (chart_batch, "batch"),
          "precompute.svg": (chart_precompute, "precompute")}


def draw(docs: dict, svg_dir: str) -> list:
    """Draw every chart whose results are present; the paths written."""
    os.makedirs(svg_dir, exist_ok=True)
    written = []
    for name, (fn, needs) in CHARTS.items():
        if needs in docs:
            path = os.path.join(svg_dir, name)
            fn(docs, path)
            written.append(path)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=RESULTS, help="the folder of the JSON results")
    ap.add_argument("--svg", default=SVG_DIR, help="where the charts go")
    ap.add_argument("--pages", nargs="*", default=PAGES, help="the pages with generated tables")
    ap.add_argument("--check", action="store_true",
                    help="draw nothing; exit 1 if a page's generated tables are not what the JSON gives")
    ap.add_argument("--no-charts", action="store_true", help="rewrite the tables only")
    args = ap.parse_args(argv)
    try:
        docs = load(args.results)
        stale = []
        for page in args.pages:
            with open(page, encoding="utf-8") as f:
                text = f.read()
            if not _MARK.search(text):
                raise PlotError("%s has no generated block" % page)
            new = render_page(text, docs)
            if new != text:
                stale.append(page)
                if not args.check:
                    with open(page, "w", encoding="utf-8") as f:
                        f.write(new)
    except (PlotError, OSError, KeyError, ValueError) as e:
        print("plot.py: %s" % (e if not isinstance(e, KeyError) else "a results file lacks %s" % e),
              file=sys.stderr)
        return 2
    if args.check:
        for page in stale:
            print("plot.py: %s's generated tables are stale: run python benchmarks/plot.py" % page,
                  file=sys.stderr)
        return 1 if stale else 0
    for page in stale:
        print("plot.py: rewrote the tables of %s" % os.path.relpath(page, ROOT))
    if not args.no_charts:
        for path in draw(docs, args.svg):
            print("plot.py: drew %s" % os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
