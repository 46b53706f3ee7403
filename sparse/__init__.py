"""rocmath.sparse: rocSPARSE on the simulated device.

Every rocSPARSE function is here under its rocSPARSE name without the ``rocsparse_``
prefix, with rocSPARSE's argument order; out-parameters become return values
(``create_handle()``, ``create_mat_descr()``, ``create_csr_descr(...)``, buffer sizes and
nonzero counts).

Conventions, as rocSPARSE:

- arrays are device pointers (ints) or :class:`rocmath.DeviceArray`; index arrays of the
  legacy routines are ``rocsparse_int`` (int32) for raw pointers and the DeviceArray's own
  type (int32 or int64) otherwise; the generic API takes the index types of its descriptors;
- the index base comes from the matrix descriptor (0 or 1);
- scalars (alpha, beta) are numbers in host pointer mode, device pointers in device
  pointer mode (``set_pointer_mode``);
- errors raise the exception for the rocSPARSE status (``rocmath.sparse.Sparse*Error``,
  ``.status`` a :class:`Status`), naming the argument and its 1-based position, in
  rocSPARSE's check order; quick returns succeed;
- every result is bitwise reproducible (no atomics; fixed summation orders).

Beside the rocSPARSE names, ``csr_matrix`` / ``csc_matrix`` / ``coo_matrix`` are
device-resident matrices after ``cupyx.scipy.sparse`` (built by ``eye``, ``identity``, ``diags``
and ``random`` too) and ``aslinearoperator`` hands them to SciPy's iterative solvers.
"""

from ._bsr_solve import *  # noqa: F403
from ._check import *  # noqa: F403
from ._conversion import *  # noqa: F403
from ._conversion2 import *  # noqa: F403
from ._debug import *  # noqa: F403
from ._descr import *  # noqa: F403
from ._extra import *  # noqa: F403
from ._extract import *  # noqa: F403
from ._formats import *  # noqa: F403
from ._gebsr import *  # noqa: F403
from ._generic import *  # noqa: F403
from ._generic_ops import *  # noqa: F403
from ._handle import *  # noqa: F403
from ._iterative import *  # noqa: F403
from ._level1 import *  # noqa: F403
from ._level2 import *  # noqa: F403
from ._level3 import *  # noqa: F403
from ._matrix import *  # noqa: F403
from ._precond import *  # noqa: F403
from ._products import *  # noqa: F403
from ._solve import *  # noqa: F403
from ._types import *  # noqa: F403
