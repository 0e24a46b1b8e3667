"""Tables and JSON of decided claims (``verifier casestudies``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..claims.model import ClaimOutcome
from ..claims.scope import SCOPE_KINDS
from ..runtime.terminal import text_table

__all__ = [
    "where_attained",
    "outcomes_table",
    "outcomes_json",
    "outcomes_record",
    "tightness_table",
    "scope_table",
    "scope_counts",
]


def where_attained(o: ClaimOutcome) -> str:
    """Where the worst slack of a decided claim is: its output and ordered pair of
    neighbouring datasets (``-`` for an aggregate quantity or a claim without
    findings; :meth:`~verifier.claims.model.ClaimOutcome.where`)."""
    return o.where()


def outcomes_table(
    outcomes: Sequence[ClaimOutcome], *, wide: bool = False, width: int | None = None
) -> str:
    """Text table: claim, kind, source, expected, verdict, worst slack and where it is
    (output and ordered pair), time; for a claim over a box, the verdict says so and
    names the undecided share when any.  On a terminal (or at ``width``) long cells
    fold onto further lines (:func:`verifier.runtime.terminal.text_table`); unless
    ``wide``, source and at are left out when a row does not fit on one line, then time
    and kind when even folding cannot fit (80 columns keep claim, expected, verdict,
    slack and the match); a row is one line in a file or pipe."""
    head = ("claim", "kind", "source", "expected", "verdict", "worst slack", "at", "time", "")
    rows = []
    for o in outcomes:
        verdict = "ERROR" if o.error else o.verdict_label
        if not o.error:
            verdict += f" — {o.scope.label()}"
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
    optional, drop = ((), ()) if wide else ((2, 6), (7, 1))
    lines = [
        text_table(head, rows, width=width, fold=(0, 2, 4, 5, 6), optional=optional, drop=drop)
    ]
    n_ok = sum(o.matches for o in outcomes)
    lines.append(f"{n_ok} of {len(outcomes)} claims match their expected outcome")
    counts = scope_counts(outcomes)
    total = {k: sum(c.get(k, 0) for c in counts.values()) for k in SCOPE_KINDS}
    lines.append(
        "scope of the verdicts: "
        + ", ".join(f"{total[k]} {k}" for k in SCOPE_KINDS if total[k])
        + " (verifier casestudies --scope: per paper and kind)"
    )
    for o in outcomes:
        if o.error:
            lines.append(f"\n{o.claim.id} raised:\n{o.error}")
    return "\n".join(lines)


def scope_counts(outcomes: Sequence[ClaimOutcome]) -> dict[tuple[str, str], dict[str, int]]:
    """(paper, claim kind) -> scope kind -> number of decided claims (claims that raised
    are left out)."""
    out: dict[tuple[str, str], dict[str, int]] = {}
    for o in outcomes:
        if o.error:
            continue
        row = out.setdefault((o.claim.paper, o.claim.kind), {})
        k = o.scope.kind
        row[k] = row.get(k, 0) + 1
    return out


def scope_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Per paper and claim kind, how many verdicts sit at each scope (box, range,
    exhaustive, search, instances), then the claims decided on instances only with
    the reason each gives."""
    counts = scope_counts(outcomes)
    head = ("paper", "kind", *SCOPE_KINDS, "total", "beyond instances")
    rows = []
    for (paper, kind), row in sorted(counts.items()):
        n = sum(row.values())
        beyond = n - row.get("instances", 0)
        rows.append(
            (paper, kind, *(str(row.get(k, 0)) for k in SCOPE_KINDS), str(n), f"{beyond / n:.0%}")
        )
    lines = [text_table(head, rows)]
    thm = [o for o in outcomes if not o.error and o.claim.kind in ("theorem", "proof-step")]
    if thm:
        beyond = sum(1 for o in thm if o.scope.kind != "instances")
        lines.append(
            f"theorem and proof-step claims beyond their registered instances: {beyond} of "
            f"{len(thm)} ({beyond / len(thm):.0%})"
        )
    stay = [o for o in thm if o.scope.kind == "instances"]
    if stay:
        lines.append("decided on their registered instances only:")
        for o in stay:
            why = o.scope.why or "(no reason given)"
            lines.append(f"  {o.claim.id}: {why}")
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
