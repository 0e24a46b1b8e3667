"""Tables and JSON of decided claims (``verifier casestudies``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..claims.model import ClaimOutcome
from ..results import label
from ..terminal import text_table

__all__ = [
    "where_attained",
    "outcomes_table",
    "outcomes_json",
    "outcomes_record",
    "tightness_table",
]


def where_attained(o: ClaimOutcome) -> str:
    """Where the worst slack of a decided claim is: its output and ordered pair of
    neighbouring datasets (``-`` for an aggregate quantity or a claim without
    findings)."""
    if o.result is None:
        return "-"
    w = o.result.worst()
    if w is None or (w.output is None and w.pair is None):
        return "-"
    parts = []
    if w.output is not None:
        parts.append(f"o={label(w.output)}")
    if w.pair is not None:
        parts.append(f"{label(w.pair[0])} -> {label(w.pair[1])}")
    return ", ".join(parts)


def outcomes_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Text table: claim, kind, source, expected, verdict, worst slack and where it is
    (output and ordered pair), time; for a claim over a box, the verdict says so and
    names the undecided share when any.  On a terminal long cells fold onto further
    lines (:func:`verifier.terminal.text_table`); a row is one line in a file or pipe."""
    head = ("claim", "kind", "source", "expected", "verdict", "worst slack", "at", "time", "")
    rows = []
    for o in outcomes:
        verdict = "ERROR" if o.error else (o.verdict.value if o.verdict else "-")
        und = o.undecided_fraction
        if und is not None and not o.error:
            verdict += " (box)" if und == 0 else f" (box, {float(und):.3g} undecided)"
        rows.append(
            (
                o.claim.id,
                o.claim.kind,
                o.claim.source,
                o.claim.expected,
                verdict,
                o.worst_slack(),
                where_attained(o),
                f"{o.seconds:.2f}s",
                "ok" if o.matches else "MISMATCH",
            )
        )
    lines = [text_table(head, rows, fold=(2, 5, 6))]
    n_ok = sum(o.matches for o in outcomes)
    lines.append(f"{n_ok} of {len(outcomes)} claims match their expected outcome")
    for o in outcomes:
        if o.error:
            lines.append(f"\n{o.claim.id} raised:\n{o.error}")
    return "\n".join(lines)


def outcomes_record(outcomes: Sequence[ClaimOutcome]) -> dict[str, Any]:
    """The JSON-ready record of decided claims."""
    return {
        "claims": [o.to_dict() for o in outcomes],
        "matched": sum(o.matches for o in outcomes),
        "total": len(outcomes),
    }


def outcomes_json(outcomes: Sequence[ClaimOutcome]) -> str:
    """:func:`outcomes_record` as indented JSON text."""
    return json.dumps(outcomes_record(outcomes), indent=2)


def tightness_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Plain-text table of the theorems' tightness: claim, status, realized/claimed and
    the instance (or family) behind it, then the families and limits of the
    ``approached`` ones and what was searched for the ``loose`` ones."""
    rows = []
    details = []
    for o in outcomes:
        if o.claim.kind != "theorem":
            continue
        t = o.tightness()
        if t is None:
            rows.append((o.claim.id, "-", "-", "(not decided)" if not o.matches else "(no ratio)"))
            continue
        ratio = "-" if t.ratio is None else f"{t.ratio:.7g}"
        rows.append((o.claim.id, t.status, ratio, t.instance))
        if t.status == "approached":
            details.append(f"{o.claim.id}: family {t.family}; limit: {t.limit}")
    lines = [text_table(("claim", "status", "ratio", "instance"), rows, fold=(3,))]
    counts = {s: sum(1 for r in rows if r[1] == s) for s in ("attained", "approached", "loose")}
    lines.append(
        f"{len(rows)} theorems: {counts['attained']} attained, {counts['approached']} "
        f"approached, {counts['loose']} loose"
    )
    lines.extend(details)
    return "\n".join(lines)
