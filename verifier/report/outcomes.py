"""Tables and JSON of decided claims (``verifier casestudies``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..claims.model import ClaimOutcome

__all__ = ["outcomes_table", "outcomes_json", "outcomes_record", "tightness_table"]


def outcomes_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Plain-text table: claim, kind, source, expected, verdict, worst slack, time; for
    a claim over a box, the verdict says so and names the undecided share when any."""
    head = ("claim", "kind", "source", "expected", "verdict", "worst slack", "time", "")
    rows = [head]
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
                f"{o.seconds:.2f}s",
                "ok" if o.matches else "MISMATCH",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
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
    rows = [("claim", "status", "ratio", "instance")]
    details = []
    for o in outcomes:
        if o.claim.kind != "theorem":
            continue
        t = o.tightness()
        if t is None:
            rows.append((o.claim.id, "-", "-", "(not decided)" if not o.matches else "(no ratio)"))
            continue
        ratio = "-" if t.ratio is None else f"{t.ratio:.7g}"
        inst = t.instance if len(t.instance) <= 70 else t.instance[:67] + "..."
        rows.append((o.claim.id, t.status, ratio, inst))
        if t.status == "approached":
            details.append(f"{o.claim.id}: family {t.family}; limit: {t.limit}")
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    counts = {s: sum(1 for r in rows[1:] if r[1] == s) for s in ("attained", "approached", "loose")}
    lines.append(
        f"{len(rows) - 1} theorems: {counts['attained']} attained, {counts['approached']} "
        f"approached, {counts['loose']} loose"
    )
    lines.extend(details)
    return "\n".join(lines)
