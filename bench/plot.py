"""``rocmath-bench plot RESULTS.json... -o OUT.png``: pictures of bench results.

For each case, two panels against size: the rate (GFLOP/s, or GB/s for cases that count only
bytes or stream memory) of rocmath and of its NumPy/SciPy reference, and the ratio reference /
rocmath with its bootstrap 95 % interval (above 1: rocmath is faster).  Several result files
(runs saved with ``--json`` over time, or on different machines) are overlaid, labelled by
their timestamp and host.  PNG or SVG, by the output's extension.  Needs matplotlib
(``pip install "rocmath[plot]"``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

__all__ = ["main", "plot"]


def _rates(row: dict[str, Any]) -> tuple[float | None, float | None, str]:
    """(rocmath rate, reference rate, unit) of one result row."""
    unit = row.get("throughput_unit") or ("GFLOP/s" if row.get("flops") else "GB/s")
    work = row.get("flops") if unit == "GFLOP/s" else row.get("bytes")
    warm, ref = row.get("warm"), row.get("reference")
    ours = work / warm["median_ns"] if work and warm and warm.get("median_ns") else None
    theirs = work / ref["median_ns"] if work and ref and ref.get("median_ns") else None
    return ours, theirs, unit


def _sizes(docs: Sequence[dict[str, Any]], case: str) -> list[str]:
    """The size labels of a case over all runs, by size when the sizes compare."""
    seen: dict[str, Any] = {}
    for doc in docs:
        for r in doc["results"]:
            if r["case"] == case:
                seen.setdefault(r["label"], r.get("size"))
    try:
        return sorted(seen, key=lambda label: seen[label])
    except TypeError:
        return list(seen)


def plot(docs: Sequence[dict[str, Any]], path: str, case_filter: str | None = None) -> list[str]:
    """Draw the cases of result documents (as ``rocmath-bench --json`` writes them) into
    ``path``; returns the cases drawn."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    cases: list[str] = []
    for doc in docs:
        for row in doc["results"]:
            if row["case"] not in cases and (case_filter is None or case_filter in row["case"]):
                cases.append(row["case"])
    if not cases:
        return []
    fig, axes = plt.subplots(len(cases), 2, figsize=(11, 2.8 * len(cases)), squeeze=False)
    for (ax_rate, ax_ratio), case in zip(axes, cases, strict=True):
        axis = _sizes(docs, case)  # one x position per size, shared by the runs
        for k, doc in enumerate(docs):
            rows = [r for r in doc["results"] if r["case"] == case and r.get("warm")]
            if not rows:
                continue
            run = f"{doc.get('timestamp', f'run {k + 1}')} {doc.get('machine', {}).get('hostname', '')}".strip()
            x = [axis.index(r["label"]) for r in rows]
            ours, theirs, units = zip(*(_rates(r) for r in rows), strict=True)
            ax_rate.plot(x, [v if v is not None else float("nan") for v in ours], "o-",
                         label=f"rocmath ({run})" if len(docs) > 1 else "rocmath")
            ax_rate.plot(x, [v if v is not None else float("nan") for v in theirs], "s--",
                         label=f"reference ({run})" if len(docs) > 1 else "NumPy/SciPy reference")
            ax_rate.set_ylabel(units[0])
            ratios = [r.get("ratio") if isinstance(r.get("ratio"), (int, float)) else float("nan") for r in rows]
            ci = [r.get("ratio_ci") or [v, v] for r, v in zip(rows, ratios, strict=True)]
            low = [max(v - c[0], 0) if isinstance(c[0], (int, float)) else 0 for v, c in zip(ratios, ci, strict=True)]
            high = [max(c[1] - v, 0) if isinstance(c[1], (int, float)) else 0 for v, c in zip(ratios, ci, strict=True)]
            ax_ratio.errorbar(x, ratios, yerr=[low, high], fmt="o-", capsize=3, label=run if len(docs) > 1 else None)
        for ax in (ax_rate, ax_ratio):
            ax.set_xticks(range(len(axis)), axis, rotation=20, fontsize=7)
        ax_ratio.axhline(1.0, color="grey", lw=0.8)
        ax_ratio.set_ylabel("reference / rocmath")
        ax_rate.set_title(case, fontsize=9, loc="left")
        ax_rate.legend(fontsize=7)
        if len(docs) > 1:
            ax_ratio.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return cases


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Entry of ``rocmath-bench plot``; returns the exit status (2: usage, 1: nothing to draw)."""
    p = argparse.ArgumentParser(prog="rocmath-bench plot", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", help="JSON files written by rocmath-bench --json")
    p.add_argument("-o", "--output", required=True, help="the picture: a .png or .svg path")
    p.add_argument("--case", default=None, metavar="SUBSTRING", help="only cases whose name contains SUBSTRING")
    args = p.parse_args(argv)
    out = out or sys.stdout
    if not args.output.lower().endswith((".png", ".svg")):
        sys.stderr.write("rocmath-bench plot: the output must end in .png or .svg\n")
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.stderr.write('rocmath-bench plot: needs matplotlib (pip install "rocmath[plot]")\n')
        return 2
    docs = []
    for path in args.results:
        with open(path, encoding="utf-8") as f:
            docs.append(json.load(f))
    drawn = plot(docs, args.output, args.case)
    if not drawn:
        sys.stderr.write("rocmath-bench plot: no case to draw\n")
        return 1
    out.write(f"{len(drawn)} case(s) drawn to {args.output}\n")
    return 0
