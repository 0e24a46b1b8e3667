"""Liu & Talwar 2019, "Private Selection from Private Candidates" — Appendix B.1:
outputting the best of K candidates is only Kε-DP, and that is tight.

The instance (B.1): candidate 0 always scores 0.9; each of the K other candidates
scores 0.8 or 0.95.  The algorithm draws one sample per candidate and outputs the
index of the best (ties to the higher index, SPEC §0).  The event "index 0 wins"
needs all K others at 0.8.

Finding: as printed, the candidates are *not* ε-DP.  On ``d1`` they score 0.95 w.p.
1/2 and on ``d1'`` w.p. ``1 - e^ε/2`` (the seed's ``(1-e^ε)/2`` is a typo), so the
ratio at 0.95 is ``1/(2 - e^ε)``, and ``1/(2-e^ε) <= e^ε`` iff ``(e^ε - 1)^2 <= 0``:
false for every ε > 0.  Their realized loss is ``-log(2 - e^ε) > ε``.  Replacing
the pair (1/2, e^ε/2) by randomized response (``1/(1+e^ε)`` vs ``e^ε/(1+e^ε)`` at
0.8) gives candidates that are exactly ε-DP, and the event "index 0 wins" then has
probability ratio exactly ``e^{Kε}``: Kε is attained, so the claim "best-of-K is
ε-DP" is refuted and "Kε-DP" holds with zero slack.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.compose import best_index, independent, postprocess
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair
from verifier.privacy import check_pure_dp
from verifier.results import CheckResult

R = sp.Rational
SOURCE = "Liu & Talwar 2019"
LOW, MID, HIGH = R(8, 10), R(9, 10), R(95, 100)


def candidate(p_low_d1: Any, p_low_d1p: Any, name: str) -> FiniteMechanism:
    """A candidate scoring 0.8 w.p. ``p_low_d1`` on d1 (``p_low_d1p`` on d1'), else 0.95."""
    return FiniteMechanism(
        pair("d1", "d1'"),
        {"d1": {LOW: p_low_d1, HIGH: 1 - p_low_d1}, "d1'": {LOW: p_low_d1p, HIGH: 1 - p_low_d1p}},
        [LOW, HIGH],
        name=name,
    )


def best_of_k(K: int, cand: FiniteMechanism) -> FiniteMechanism:
    """Index of the best of one sample of candidate 0 (always 0.9) and K candidates."""
    fixed = FiniteMechanism(cand.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID], name="cand0")
    return postprocess(
        independent(fixed, *([cand] * K)), best_index(lambda s: s), name=f"best-of-{K + 1}"
    )


def rr_candidate(eps: Any) -> FiniteMechanism:
    e = sp.exp(eps)
    return candidate(1 / (1 + e), e / (1 + e), "RR candidate")


EPS = R(1, 2)
K = 3


@claim(
    id="liu_talwar2019.B1.printed_candidates_dp",
    source=f"{SOURCE}, App. B.1",
    statement="the printed B.1 candidates (0.8 w.p. 1/2 vs e^eps/2) are eps-DP "
    "(refuted: ratio 1/(2 - e^eps) > e^eps at 0.95)",
    expected="refuted",
)
def printed_candidates() -> CheckResult:
    return check_pure_dp(candidate(R(1, 2), sp.exp(EPS) / 2, "printed candidate"), EPS)


@claim(
    id="liu_talwar2019.B1.best_of_k_eps",
    source=f"{SOURCE}, App. B.1",
    statement=f"best of K = {K} eps-DP candidates is eps-DP (eps = 1/2; refuted: 'index 0 "
    f"wins' has ratio e^(K eps))",
    expected="refuted",
)
def best_of_k_eps() -> CheckResult:
    return check_pure_dp(best_of_k(K, rr_candidate(EPS)), EPS)


@claim(
    id="liu_talwar2019.B1.best_of_k_Keps",
    source=f"{SOURCE}, App. B.1",
    statement=f"best of K = {K} eps-DP candidates is K eps-DP, attained exactly (eps = 1/2)",
    expected="holds",
)
def best_of_k_keps() -> CheckResult:
    return check_pure_dp(best_of_k(K, rr_candidate(EPS)), K * EPS)


@claim(
    id="liu_talwar2019.B1.best_of_k_Keps_all_eps",
    source=f"{SOURCE}, App. B.1",
    statement="best of K = 3 RR candidates is K eps-DP for every eps in [1/100, 3] "
    "(decided exactly by real-root isolation in e^eps)",
    expected="holds",
)
def best_of_k_keps_range() -> CheckResult:
    eps = sp.Symbol("epsilon", positive=True)
    return check_pure_dp(best_of_k(K, rr_candidate(eps)), K * eps, over=(eps, R(1, 100), 3))


@claim(
    id="liu_talwar2019.B1.best_of_k_eps_all_eps",
    source=f"{SOURCE}, App. B.1",
    statement="best of K = 3 RR candidates is eps-DP for every eps in [1/100, 3] (refuted "
    "on the whole range)",
    expected="refuted",
)
def best_of_k_eps_range() -> CheckResult:
    eps = sp.Symbol("epsilon", positive=True)
    return check_pure_dp(best_of_k(K, rr_candidate(eps)), eps, over=(eps, R(1, 100), 3))
