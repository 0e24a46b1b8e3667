"""The benchmark runner: every figure beside its baseline, in one run.

::

    python -m benchmarks [--quick] [--only NAME ...] [--json PATH]

Prints one row per figure — figure, ours, baseline, ratio, target, met — and writes
the same rows as JSON (default ``benchmark-results.json``).  ``--quick`` runs small
sizes (CI runs it so the runner cannot rot; its times are not the figures).  The
exit code is 0 when every figure ran (whether or not its target is met), 1 when a
figure failed its correctness check or raised.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import traceback
from collections.abc import Sequence
from typing import Any

from .figures import FIGURES, Figure

__all__ = ["main"]


def _num(x: float | None, unit: str) -> str:
    if x is None:
        return "-"
    if unit == "share":
        return f"{x:.0%}"
    if unit == "/s":
        return f"{x:,.0f}/s"
    return f"{x:.2f}s" if x >= 0.01 else f"{x * 1000:.1f}ms"


def _table(rows: Sequence[Figure]) -> str:
    head = ("figure", "ours", "baseline", "ratio", "target", "met", "baseline is", "notes")
    lines = [head]
    for f in rows:
        ratio = "-" if f.ratio is None else f"{f.ratio:.1f}x"
        met = "-" if f.met is None else ("yes" if f.met else "NO")
        lines.append(
            (
                f.name,
                _num(f.ours, f.unit),
                _num(f.baseline, f.unit),
                ratio,
                f.target,
                met,
                f.baseline_label,
                "; ".join(f.notes),
            )
        )
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    out = []
    for j, r in enumerate(lines):
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _record(f: Figure) -> dict[str, Any]:
    return {
        "figure": f.name,
        "ours": f.ours,
        "baseline": f.baseline,
        "unit": f.unit,
        "ratio": f.ratio,
        "target": f.target,
        "met": f.met,
        "baseline_is": f.baseline_label,
        "notes": f.notes,
        "details": f.details,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the figures; return the exit code."""
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes (CI)")
    p.add_argument(
        "--only", nargs="+", metavar="NAME", help="run these figures (function names) only"
    )
    p.add_argument("--json", default="benchmark-results.json", metavar="PATH")
    args = p.parse_args(argv)
    figures = [f for f in FIGURES if not args.only or f.__name__ in args.only]
    rows: list[Figure] = []
    failed = 0
    t0 = time.perf_counter()
    for fig in figures:
        print(f"running {fig.__name__} ...", flush=True)
        try:
            out = fig(args.quick)
            rows.extend(out if isinstance(out, list) else [out])
        except Exception as err:
            failed += 1
            print(traceback.format_exc(), flush=True)
            rows.extend(
                getattr(err, "rows", None)
                or [Figure(fig.__name__, None, None, "s", "-", False, "-", ["FAILED"])]
            )
    print()
    print(_table(rows))
    doc = {
        "quick": args.quick,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds": round(time.perf_counter() - t0, 2),
        "figures": [_record(f) for f in rows],
    }
    with open(args.json, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, default=str)
        fh.write("\n")
    print(f"\nwritten {args.json}")
    return 1 if failed else 0
