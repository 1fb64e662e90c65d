#!/usr/bin/env python3
"""Belos + SyncFree against Belos + Ifpack2 RILUK(0) on the same blocks, through
syncfree-tpetra-solve: setup time, iterations and solve time at 1, 2 and 4 ranks, overlap 0 and 1,
on a grid problem and matrices of the unstructured suite.

Usage:
  python3 compare_with_ifpack2.py --solver-binary BUILD/apps/syncfree-tpetra-solve/syncfree-tpetra-solve
      --out perf_tests/results/NAME [--suite DIR] [--ranks 1,2,4] [--grid poisson3d:100]

Writes NAME.json (every run's report from --json) and NAME.md (a table per matrix); with
--tables-only, rewrites NAME.md from NAME.json without running anything. The suite's
matrices (perf_tests/suite/make_unstructured_suite.py) are read from DIR/<name>.mtx: mesh3d_laplace
(CG) and mesh2d_convdiff (GMRES) where present. Each configuration is one mpiexec run; a
preconditioner's setup is its initialize() + compute(), the slowest rank's.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

PRECONDITIONERS = [("syncfree-ilu0", "SyncFree ILU(0)"), ("ifpack2-riluk", "Ifpack2 RILUK(0)")]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def run(binary, ranks, arguments):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = ["mpiexec", "-np", str(ranks), "--oversubscribe", binary, *arguments, "--json", path]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"failed: {' '.join(command)}\n{done.stdout}\n{done.stderr}")
    with open(path) as f:
        report = json.load(f)
    os.remove(path)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solver-binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--suite", default="")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--grid", default="poisson3d:100")
    parser.add_argument("--tables-only", action="store_true")
    args = parser.parse_args()
    if args.tables_only:
        with open(args.out + ".json") as f:
            saved = json.load(f)
        write_tables(args.out + ".md", saved["machine"], saved["runs"])
        return

    cases = [("grid", args.grid, ["--problem", args.grid, "--solver", "cg"])]
    for name, solver in [("mesh3d_laplace", "cg"), ("mesh2d_convdiff", "gmres")]:
        path = os.path.join(args.suite, name + ".mtx")
        if args.suite and os.path.exists(path):
            cases.append(("unstructured", name, ["--matrix", path, "--solver", solver]))

    runs = []
    for suite, name, arguments in cases:
        for ranks in [int(r) for r in args.ranks.split(",")]:
            for overlap in (0, 1):
                for precond, _ in PRECONDITIONERS:
                    report = run(args.solver_binary, ranks,
                                 arguments + ["--precond", precond, "--overlap", str(overlap),
                                              "--tol", "1e-8", "--maxit", "2000"])
                    report.update(suite=suite, matrix=name, precond=precond)
                    runs.append(report)
                    print(f"{name} np {ranks} overlap {overlap} {precond}: "
                          f"{report['iterations']} iterations, setup {report['setup_seconds']:.3f} s,"
                          f" solve {report['solve_seconds']:.3f} s", flush=True)

    machine = {"cpu": cpu_name(), "cores": os.cpu_count(), "backend": runs[0]["backend"]}
    with open(args.out + ".json", "w") as f:
        json.dump({"machine": machine, "runs": runs}, f, indent=1)
    write_tables(args.out + ".md", machine, runs)


def write_tables(path, machine, runs):
    lines = [f"# Belos + SyncFree against Belos + Ifpack2 RILUK(0), through Tpetra\n",
             f"{machine['cpu']}, {machine['cores']} cores, Kokkos {machine['backend'].split()[0]} "
             f"on each rank (Debian's Trilinos 13.2, OpenMPI); ranks beyond the cores are oversubscribed, so times at "
             f"4 ranks measure the interface, not scaling. Tolerance 1e-8 (Belos' own test), right "
             f"preconditioning; setup = initialize() + compute() of the slowest rank; overlap 1 is "
             f"Ifpack2::AdditiveSchwarz with the preconditioner inside, adding the overlapping "
             f"results under CG (symmetric) and keeping each rank's own under GMRES (restricted). "
             f"Made by `perf_tests/adapters/tpetra/compare_with_ifpack2.py`.\n"]
    for name in dict.fromkeys(r["matrix"] for r in runs):
        rows = [r for r in runs if r["matrix"] == name]
        suite, solver = rows[0]["suite"], rows[0]["solver"]
        lines.append(f"\n## {name} ({suite}, {rows[0]['n']} rows, {rows[0]['nnz']} entries, "
                     f"Belos {solver})\n")
        lines.append("| ranks | overlap | SyncFree iters | RILUK iters | SyncFree setup s | "
                     "RILUK setup s | SyncFree solve s | RILUK solve s | SyncFree true residual |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for ranks in sorted({r["ranks"] for r in rows}):
            for overlap in (0, 1):
                ours, theirs = (next(r for r in rows if r["ranks"] == ranks and
                                     r["overlap"] == overlap and r["precond"] == p)
                                for p, _ in PRECONDITIONERS)
                lines.append(f"| {ranks} | {overlap} | {ours['iterations']} | "
                             f"{theirs['iterations']} | {ours['setup_seconds']:.3f} | "
                             f"{theirs['setup_seconds']:.3f} | {ours['solve_seconds']:.3f} | "
                             f"{theirs['solve_seconds']:.3f} | {ours['relative_residual']:.1e} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
