"""The comparison table of the DP testing suite: for every mechanism, its claimed ε,
its exact ε (closed form and a float), the statistical lower bounds DP-Sniper and
StatDP published for it (:mod:`.published`), and a flag where a published lower bound
exceeds the exact value — decided exactly (the printed decimal, a rational, against
the exact ε with :func:`verifier.arithmetic.exact.decide_le`), never by comparing floats.

The rows follow DP-Sniper's logs (its default experiment, then the floating-point
experiments), each joined to the suite entry of :data:`casestudies.dp_testing.claims.
ENTRIES` that implements it, then the entries the logs do not name (StatDP's own
algorithms).  A mechanism of the logs without an entry is listed as such; an entry
out of reach shows its reason.  ``docs/dp-testing-suite.md`` is this module's output::

    python -m casestudies.dp_testing.table > docs/dp-testing-suite.md
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from verifier.arithmetic.exact import Verdict, approx, decide_le, exact

from . import claims
from .published import (
    MECHANISMS,
    PUBLISHED,
    RESULTS,
    STATDP_PIN,
    VARIANTS,
    Published,
    bounds_for,
    entry_name,
)
from .suite import ExactEpsilon, SuiteEntry

__all__ = [
    "Row",
    "rows",
    "exact_epsilon",
    "statdp_exact_epsilon",
    "markdown",
    "main",
    "LOWER_BOUNDS",
    "CLAIMED",
]

#: The columns of lower confidence bounds (flagged when above the exact ε).
LOWER_BOUNDS: tuple[str, ...] = ("dd_search_reg", "dd_search_mlp", "statdp_1", "statdp_2")
#: StatDP's own preliminary ε, shown in a second table.
CLAIMED: tuple[str, ...] = ("statdp_1_claimed", "statdp_2_claimed")

#: Closed forms longer than this are printed below the table, not in it.
_INLINE = 48

#: ``id(entry) -> (entry, its exact epsilon)``: keyed by the entry object itself (two
#: entries may share a name, e.g. in tests), which the value keeps alive.
_EXACT_CACHE: dict[int, tuple[SuiteEntry, ExactEpsilon]] = {}


def exact_epsilon(entry: SuiteEntry) -> ExactEpsilon:
    """``entry.exact()``, computed once per entry and process (the table, the notebook
    and its figure share it)."""
    if entry.exact is None:
        raise ValueError(f"{entry.id} is out of reach: {entry.out_of_reach}")
    if id(entry) not in _EXACT_CACHE:
        _EXACT_CACHE[id(entry)] = (entry, entry.exact())
    return _EXACT_CACHE[id(entry)][1]


#: ``id(entry) -> (entry, the exact epsilon of StatDP's instance)``.
_STATDP_CACHE: dict[int, tuple[SuiteEntry, ExactEpsilon]] = {}


def statdp_exact_epsilon(entry: SuiteEntry) -> ExactEpsilon | None:
    """``entry.statdp_exact()`` (the instance StatDP ran, when it is not the entry's),
    computed once per entry and process; ``None`` when StatDP ran the entry's own
    instance."""
    if entry.statdp_exact is None:
        return None
    if id(entry) not in _STATDP_CACHE:
        _STATDP_CACHE[id(entry)] = (entry, entry.statdp_exact())
    return _STATDP_CACHE[id(entry)][1]


def _is_statdp(variant: str) -> bool:
    return VARIANTS[variant].tool == "StatDP"


@dataclass(frozen=True)
class Row:
    """One mechanism of the table.

    ``status`` is the verdict of exact ε ≤ claimed ε (``holds``, ``violated``,
    ``undecided``), ``out of reach`` or ``no entry`` (named by the logs, not yet in
    the suite).  ``statdp_exact`` is the exact ε of the instance StatDP ran when it is
    not the entry's (``None`` otherwise).  ``above`` are the published values (lower
    bounds and StatDP's claims alike) decided to exceed the exact ε of the instance
    their tool ran, ``unresolved`` those the certified comparison could not separate
    from it.
    """

    name: str
    mechanism: str | None
    entry: SuiteEntry | None
    status: str
    exact: sp.Expr | None = None
    published: dict[str, Published] = field(default_factory=dict)
    above: tuple[Published, ...] = ()
    unresolved: tuple[Published, ...] = ()
    statdp_exact: sp.Expr | None = None

    @property
    def id(self) -> str:
        return f"dp_testing.{self.name}"

    def exact_for(self, variant: str) -> sp.Expr | None:
        """The exact ε a published value of ``variant`` is compared with: that of the
        instance its tool ran."""
        if self.statdp_exact is not None and _is_statdp(variant):
            return self.statdp_exact
        return self.exact

    @property
    def claimed(self) -> sp.Expr | None:
        return None if self.entry is None else exact(self.entry.claimed)

    def flagged(self, variants: Sequence[str]) -> list[Published]:
        """The values of ``variants`` above the exact ε."""
        return [p for p in self.above if p.variant in variants]


def _row(name: str, mechanism: str | None, entry: SuiteEntry | None) -> Row:
    published = PUBLISHED.get(mechanism, {}) if mechanism else {}
    if entry is None:
        return Row(name, mechanism, None, "no entry", published=published)
    if entry.exact is None:
        return Row(name, mechanism, entry, "out of reach", published=published)
    eps = exact_epsilon(entry).value
    run = statdp_exact_epsilon(entry)
    statdp_eps = None if run is None else run.value
    status = decide_le(eps, exact(entry.claimed)).verdict
    above, unresolved = [], []
    for p in published.values():
        target = statdp_eps if statdp_eps is not None and _is_statdp(p.variant) else eps
        v = decide_le(p.value, target).verdict
        if v is Verdict.VIOLATED:
            above.append(p)
        elif v is Verdict.UNDECIDED:
            unresolved.append(p)
    return Row(
        name,
        mechanism,
        entry,
        str(status),
        eps,
        published,
        tuple(above),
        tuple(unresolved),
        statdp_eps,
    )


def rows(entries: Sequence[SuiteEntry] | None = None) -> list[Row]:
    """The table's rows: every mechanism of DP-Sniper's logs in their order, joined to
    its suite entry (by name, or by DP-Sniper's class named in the entry's
    ``source``), then every other entry (default: :data:`claims.ENTRIES`)."""
    entries = list(claims.ENTRIES if entries is None else entries)
    matched: dict[str, SuiteEntry] = {}
    # by name first, so that an entry naming another's class in its source (a StatDP
    # algorithm "as DP-Sniper's ReportNoisyMax1") never takes that entry's row
    for e in entries:
        found = bounds_for(e.name)
        if found is not None and found[0] not in matched:
            matched[found[0]] = e
    for e in entries:
        if any(e is m for m in matched.values()):
            continue
        found = bounds_for(e.name, e.source)
        if found is not None and found[0] not in matched:
            matched[found[0]] = e
    out = [_row(entry_name(m), m, matched.get(m)) for m in MECHANISMS]
    used = {id(e) for e in matched.values()}
    out += [_row(e.name, None, e) for e in entries if id(e) not in used]
    return out


def _form(x: sp.Expr) -> str:
    return "∞" if x is sp.oo else str(x)


def _num(x: sp.Expr | float) -> str:
    """Six significant digits (display only), ``∞`` for an unbounded loss."""
    v = approx(x) if isinstance(x, sp.Basic) else float(x)
    return "∞" if v == float("inf") else f"{v:.6g}"


def _published_cell(row: Row, variant: str) -> str:
    p = row.published.get(variant)
    if p is None:
        return "—"
    text = _num(p.value)
    if p in row.above:
        return f"**{text}** ▲"
    if p in row.unresolved:
        return f"{text} ?"
    return text


def _exact_cells(row: Row, long_forms: list[tuple[str, str]]) -> tuple[str, str]:
    if row.status == "no entry":
        return "not in the suite yet", "—"
    if row.status == "out of reach":
        return "out of reach", "—"
    assert row.exact is not None
    form = "∞" if row.exact is sp.oo else str(row.exact)
    if len(form) > _INLINE:
        long_forms.append((row.id, form))
        form_cell = f"see [{len(long_forms)}]"
    else:
        form_cell = f"`{form}`"
    return form_cell, _num(row.exact)


def _exact_name(row: Row, variant: str) -> str:
    return "exact of StatDP's run" if row.exact_for(variant) is not row.exact else "exact"


def _flag_cell(row: Row, variants: Sequence[str]) -> str:
    flagged = row.flagged(variants)
    if not flagged:
        return "?" if any(p.variant in variants for p in row.unresolved) else ""
    return "; ".join(f"{p.label} {_num(p.value)} > {_exact_name(row, p.variant)}" for p in flagged)


def _md_table(head: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return lines


def markdown(table: Sequence[Row] | None = None) -> str:
    """The table in Markdown (what ``docs/dp-testing-suite.md`` holds)."""
    table = rows() if table is None else list(table)
    long_forms: list[tuple[str, str]] = []
    decided = [r for r in table if r.exact is not None]
    out = [
        "# The DP testing suite: exact ε against the published lower bounds",
        "",
        "<!-- Generated by `python -m casestudies.dp_testing.table > "
        "docs/dp-testing-suite.md`; do not edit (tests/casestudies/dp_testing/"
        "test_table.py checks it is up to date). -->",
        "",
        "The mechanisms of DP-Sniper's default and floating-point experiments "
        "(Bichsel et al. 2021, `dpsniper/experiments/`) and of StatDP's algorithms "
        "(Ding et al. 2018, `statdp/algorithms.py`), each on the tools' own parameters "
        "and input pairs (`casestudies/dp_testing/`, claims `dp_testing.<name>`, "
        "`verifier casestudies dp_testing`).  *exact ε* is the largest privacy loss "
        "over those input pairs (both orders) and all outputs, as a closed form and "
        "rounded to 6 significant digits; *verdict* decides exact ε ≤ claimed ε (each "
        "theorem's claim also decides its statement beyond these pairs — on a finite "
        "domain that bounds every neighbouring pair, or by a search over neighbouring "
        "answer vectors: `verifier casestudies dp_testing --scope`, "
        "`casestudies/dp_testing/NOTES.md`).  The "
        "published values are the lower confidence bounds (confidence 0.9) of "
        f"DP-Sniper's reference results (`{RESULTS}/*.log` of eth-sri/dp-sniper, "
        "`casestudies/dp_testing/published.py` cites file and line of each), printed "
        "to 6 significant digits.  **Bold ▲** marks a published lower bound that "
        "exceeds the exact ε — decided exactly, the printed decimal as a rational "
        "against the exact value — i.e. a confidence miss; `?` one the certified "
        "comparison could not separate from it."
        + (
            "  Where DP-Sniper's StatDP wrapper ran another instance than DP-Sniper ("
            + ", ".join(r.mechanism or r.name for r in table if r.statdp_exact is not None)
            + ': section "Where StatDP ran another instance"), StatDP\'s values are '
            "compared with the exact ε of StatDP's instance."
            if any(r.statdp_exact is not None for r in table)
            else ""
        ),
        "",
        f"{len(table)} mechanisms: {len(decided)} decided exactly, "
        f"{sum(r.status == 'out of reach' for r in table)} out of reach, "
        f"{sum(r.status == 'no entry' for r in table)} named by the logs without a suite "
        f"entry yet; {sum(bool(r.flagged(LOWER_BOUNDS)) for r in table)} with a "
        "published lower bound above the exact ε.",
        "",
    ]
    head = [
        "mechanism",
        "claim",
        "claimed ε",
        "exact ε",
        "≈",
        "verdict",
        *(VARIANTS[v].label for v in LOWER_BOUNDS),
        "lower bound above exact",
    ]
    body = []
    for r in table:
        form, num = _exact_cells(r, long_forms)
        claimed = "—" if r.claimed is None else f"`{r.claimed}`"
        status = "" if r.status in ("no entry", "out of reach") else r.status
        body.append(
            [
                r.mechanism or r.name,
                "" if r.entry is None else f"`{r.id}`",
                claimed,
                form,
                num,
                status,
                *(_published_cell(r, v) for v in LOWER_BOUNDS),
                _flag_cell(r, LOWER_BOUNDS),
            ]
        )
    out += _md_table(head, body)
    if long_forms:
        out += ["", "Closed forms too long for the table:", ""]
        out += [f"{i}. `{name}`: `{form}`" for i, (name, form) in enumerate(long_forms, 1)]

    out += [
        "",
        "## StatDP's own claims",
        "",
        "The ε StatDP's binary search reports before DP-Sniper's re-estimation "
        '(`statdp_result.eps_preliminary`, drawn as "StatDP claimed" by '
        "`eval_sp2021/plots/create_plots.py`): a hypothesis test's output with no "
        "confidence bound attached, listed for completeness; **bold ▲** where it "
        "exceeds the exact ε.",
        "",
    ]
    claimed_rows = [r for r in table if any(v in r.published for v in CLAIMED)]
    body = [
        [
            r.mechanism or r.name,
            "—" if r.exact is None else _num(r.exact),
            "same" if r.statdp_exact is None else f"{_num(r.statdp_exact)} (below)",
            *(_published_cell(r, v) for v in CLAIMED),
            _flag_cell(r, CLAIMED),
        ]
        for r in claimed_rows
    ]
    out += _md_table(
        [
            "mechanism",
            "exact ε ≈",
            "exact ε of StatDP's run ≈",
            *(VARIANTS[v].label for v in CLAIMED),
            "claim above exact",
        ],
        body,
    )

    other = [r for r in table if r.statdp_exact is not None]
    if other:
        out += [
            "",
            "## Where StatDP ran another instance",
            "",
            "DP-Sniper's StatDP wrapper (`statdpwrapper/experiments/mechanism_config.py`, "
            "`statdpwrapper/algorithms_ext.py` of eth-sri/dp-sniper, with StatDP pinned "
            f"at {STATDP_PIN}) runs these mechanisms with other "
            "parameters or other input text than DP-Sniper's own experiment: StatDP's "
            "published values (StatDP-Fixed and StatDP claimed) are compared with the "
            "exact ε of the instance StatDP ran, DP-Sniper's with that of DP-Sniper's.",
            "",
        ]
        for r in other:
            assert r.entry is not None and r.exact is not None
            out.append(
                f"- {r.mechanism or r.name} (`{r.id}`): exact ε `{_form(r.exact)}` ≈ "
                f"{_num(r.exact)} on DP-Sniper's instance, `{_form(r.statdp_exact)}` ≈ "
                f"{_num(r.statdp_exact)} on StatDP's. {r.entry.statdp_note}."
            )

    reach = [r for r in table if r.status == "out of reach"]
    if reach:
        out += ["", "## Out of reach", ""]
        for r in reach:
            assert r.entry is not None
            out.append(f"- `{r.id}` ({r.entry.source}): {r.entry.out_of_reach}")

    flagged = [p for r in table for p in r.above]
    if flagged:
        out += ["", "## Published values above the exact ε, cited", ""]
        for r in table:
            for p in r.above:
                value = r.exact_for(p.variant)
                out.append(
                    f"- `{r.id}`: {p.label} {p.printed} > {_exact_name(r, p.variant)} "
                    f"`{value}` ≈ {_num(value) if value is not None else '—'} ({p.citation})"
                )

    out += ["", "## Sources", ""]
    for v in VARIANTS.values():
        out.append(f"- {v.label}: `{RESULTS}/{v.file}`, `{v.field}` — {v.description}.")
    out.append(
        "- DP-Sniper (NN) of the floating-point rows: `"
        f"{RESULTS}/floating_point_data.log` and `floating_fixed_data.log`, `eps_lcb`."
    )
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write :func:`markdown` to standard output."""
    if argv:
        print("usage: python -m casestudies.dp_testing.table > docs/dp-testing-suite.md")
        return 2
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
