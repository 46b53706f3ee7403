"""Real test matrices, written and read as Matrix Market (``.mtx``) files.

Random sparse matrices of uniform density miss what breaks sparse kernels: long and empty
rows, skewed degree distributions, banded structure, symmetric positive definite systems
from PDEs.  This module builds a few such matrices deterministically (every random one from
an explicit seed) and stores them in the Matrix Market exchange format through
``scipy.io.mmwrite`` / ``scipy.io.mmread``, so a test can run on the same files a user
would download from the SuiteSparse collection.

- :func:`laplacian_2d`, :func:`laplacian_3d`: 5- and 7-point finite-difference Laplacians
  (symmetric positive definite, Dirichlet boundaries);
- :func:`banded`: a random band matrix with a dominant diagonal (well-conditioned triangles);
- :func:`power_law_graph`: a weighted graph whose degrees follow a power law (Chung-Lu
  model): a few very long rows among many short and some empty ones;
- :func:`write_mtx` / :func:`read_mtx`: one matrix to or from a ``.mtx`` file (read back as
  canonical CSR: sorted columns, duplicates summed);
- :data:`COLLECTION`, :func:`write_collection`, :func:`load_collection`: a named set of
  small instances of each kind, written to and loaded from a directory.

Example::

    from rocmath.testing import matrices

    paths = matrices.write_collection(tmp_path)
    a = matrices.read_mtx(paths["laplace2d_8"])
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.io
import scipy.sparse as sp

__all__ = [
    "COLLECTION", "banded", "laplacian_2d", "laplacian_3d", "load_collection", "power_law_graph", "read_mtx",
    "write_collection", "write_mtx",
]


def _canonical(a: Any, dtype: Any = None) -> sp.csr_matrix:
    """CSR with sorted column indices and duplicates summed (explicit zeros are kept)."""
    m = sp.csr_matrix(a, dtype=dtype)
    m.sum_duplicates()
    m.sort_indices()
    return m


def _values(rng: np.random.Generator, count: int, dtype: np.dtype[Any]) -> np.ndarray:
    """Standard normal values of ``dtype`` (an imaginary part for complex types)."""
    v = rng.standard_normal(count)
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(count)
    return v.astype(dtype)


def _second_difference(n: int) -> sp.csr_matrix:
    return sp.diags([-np.ones(max(n - 1, 0)), 2.0 * np.ones(n), -np.ones(max(n - 1, 0))], [-1, 0, 1],
                    shape=(n, n), format="csr")


def laplacian_2d(nx: int, ny: int | None = None, dtype: Any = np.float64) -> sp.csr_matrix:
    """The 5-point Laplacian of an ``nx x ny`` grid (Dirichlet boundaries): ``(nx ny) x (nx ny)``,
    symmetric positive definite, 4 on the diagonal and -1 for each grid neighbour."""
    ny = nx if ny is None else ny
    a = sp.kronsum(_second_difference(nx), _second_difference(ny), format="csr")
    return _canonical(a, np.dtype(dtype))


def laplacian_3d(nx: int, ny: int | None = None, nz: int | None = None, dtype: Any = np.float64) -> sp.csr_matrix:
    """The 7-point Laplacian of an ``nx x ny x nz`` grid (Dirichlet boundaries), 6 on the diagonal."""
    ny = nx if ny is None else ny
    nz = nx if nz is None else nz
    a = sp.kronsum(sp.kronsum(_second_difference(nx), _second_difference(ny)), _second_difference(nz), format="csr")
    return _canonical(a, np.dtype(dtype))


def banded(n: int, lower: int, upper: int, *, seed: int = 0, dtype: Any = np.float64) -> sp.csr_matrix:
    """A random ``n x n`` band matrix with ``lower`` sub- and ``upper`` super-diagonals.

    Off-diagonal entries are standard normal; each diagonal entry's modulus exceeds its row's
    off-diagonal sum by one, so the matrix and both its triangles are well conditioned.
    """
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    offsets = [k for k in range(-lower, upper + 1) if k != 0 and abs(k) < n]
    diags = [_values(rng, n - abs(k), dt) for k in offsets]
    off = sp.diags(diags, offsets, shape=(n, n), format="csr") if offsets else sp.csr_matrix((n, n), dtype=dt)
    dominance = np.asarray(abs(off).sum(axis=1)).ravel() + 1.0
    sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    return _canonical(off + sp.diags(sign * dominance, 0, shape=(n, n)), dt)


def power_law_graph(n: int, *, avg_degree: float = 4.0, exponent: float = 2.2, seed: int = 0,
                    dtype: Any = np.float64) -> sp.csr_matrix:
    """A weighted directed graph on ``n`` vertices with power-law degrees (Chung-Lu model).

    Vertex ``i`` gets the weight ``(i + 1) ** (-1 / (exponent - 1))``; about ``avg_degree * n``
    edges are drawn with both ends chosen proportionally to the weights (duplicates merged).
    The first rows are the hubs: a few rows hold a large share of the entries while many rows
    are short or empty.  Edge values are standard normal.
    """
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if n == 0:
        return sp.csr_matrix((0, 0), dtype=dt)
    weights = np.arange(1, n + 1, dtype=np.float64) ** (-1.0 / (exponent - 1.0))
    p = weights / weights.sum()
    edges = round(avg_degree * n)
    rows = rng.choice(n, size=edges, p=p)
    cols = rng.choice(n, size=edges, p=p)
    pairs = np.unique(rows * np.int64(n) + cols)
    rows, cols = pairs // n, pairs % n
    return _canonical(sp.coo_matrix((_values(rng, pairs.size, dt), (rows, cols)), shape=(n, n)), dt)


def write_mtx(path: str | os.PathLike[str], matrix: Any, *, comment: str = "") -> Path:
    """Write a sparse matrix as a Matrix Market coordinate file (``scipy.io.mmwrite``); returns the path.

    Values are written so that reading them back gives the same numbers (real, complex or
    integer field after the matrix's dtype; symmetry is detected by scipy).
    """
    p = Path(path)
    scipy.io.mmwrite(str(p), sp.coo_matrix(matrix), comment=comment)
    if not p.exists() and p.with_suffix(".mtx").exists():  # mmwrite appends .mtx when the name has none
        p = p.with_suffix(".mtx")
    return p


def read_mtx(path: str | os.PathLike[str], dtype: Any = None) -> sp.csr_matrix:
    """Read a Matrix Market file (``scipy.io.mmread``) as canonical CSR: sorted columns, duplicates summed,
    symmetric storage expanded; ``dtype`` converts the values (the file's own type when None)."""
    # scipy 1.18 warns that mmread's default will become a sparse array; asking for the matrix
    # class keeps its behaviour (scipy versions without the keyword always return that class).
    kw = {"spmatrix": True} if "spmatrix" in inspect.signature(scipy.io.mmread).parameters else {}
    a = scipy.io.mmread(str(path), **kw)
    if not sp.issparse(a):
        a = sp.coo_matrix(a)
    return _canonical(a, dtype)


#: Small named instances of each kind (deterministic), for tests: name -> factory.
COLLECTION: dict[str, Callable[[], sp.csr_matrix]] = {
    "laplace2d_8": lambda: laplacian_2d(8),
    "laplace2d_5x11": lambda: laplacian_2d(5, 11),
    "laplace3d_5": lambda: laplacian_3d(5),
    "banded_60_3_2": lambda: banded(60, 3, 2, seed=7),
    "banded_40_0_4_complex": lambda: banded(40, 0, 4, seed=11, dtype=np.complex128),
    "powerlaw_200": lambda: power_law_graph(200, avg_degree=5.0, seed=3),
    "powerlaw_150_complex": lambda: power_law_graph(150, avg_degree=3.0, exponent=2.5, seed=5,
                                                    dtype=np.complex128),
}


def write_collection(directory: str | os.PathLike[str], names: Iterable[str] | None = None) -> dict[str, Path]:
    """Write the :data:`COLLECTION` matrices (or those named) as ``<name>.mtx`` into ``directory``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    chosen = list(COLLECTION) if names is None else list(names)
    return {name: write_mtx(d / f"{name}.mtx", COLLECTION[name](), comment=f"rocmath.testing.matrices {name}")
            for name in chosen}


def load_collection(directory: str | os.PathLike[str]) -> dict[str, sp.csr_matrix]:
    """Every ``*.mtx`` file of ``directory`` by file stem, read with :func:`read_mtx` (sorted by name)."""
    return {p.stem: read_mtx(p) for p in sorted(Path(directory).glob("*.mtx"))}
