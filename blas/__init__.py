"""rocmath.blas: rocBLAS on the simulated device.

Every rocBLAS function is here under its rocBLAS name without the ``rocblas_``
prefix, with rocBLAS's argument order; out-parameters become return values
(``create_handle()``; reductions return their result in host pointer mode).

Conventions, as rocBLAS:

- column-major storage, leading dimensions >= rows; integer sizes are host values;
- arrays are device pointers (ints) or :class:`rocmath.DeviceArray`; batched
  (``_batched``) arrays are device arrays of device pointers; strided batched arrays
  are followed by the stride between entries (in elements);
- scalars (alpha, beta) are numbers in host pointer mode, device pointers in device
  pointer mode (``set_pointer_mode``);
- errors raise the exception for the rocBLAS status (``rocmath.errors.Rocblas*Error``,
  ``.status``), naming the argument, in rocBLAS's check order; quick returns succeed.

rocBLAS's beta API (``rocblas-beta.h``) is here too (:mod:`rocmath.blas.beta`): ``gemm_ex3`` and
its batched forms, on 8-bit floats (:mod:`rocmath.float8`), and the ``gemm_ex_get_solutions``
family, which lists the simulated library's one gemm solution (gemm_ex's ``solution_index`` 1).

Beside the rocBLAS names, :mod:`rocmath.blas.arrays` is the layer for array users:
``matmul``, ``gemm``, ``dot``, ``vdot``, ``nrm2``... on DeviceArrays, batched over
leading axes, layouts read from the arrays.
"""

from ._handle import *  # noqa: F403
from ._handle import BlasHandle
from ._types import *  # noqa: F403
from .arrays import *  # noqa: F403
from .beta import *  # noqa: F403
from .ex import *  # noqa: F403
from .extensions import *  # noqa: F403
from .level1 import *  # noqa: F403
from .level2 import *  # noqa: F403
from .level3 import *  # noqa: F403

Handle = BlasHandle
