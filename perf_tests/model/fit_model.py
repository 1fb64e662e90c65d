#!/usr/bin/env python3
"""Fits the dimensionless constants of the performance model's cost formulas to benchmark reports.

--kernel sptrsv: each SpTRSV algorithm's (a, b, c, g) of
algorithms/sptrsv/impl/syncfree_sptrsv_cost.hpp, from bench_sptrsv reports;
--kernel spmv: each SpMV format's (launches, a, b) of core/syncfree_spmv_cost.hpp, from bench_spmv reports;
--kernel krylov: each solver's (vector passes, launches) of
algorithms/krylov/syncfree_krylov_cost.hpp, from bench_krylov reports (SpMV constants as fitted).
The constants minimize the squared log ratio of predicted to measured time over the matrices not
held back (perf_tests/model/held_back.txt), with the device parameters of a syncfree-calibrate
file. Prints them as the C++ tables want them; check_sptrsv_model and check_spmv_model then
compare the library's predictions with the measurements. The formulas here mirror the C++ ones.

Usage: fit_model.py --kernel sptrsv|spmv|krylov --device CALIBRATION.json [--held-back FILE] REPORT...
Needs numpy and scipy (Debian: python3-scipy).
"""
import argparse
import json
import math

import numpy as np
from scipy.optimize import least_squares

# SpTRSV algorithm: (thread per row, launch per level)
ALGORITHMS = {
    "sync_free_thread": (True, False),
    "level_set": (True, True),
    "sync_free_row": (False, False),
    "multirow": (False, False),
    "packed": (False, False),
    "alap_packed": (False, False),
}
# bench_spmv method: SpMV format
FORMATS = {"syncfree": "csr", "syncfree-stencil": "stencil"}


def gather_bandwidth(device, vector_bytes):
    """core/syncfree_cost_model.hpp's gather_seconds: the L2's where the vector fits in half."""
    return device["gather_bandwidth_l2"] if vector_bytes <= 0.5 * device["l2_bytes"] \
        else device["gather_bandwidth"]


def predict_sptrsv(k, f, device, algorithm, chain_levels):
    """syncfree_sptrsv_cost.hpp's formula; k = (a, b, c, g)."""
    a, b, c, g = k
    thread_per_row, launch_per_level = ALGORITHMS[algorithm]
    launch = device["launch_latency"]
    if f["rows"] == 0 or f["levels"] == 0:
        return launch
    r = f["entries"] / f["rows"]
    work = (f["critical_path_entries"] / f["levels"] if thread_per_row else r) ** g
    step = (launch if launch_per_level else 0.0) + a * device["dependency_hop"] + \
        b * device["dependent_load_latency"] * work
    row_time = c * (12 * r / device["copy_bandwidth"] +
                    8 * r / gather_bandwidth(device, 8.0 * f["rows"]))
    if algorithm == "sync_free_thread" and chain_levels > 0:
        levels = [(chain_levels, f["rows"] / chain_levels)]
    else:
        levels = [(n, w / n) for n, w in zip(f["levels_by_width"], f["rows_by_level_width"]) if n]
    return launch + sum(n * max(step, w * row_time) for n, w in levels)


def predict_spmv(k, f, device, form):
    """syncfree_spmv_cost.hpp's formula; k = (launches, a, b)."""
    launches, a, b = k
    rows, entries, v = f["rows"], f["entries"], f.get("value_bytes", 8)
    streamed = v * entries + 12 * rows if form == "stencil" else \
        (v + 4) * entries + 4 * (rows + 1) + 8 * rows
    return launches * device["launch_latency"] + a * streamed / device["copy_bandwidth"] + \
        b * 32 * f["x_sectors"] / gather_bandwidth(device, 8.0 * f["cols"])


# syncfree_spmv_cost.hpp's fitted constants per format, and syncfree_krylov_cost.hpp's products
# and applications per iteration per solver (GMRES's vector passes add `restart` to the fitted k).
SPMV_CONSTANTS = {"csr": (3.0, 1.193, 0.347), "stencil": (3.0, 1.173, 0.0)}
SOLVERS = {"cg": (1, 1), "bicgstab": (2, 2), "gmres": (1, None)}


def predict_product(device, f):
    """predict_spmv of a product recorded by bench_krylov (features with its format)."""
    return predict_spmv(SPMV_CONSTANTS[f["format"]], f, device, f["format"])


def predict_apply(device, m, rows):
    """syncfree_jacobi_cost.hpp's and syncfree_spai_cost.hpp's formulas."""
    if m["kind"] == "jacobi":
        return device["launch_latency"] + 24 * rows / device["copy_bandwidth"]
    if m["kind"] == "spai":
        return predict_product(device, m["M"])
    return predict_product(device, m["G"]) + predict_product(device, m["Gt"])


def predict_krylov(k, device, solver, product, apply, rows, restart):
    """syncfree_krylov_cost.hpp's formula; k = (vector passes, launches)."""
    passes, launches = k
    products, applies = SOLVERS[solver]
    if solver == "gmres":
        applies, passes = 1 + 1 / restart, passes + restart
    return products * product + applies * apply + passes * 8 * rows / device["copy_bandwidth"] + \
        launches * device["launch_latency"]


def matrices(reports, name_key, held):
    """(name, matrix) of each report's matrices with features, once per name, none held back."""
    seen = set()
    for path in reports:
        for m in json.load(open(path))["matrices"]:
            name = m[name_key][:-4] if m[name_key].endswith(".mtx") else m[name_key]
            if "features" in m and name not in seen and name not in held:
                seen.add(name)
                yield name, m


def sptrsv_cases(reports, held):
    """{algorithm: [(predict(k), measured seconds)]} from bench_sptrsv reports."""
    cases = {algorithm: [] for algorithm in ALGORITHMS}
    for _, m in matrices(reports, "name", held):
        for algorithm in ALGORITHMS:
            t = m["methods"].get("syncfree:" + algorithm, {})
            if "solve_ms" in t:
                cases[algorithm].append((
                    lambda k, d, f=m["features"], a=algorithm, cl=t.get("chain_levels", 0):
                        predict_sptrsv(k, f, d, a, cl),
                    t["solve_ms"] * 1e-3))
    return cases


def spmv_cases(reports, held):
    """{format: [(predict(k), measured seconds)]} from bench_spmv reports."""
    cases = {form: [] for form in FORMATS.values()}
    for _, m in matrices(reports, "matrix", held):
        for method in m["methods"]:
            if method["method"] in FORMATS:
                form = FORMATS[method["method"]]
                cases[form].append((
                    lambda k, d, f=m["features"], fo=form: predict_spmv(k, f, d, fo),
                    method["ms"] * 1e-3))
    return cases


def krylov_cases(reports, held, device):
    """{solver: [(predict(k), measured seconds per iteration)]} from bench_krylov reports."""
    cases = {solver: [] for solver in SOLVERS}
    for path in reports:
        report = json.load(open(path))
        restart = report.get("gmres_restart", 30)
        for problem in report["problems"]:
            name = problem["name"][:-4] if problem["name"].endswith(".mtx") else problem["name"]
            if name in held:
                continue
            for case, t in problem["cases"].items():
                solver = case.split(":")[1].split("+")[0]
                f = t.get("features", {})
                if "M" not in f or t["iterations"] <= 0 or solver not in SOLVERS:
                    continue
                rows = f["A"]["rows"]
                product, apply = predict_product(device, f["A"]), predict_apply(device, f["M"], rows)
                cases[solver].append((
                    lambda k, d, s=solver, p=product, a=apply, n=rows, r=restart:
                        predict_krylov(k, d, s, p, a, n, r),
                    t["ms_per_iteration"] * 1e-3))
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel", choices=["sptrsv", "spmv", "krylov"], required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--held-back")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    device = json.load(open(args.device))
    held = set()
    if args.held_back:
        for line in open(args.held_back):
            line = line.split("#")[0].strip()
            if line:
                held.add(line)
    if args.kernel == "sptrsv":
        cases, start = sptrsv_cases(args.reports, held), [0.0, 0.0, 0.0, -0.5]
        bounds = (-np.inf, np.inf)
    elif args.kernel == "krylov":
        cases, start = krylov_cases(args.reports, held, device), [2.0, 1.0]
        bounds = (-np.inf, np.inf)
    else:
        # A timed SpMV costs one to three launches beyond its bytes (the benchmark waits for
        # each call); left free, the fit trades that term against the bandwidth's.
        cases, start = spmv_cases(args.reports, held), [0.5, 0.0, 0.0]
        bounds = ([0.0, -np.inf, -np.inf], [math.log(3.0), np.inf, np.inf])
    for name, fit_cases in cases.items():
        no_hop = args.kernel == "sptrsv" and ALGORITHMS[name][1]  # a launch per level instead

        def constants(p):
            e = list(np.exp(p))
            return [0.0] + e[1:] if no_hop else e

        def residuals(p):
            return [math.log(predict(constants(p), device) / t) for predict, t in fit_cases]

        fit = least_squares(residuals, start, bounds=bounds)
        k = constants(fit.x)
        error = math.exp(np.mean(np.abs(residuals(fit.x))))
        print(f"  {name}: {{{', '.join(f'{v:.3f}' for v in k)}}}  // {len(fit_cases)} matrices, "
              f"geometric-mean error {error:.2f}")


if __name__ == "__main__":
    main()
