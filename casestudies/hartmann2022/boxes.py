"""Hartmann et al. 2022 over a whole parameter box (decider ``box``).

Theorem 7 (Alg. 1) against the adaptive adversary of the paper's introduction: play the
toy mechanism (a fair coin; heads → randomized response ``RR(ε_1)``, tails → ``⊥``)
with the guarantee ``({⊥}: 0, {0, 1}: ε_1)``; then spend *what is left* of the global
budget ``ε_g`` on randomized response: ``RR(ε_g)`` after ``⊥`` (which cost nothing),
``RR(ε_g - ε_1)`` after an answer.  The view ``(first, second)`` has

    ``P_D(⊥, r) = RR_{ε_g}(D)(r)/2``,
    ``P_D(o, r) = RR_{ε_1}(D)(o) RR_{ε_g - ε_1}(D)(r)/2``,

and Theorem 7 says it is ``(ε_g, 0)``-DP.  Decided for every ``(ε_1, ε_g) ∈ [1/100, 1] ×
[3/2, 3]`` (so ``ε_g - ε_1 >= 1/2``), with each move's guarantee (the premise) decided over
the same box; the bound is attained everywhere, at ``(⊥, 1)`` and at ``(1, 1)``
(ratios exactly ``e^{ε_g}``).  The registered point claims unfold the same game through
:func:`verifier.odp.guarantees.odp_composition`, whose adversary compares budgets exactly; here
the budgets are symbols, so the two-round transcript is written out.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.privacy import check_pure_dp
from verifier.checks.results import CheckResult, given
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.odp.ptr import BOTTOM

R = sp.Rational
SOURCE = "Hartmann et al. 2022"

E1, EG = sp.symbols("eps_1 eps_g", positive=True)
DOMAIN = {"eps_1": (R(1, 100), 1), "eps_g": (R(3, 2), 3)}


def _rr(eps: Any, d: str, r: int) -> sp.Expr:
    """``RR(ε)`` on the pair ``D ~ D'``: output 1 w.p. ``e^ε/(1+e^ε)`` at ``D``."""
    e = sp.exp(eps)
    high = e / (1 + e)
    return (high if r == 1 else 1 - high) if d == "D" else (1 - high if r == 1 else high)


def toy_then_rr(e1: Any, eg: Any) -> FiniteMechanism:
    """The view of the two-round game (module docstring)."""
    half = R(1, 2)
    dists = {}
    for d in ("D", "D'"):
        row: dict[Any, sp.Expr] = {(BOTTOM, r): half * _rr(eg, d, r) for r in (0, 1)}
        for o in (0, 1):
            for r in (0, 1):
                row[(o, r)] = half * _rr(e1, d, o) * _rr(eg - e1, d, r)
        dists[d] = row
    outs = [(BOTTOM, 0), (BOTTOM, 1), (0, 0), (0, 1), (1, 0), (1, 1)]
    return FiniteMechanism(pair(), dists, outs, name="toy then RR(rest)")


def toy(e1: Any) -> FiniteMechanism:
    half = R(1, 2)
    return FiniteMechanism(
        pair(),
        {d: {BOTTOM: half, 0: half * _rr(e1, d, 0), 1: half * _rr(e1, d, 1)} for d in ("D", "D'")},
        [BOTTOM, 0, 1],
        name="toy(eps_1)",
    )


@claim(
    id="hartmann2022.theorem7.box",
    source=f"{SOURCE}, Theorem 7 / Alg. 1",
    statement="the toy mechanism ({bot}: 0, {0,1}: eps_1), then randomized response with the "
    "budget left (eps_g after bot, eps_g - eps_1 after an answer): the view is (eps_g, 0)-DP "
    "for every (eps_1, eps_g) in [1/100, 1] x [3/2, 3], attained everywhere",
    expected="holds",
    domain=DOMAIN,
)
def theorem7_box() -> CheckResult:
    # the moves' guarantees: the cell {bot} costs 0 (probability 1/2 at D and at D'),
    # the answers cost eps_1 (the toy is eps_1-DP on the box); the second move is
    # RR(rest), exactly rest-DP
    cells = check_pure_dp(toy(E1), epsilon=E1, over=DOMAIN, title="toy: the answers cost eps_1")
    view = check_pure_dp(toy_then_rr(E1, EG), epsilon=EG, over=DOMAIN)
    return given("Theorem 7 over the box", cells, view)
