#!/usr/bin/env python3
"""Fits the dimensionless constants of the SpTRSV cost formula
(algorithms/sptrsv/impl/syncfree_sptrsv_cost.hpp) to bench_sptrsv reports.

For each algorithm with a formula, (a, b, c, g) minimize the squared log ratio of predicted to
measured solve time over the matrices not held back (perf_tests/model/held_back.txt), with the
device parameters of a syncfree-calibrate file. Prints the constants as the C++ table wants them;
check_sptrsv_model then compares the library's predictions with the measurements.

Usage: fit_sptrsv_model.py --device CALIBRATION.json [--held-back FILE] REPORT.json...
Needs numpy and scipy (Debian: python3-scipy).
"""
import argparse
import json
import math

import numpy as np
from scipy.optimize import least_squares

# name: (thread per row, launch per level)
ALGORITHMS = {
    "sync_free_thread": (True, False),
    "level_set": (True, True),
    "sync_free_row": (False, False),
    "multirow": (False, False),
    "packed": (False, False),
    "alap_packed": (False, False),
}


def predict(k, f, device, algorithm, chain_levels):
    """The formula of syncfree_sptrsv_cost.hpp; k = (a, b, c, g)."""
    a, b, c, g = k
    thread_per_row, launch_per_level = ALGORITHMS[algorithm]
    launch = device["launch_latency"]
    if f["rows"] == 0 or f["levels"] == 0:
        return launch
    r = f["entries"] / f["rows"]
    work = (f["critical_path_entries"] / f["levels"] if thread_per_row else r) ** g
    step = (launch if launch_per_level else 0.0) + a * device["dependency_hop"] + \
        b * device["dependent_load_latency"] * work
    gather = device["gather_bandwidth_l2"] if 8.0 * f["rows"] <= 0.5 * device["l2_bytes"] \
        else device["gather_bandwidth"]
    row_time = c * (12 * r / device["copy_bandwidth"] + 8 * r / gather)
    if algorithm == "sync_free_thread" and chain_levels > 0:
        levels = [(chain_levels, f["rows"] / chain_levels)]
    else:
        levels = [(n, w / n) for n, w in zip(f["levels_by_width"], f["rows_by_level_width"]) if n]
    return launch + sum(n * max(step, w * row_time) for n, w in levels)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
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
    matrices, seen = [], set()
    for path in args.reports:
        for m in json.load(open(path))["matrices"]:
            name = m["name"][:-4] if m["name"].endswith(".mtx") else m["name"]
            if "features" in m and name not in seen:
                seen.add(name)
                matrices.append((name, m))
    for algorithm, (thread_per_row, launch_per_level) in ALGORITHMS.items():
        cases = []
        for name, m in matrices:
            t = m["methods"].get("syncfree:" + algorithm, {})
            if "solve_ms" in t and name not in held:
                cases.append((m["features"], t.get("chain_levels", 0), t["solve_ms"] * 1e-3))
        # a = 0 where the formula has no hop term (a launch per level instead).
        def constants(p):
            e = np.exp(p)
            return (0.0 if launch_per_level else e[0], e[1], e[2], e[3])
        def residuals(p):
            return [math.log(predict(constants(p), f, device, algorithm, cl) / t)
                    for f, cl, t in cases]
        fit = least_squares(residuals, [0.0, 0.0, 0.0, -0.5])
        a, b, c, g = constants(fit.x)
        error = math.exp(np.mean(np.abs(residuals(fit.x))))
        print(f"    case SptrsvAlgorithm::{algorithm}:  // {len(cases)} matrices, "
              f"geometric-mean error {error:.2f}")
        print(f"      return {{{a:.3f}, {b:.3f}, {c:.3f}, {g:.3f}, "
              f"{'true' if thread_per_row else 'false'}}};")


if __name__ == "__main__":
    main()
