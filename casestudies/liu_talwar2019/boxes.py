"""Liu & Talwar 2019 over whole parameter boxes (decider ``box``).

* Theorem 3.2 (random stopping is ``3ε``-DP) on the three-candidate family ``Q_ε``
  (``D: (89/100, 1/100, 1/10)``, ``D': (1 - e^{-ε}/100 - e^{ε}/10, e^{-ε}/100,
  e^{ε}/10)``: the mid candidate shrinks and the high one grows by ``e^ε``, the
  compounding direction of the registered instance ``Q_3``, which is ``Q_{log 2}``),
  for every ``(ε, γ) ∈ [1/100, 2] × [1/1000, 1/2]``.  Premise, decided over the same
  box: ``Q_ε`` is a mechanism (its low probability at ``D'`` is ``>= 0``) and is
  ``ε``-DP (its low ratio needs ``(e^ε + 1)/10 <= 1``, true for ``ε <= log 9``).
* Random stopping is ``2ε``-DP (negative control) over a box of small ``γ`` around
  ``ε = log 2``: the failing region is reported as sub-boxes with an exact point.
* App. B.1, best of ``K`` candidates with heterogeneous budgets: the best of two
  randomized-response candidates ``RR(ε_1)``, ``RR(ε_2)`` (and a fixed one) is
  ``(ε_1 + ε_2)``-DP on the whole box, attained everywhere at "index 0 wins"; it is not
  ``max(ε_1, ε_2)``-DP anywhere in the box (negative control).
"""

from __future__ import annotations

import sympy as sp

from casestudies import claim
from verifier.algorithms.liu_talwar import random_stopping
from verifier.checks.privacy import check_distributions, check_pure_dp
from verifier.checks.results import CheckResult, conjunction, given
from verifier.mechanism.compose import best_index, independent, postprocess
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from .instances import HIGH, LOW, MID, candidate

R = sp.Rational
SOURCE = "Liu & Talwar 2019"

EPS, GAMMA = sp.symbols("eps gamma", positive=True)
E1, E2 = sp.symbols("eps_1 eps_2", positive=True)


def q_eps(eps: sp.Expr) -> FiniteMechanism:
    """The three-candidate family ``Q_ε`` (module docstring); built without the
    symbolic nonnegativity check, which the claims decide over their box instead."""
    return FiniteMechanism(
        pair(),
        {
            "D": {0: R(89, 100), 1: R(1, 100), 2: R(1, 10)},
            "D'": {
                0: 1 - sp.exp(-eps) / 100 - sp.exp(eps) / 10,
                1: sp.exp(-eps) / 100,
                2: sp.exp(eps) / 10,
            },
        },
        [0, 1, 2],
        name="Q_eps",
        validate=False,
    )


THM32 = {"eps": (R(1, 100), 2), "gamma": (R(1, 1000), R(1, 2))}


def _premise(Q: FiniteMechanism, box: dict) -> CheckResult:
    return conjunction(
        "Q_eps is an eps-DP mechanism on the box",
        [check_distributions(Q, box), check_pure_dp(Q, epsilon=EPS, over=box)],
    )


@claim(
    id="liu_talwar2019.thm32.box",
    source=f"{SOURCE}, Theorem 3.2",
    statement="random stopping on the eps-DP three-candidate family Q_eps is 3 eps-DP for "
    "every (eps, gamma) in [1/100, 2] x [1/1000, 1/2]",
    expected="holds",
    domain=THM32,
)
def thm32_box() -> CheckResult:
    Q = q_eps(EPS)
    return given(
        "Theorem 3.2 over the box",
        _premise(Q, THM32),
        check_pure_dp(random_stopping(Q, GAMMA), epsilon=3 * EPS, over=THM32),
    )


TWO_EPS = {"eps": (R(1, 2), 1), "gamma": (R(1, 1000), R(1, 100))}


@claim(
    id="liu_talwar2019.thm32.two_eps.box",
    source=f"{SOURCE}, Theorem 3.2 (a 2 eps claim; negative control)",
    statement="random stopping on Q_eps is 2 eps-DP for every (eps, gamma) in [1/2, 1] x "
    "[1/1000, 1/100] (refuted: the failing region as sub-boxes, an exact failing point)",
    expected="refuted",
    kind="negative-control",
    domain=TWO_EPS,
)
def thm32_two_eps_box() -> CheckResult:
    Q = q_eps(EPS)
    return given(
        "random stopping at 2 eps over the box",
        _premise(Q, TWO_EPS),
        check_pure_dp(random_stopping(Q, GAMMA), epsilon=2 * EPS, over=TWO_EPS),
    )


def rr_candidate(eps: sp.Expr, name: str) -> FiniteMechanism:
    """Randomized response between the scores 0.8 and 0.95 (App. B.1, corrected)."""
    e = sp.exp(eps)
    return candidate(1 / (1 + e), e / (1 + e), name)


def best_of_two(e1: sp.Expr, e2: sp.Expr) -> FiniteMechanism:
    """The index of the best of a fixed candidate (0.9) and ``RR(ε_1)``, ``RR(ε_2)``."""
    c1, c2 = rr_candidate(e1, "RR(eps_1)"), rr_candidate(e2, "RR(eps_2)")
    fixed = FiniteMechanism(c1.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID], name="cand0")
    return postprocess(independent(fixed, c1, c2), best_index(lambda s: s), name="best-of-3")


BUDGETS = {"eps_1": (R(1, 100), 3), "eps_2": (R(1, 100), 3)}


@claim(
    id="liu_talwar2019.B1.best_of_k.box",
    source=f"{SOURCE}, App. B.1",
    statement="the best of a fixed candidate and RR(eps_1), RR(eps_2) is (eps_1 + eps_2)-DP "
    "for every (eps_1, eps_2) in [1/100, 3]^2, attained everywhere ('index 0 wins')",
    expected="holds",
    domain=BUDGETS,
)
def best_of_k_box() -> CheckResult:
    return check_pure_dp(best_of_two(E1, E2), epsilon=E1 + E2, over=BUDGETS)


#: ``ε_1 >= ε_2`` on the whole box, so ``max(ε_1, ε_2) = ε_1`` there.
ORDERED = {"eps_1": (1, 3), "eps_2": (R(1, 100), 1)}


@claim(
    id="liu_talwar2019.B1.best_of_k_max.box",
    source=f"{SOURCE}, App. B.1 (negative control)",
    statement="the best of a fixed candidate and RR(eps_1), RR(eps_2) is max(eps_1, eps_2)-DP "
    "on [1, 3] x [1/100, 1] (refuted on the whole box: 'index 0 wins' has ratio "
    "e^(eps_1 + eps_2))",
    expected="refuted",
    kind="negative-control",
    domain=ORDERED,
)
def best_of_k_max_box() -> CheckResult:
    # Outputs (the best index, ties to the higher): 0 needs both candidates low,
    # ratio e^(eps_1 + eps_2) > e^(eps_1) everywhere; 1 (RR(eps_1) high, RR(eps_2) low)
    # has ratio e^(|eps_1 - eps_2|) and 2 (RR(eps_2) high) e^(eps_2): both <= e^(eps_1).
    return check_pure_dp(best_of_two(E1, E2), epsilon=sp.Max(E1, E2), over=ORDERED)


__all__ = ["HIGH", "LOW", "q_eps", "best_of_two"]
