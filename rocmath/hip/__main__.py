"""``python -m rocmath.hip SCRIPT [ARGS...]``: run an unmodified hip-python program on rocmath.

While the program runs, ``import hip``, ``from hip import hip, hipblas, hipfft, hipsparse,
hipsolver, rccl, roctx``, the newer ``from rocm.bindings import ...`` and hip-python-as-cuda's ``from cuda import cuda,
cudart`` (:mod:`rocmath.hip.cuda`) resolve to :mod:`rocmath.hip`'s modules, so a
program written for hip-python runs on the simulated device.  ``-m MODULE`` runs a
module instead of a script, as ``python -m`` does.
"""

from __future__ import annotations

import os
import runpy
import sys

from . import _shim

USAGE = """usage: python -m rocmath.hip SCRIPT [ARGS...]
       python -m rocmath.hip -m MODULE [ARGS...]

Run a hip-python program on rocmath's simulated device: imports of hip, hip.hip,
hip.{hipblas,hipfft,hipsparse,hipsolver,rccl,roctx}, rocm.bindings.* and (hip-python-as-cuda)
cuda.cuda, cuda.cudart, cuda.bindings.{driver,runtime} resolve to rocmath.hip.
ROCMATH_HIP_TRACE=1 prints the exception behind every failed call."""


def main(argv: list[str] | None = None) -> int:
    """Run the program named in ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    _shim.install()
    if args[0] == "-m":
        if len(args) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = [args[1], *args[2:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    script = args[0]
    if not os.path.exists(script):
        print(f"rocmath.hip: can't open file {script!r}: no such file", file=sys.stderr)
        return 2
    sys.argv = [script, *args[1:]]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as `python SCRIPT` does
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
