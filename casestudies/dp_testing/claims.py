"""The registered claims of the DP testing suite: one claim ``dp_testing.<name>`` per
mechanism entry of :mod:`.products`, :mod:`.noisy_max`, :mod:`.svt` and
:mod:`.floating` that is decided (the mechanisms out of reach are listed in
:data:`OUT_OF_REACH` with the reason)."""

from __future__ import annotations

from casestudies import REGISTRY

from . import floating, noisy_max, products, svt
from .suite import DPSNIPER, STATDP, SuiteEntry, decide

__all__ = ["ENTRIES", "OUT_OF_REACH"]

#: Every mechanism of the suite, in the order of DP-Sniper's default experiment then
#: StatDP's algorithms.
ENTRIES: list[SuiteEntry] = [
    *products.ENTRIES,
    *noisy_max.ENTRIES,
    *svt.ENTRIES,
    *floating.ENTRIES,
]

#: The entries that are recorded, not decided, with the reason.
OUT_OF_REACH: list[SuiteEntry] = [e for e in ENTRIES if e.exact is None]

_TOOL = {"DP-Sniper": DPSNIPER, "StatDP": STATDP, "both": f"{DPSNIPER}; {STATDP}"}


def _statement(entry: SuiteEntry) -> str:
    text = f"{entry.source} is {entry.claimed}-DP on {entry.pairs} (its exact epsilon there)"
    if entry.exhaustive:
        text += f" and on {entry.exhaustive}"
    if entry.search is not None:
        text += f"; and on every neighbouring pair ({entry.search.notes})"
    return text


def _register(entry: SuiteEntry) -> None:
    REGISTRY.claim(
        id=entry.id,
        source=f"{_TOOL[entry.tool]}: {entry.source}",
        statement=entry.statement or _statement(entry),
        expected=entry.expected,
        kind=entry.kind,
        instances=entry.pairs,
        notes=entry.notes,
        casestudy="dp_testing",
        aliases=tuple(entry.aliases),
        search=entry.search,
        exhaustive=entry.exhaustive,
        scope_note=entry.scope_note,
        tightness=entry.tightness,
    )(lambda: decide(entry))


for _entry in ENTRIES:
    if _entry.exact is not None:
        _register(_entry)
