#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the SyncFree developers
"""Figures from the curated benchmark results in perf_tests/results.

Reads the JSON files written by the benchmarks and writes one PNG per figure:
speedup over cuSPARSE per matrix (SpTRSV, ILU(0), Krylov end to end) and time
against the floors that the JSON defines (Krylov with Jacobi, SpTRSV).
Every number is computed from the JSON; nothing is typed in here.

    python3 perf_tests/plot_results.py [--results DIR] [--out DIR]

Needs numpy and matplotlib (Debian: apt-get install python3-matplotlib).
"""

import argparse
import json
import re
import statistics
import sys
import textwrap
from pathlib import Path

try:
    import matplotlib
except ImportError:
    sys.exit("plot_results.py needs matplotlib (Debian: apt-get install python3-matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

HERE = Path(__file__).resolve().parent
DEVICE = "nvidia-h200"
# The Krylov run plotted: the one with every SyncFree preconditioner but DILU and SIP, on both
# suites, where each solver has both cuSPARSE baselines (ILU(0) and Jacobi).
KRYLOV_RUN = "approximate_inverses"

SUITE_COLOR = {"grid": "#1f77b4", "unstructured": "#d62728"}
STYLE = {"figure.dpi": 110, "font.size": 8, "axes.titlesize": 8.5, "legend.fontsize": 7.5,
         "axes.spines.top": False, "axes.spines.right": False}


# ---------------------------------------------------------------- reading


def load(results, name):
    """The JSON file `name`.json in `results`, or None where it is missing."""
    path = Path(results) / f"{name}.json"
    if not path.exists():
        print(f"skipped: {path} not found", file=sys.stderr)
        return None
    with open(path) as f:
        return json.load(f)


def suites(data):
    """(key, suite, title) of the grid and unstructured sections that `data` holds."""
    for key, suite in [("grid_suite", "grid"), ("unstructured_suite", "unstructured")]:
        if key in data:
            yield key, suite, f"{suite} suite"


def short(name):
    """A matrix name without the file extension."""
    return name[:-4] if name.endswith(".mtx") else name


def run_label(section, what):
    """`what (date, commit)` of a benchmark run, for a panel title.

    `commit` in a report is the build tree's commit at configure time; where the JSON names the
    library's own commits (`library_commit`), those are given instead.
    """
    library = re.findall(r"\b[0-9a-f]{7,12}\b", section.get("library_commit", ""))
    build = re.sub(r"^([0-9a-f]{7})[0-9a-f]*", r"\1", section.get("commit", "?"))
    commit = "library " + " / ".join(dict.fromkeys(library)) if library else "build " + build
    return f"{what} ({section.get('date', '?')}, {commit})"


def krylov_cases(problem, side, solver):
    """{name: case} of `side` (cusparse or syncfree) that converged, for one solver of a problem."""
    prefix = f"{side}:{solver}+"
    return {name: case for name, case in problem["cases"].items()
            if name.startswith(prefix) and case["status"] == "success"}


def solvers_of(problem):
    """The solvers (cg, gmres, ...) a Krylov problem ran, in order of appearance."""
    seen = []
    for name in problem["cases"]:
        solver = name.split(":", 1)[1].split("+", 1)[0]
        if solver not in seen:
            seen.append(solver)
    return seen


def krylov_problems(section):
    """The problems of a Krylov run: a dict with `problems`, or a list of such dicts."""
    parts = section if isinstance(section, list) else [section]
    return [p for part in parts for p in part["problems"]]


# ---------------------------------------------------------------- drawing


def speedup_text(key):
    """The printed value of a row: series `key` as a speedup."""
    return lambda vals: f"{vals[key]:.2f}×" if vals.get(key) else ""


def dot_figure(panels, series, xlabel, title, path, ref=1.0, note=None, value=None):
    """Horizontal dot plot, one row per matrix, one stacked panel per suite, log x axis.

    panels: [(suite, panel title, [(row label, {series key: value or None})])]
    series: [(key, legend label, marker, filled)]
    value: text printed right of each row, from its values (default: the first series, as ×).
    ref: a vertical line (1× for speedups), or None.
    """
    panels = [p for p in panels if p[2]]
    value = value or speedup_text(series[0][0])
    note_lines = textwrap.wrap(note, 155) if note else []
    rows = sum(len(p[2]) for p in panels)
    height = min(1.2 + 0.2 * rows + 0.4 * len(panels) + 0.12 * len(note_lines), 6.5)
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, height), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [len(p[2]) + 0.6 for p in panels]})
    keys = [key for key, _, _, _ in series]
    values = [vals[k] for p in panels for _, vals in p[2] for k in keys if vals.get(k)]
    lo, hi = min(values + ([ref] if ref else [])), max(values + ([ref] if ref else []))
    for ax, (suite, panel_title, rows_) in zip(axes[:, 0], panels):
        color = SUITE_COLOR[suite]
        ys = range(len(rows_), 0, -1)
        for key, _, marker, filled in series:
            xs = [(vals[key], y) for (_, vals), y in zip(rows_, ys) if vals.get(key)]
            if not xs:
                continue
            style = ({"color": color, "s": 70, "linewidths": 1.6} if marker in "|x" else
                     {"facecolors": color if filled else "none", "edgecolors": color,
                      "s": 34, "linewidths": 1.2})
            ax.scatter([x for x, _ in xs], [y for _, y in xs], marker=marker, zorder=3, **style)
        for (_, vals), y in zip(rows_, ys):
            ax.annotate(value(vals), (1.0, y), xycoords=("axes fraction", "data"), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=7.5, color="#333333")
        ax.set_yticks(list(ys))
        ax.set_yticklabels([label for label, _ in rows_])
        ax.set_ylim(0.4, len(rows_) + 0.6)
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5) if hi / lo < 300 else (1,)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.grid(axis="x", which="both", color="#e8e8e8", linewidth=0.6)
        ax.grid(axis="y", color="#f0f0f0", linewidth=0.6)
        if ref is not None:
            ax.axvline(ref, color="black", linewidth=0.9, zorder=2)
        ax.set_title(panel_title, loc="left", color=color)
    axes[-1, 0].set_xlim(lo / 1.6, hi * 1.6)
    axes[-1, 0].set_xlabel(xlabel)
    drawn = {key for _, _, rows_ in panels for _, vals in rows_ for key, v in vals.items() if v}
    handles = [Line2D([], [], marker=marker, linestyle="none", markersize=6, markeredgewidth=1.4,
                      color="#444444", markerfacecolor="#444444" if filled else "none")
               for key, _, marker, filled in series if key in drawn]
    labels = [label for key, label, _, _ in series if key in drawn]
    top = 1 - 0.36 / height
    fig.suptitle(title, x=0.01, y=1 - 0.04 / height, ha="left", va="top", fontsize=9.5)
    fig.legend(handles, labels, loc="upper left", ncol=len(labels), frameon=False,
               bbox_to_anchor=(0.0, 1 - 0.22 / height), handletextpad=0.3, columnspacing=1.5)
    bottom = 0.0
    if note_lines:
        fig.text(0.01, 0.04 / height, "\n".join(note_lines), fontsize=6.8, color="#555555",
                 ha="left", va="bottom")
        bottom = (0.08 + 0.12 * len(note_lines)) / height
    fig.tight_layout(rect=(0, bottom, 1, top), h_pad=0.6)
    fig.savefig(path)
    plt.close(fig)
    return path


def report(name, values):
    """One line on stdout: median and range of a figure's headline series."""
    values = [v for v in values if v]
    if values:
        print(f"  {name}: median {statistics.median(values):.2f}×, "
              f"{min(values):.2f}–{max(values):.2f}× over {len(values)}")


# ---------------------------------------------------------------- figures


def fig_sptrsv_speedup(results, out):
    """SpTRSV: SyncFree `auto` against cuSPARSE SpSV, solve and analysis + 10 solves."""
    data = load(results, f"{DEVICE}-sptrsv")
    if data is None:
        return None
    rows = []
    for m in data["matrices"]:
        cus, sf = m["methods"].get("cusparse", {}), m["methods"].get("syncfree:auto", {})
        if "solve_ms" not in cus or "solve_ms" not in sf:
            continue
        rows.append((m["name"], {
            "solve": cus["solve_ms"] / sf["solve_ms"],
            "an10": cus["analysis_plus_10_ms"] / sf["analysis_plus_10_ms"]}))
    report("SpTRSV solve × cuSPARSE", [r[1]["solve"] for r in rows])
    report("SpTRSV analysis + 10 × cuSPARSE", [r[1]["an10"] for r in rows])
    return dot_figure(
        [("grid", run_label(data, "grid suite, bench_sptrsv, lower triangle"), rows)],
        [("solve", "solve", "o", True), ("an10", "analysis + 10 solves", "D", False)],
        "speedup over cuSPARSE SpSV (cuSPARSE time / SyncFree auto time)",
        "SpTRSV, NVIDIA H200: SyncFree auto against cuSPARSE, per matrix",
        Path(out) / "sptrsv_speedup.png",
        note="Grid suite only: SpTRSV has not run on the unstructured suite "
             "(its ILU(0) apply has: see ilu_speedup.png).")


def ilu_rows(section, suite):
    """(label, {anf, apply}) per matrix: cuSPARSE csrilu02 (level) time / SyncFree `auto` time."""
    rows = []
    for m in section["matrices"]:
        cus, sf = m["methods"].get("cusparse:level"), m["methods"].get("syncfree:auto")
        if not cus or not sf or "analysis_plus_factor_ms" not in sf:
            continue
        label = short(m["name"])
        if ":" in label and suite == "unstructured":
            label += " (grid control)"
        rows.append((label, {
            "anf": cus["analysis_plus_factor_ms"] / sf["analysis_plus_factor_ms"],
            "apply": cus["apply_ms"] / sf["apply_ms"]}))
    return rows


def fig_ilu_speedup(results, out):
    """ILU(0): SyncFree `auto` against cuSPARSE csrilu02 + two SpSV, per matrix and suite."""
    data = load(results, f"{DEVICE}-ilu")
    if data is None:
        return None
    panels = []
    for key, suite, what in suites(data):
        rows = ilu_rows(data[key], suite)
        own = [vals for label, vals in rows if "control" not in label]
        report(f"ILU(0) {suite} analysis + factor × cuSPARSE", [v["anf"] for v in own])
        report(f"ILU(0) {suite} apply × cuSPARSE", [v["apply"] for v in own])
        panels.append((suite, run_label(data[key], f"{what}, bench_ilu"), rows))
    return dot_figure(
        panels,
        [("anf", "analysis + factorization", "o", True),
         ("apply", "apply (two solves)", "D", False)],
        "speedup over cuSPARSE csrilu02 (level policy) + two SpSV, per phase",
        "ILU(0), NVIDIA H200: SyncFree auto against cuSPARSE, per matrix",
        Path(out) / "ilu_speedup.png",
        note="Values printed: analysis + factorization. The unstructured run has poisson3d:128 "
             "as a grid control; its library code differs per row (see nvidia-h200-ilu.md).")


def krylov_speedup_rows(section):
    """(label, {best, ilu0}) per problem and solver of a Krylov run; converged cases only.

    best: the faster converged cuSPARSE case / SyncFree's fastest converged case (total ms).
    ilu0: cuSPARSE ILU(0) / SyncFree ILU(0) in natural order, the same preconditioner.
    """
    rows = []
    for p in krylov_problems(section):
        for solver in solvers_of(p):
            cus, sf = krylov_cases(p, "cusparse", solver), krylov_cases(p, "syncfree", solver)
            if not cus or not sf:
                continue
            best_sf = min(sf, key=lambda n: sf[n]["total_ms"])
            values = {"best": min(c["total_ms"] for c in cus.values()) / sf[best_sf]["total_ms"]}
            c_ilu, s_ilu = cus.get(f"cusparse:{solver}+ilu0"), sf.get(f"syncfree:{solver}+ilu0")
            if c_ilu and s_ilu:
                values["ilu0"] = c_ilu["total_ms"] / s_ilu["total_ms"]
            precond = best_sf.split("+", 1)[1].replace("#", " ")
            rows.append((f"{short(p['name'])} · {solver.upper()}  [{precond}]", values))
    return rows


def krylov_panels(results, rows_of, what_of):
    """(suite, label, rows) per suite of the Krylov run, rows from `rows_of(section)` and the label
    from `what_of(first problem, what)`; None without the results file."""
    data = load(results, f"{DEVICE}-krylov")
    if data is None:
        return None
    run = data.get(KRYLOV_RUN, data)
    panels = []
    for key, suite, what in suites(run):
        first = run[key][0] if isinstance(run[key], list) else run[key]
        panels.append((suite, run_label(first, what_of(first, what)), rows_of(run[key])))
    return panels


def fig_krylov_speedup(results, out):
    """Krylov end to end (setup + solve): SyncFree against cuSPARSE, per matrix and suite."""
    panels = krylov_panels(results, krylov_speedup_rows,
                           lambda first, what: f"{what}, bench_krylov")
    if panels is None:
        return None
    for suite, _, rows in panels:
        report(f"Krylov {suite} best × best cuSPARSE", [r[1]["best"] for r in rows])
        report(f"Krylov {suite} ILU(0) × cuSPARSE ILU(0)", [r[1].get("ilu0") for r in rows])
    return dot_figure(
        panels,
        [("best", "SyncFree's fastest / cuSPARSE's faster", "o", True),
         ("ilu0", "ILU(0) / ILU(0), natural order", "D", False)],
        "speedup, end to end (setup + solve to 1e-8; cuSPARSE total / SyncFree total)",
        "Krylov solvers, NVIDIA H200: SyncFree against cuSPARSE, per matrix",
        Path(out) / "krylov_speedup.png",
        note="Converged cases only. In brackets: SyncFree's fastest preconditioner. cuSPARSE's "
             "faster of csrilu02 + SpSV and Jacobi. Run: `" + KRYLOV_RUN + "` in the JSON.")


def krylov_floor_rows(section):
    """(label, {syncfree, cusparse, floor_ms}) per Jacobi problem: ms per iteration / its floor."""
    rows = []
    for p in krylov_problems(section):
        for solver in solvers_of(p):
            cases = {side: p["cases"].get(f"{side}:{solver}+jacobi")
                     for side in ("syncfree", "cusparse")}
            sf = cases["syncfree"]
            if not sf or "floor" not in sf:
                continue
            values = {side: c["ms_per_iteration"] / c["floor"]["floor_ms_per_iteration"]
                      for side, c in cases.items() if c and "floor" in c}
            values["floor_ms"] = sf["floor"]["floor_ms_per_iteration"]
            label = f"{short(p['name'])} · {solver.upper()}"
            if sf["status"] != "success":
                label += " *"
            rows.append((label, values))
    return rows


def fig_krylov_floor(results, out):
    """Krylov with Jacobi: time per iteration against the bandwidth floor that the JSON holds."""
    panels = krylov_panels(
        results, krylov_floor_rows,
        lambda first, what:
            f"{what}, copy bandwidth {first.get('copy_bandwidth_GBps', 0):.0f} GB/s")
    if panels is None:
        return None
    for suite, _, rows in panels:
        report(f"Krylov+Jacobi {suite} SyncFree time / floor",
               [r[1].get("syncfree") for r in rows])
    return dot_figure(
        panels,
        [("syncfree", "SyncFree + Jacobi", "o", True),
         ("cusparse", "cuSPARSE + Jacobi", "D", False)],
        "ms per iteration / bandwidth floor (1 = at the floor)",
        "Krylov + Jacobi, NVIDIA H200: time per iteration against the bandwidth floor",
        Path(out) / "krylov_floor.png",
        value=lambda v: f"{v['syncfree']:.2f}× of {v['floor_ms']:.3f} ms",
        note="Floor (from the JSON): bytes one iteration must move (A in the format its products "
             "ran in) / measured copy bandwidth. * did not converge in 3,000 iterations.")


def sptrsv_floor_rows(data, bandwidth_GBps):
    """(label, {measured, latency, bandwidth, cusparse}) per matrix, in ms."""
    rows = []
    for m in data["matrices"]:
        model = m.get("latency_model")
        if not model:
            continue
        values = {"measured": model["measured_ms"], "latency": model["hops_x_hop_ms"],
                  "cusparse": m["methods"].get("cusparse", {}).get("solve_ms")}
        if bandwidth_GBps:
            values["bandwidth"] = m["min_bytes"] / (bandwidth_GBps * 1e9) * 1e3
        rows.append((f"{m['name']}  ({model['method'].split(':', 1)[1]}, {model['hops']} hops)",
                     values))
    return rows


def floor_ms(values):
    """The higher of a SpTRSV row's floors, ms."""
    return max(values["latency"], values.get("bandwidth", 0))


def fig_sptrsv_floor(results, out):
    """SpTRSV: solve time against the latency floor (hops × hop) and the bandwidth floor."""
    data = load(results, f"{DEVICE}-sptrsv")
    if data is None:
        return None
    krylov = load(results, f"{DEVICE}-krylov") or {}
    bandwidth = krylov.get("grid_suite", {}).get("copy_bandwidth_GBps")
    rows = sptrsv_floor_rows(data, bandwidth)
    report("SpTRSV time / max(latency, bandwidth floor)",
           [v["measured"] / floor_ms(v) for _, v in rows])
    bw_note = (f"Bandwidth floor: the JSON's min_bytes (L in CSR, b, x) at the copy bandwidth that "
               f"bench_krylov measured on an H200 ({bandwidth:.0f} GB/s, grid_suite of the Krylov "
               f"JSON): the SpTRSV JSON holds no bandwidth." if bandwidth else
               "No bandwidth floor: no copy bandwidth found.")
    return dot_figure(
        [("grid", run_label(data, "grid suite, bench_sptrsv"), rows)],
        [("measured", "SyncFree (fastest method)", "o", True),
         ("cusparse", "cuSPARSE SpSV", "s", False),
         ("latency", "latency floor", "|", True),
         ("bandwidth", "bandwidth floor", "x", True)],
        "solve time, ms",
        "SpTRSV, NVIDIA H200: solve time against the latency and bandwidth floors",
        Path(out) / "sptrsv_floor.png", ref=None,
        note="Latency floor: hops on the critical path × time per hop measured on chain:200000 by "
             "the same method (latency_model; equal to the measurement on the chain). " + bw_note,
        value=lambda v: f"{v['measured']:.3g} ms = {v['measured'] / floor_ms(v):.1f}× floor")


def fig_model(results, out, kernel, candidate, what):
    """The performance model: predicted against measured times of `kernel`, one point a case,
    coloured by `candidate` (the JSON's key: algorithm or format)."""
    data = load(results, f"{DEVICE}-model-{kernel}")
    if data is None:
        return None
    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    cases = data["cases"]
    times = [c[k] for c in cases for k in ("predicted_ms", "measured_ms")]
    low, high = min(times) / 1.5, max(times) * 1.5
    ax.plot([low, high], [low, high], color="0.3", lw=0.8)
    ax.fill_between([low, high], [low / 1.5, high / 1.5], [low * 1.5, high * 1.5], color="0.9",
                    label="within 1.5×")
    algorithms = sorted({c[candidate] for c in cases})
    colors = plt.get_cmap("tab10")
    for i, algorithm in enumerate(algorithms):
        for held, marker in [(False, "o"), (True, "^")]:
            pts = [c for c in cases if c[candidate] == algorithm and c["held_back"] == held]
            if pts:
                ax.scatter([c["measured_ms"] for c in pts], [c["predicted_ms"] for c in pts],
                           s=14, marker=marker, color=colors(i), alpha=0.85,
                           label=f"{algorithm}{' (held back)' if held else ''}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_xlabel(f"measured {what}, ms")
    ax.set_ylabel(f"predicted {what}, ms")
    e = data["errors"]
    label = {"sptrsv": "SpTRSV", "spmv": "SpMV", "krylov": "Krylov iteration"}[kernel]
    ax.set_title(f"{label}, NVIDIA H200: the "
                 f"performance model against bench_{kernel}\n"
                 f"geometric-mean error {e['fitted']['geometric_mean_error']:.2f}× fitted, "
                 f"{e['held_back']['geometric_mean_error']:.2f}× held back; "
                 f"max {e['all']['max_error']:.2f}×")
    ax.legend(loc="upper left", ncol=2, frameon=False, fontsize=6.5)
    fig.tight_layout()
    path = Path(out) / f"model_{kernel}.png"
    fig.savefig(path)
    plt.close(fig)
    return path


def fig_model_sptrsv(results, out):
    return fig_model(results, out, "sptrsv", "algorithm", "solve")


def fig_model_spmv(results, out):
    return fig_model(results, out, "spmv", "format", "SpMV")


def fig_model_krylov(results, out):
    return fig_model(results, out, "krylov", "case", "time per iteration")


FIGURES = [fig_sptrsv_speedup, fig_ilu_speedup, fig_krylov_speedup, fig_krylov_floor,
           fig_sptrsv_floor, fig_model_sptrsv, fig_model_spmv, fig_model_krylov]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default=HERE / "results", type=Path,
                        help="folder of the curated JSON results (default: %(default)s)")
    parser.add_argument("--out", default=None, type=Path,
                        help="folder for the PNG files (default: RESULTS/figures)")
    args = parser.parse_args()
    out = args.out or args.results / "figures"
    out.mkdir(parents=True, exist_ok=True)
    plt.rcParams.update(STYLE)
    for figure in FIGURES:
        print(f"{figure.__name__}:")
        path = figure(args.results, out)
        if path:
            print(f"  wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
