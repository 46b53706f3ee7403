"""rocmath.solver: rocSOLVER on the simulated device.

Every rocSOLVER function is here under its rocSOLVER name without the
``rocsolver_`` prefix (``dgetrf``, ``zgetrs_strided_batched``...), with rocSOLVER's
argument order, on a rocBLAS handle (:func:`rocmath.blas.create_handle`): its
stream, its workspace, its size queries.  The enums of rocsolver-extra-types.h
(:class:`Direct`, :class:`Svect`, :class:`Evect`...) are here too, with rocBLAS's
:class:`Fill`, :class:`Operation`, :class:`Side` and :class:`Diagonal`.

Conventions, as rocSOLVER (and what a new family follows):

- LAPACK semantics, column-major, leading dimensions >= rows (``lda < m`` is
  invalid_size; ``lda = 0`` is fine for an empty matrix); every array is a device
  pointer (int) or :class:`rocmath.DeviceArray`; integers (ipiv, info) are int32
  (int64 in the ``_64`` functions); ipiv is 1-based.
- Flavours: in ``_batched`` only matrices are device arrays of device pointers;
  the other arrays (ipiv, tau, D, E...) stay single device arrays followed by their
  stride (``strideP``...) in both batched forms; ``_strided_batched`` matrices get
  ``strideA``... after their leading dimension; ``batch_count`` comes last.
- ``info`` is a device array of one int32 per batch entry.  Numerical failure is
  data, written to ``info`` (e.g. the first zero pivot), never an exception; the
  computation goes on as LAPACK's does.
- Check order (rocSOLVER's ``*_argCheck``): handle (invalid_handle) -> enum values
  (invalid_value) -> sizes (invalid_size) -> [a device-memory size query returns
  here: ``size_increased``/``size_unchanged`` for the routine's workspace] -> null
  pointers, only where the sizes need them (invalid_pointer) -> quick return (an
  empty problem: info := 0, nothing else touched) -> launch.  Errors are the
  ``rocmath.errors.Rocblas*Error`` exceptions, naming the argument and its position.
- ``ROCSOLVER_LAYER`` (1 trace, 2 bench) logs every call before it is checked;
  ``ROCSOLVER_LOG_TRACE_PATH``/``ROCSOLVER_LOG_BENCH_PATH`` name the files.
- rocSOLVER's ILP64 API, the ``_64`` names of the routines that have one
  (``_manifest.ILP64``: getf2/getrf (+ ``_npvt``), getrs, potf2/potrf, potrs,
  geqr2/geqrf in every flavour; larf, larfg, lacgv): ``int64_t`` sizes, increments and
  ``batch_count`` (the LP64 names refuse a value outside ``rocblas_int``: invalid_size),
  and ipiv/info device arrays of int64.  Results are bitwise their LP64 twin's.  They
  log as their LP64 twin, as rocSOLVER's do (same trace name, bench line, profile).

Workspace follows rocSOLVER: every routine's scratch memory comes from the handle's
workspace (rocBLAS's model: rocBLAS-managed and grown on demand, or the user's from
``set_workspace``).  A size query reports the bytes (``size_increased`` when they
raise the running maximum); a user workspace that is too small is memory_error
before anything is written; an empty problem needs none.

How a family is written (see ``lu.py``): per routine a ``SolverRoutine`` (C
parameters after the handle; matrices with their leading dimension; ``vectors``
with their stride names) with a ``check`` phase (enums, sizes; returns the
dimensions, ``Call.dims``), a ``workspace`` function (bytes, from the dimensions:
the ``*_workspace`` function of its kernels' module) and the body (pointers, quick
return, then ``Call.workspace_buffer`` before the launch); then one ``bind`` line
per public name, and the names in ``_manifest.py``.  Kernels live in
``_kernels_<family>.py``: numba code for many small entries (a chunked ``prange``
over the batch, each chunk carving its scratch out of the workspace, see
``_workspace.py``), LAPACK/BLAS through the symbols of ``_lapack.py`` for large
ones; the path depends on sizes only, so the same inputs give the same bits.
"""

from ._types import *  # noqa: F403
from .arrays import *  # noqa: F403
from .auxiliary import *  # noqa: F403
from .auxiliary_lapack import *  # noqa: F403
from .bisection import *  # noqa: F403
from .blocktri import *  # noqa: F403
from .cholesky import *  # noqa: F403
from .eig import *  # noqa: F403
from .eigdj import *  # noqa: F403
from .eigx import *  # noqa: F403
from .generalized import *  # noqa: F403
from .gesvdx import *  # noqa: F403
from .lu import *  # noqa: F403
from .orthogonal import *  # noqa: F403
from .qr import *  # noqa: F403
from .refact import *  # noqa: F403
from .sytrf import *  # noqa: F403
