"""``rocmath-bench --yaml FILE...``: a list of problems run in one process.

The file is a YAML list; each entry is one problem, in any of three forms:

- ``problem: "rocmath-bench blas -f gemm -r f64_r -m 512 ..."``: a command, as the
  ``log_profile`` layers (``ROCBLAS_LAYER=4``...) write them, so a profile log replays as is;
- rocblas-bench's form: ``rocblas_function: rocblas_dgemm`` (or ``function: gemm`` with
  ``precision: f64_r``) and the arguments by rocblas-bench's names (``transA``, ``M``, ``N``,
  ``K``, ``lda``, ``alpha``, ``batch_count``...);
- ``library: solver`` (or ``fft``...) with ``function``, ``precision`` and the arguments by
  that command's flag names (``rocsolver_function: rocsolver_dgetrf`` works too).

Running them in one process compiles each kernel once.  Exit status: the worst of the
problems' (0 ok, 1 a failure, 2 a usage error).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

__all__ = ["commands", "run_files"]

#: rocblas-bench's YAML argument names -> the flags of ``rocmath-bench blas``.
_BLAS_NAMES = {"M": "m", "N": "n", "K": "k", "transA": "transposeA", "transB": "transposeB"}


def _flags(args: dict[str, Any], rename: dict[str, str]) -> list[str]:
    out = []
    for key, value in args.items():
        name = rename.get(key, key)
        out += [f"-{name}" if len(name) == 1 else f"--{name}", str(value)]
    return out


def commands(entries: Sequence[Any]) -> list[list[str]]:
    """The ``rocmath-bench`` argument lists of a YAML problem list.

    Raises
    ------
    ValueError
        For an entry of none of the three forms.
    """
    out: list[list[str]] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"problem {i + 1}: expected a mapping, got {entry!r}")
        e = dict(entry)
        if "problem" in e:
            words = shlex.split(str(e["problem"]))
            if words[:1] == ["rocmath-bench"]:
                words = words[1:]
            out.append(words)
            continue
        for lib in ("rocblas", "rocsolver", "rocfft", "rocsparse"):
            full = e.pop(f"{lib}_function", None)
            if full is not None:
                name = str(full).removeprefix(f"{lib}_")
                e.setdefault("library", lib.removeprefix("roc"))
                e["function"], e["precision"] = name[1:], name[0]
        library = str(e.pop("library", "blas"))
        function = e.pop("function", None)
        if function is None:
            raise ValueError(f"problem {i + 1}: no function (problem:, rocblas_function:, or function:)")
        args = ["-f", str(function)]
        if "precision" in e:
            args += ["-r", str(e.pop("precision"))]
        out.append([library, *args, *_flags(e, _BLAS_NAMES if library == "blas" else {})])
    return out


def run_files(paths: Sequence[str], main: Callable[..., int], out: TextIO | None = None) -> int:
    """Run every problem of the YAML files through ``main`` (``rocmath-bench``'s), in order."""
    import yaml

    from .report import Progress

    out = out or sys.stdout
    status = 0
    argvs: list[list[str]] = []
    for path in paths:  # every file read first: a bad one stops the run before it starts
        try:
            with open(path, encoding="utf-8") as f:
                entries = yaml.safe_load(f) or []
            argvs += commands(entries if isinstance(entries, list) else [entries])
        except (OSError, ValueError, yaml.YAMLError) as exc:
            sys.stderr.write(f"rocmath-bench: {path}: {exc}\n")
            return 2
    progress = Progress(len(argvs))
    for argv in argvs:
        progress.clear()
        out.write(f"# rocmath-bench {shlex.join(argv)}\n")
        status = max(status, main(argv, out=out))
        progress.step(" ".join(argv[:3]))
    progress.clear()
    return status
