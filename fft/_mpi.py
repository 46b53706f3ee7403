"""rocFFT's multi-process mode: field plans over an MPI communicator (mpi4py).

As in rocFFT (built with ``ROCFFT_MPI_ENABLE``), every rank

1. creates a plan description and calls :func:`plan_description_set_comm` with
   ``CommType.mpi`` and its communicator (an mpi4py ``Intracomm``, the Python face of the
   ``MPI_Comm`` rocFFT takes a pointer to);
2. creates the same fields but adds to them only the bricks resident on that rank (a
   brick's ``device`` is a device of that rank's process);
3. calls ``plan_create`` (collective: the ranks exchange their bricks, so every rank knows the
   whole fields, each brick tagged with the rank that added it, in rank order);
4. calls ``execute`` (collective) with the buffers of its own bricks, in the order it added them.

The plan runs as in one process (:mod:`rocmath.fft._fields`): the work is shared by the
``(rank, device)`` locations holding bricks, in slabs or pencils; the all-to-all transposes
between ranks are one ``Alltoallv`` each, staged through host memory, and the sub-plans are
the single-device plan's passes, so results are bitwise identical to the single-device
transform.  ``FieldPlan.last_comm_bytes`` is what this rank received in the last execution;
``FieldPlan.comm_volume`` what all ranks receive in one (from the plans' geometry).

A rank whose bricks fail validation (say, on a device its process does not have) makes
``plan_create`` fail on every rank (rocFFT leaves that agreement to the application).
With a communicator both sides need a field (in-place plans: the input field only).

``pip install mpi4py mpich`` gives an MPI that ``mpiexec -n 2 python prog.py`` runs on a
fresh machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _api
from ._fields import Brick, Field
from ._log import pointer
from ._types import CommType, RocfftFailure, RocfftInvalidArgValue

__all__ = ["plan_description_set_comm"]


def _communicator(handle: Any) -> Any:
    """``handle`` as an mpi4py intracommunicator, or RocfftFailure."""
    try:
        from mpi4py import MPI
    except ImportError:  # pragma: no cover - depends on the environment
        raise RocfftFailure("MPI communicators need mpi4py and an MPI (pip install mpi4py mpich)",
                            arg="comm_type", index=2) from None
    if not isinstance(handle, MPI.Intracomm) or handle == MPI.COMM_NULL:
        raise RocfftFailure(f"comm_handle must be an mpi4py intracommunicator, got {handle!r}", arg="comm_handle",
                            index=3)
    return handle


def plan_description_set_comm(description: _api.PlanDescription, comm_type: CommType | int, comm_handle: Any) -> None:
    """``rocfft_plan_description_set_comm``: the communicator of the description's field plans.

    Parameters
    ----------
    description
        A live plan description.
    comm_type
        ``CommType.none`` (plans in this process only; the handle is ignored) or
        ``CommType.mpi``.
    comm_handle
        For ``CommType.mpi``, an mpi4py intracommunicator (``MPI.COMM_WORLD`` or one split
        from it); the description keeps a reference, it does not duplicate it.

    Raises
    ------
    RocfftInvalidArgValue
        For a dead description, a ``comm_type`` that is not an integer, or a communicator type
        other than none with a null (None) handle.
    RocfftFailure
        For an unknown communicator type, or an MPI handle that is not an mpi4py
        intracommunicator (or mpi4py missing).
    """
    _api._lib().log.trace("rocfft_plan_description_set_comm", "description", pointer(description), "comm_type",
                          int(comm_type) if isinstance(comm_type, (int, np.integer)) else comm_type, "comm_handle",
                          pointer(comm_handle))
    d = _api._description(description)
    if isinstance(comm_type, bool) or not isinstance(comm_type, (int, np.integer)):
        raise RocfftInvalidArgValue(f"comm_type must be a CommType value, got {comm_type!r}", arg="comm_type", index=2)
    if int(comm_type) != CommType.none and comm_handle is None:
        raise RocfftInvalidArgValue("a communicator type needs a communicator handle", arg="comm_handle", index=3)
    if int(comm_type) not in (CommType.none, CommType.mpi):
        raise RocfftFailure(f"unknown communicator type {int(comm_type)}", arg="comm_type", index=2)
    comm = _communicator(comm_handle) if int(comm_type) == CommType.mpi else None
    d.comm_type = CommType(int(comm_type))
    d.comm = comm  # type: ignore[attr-defined]


def gather_fields(comm: Any, in_fields: list[Field], out_fields: list[Field]) -> tuple[list[Field], list[Field]]:
    """The whole fields from every rank's own bricks (collective): field ``i`` of a side holds
    the bricks every rank added to its field ``i``, in rank order, each tagged with its rank (a
    rank with no bricks on a side may add no field there)."""
    def mine(fields: list[Field]) -> list[list[tuple[Any, ...]]]:
        return [[(b.lower, b.upper, b.stride, b.device) for b in f.bricks] for f in fields]

    everyone = comm.allgather((mine(in_fields), mine(out_fields)))

    def merge(side: int) -> list[Field]:
        count = max(len(per_rank[side]) for per_rank in everyone)
        out = []
        for i in range(count):
            f = Field()
            for rank, per_rank in enumerate(everyone):
                if i < len(per_rank[side]):
                    f.bricks += [Brick(lo, up, st, dev, rank=rank) for lo, up, st, dev in per_rank[side][i]]
            out.append(f)
        return out

    return merge(0), merge(1)
