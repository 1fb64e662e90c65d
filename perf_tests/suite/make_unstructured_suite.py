#!/usr/bin/env python3
"""Generate SyncFree's unstructured benchmark suite: sparse matrices whose pattern is not a grid
in grid order, written as Matrix Market files with a manifest.

The suite (--list prints it; rows at --scale 1):
  mesh3d_laplace          0.6M  P1 Laplacian on a Delaunay tetrahedral mesh, boundary eliminated
  mesh3d_laplace_random   0.6M  the same, rows and columns randomly renumbered
  mesh2d_laplace          1M    P1 Laplacian on a Delaunay triangulation
  mesh2d_convdiff         1M    P1 Galerkin convection-diffusion step, recirculating wind
  mesh2d_convdiff_random  1M    the same, randomly renumbered
  mesh2d_aniso            1M    P1 rotated anisotropic diffusion (not an M-matrix)
  mesh3d_elasticity       0.6M  P1 linear elasticity of a clamped beam, 3 unknowns per node
  mesh3d_laplace_p2       1.1M  P2 Laplacian on a Delaunay tetrahedral mesh (28 entries a row)
  rgg3d_laplace           1M    shifted graph Laplacian of a 3-D random geometric graph
  powerlaw_laplace        1M    shifted graph Laplacian of a Chung-Lu power-law graph
  circuit                 1M    circuit-like: short rows plus dense rail rows and columns
  grid3d_random           1M    7-point 3-D Poisson (100^3), randomly renumbered
  grid2d_convdiff_random  1M    5-point upwind 2-D convection-diffusion step, randomly renumbered

Mesh nodes are numbered as a mesher numbers them: the points are sorted along a Morton
(Z-order) curve before meshing. Finite-element matrices are assembled here with numpy from
barycentric gradients (scipy.spatial.Delaunay makes the meshes); only numpy and scipy are needed.
Every matrix is square, has a nonzero diagonal in every row, is in canonical CSR form (sorted,
no duplicates) and has its values rounded to 15 significant digits, which the files hold
exactly (see suite_mtx.py): a reader gets back the very matrix that was checked. Seeds are
fixed and element matrices avoid BLAS, so every run writes bit-identical files (checked across
two machines and numpy 2.4/2.5). SPD matrices are written as 'symmetric' (lower triangle), the
others as 'general'.

Usage:
  python3 make_unstructured_suite.py --out DIR [--scale S] [--only a,b] [--force] [--check]
                                     [--jobs N]
  python3 make_unstructured_suite.py --list

--scale 1 (default) gives the benchmark sizes (0.6-1.1 M rows, at most 32 M entries, 3 GB in
all): 135-145 s on the H200 machine's 16-core Xeon, 42-60 s with --jobs 8. --scale 0.01 gives
6k-13k rows for tests. DIR gets <name>.mtx and suite.json, a list of {name, file, kind, rows,
nnz, numbering, seed, description, ...}. A matrix whose file exists with a matching manifest
entry (same scale, seed, GENERATOR_VERSION and file size) is kept unless --force; bump
GENERATOR_VERSION when a change alters the output. --check (small scales) also checks symmetry,
diagonal dominance and the ILU(0) pivots, reads every file back, and solves with CG or
GMRES(30) preconditioned by ILU(0).
"""

import argparse
import functools
import json
import math
import os
import sys
import time
from collections import namedtuple

import numpy as np
import scipy.sparse as sp
from scipy.spatial import Delaunay, cKDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_mtx  # noqa: E402

GENERATOR_VERSION = 2  # 1: the snapshots committed before the elasticity mesh became body-centred
FULL_ROWS = 1_000_000  # rows of most matrices at --scale 1
# qhull needs 50-70 us a point in 3-D (1M points: ~70 s), so the 3-D meshes are smaller: 600k
# points for the P1 Laplacian, 200k nodes for elasticity, 140k vertices for P2.
MESH3D_ROWS = 600_000
ELASTICITY_ROWS = 600_000
P2_ROWS = 1_000_000


# ----------------------------------------------------------------------------------------------
# Sparse helpers


def canonical(a):
    a = sp.csr_matrix(a)
    a.sum_duplicates()
    a.sort_indices()
    return a


def group_equal(keys):
    """Sort non-negative int64 keys stably: (order, first, unique) with keys[order] sorted and
    first[g] the position in that order where group g of equal keys starts.

    Where key and position fit in 63 bits together, one np.sort of packed integers replaces the
    (several times slower) argsort."""
    count = len(keys)
    payload = max(1, (count - 1).bit_length())
    if count and int(keys.max()).bit_length() + payload <= 63:
        packed = np.sort((keys << payload) | np.arange(count, dtype=np.int64))
        order, keys = packed & ((1 << payload) - 1), packed >> payload
    else:
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
    first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    return order, first, keys[first]


def fits_packed(max_key, count):
    return int(max_key).bit_length() + max(1, (count - 1).bit_length()) <= 63


def canonical_csr(rows, cols, vals, n):
    """n x n canonical CSR (duplicates summed in input order, columns sorted)."""
    if len(vals) and fits_packed(n * n - 1, len(vals)):
        order, first, keys = group_equal(rows * np.int64(n) + cols)
        data = np.add.reduceat(vals[order], first)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(keys // n, minlength=n))])
        return sp.csr_matrix((data, keys % n, indptr), shape=(n, n))
    return canonical(sp.coo_matrix((vals, (rows, cols)), shape=(n, n)))


def symmetric_from_lower(a):
    """The exactly symmetric matrix whose lower triangle is that of a."""
    return canonical(sp.tril(a, format="csr") + sp.tril(a, -1, format="csr").T.tocsr())


def permute_symmetric(a, perm):
    """P A P^T: row and column perm[i] of a become row and column i."""
    inverse = np.empty_like(perm)
    inverse[perm] = np.arange(len(perm))
    c = a.tocoo()
    return canonical_csr(inverse[c.row], inverse[c.col], c.data, a.shape[0])


def morton_order(points):
    """Permutation that sorts points (n, d) along a Morton (Z-order) curve."""
    n, d = points.shape
    bits = 63 // d
    lo = points.min(axis=0)
    span = (points.max(axis=0) - lo).max()
    q = np.minimum((points - lo) / span * float(1 << bits), float((1 << bits) - 1))
    q = q.astype(np.uint64)
    code = np.zeros(n, dtype=np.uint64)
    for b in range(bits):
        for k in range(d):
            code |= ((q[:, k] >> np.uint64(b)) & np.uint64(1)) << np.uint64(d * b + k)
    return np.argsort(code, kind="stable")


def shifted_graph_laplacian(i, j, n, shift):
    """D - A + shift*I of the undirected graph with edges (i, j), i != j, unit weights."""
    degree = np.bincount(i, minlength=n) + np.bincount(j, minlength=n)
    rows = np.concatenate([i, j, np.arange(n)])
    cols = np.concatenate([j, i, np.arange(n)])
    vals = np.concatenate([-np.ones(2 * len(i)), degree + shift])
    return canonical_csr(rows, cols, vals, n)


def unique_edges(i, j, n):
    """Undirected edges (lo, hi), lo < hi, without self loops or repeats, sorted."""
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    keys = np.sort(lo[lo != hi] * np.int64(n) + hi[lo != hi])
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    return keys // n, keys % n


# ----------------------------------------------------------------------------------------------
# Meshes and finite elements


Mesh = namedtuple("Mesh", "points cells")


def jittered_lattice(counts, lengths, rng, jitter=0.3):
    """Points of a box lattice, each moved by up to +-jitter spacings; points on a face of the box
    move only within that face, so the box stays the convex hull."""
    axes = [np.linspace(0.0, length, count) for count, length in zip(counts, lengths)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(counts))
    index = np.stack(np.meshgrid(*[np.arange(c) for c in counts], indexing="ij"), axis=-1)
    index = index.reshape(-1, len(counts))
    spacing = np.array([length / (count - 1) for count, length in zip(counts, lengths)])
    move = rng.uniform(-jitter, jitter, grid.shape) * spacing
    inside = (index > 0) & (index < np.array(counts) - 1)
    return grid + np.where(inside, move, 0.0)


def bcc_lattice(counts, lengths, rng, jitter):
    """A jittered lattice (as above) plus its jittered cell centres: a body-centred cubic point set,
    whose Delaunay tetrahedra are well shaped (the cubic lattice's are nearly degenerate in each
    cell, so jittering it gives slivers)."""
    corners = jittered_lattice(counts, lengths, rng, jitter)
    spacing = np.array([length / (count - 1) for count, length in zip(counts, lengths)])
    axes = [(np.arange(count - 1) + 0.5) * h for count, h in zip(counts, spacing)]
    centres = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(counts))
    centres += rng.uniform(-jitter, jitter, centres.shape) * spacing
    return np.concatenate([corners, centres])


def delaunay_mesh(points):
    """Delaunay mesh of points renumbered along a Morton curve (as a mesher numbers them).

    The points on each flat face of the box make qhull's exact mode slow (10x in 3-D), so it
    joggles them (option QJ: a tiny, deterministic perturbation inside qhull); the flat
    simplices that joggling leaves on the faces have zero measure and are dropped, which leaves
    a conforming mesh of the box (the measures add up to its volume)."""
    points = points[morton_order(points)]
    cells = Delaunay(points, qhull_options="QJ").simplices.astype(np.int64)
    measure = simplex_measures(points, cells)
    return Mesh(points, cells[measure > 1e-10 * measure.mean()])


def dot_last(x, y):
    """Sum over the last axis of x * y, term by term in a fixed order. Element matrices use this
    instead of matmul or einsum, whose BLAS or SIMD reductions may round differently on another
    machine: elementwise IEEE operations give the same bits everywhere."""
    out = x[..., 0] * y[..., 0]
    for d in range(1, x.shape[-1]):
        out = out + x[..., d] * y[..., d]
    return out


def gram(grads, tensor=None):
    """(ne, k, k) matrices of grads[:, a] . tensor grads[:, b] (tensor: identity if None)."""
    right = grads if tensor is None else np.stack(
        [dot_last(grads, np.asarray(row, dtype=np.float64)) for row in tensor], axis=-1)
    return dot_last(grads[:, :, None, :], right[:, None, :, :])


def edge_vectors(points, cells):
    x0 = points[cells[:, 0]]
    return [points[cells[:, k + 1]] - x0 for k in range(points.shape[1])]


def simplex_measures(points, cells):
    e = edge_vectors(points, cells)
    if points.shape[1] == 2:
        return np.abs(e[0][:, 0] * e[1][:, 1] - e[0][:, 1] * e[1][:, 0]) / 2
    return np.abs(dot_last(e[0], np.cross(e[1], e[2]))) / 6


def barycentric_gradients(points, cells):
    """Gradients (ne, d+1, d) of the barycentric coordinates and measures (ne,) of simplices.
    With D the matrix of edge vectors (rows), grad lambda_k is column k of D^-1."""
    d = points.shape[1]
    e = edge_vectors(points, cells)
    grads = np.empty((len(cells), d + 1, d))
    if d == 2:
        det = e[0][:, 0] * e[1][:, 1] - e[0][:, 1] * e[1][:, 0]
        grads[:, 1] = np.stack([e[1][:, 1], -e[1][:, 0]], axis=1) / det[:, None]
        grads[:, 2] = np.stack([-e[0][:, 1], e[0][:, 0]], axis=1) / det[:, None]
        measure = np.abs(det) / 2
    else:
        c = [np.cross(e[(k + 1) % 3], e[(k + 2) % 3]) for k in range(3)]
        det = dot_last(e[0], c[0])
        for k in range(3):
            grads[:, k + 1] = c[k] / det[:, None]
        measure = np.abs(det) / 6
    grads[:, 0] = -grads[:, 1]
    for k in range(2, d + 1):
        grads[:, 0] -= grads[:, k]
    return grads, measure


def dof_numbering(keep):
    """Map from nodes to unknowns (-1 where not kept), keeping the node order."""
    dofs = np.full(len(keep), -1, dtype=np.int64)
    dofs[keep] = np.arange(np.count_nonzero(keep))
    return dofs


def assemble(cells, local, dofs, symmetric):
    """Sum element matrices local (ne, k, k) over cells (ne, k) into CSR over the unknowns dofs
    (node -> unknown, -1 for eliminated nodes). A symmetric assembly sums only the lower
    triangle and mirrors it, so the result is exactly symmetric."""
    n = int(dofs.max()) + 1
    k = cells.shape[1]
    if symmetric:
        a, b = np.tril_indices(k, -1)
    else:
        a, b = (x.ravel() for x in np.meshgrid(np.arange(k), np.arange(k), indexing="ij"))
        a, b = a[a != b], b[a != b]
    mapped = dofs[cells]
    r, c, v = mapped[:, a].ravel(), mapped[:, b].ravel(), local[:, a, b].ravel()
    keep = (r >= 0) & (c >= 0)
    r, c, v = r[keep], c[keep], v[keep]
    if symmetric:
        r, c = np.maximum(r, c), np.minimum(r, c)
    on = mapped.ravel() >= 0
    diagonal = local[:, np.arange(k), np.arange(k)].ravel()
    diag = np.bincount(mapped.ravel()[on], weights=diagonal[on], minlength=n)
    off_diagonal = canonical_csr(r, c, v, n)
    if symmetric:
        off_diagonal = off_diagonal + off_diagonal.T.tocsr()
    return canonical(off_diagonal + sp.diags(diag, format="csr"))


def assemble_symmetric_blocks(cells, pairs, blocks, dofs):
    """Symmetric CSR of b x b blocks summed over the lower local pairs (a >= b): cells (ne, k),
    pairs (a, b) index arrays, blocks (ne, pairs, b, b) the element blocks K_ab, dofs the node ->
    block row map (-1 for eliminated nodes). The lower block triangle is summed after one sort
    of packed keys (much less work than b*b scalar entries), then mirrored."""
    n = int(dofs.max()) + 1
    bs = blocks.shape[-1]
    rows, cols = dofs[cells[:, pairs[0]]], dofs[cells[:, pairs[1]]]
    swap = rows < cols  # orient every block into the lower triangle
    blocks = np.where(swap[..., None, None], blocks.swapaxes(-1, -2), blocks)
    rows, cols = np.maximum(rows, cols), np.minimum(rows, cols)
    keep = np.flatnonzero(((rows >= 0) & (cols >= 0)).ravel())
    order, first, keys = group_equal(rows.ravel()[keep] * np.int64(n) + cols.ravel()[keep])
    summed = np.add.reduceat(blocks.reshape(-1, bs, bs)[keep[order]], first, axis=0)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(keys // n, minlength=n))])
    lower = sp.bsr_matrix((summed, keys % n, indptr), shape=(n * bs, n * bs)).tocsr()
    return symmetric_from_lower(lower)


def boundary_nodes(points, lengths):
    """Nodes on the faces of the box [0, lengths]."""
    return ((points == 0.0) | (points == np.asarray(lengths))).any(axis=1)


def used_nodes(mesh):
    return np.bincount(mesh.cells.ravel(), minlength=len(mesh.points)) > 0


# ----------------------------------------------------------------------------------------------
# Matrices. Each builder takes (scale, seed) and returns (matrix, description).


def cube_lattice_count(rows):
    """Lattice points per side of a cube whose interior holds about `rows` points."""
    return max(4, round(rows ** (1 / 3)) + 2)


@functools.lru_cache(maxsize=None)
def mesh3d_laplace(scale, seed):
    rng = np.random.default_rng(seed)
    m = cube_lattice_count(MESH3D_ROWS * scale)
    mesh = delaunay_mesh(jittered_lattice((m, m, m), (1.0, 1.0, 1.0), rng))
    grads, vol = barycentric_gradients(mesh.points, mesh.cells)
    local = vol[:, None, None] * gram(grads)
    keep = ~boundary_nodes(mesh.points, (1, 1, 1)) & used_nodes(mesh)
    a = assemble(mesh.cells, local, dof_numbering(keep), symmetric=True)
    return a, ("P1 Laplacian, %d tetrahedra of the Delaunay mesh of a %d^3 lattice jittered by "
               "+-0.3 spacings in the unit cube (qhull), nodes in Morton order, Dirichlet "
               "boundary nodes eliminated" % (len(mesh.cells), m))


def mesh3d_laplace_random(scale, seed):
    a, _ = mesh3d_laplace(scale, SEEDS["mesh3d_laplace"])
    perm = np.random.default_rng(seed).permutation(a.shape[0])
    return permute_symmetric(a, perm), "mesh3d_laplace symmetrically permuted at random"


@functools.lru_cache(maxsize=None)
def mesh2d(scale, seed):
    """Delaunay triangulation of random points in the unit square, one per cell of a lattice
    (stratified sampling, so no triangle is nearly degenerate), boundary points on the sides."""
    rng = np.random.default_rng(seed)
    m = max(4, round(math.sqrt(FULL_ROWS * scale)) + 2)
    return delaunay_mesh(jittered_lattice((m, m), (1.0, 1.0), rng, jitter=0.4)), m


@functools.lru_cache(maxsize=None)
def mesh2d_setup(scale):
    mesh, m = mesh2d(scale, SEEDS["mesh2d_laplace"])
    grads, area = barycentric_gradients(mesh.points, mesh.cells)
    keep = ~boundary_nodes(mesh.points, (1, 1)) & used_nodes(mesh)
    where = ("%d triangles of the Delaunay mesh of a %d^2 lattice jittered by +-0.4 spacings in "
             "the unit square, nodes in Morton order, Dirichlet boundary nodes eliminated"
             % (len(mesh.cells), m))
    return mesh, grads, area, dof_numbering(keep), 1.0 / (m - 1), where


def mesh2d_laplace(scale, seed):
    mesh, grads, area, dofs, _, where = mesh2d_setup(scale)
    local = area[:, None, None] * gram(grads)
    return assemble(mesh.cells, local, dofs, symmetric=True), "P1 Laplacian, " + where


def double_glazing_wind(points):
    """Recirculating wind (2y(1-x^2), -2x(1-y^2)) on [-1,1]^2 mapped to the unit square;
    |w| <= 2."""
    x, y = 2 * points[..., 0] - 1, 2 * points[..., 1] - 1
    return np.stack([2 * y * (1 - x * x), -2 * x * (1 - y * y)], axis=-1)


MESH_PECLET = 1.0  # |w|max h / (2 eps) of the convection-diffusion problems on meshes
CFL = 10.0  # |w|max dt / h of their backward-Euler step


@functools.lru_cache(maxsize=None)
def mesh2d_convdiff(scale, seed):
    mesh, grads, area, dofs, h, where = mesh2d_setup(scale)
    eps = 2.0 * h / (2 * MESH_PECLET)
    inv_dt = 2.0 / (CFL * h)
    corners = mesh.points[mesh.cells]
    wind = double_glazing_wind((corners[:, 0] + corners[:, 1] + corners[:, 2]) / 3)  # centroids
    diffusion = eps * area[:, None, None] * gram(grads)
    # Galerkin convection: int (w . grad phi_j) phi_i = |T|/3 (w_T . grad phi_j)
    convection = (area / 3)[:, None, None] * dot_last(wind[:, None, :], grads)[:, None, :]
    mass = (inv_dt * area / 3)[:, None, None] * np.eye(3)  # lumped
    a = assemble(mesh.cells, diffusion + convection + mass, dofs, symmetric=False)
    return a, ("one backward-Euler step (CFL %g) of P1 Galerkin convection-diffusion "
               "-eps Lap u + w.grad u with the recirculating double-glazing wind (|w| <= 2) and "
               "eps = %.3g (mesh Peclet %g), lumped mass; %s" % (CFL, eps, MESH_PECLET, where))


def mesh2d_convdiff_random(scale, seed):
    a, _ = mesh2d_convdiff(scale, SEEDS["mesh2d_convdiff"])
    perm = np.random.default_rng(seed).permutation(a.shape[0])
    return permute_symmetric(a, perm), "mesh2d_convdiff symmetrically permuted at random"


def mesh2d_aniso(scale, seed):
    mesh, grads, area, dofs, _, where = mesh2d_setup(scale)
    ratio = 1e-3
    c, s = math.sqrt(3.0) / 2, 0.5  # 30 degrees, from correctly rounded operations only
    tensor = [[c * c + ratio * s * s, (1 - ratio) * c * s],
              [(1 - ratio) * c * s, s * s + ratio * c * c]]
    local = area[:, None, None] * gram(grads, tensor)
    a = assemble(mesh.cells, local, dofs, symmetric=True)
    return a, ("P1 anisotropic diffusion -div(K grad u), K with eigenvalues 1 and %g rotated by "
               "30 degrees (positive off-diagonals: not an M-matrix); %s" % (ratio, where))


# On the jittered cubic lattice's slivers the static stiffness K made ILU(0) indefinite (CG+ILU(0)
# broke down); the body-centred points give the static K a positive ILU(0) at the three scales
# checked (0.01, 0.1, 1). A number here makes the matrix one implicit Newmark step of
# elastodynamics instead, K + 4/dt^2 M with the lumped mass M (density 1), dt = CFL h / c_p,
# which keeps ILU(0) positive with more margin (CFL 5: CG+ILU(0) in 30 iterations at scale 1).
ELASTICITY_CFL = None


def mesh3d_elasticity(scale, seed):
    rng = np.random.default_rng(seed)
    m = max(4, math.ceil((ELASTICITY_ROWS * scale / 24) ** (1 / 3)))  # 3 * 2 * 4m^3 unknowns
    counts, lengths = (4 * (m - 1) + 1, m, m), (4.0, 1.0, 1.0)
    mesh = delaunay_mesh(bcc_lattice(counts, lengths, rng, jitter=0.2))
    g, vol = barycentric_gradients(mesh.points, mesh.cells)
    young, poisson = 1.0, 0.3
    lam = young * poisson / ((1 + poisson) * (1 - 2 * poisson))
    mu = young / (2 * (1 + poisson))
    # K_ab = vol (lam g_a g_b^T + mu g_b g_a^T + mu (g_a . g_b) I), for the pairs a >= b
    pairs = np.tril_indices(4)
    ga, gb = g[:, pairs[0]], g[:, pairs[1]]
    outer = ga[..., :, None] * gb[..., None, :]  # [e, pair, i, j] = g_ai g_bj
    blocks = lam * outer + mu * outer.swapaxes(-1, -2)
    blocks += (mu * dot_last(ga, gb))[..., None, None] * np.eye(3)
    what = "static stiffness K"
    if ELASTICITY_CFL:
        h = 1.0 / (m - 1)
        mass = 4 * (lam + 2 * mu) / (ELASTICITY_CFL * h) ** 2  # 4/dt^2, c_p^2 = lam + 2 mu
        blocks[:, pairs[0] == pairs[1]] += (mass / 4) * np.eye(3)  # lumped: vol/4 a vertex
        what = ("one Newmark step K + 4/dt^2 M (lumped mass, density 1, dt = %g h / c_p)"
                % ELASTICITY_CFL)
    blocks *= vol[:, None, None, None]
    keep = (mesh.points[:, 0] > 0.0) & used_nodes(mesh)
    a = assemble_symmetric_blocks(mesh.cells, pairs, blocks, dof_numbering(keep))
    return a, ("P1 linear elasticity (E = 1, nu = 0.3), %s, unknowns interleaved node by node "
               "(x, y, z), on %d tetrahedra of the Delaunay mesh of a %dx%dx%d lattice and its "
               "cell centres (body-centred), jittered by +-0.2 spacings, in the beam "
               "[0,4]x[0,1]x[0,1], nodes in Morton order, clamped at x = 0"
               % ((what, len(mesh.cells)) + counts))


def p2_stiffness_tensor():
    """Integers W (10, 10, 4, 4) with the P2 stiffness K_ab = vol/20 sum_kl W[a,b,k,l] G_kl,
    G_kl = grad l_k . grad l_l (l: barycentric coordinates).

    grad phi_a = sum_km C[a,k,m] l_m grad l_k and int l_m l_n = vol (1 + delta_mn) / 20.
    Local order: 4 vertices, then edges 01 02 03 12 13 23.
    """
    c = np.zeros((10, 4, 4), dtype=np.int64)
    for i in range(4):  # phi_i = l_i (2 l_i - 1): grad = (4 l_i - sum_m l_m) grad l_i
        c[i, i, :] = -1
        c[i, i, i] = 3
    for e, (i, j) in enumerate(P2_EDGES):  # phi = 4 l_i l_j
        c[4 + e, i, j] = 4
        c[4 + e, j, i] = 4
    q = np.ones((4, 4), dtype=np.int64) + np.eye(4, dtype=np.int64)
    return np.einsum("akm,mn,bln->abkl", c, q, c)  # exact in integers


P2_EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def mesh3d_laplace_p2(scale, seed):
    rng = np.random.default_rng(seed)
    m = cube_lattice_count(P2_ROWS * scale / 8.0)  # about 8 P2 unknowns per vertex
    mesh = delaunay_mesh(jittered_lattice((m, m, m), (1.0, 1.0, 1.0), rng))
    n = len(mesh.points)
    edges = np.array(P2_EDGES)
    i, j = mesh.cells[:, edges[:, 0]], mesh.cells[:, edges[:, 1]]
    order, first, key = group_equal((np.minimum(i, j) * np.int64(n) + np.maximum(i, j)).ravel())
    starts = np.zeros(len(order), dtype=np.int64)
    starts[first] = 1
    edge_of = np.empty(len(order), dtype=np.int64)
    edge_of[order] = np.cumsum(starts) - 1  # edge number of each (tetrahedron, local edge)
    cells = np.concatenate([mesh.cells, n + edge_of.reshape(-1, 6)], axis=1)
    points = np.concatenate([mesh.points, (mesh.points[key // n] + mesh.points[key % n]) / 2])
    grads, vol = barycentric_gradients(mesh.points, mesh.cells)
    g, w = gram(grads), p2_stiffness_tensor()
    local = np.zeros((len(vol), 10, 10))
    for k in range(4):  # G is symmetric: one term per pair k <= l, in a fixed order
        for l in range(k, 4):
            weight = w[:, :, k, l] + (w[:, :, l, k] if l != k else 0)
            local += g[:, k, l, None, None] * weight.astype(np.float64)
    local *= (vol / 20)[:, None, None]
    # number vertices and edge midpoints together along a Morton curve
    order = morton_order(points)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    cells, points = rank[cells], points[order]
    used = np.bincount(cells.ravel(), minlength=len(points)) > 0
    keep = ~boundary_nodes(points, (1, 1, 1)) & used
    a = assemble(cells, local, dof_numbering(keep), symmetric=True)
    return a, ("P2 Laplacian, %d tetrahedra of the Delaunay mesh of a %d^3 lattice jittered by "
               "+-0.3 spacings in the unit cube, vertices and edge midpoints numbered together in "
               "Morton order, Dirichlet boundary nodes eliminated" % (len(mesh.cells), m))


GRAPH_SHIFT = 0.01  # diagonal shift of the graph Laplacians, times the mean degree


def rgg3d_laplace(scale, seed):
    rng = np.random.default_rng(seed)
    n = round(FULL_ROWS * scale)
    points = rng.random((n, 3))
    points = points[morton_order(points)]
    degree = 14.0
    radius = (3 * degree / (4 * math.pi * n)) ** (1 / 3) * (1 + 0.5 * (n ** (-1 / 3)))
    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray").astype(np.int64)
    mean = 2.0 * len(pairs) / n
    a = shifted_graph_laplacian(pairs[:, 0], pairs[:, 1], n, GRAPH_SHIFT * mean)
    return a, ("graph Laplacian + %g*I (0.01 x mean degree %.2f) of the random geometric graph "
               "of %d uniform points in the unit cube, radius %.4g, nodes in Morton order"
               % (GRAPH_SHIFT * mean, mean, n, radius))


def powerlaw_laplace(scale, seed):
    rng = np.random.default_rng(seed)
    n = round(FULL_ROWS * scale)
    gamma, mean_degree = 2.3, 9.0
    max_degree = max(50.0, 3000.0 * math.sqrt(scale))
    beta = 1.0 / (gamma - 1.0)
    # Chung-Lu weights w_i = (i + i0)^-beta, i0 setting the ratio max / mean (from the integral
    # of the mean); scalar Python powers, as numpy's vectorized power may round differently
    # from machine to machine
    def ratio(i0):
        mean = ((n - 0.5 + i0) ** (1 - beta) - (i0 - 0.5) ** (1 - beta)) / ((1 - beta) * n)
        return i0**-beta / mean

    lo, hi = 0.5, float(n)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ratio(mid) > max_degree / mean_degree else (lo, mid)
    weights = np.array([(i + lo) ** -beta for i in range(n)])
    p = weights / weights.sum()
    m = round(n * mean_degree / 2)
    i, j = unique_edges(rng.choice(n, m, p=p), rng.choice(n, m, p=p), n)
    perm = rng.permutation(n)  # hubs first otherwise
    i, j = perm[i], perm[j]
    mean = 2.0 * len(i) / n
    a = shifted_graph_laplacian(i, j, n, GRAPH_SHIFT * mean)
    degree = np.diff(a.indptr) - 1
    return a, ("graph Laplacian + %g*I (0.01 x mean degree %.2f) of a Chung-Lu graph, degree "
               "exponent %g, expected maximum degree %d (largest %d), %d nodes randomly numbered"
               % (GRAPH_SHIFT * mean, mean, gamma, max_degree, degree.max(), n))


def circuit(scale, seed):
    rng = np.random.default_rng(seed)
    n = round(FULL_ROWS * scale)
    # devices: each node links to 1 or 2 others, mostly nearby in the netlist, 10% anywhere
    src = np.repeat(np.arange(n), 1 + (rng.random(n) < 0.5))
    far = rng.random(len(src)) < 0.1
    offset = np.where(far, rng.integers(1, n, len(src)), 1 + rng.geometric(0.05, len(src)))
    dst = (src + offset) % n
    dst = np.where(dst == src, (src + 1) % n, dst)
    g = rng.lognormal(0.0, 1.0, len(src))
    skew = rng.uniform(-0.5, 0.5, len(src))
    one_way = rng.random(len(src)) < 0.25  # controlled sources: an entry one way only
    rows = [dst, src[~one_way]]
    cols = [src, dst[~one_way]]
    vals = [-g * (1 + skew), -(g * (1 - skew))[~one_way]]
    # power and ground rails: dense columns (every device on the net) and dense rows
    n_rails = max(8, round(300 * math.sqrt(scale)))
    max_rail = max(50, round(3000 * math.sqrt(scale)))
    rails = rng.choice(n, n_rails, replace=False)
    logs = rng.uniform(math.log(max_rail / 8), math.log(max_rail), n_rails)
    sizes = [int(math.exp(x)) for x in logs]
    for rail, size in zip(rails, sizes):
        members = rng.choice(n, size, replace=False)
        members = members[members != rail]
        rows.append(members)
        cols.append(np.full(len(members), rail))
        vals.append(-rng.lognormal(0.0, 1.0, len(members)))
        sub = members[rng.random(len(members)) < rng.uniform(0.5, 1.0)]
        rows.append(np.full(len(sub), rail))
        cols.append(sub)
        vals.append(-rng.lognormal(0.0, 1.0, len(sub)))
    off = canonical_csr(np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), n)
    row_sum = np.asarray(abs(off).sum(axis=1)).ravel()
    col_sum = np.asarray(abs(off).sum(axis=0)).ravel()
    diag = 1.05 * np.maximum(row_sum, col_sum) + 1e-3  # strictly dominant by rows and columns
    a = canonical(off + sp.diags(diag, format="csr"))
    lengths = np.diff(a.indptr)
    return a, ("circuit-like: %d nodes in netlist order with 1-2 devices each (90%% to nearby "
               "nodes, 25%% one-way controlled sources, nonsymmetric conductances), %d rails "
               "at random positions with dense columns and rows (longest row %d entries), "
               "diagonal 1.05 x max(row, column) absolute sum + 1e-3"
               % (n, n_rails, lengths.max()))


def grid3d_random(scale, seed):
    m = max(4, round(100 * scale ** (1 / 3)))
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    eye = sp.identity(m)
    a = canonical(sp.kron(sp.kron(t, eye), eye) + sp.kron(sp.kron(eye, t), eye)
                  + sp.kron(sp.kron(eye, eye), t))
    perm = np.random.default_rng(seed).permutation(a.shape[0])
    return permute_symmetric(a, perm), ("7-point Poisson on the interior of a %d^3 grid, "
                                        "symmetrically permuted at random" % m)


CELL_PECLET = 4.0  # |w|max h / eps of the upwind grid problem


def grid2d_convdiff_random(scale, seed):
    m = max(4, round(1000 * math.sqrt(scale)))
    h = 1.0 / (m + 1)
    eps = 2.0 * h / CELL_PECLET
    coords = np.arange(1, m + 1) * h
    x, y = np.meshgrid(coords, coords, indexing="ij")
    w = double_glazing_wind(np.stack([x, y], axis=-1)) * (h / eps)  # cell Peclet numbers
    mass = CELL_PECLET / CFL  # (1/dt) h^2/eps with dt = CFL h / |w|max
    node = np.arange(m * m).reshape(m, m)
    rows, cols, vals = [node.ravel()], [node.ravel()], [(4 + mass + np.abs(w).sum(axis=-1)).ravel()]
    # scaled by h^2/eps: neighbour coefficient -1 - upwind part
    for axis, step in ((0, 1), (0, -1), (1, 1), (1, -1)):
        src = [slice(None)] * 2
        dst = [slice(None)] * 2
        src[axis] = slice(0, m - 1) if step == 1 else slice(1, m)
        dst[axis] = slice(1, m) if step == 1 else slice(0, m - 1)
        upwind = np.maximum(step * w[..., axis], 0.0)  # the wind blows from the neighbour
        rows.append(node[tuple(dst)].ravel())
        cols.append(node[tuple(src)].ravel())
        vals.append((-1.0 - upwind[tuple(dst)]).ravel())
    a = canonical_csr(np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), m * m)
    perm = np.random.default_rng(seed).permutation(m * m)
    return permute_symmetric(a, perm), (
        "one backward-Euler step (CFL %g) of 5-point -eps Lap u + w.grad u with first-order "
        "upwinding on the interior of a %d^2 grid of the unit square, recirculating "
        "double-glazing wind, cell Peclet |w|max h/eps = %g, scaled by h^2/eps; symmetrically "
        "permuted at random" % (CFL, m, CELL_PECLET))


# ----------------------------------------------------------------------------------------------
# The suite


# family: matrices that share a mesh or a base matrix are made by one process under --jobs
Spec = namedtuple("Spec", "name kind numbering family build")

SUITE = [
    Spec("mesh3d_laplace", "spd", "mesher", "mesh3d", mesh3d_laplace),
    Spec("mesh3d_laplace_random", "spd", "random", "mesh3d", mesh3d_laplace_random),
    Spec("mesh2d_laplace", "spd", "mesher", "mesh2d", mesh2d_laplace),
    Spec("mesh2d_convdiff", "nonsymmetric", "mesher", "mesh2d", mesh2d_convdiff),
    Spec("mesh2d_convdiff_random", "nonsymmetric", "random", "mesh2d", mesh2d_convdiff_random),
    Spec("mesh2d_aniso", "spd", "mesher", "mesh2d", mesh2d_aniso),
    Spec("mesh3d_elasticity", "spd", "mesher", "elasticity", mesh3d_elasticity),
    Spec("mesh3d_laplace_p2", "spd", "mesher", "p2", mesh3d_laplace_p2),
    Spec("rgg3d_laplace", "spd", "mesher", "rgg3d", rgg3d_laplace),
    Spec("powerlaw_laplace", "spd", "random", "powerlaw", powerlaw_laplace),
    Spec("circuit", "nonsymmetric", "netlist", "circuit", circuit),
    Spec("grid3d_random", "spd", "random", "grid3d", grid3d_random),
    Spec("grid2d_convdiff_random", "nonsymmetric", "random", "grid2d", grid2d_convdiff_random),
]
SEEDS = {spec.name: 1000 + 17 * k for k, spec in enumerate(SUITE)}


def finish(a):
    """Round the values to what the file holds exactly (SPD builders give exactly symmetric
    matrices, which stay so)."""
    a = canonical(a)
    a.data = suite_mtx.round_to_decimal(a.data)
    return a


def basic_checks(name, a, kind):
    """Cheap invariants every matrix must satisfy at any scale."""
    n = a.shape[0]
    problems = []
    if a.shape[0] != a.shape[1]:
        problems.append("not square")
    if not a.has_canonical_format:
        problems.append("not canonical CSR")
    if not np.isfinite(a.data).all():
        problems.append("non-finite values")
    if (np.diff(a.indptr) == 0).any():
        problems.append("empty rows")
    diag = a.diagonal()
    if (diag == 0).any():
        problems.append("%d zero diagonal entries" % np.count_nonzero(diag == 0))
    if (diag <= 0).any():
        problems.append("%d non-positive diagonal entries" % np.count_nonzero(diag <= 0))
    if n >= 10**7:
        problems.append("too many rows for the writer")
    if problems:
        raise RuntimeError("%s: %s" % (name, "; ".join(problems)))


# ----------------------------------------------------------------------------------------------
# Deep checks (--check, small scales)


def ilu0(a):
    """ILU(0) of canonical CSR a (pure Python, IKJ order): (L unit lower, U upper) as CSR."""
    n = a.shape[0]
    indptr, indices = a.indptr, a.indices
    data = a.data.astype(np.float64).tolist()
    cols = indices.tolist()
    diag_pos = [0] * n
    for i in range(n):
        row = cols[indptr[i] : indptr[i + 1]]
        diag_pos[i] = indptr[i] + row.index(i)
    for i in range(n):
        start, stop = indptr[i], indptr[i + 1]
        where = {cols[p]: p for p in range(start, stop)}
        for p in range(start, diag_pos[i]):
            k = cols[p]
            factor = data[p] / data[diag_pos[k]]
            data[p] = factor
            for q in range(diag_pos[k] + 1, indptr[k + 1]):
                t = where.get(cols[q])
                if t is not None:
                    data[t] -= factor * data[q]
    lu = sp.csr_matrix((np.array(data), indices, indptr), shape=a.shape)
    lower = sp.tril(lu, -1, format="csr") + sp.identity(n, format="csr")
    return lower.tocsr(), sp.triu(lu, format="csr")


def deep_checks(a, kind, path):
    """A line about symmetry, dominance, ILU(0) pivots, the file read back and a Krylov solve."""
    import scipy.sparse.linalg as spla

    n = a.shape[0]
    diag = a.diagonal()
    off = a - sp.diags(diag)
    off_abs = np.asarray(abs(off).sum(axis=1)).ravel()
    notes = []
    symmetric = (a != a.T).nnz == 0
    if kind == "spd":
        notes.append("symmetric" if symmetric else "NOT SYMMETRIC")
    else:
        skew = spla.norm(a - a.T) / spla.norm(a + a.T)
        notes.append("|A-A'|/|A+A'| %.3f" % skew)
    positive = np.count_nonzero(off.data > 0) / max(1, off.nnz)
    notes.append("positive offdiag %.1f%%" % (100.0 * positive))
    notes.append("diag-dominant rows %.1f%%" % (100.0 * np.mean(diag >= off_abs * (1 - 1e-12))))
    lower, upper = ilu0(a)
    pivots = upper.diagonal() / diag
    notes.append("ILU(0) pivot/diag min %.3g" % pivots.min())
    back = suite_mtx.read_matrix_market(path)
    same = (back.shape == a.shape and np.array_equal(back.indptr, a.indptr)
            and np.array_equal(back.indices, a.indices)
            and np.array_equal(back.data.view(np.int64), a.data.view(np.int64)))
    notes.append("file reads back %s" % ("bit-identical" if same else "DIFFERENT"))

    def apply_ilu(r):
        z = spla.spsolve_triangular(lower, r, lower=True, unit_diagonal=True)
        return spla.spsolve_triangular(upper, z, lower=False)

    precond = spla.LinearOperator(a.shape, apply_ilu)
    b = np.ones(n)
    count = [0]

    def callback(_):
        count[0] += 1

    if kind == "spd":
        x, info = spla.cg(a, b, rtol=1e-8, maxiter=5000, M=precond, callback=callback)
        method = "CG"
    else:
        x, info = spla.gmres(a, b, rtol=1e-8, restart=30, maxiter=200, M=precond,
                             callback=callback, callback_type="pr_norm")
        method = "GMRES(30)"
    residual = np.linalg.norm(b - a @ x) / np.linalg.norm(b)
    notes.append("%s+ILU(0) %d its, residual %.1e%s" % (method, count[0], residual,
                                                       "" if info == 0 else " NOT CONVERGED"))
    ok = same and info == 0 and pivots.min() > 0 and (symmetric or kind != "spd")
    return ", ".join(notes), ok


# ----------------------------------------------------------------------------------------------
# Driver


def load_manifest(path):
    try:
        with open(path) as f:
            entries = json.load(f)
        return {e["name"]: e for e in entries}
    except (OSError, ValueError):
        return {}


def save_manifest(path, entries):
    order = [spec.name for spec in SUITE]
    listed = sorted(entries.values(), key=lambda e: order.index(e["name"]) if e["name"] in order
                    else len(order))
    tmp = path + ".part"
    with open(tmp, "w") as f:
        json.dump(listed, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def is_current(entry, spec, scale, out):
    if not entry:
        return False
    path = os.path.join(out, entry.get("file", ""))
    return (entry.get("seed") == SEEDS[spec.name] and entry.get("scale") == scale
            and entry.get("generator_version") == GENERATOR_VERSION and os.path.isfile(path)
            and os.path.getsize(path) == entry.get("bytes"))


def generate(spec, scale, out, check):
    start = time.perf_counter()
    a, description = spec.build(scale, SEEDS[spec.name])
    a = finish(a)
    basic_checks(spec.name, a, spec.kind)
    built = time.perf_counter()
    file = spec.name + ".mtx"
    path = os.path.join(out, file)
    comments = ["SyncFree unstructured suite: %s (%s, %s numbering)" % (spec.name, spec.kind,
                                                                      spec.numbering),
                "%s" % description,
                "make_unstructured_suite.py version %d, scale %g, seed %d"
                % (GENERATOR_VERSION, scale, SEEDS[spec.name])]
    entries = suite_mtx.write_matrix_market(path, a, spec.kind == "spd", comments)
    written = time.perf_counter()
    entry = {"name": spec.name, "file": file, "kind": spec.kind, "rows": a.shape[0],
             "nnz": int(a.nnz), "numbering": spec.numbering, "seed": SEEDS[spec.name],
             "description": description,
             "symmetry": "symmetric" if spec.kind == "spd" else "general",
             "file_entries": int(entries), "bytes": os.path.getsize(path), "scale": scale,
             "generator_version": GENERATOR_VERSION}
    line = "%-24s rows %9d  nnz %10d  nnz/row %5.1f  build %6.1f s  write %5.1f s  total %6.1f s"
    line %= (spec.name, a.shape[0], a.nnz, a.nnz / a.shape[0], built - start,
             written - built, written - start)
    ok = True
    if check:
        note, ok = deep_checks(a, spec.kind, path)
        line += "\n    " + note
    print(line, flush=True)
    return entry, ok


def generate_family(specs, scale, out, check):
    """Generate specs in order in one process: [(name, manifest entry, checks passed)]."""
    return [(spec.name,) + generate(spec, scale, out, check) for spec in specs]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="output folder")
    parser.add_argument("--scale", type=float, default=1.0, help="size factor (1: ~1 M rows each)")
    parser.add_argument("--only", help="comma-separated names to generate")
    parser.add_argument("--force", action="store_true", help="regenerate existing files")
    parser.add_argument("--check", action="store_true",
                        help="deep checks and ILU(0)-preconditioned solves (small scales)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes making independent families of matrices at once "
                             "(the files are the same; at scale 1 each needs a few GB)")
    parser.add_argument("--list", action="store_true", help="list the suite and exit")
    args = parser.parse_args(argv)

    if args.list:
        for spec in SUITE:
            print("%-24s %-13s %-8s seed %d" % (spec.name, spec.kind, spec.numbering,
                                                SEEDS[spec.name]))
        return 0
    if not args.out:
        parser.error("--out is required")
    names = [spec.name for spec in SUITE]
    chosen = args.only.split(",") if args.only else names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error("unknown matrices: %s (see --list)" % ", ".join(unknown))
    if args.check and args.scale > 0.05:
        parser.error("--check runs pure-Python ILU(0); use it with --scale 0.05 or less")

    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "suite.json")
    manifest = load_manifest(manifest_path)
    start = time.perf_counter()
    families = {}
    for spec in SUITE:
        if spec.name not in chosen:
            continue
        if not args.force and is_current(manifest.get(spec.name), spec, args.scale, args.out):
            e = manifest[spec.name]
            print("%-24s rows %9d  nnz %10d  (kept)" % (spec.name, e["rows"], e["nnz"]), flush=True)
            continue
        families.setdefault(spec.family, []).append(spec)
    failed = []

    def record(results):
        for name, entry, ok in results:
            manifest[name] = entry
            if not ok:
                failed.append(name)
        save_manifest(manifest_path, manifest)

    work = [(specs, args.scale, args.out, args.check) for specs in families.values()]
    if args.jobs > 1 and len(work) > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(min(args.jobs, len(work))) as pool:
            for done in as_completed([pool.submit(generate_family, *w) for w in work]):
                record(done.result())
    else:
        for w in work:
            record(generate_family(*w))
    print("total %.1f s" % (time.perf_counter() - start))
    if failed:
        print("checks failed: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
