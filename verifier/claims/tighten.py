"""Can a decider see failures?  The tightened statement of an attained bound.

A decider that has never refuted anything is untested.  For a theorem whose bound is
attained or approached, the same statement with its bound tightened by a small factor
is false, and the claim's own decision must show it: :func:`tightened` re-decides every
inequality the claim's decision established (same instances, same box or range, same
exact quantities — the realized value against the claimed bound of each finding of the
conclusion; premises are left as they are) against the bound tightened by the factor
``1 - eta`` (an upper bound ``C`` becomes ``C - eta |C|``, a lower bound ``C + eta |C|``;
a zero bound moves by ``eta``), exactly: a rational or certified comparison at a
point, :func:`verifier.checks.boxes.decide_on_box` over a box, exact real-root isolation over
a range.  The tightened statement is refuted when some finding fails.

Over a box or a range the claimed bound is symbolic; it is scaled by ``1 - eta`` (or
``1 + eta`` for a lower bound), which tightens it where it is positive — the case of
every privacy bound (ε, ε̃(o), δ, a Rényi ε).

>>> import sympy as sp
>>> from verifier.claims import Claim
>>> from verifier.checks.privacy import check_pure_dp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> h, q = sp.Rational(3, 4), sp.Rational(1, 4)
>>> M = FiniteMechanism(pair("D", "D'"), {"D": {"y": h, "n": q}, "D'": {"y": q, "n": h}})
>>> c = Claim(id="demo.rr", source="-", statement="RR is log 3-DP", expected="holds",
...           check=lambda: check_pure_dp(M, epsilon=sp.log(3)))
>>> t = tightened(c.run())
>>> t.verdict.value, t.where
('violated', "output n, pair D' -> D")
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, decide_le, exact
from ..checks.boxes import Box, decide_on_box
from ..checks.results import Finding, label
from ..errors import VerifierError
from .model import ClaimOutcome

__all__ = ["DEFAULT_ETA", "Tightened", "tightened"]

#: The default tightening factor: bounds are tightened by 1%.
DEFAULT_ETA = Fraction(1, 100)


@dataclass(frozen=True)
class Tightened:
    """The decision of a claim's statement with its bounds tightened.

    ``verdict`` is ``VIOLATED`` when some finding of the decision fails against its
    tightened bound (``where`` names it), ``HOLDS`` when every finding still holds
    (the decider cannot see the tightening: a miss), ``UNDECIDED`` otherwise;
    ``checked`` counts the findings re-decided and ``skipped`` those with no
    comparable bound (infinite or non-numeric sides).
    """

    verdict: Verdict
    eta: Fraction
    checked: int
    skipped: int
    where: str = ""
    note: str = ""


def _tight_bound(c: sp.Expr, eta: sp.Rational, lower: bool) -> sp.Expr:
    if c.free_symbols:
        return c * (1 + eta) if lower else c * (1 - eta)
    if c == 0:
        return eta if lower else -eta
    mag = sp.Abs(c)
    return c + eta * mag if lower else c - eta * mag


def _where(f: Finding) -> str:
    parts = []
    if f.output is not None:
        parts.append(f"output {label(f.output)}")
    if f.pair is not None:
        parts.append(f"pair {label(f.pair[0])} -> {label(f.pair[1])}")
    return ", ".join(parts) or "a finding"


def _decide(f: Finding, bound: sp.Expr) -> Verdict:
    """``realized <= bound`` (``>=`` for a lower bound) over the finding's domain."""
    lo, hi = (bound, f.realized) if f.lower_bound else (f.realized, bound)
    dom = f.domain
    if dom is None or not (lo.free_symbols or hi.free_symbols):
        return decide_le(lo, hi).verdict
    if isinstance(dom, Box):
        return decide_on_box(dom.bind(lo), dom.bind(hi), dom).verdict
    from ..checks.ranges import decide_on_interval

    return decide_on_interval(lo, hi, dom.symbol, dom.lo, dom.hi).verdict


def tightened(outcome: ClaimOutcome, eta: Fraction = DEFAULT_ETA) -> Tightened:
    """Decide ``outcome``'s statement with every bound tightened by ``eta`` (module
    docstring)."""
    e = sp.Rational(eta.numerator, eta.denominator)
    if outcome.result is None:
        return Tightened(Verdict.UNDECIDED, eta, 0, 0, note="the claim was not decided")
    checked = skipped = 0
    undecided = False
    for f in outcome.result.all_findings():
        if f.verdict is not Verdict.HOLDS:
            continue
        r, c = exact(f.realized), exact(f.claimed)
        if any(x in (sp.oo, -sp.oo, sp.zoo, sp.nan) for x in (r, c)) or not isinstance(c, sp.Expr):
            skipped += 1
            continue
        g: Any = Finding(
            f.verdict,
            f.output,
            f.pair,
            r,
            c,
            f.lhs,
            f.rhs,
            lower_bound=f.lower_bound,
            region=f.region,
            over=f.over,
        )
        try:
            v = _decide(g, _tight_bound(c, e, f.lower_bound))
        except VerifierError:
            undecided = True
            continue
        checked += 1
        if v is Verdict.VIOLATED:
            return Tightened(Verdict.VIOLATED, eta, checked, skipped, where=_where(f))
        if v is Verdict.UNDECIDED:
            undecided = True
    if checked == 0 and not undecided:
        return Tightened(
            Verdict.UNDECIDED, eta, 0, skipped, note="no finding compares a value with a bound"
        )
    return Tightened(Verdict.UNDECIDED if undecided else Verdict.HOLDS, eta, checked, skipped)
