"""rocmath.fft: rocFFT on the simulated device.

Two layers:

- rocFFT's C API (:mod:`rocmath.fft._api`) under its names without the ``rocfft_`` prefix:
  ``setup``, ``plan_description_create``, ``plan_description_set_data_layout``,
  ``plan_create``, ``execution_info_create``, ``execute``, ``plan_get_print``... with rocFFT's
  enums and conventions (``lengths[0]`` fastest, unnormalized in both directions, Hermitian
  ``n/2 + 1`` outputs, padded in-place real layouts, interleaved and planar complex data).
  Failures raise the exception of their ``rocfft_status`` (``.status``).  The distributed
  API (:mod:`rocmath.fft._fields`: ``field_create``, ``brick_create``, ``field_add_brick``,
  ``plan_description_add_infield``/``add_outfield``) splits a plan's data over bricks on
  several simulated devices.
- NumPy's interface on DeviceArrays: ``fft``, ``ifft``, ``rfft``, ``irfft``, ``fft2``,
  ``ifft2``, ``fftn``, ``ifftn``, ``rfft2``, ``irfft2``, ``rfftn``, ``irfftn`` with ``norm=``,
  and :data:`scipy_backend` for ``scipy.fft.set_backend``.

The transforms are this library's own numba kernels (Stockham mixed radix 2/3/4/5/7/8/11/13
with direct stages for other primes up to 61, Bluestein for larger prime factors, half-length
real transforms); plans are immutable and cached by canonical parameters
(:func:`get_plan_cache`).  ``ROCFFT_LAYER`` turns on rocFFT's trace, bench and profile logs
(:mod:`rocmath.fft._log`); ``rocmath-bench fft`` is rocfft-bench's command line.
"""

from ._api import *  # noqa: F403
from ._fields import *  # noqa: F403
from ._mpi import *  # noqa: F403
from ._numpy import *  # noqa: F403
from ._scipy_backend import scipy_backend as scipy_backend
from ._types import *  # noqa: F403
