"""One side of ``rocmath-bench compare``: a process that sets bench cases up and times them on request.

``python -m rocmath.bench.worker`` reads one JSON command a line on stdin and answers one JSON
line on stdout, so that the comparing process can alternate two workers (two revisions or two
configurations) call by call:

- ``{"op": "setup", "case": NAME, "size": SIZE}``: build the problem and run it once (the cold
  call, compilation included); answers ``{"cold_ns": ...}``;
- ``{"op": "time"}``: one warm call of the problem set up, synchronized; ``{"ns": ...}``;
- ``{"op": "map", "dir": PATH}``: this process's JIT code copied to files in PATH and its
  kernels' entry addresses (:func:`rocmath.bench.profile.jit_map`);
- ``{"op": "loop", "seconds": T}``: warm calls of the problem set up for about T seconds (while
  ``rocmath-bench profile`` samples); ``{"calls": ..., "ns": ...}``;
- ``{"op": "teardown"}``; ``{"op": "quit"}``.

Errors are answered as ``{"error": TEXT}``; the worker goes on.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from typing import Any, TextIO


def _size(value: Any) -> Any:
    # JSON has no tuples: sizes such as (count, n) come back as lists.
    return tuple(_size(v) for v in value) if isinstance(value, list) else value


def serve(inp: TextIO, out: TextIO) -> None:
    """Answer commands from ``inp`` until ``quit`` or end of input."""
    import rocmath
    from rocmath.bench import default_registry, discover
    from rocmath.bench.runner import preparation
    from rocmath.bench.timing import warm_up

    discover()
    problem: Any = None
    sync: Any = None
    prepare: Any = None

    def teardown() -> None:
        nonlocal problem
        if problem is not None and problem.teardown is not None:
            problem.teardown()
        problem = None

    for line in inp:
        cmd = json.loads(line)
        op = cmd.get("op")
        try:
            if op == "quit":
                break
            if op == "setup":
                teardown()
                problem = default_registry.get(cmd["case"]).setup(_size(cmd["size"]))
                stream = problem.stream
                sync = stream.synchronize if stream is not None else rocmath.device_synchronize
                t0 = time.perf_counter_ns()
                problem.run()
                sync()
                answer: dict[str, Any] = {"cold_ns": time.perf_counter_ns() - t0,
                                          "label": problem.label or str(cmd["size"])}
                prepare = preparation(problem, sync)
                warm_up((prepare, problem.run, sync), 0)  # the timed calls start from the steady state
            elif op == "time":
                prepare()
                t0 = time.perf_counter_ns()
                problem.run()
                sync()
                answer = {"ns": time.perf_counter_ns() - t0}
            elif op == "map":
                from rocmath.bench.profile import jit_map

                answer = jit_map(cmd["dir"])
            elif op == "loop":
                from rocmath.bench.profile import loop

                answer = loop(problem.run, sync, float(cmd["seconds"]), prepare)
            elif op == "teardown":
                teardown()
                answer = {}
            else:
                answer = {"error": f"unknown op {op!r}"}
        except Exception as exc:
            answer = {"error": "".join(traceback.format_exception_only(type(exc), exc)).strip()}
            problem = None
        out.write(json.dumps(answer) + "\n")
        out.flush()
    teardown()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
