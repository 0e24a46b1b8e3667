"""Hartmann et al. 2022: the displayed steps of the proof of Theorem 7 (App. B, Lemma 20
and the induction), each a claim of kind ``proof-step`` decided over a box of its
parameters (:mod:`verifier.claims.steps`) or, where it quantifies over adversaries,
by a worst-case search (:func:`.search.theorem7_search`).  The steps of Theorem 15's
proof are in :mod:`.iterative`.

Lemma 20 is the one-round step of Theorem 7's induction: ``M`` is ``(P, e, δ)``-ODP
with cells ``S_j``; after an output ``y ∈ S_j`` the continuation views ``X^0_y,
X^1_y`` are ``(ε_g - e(S_j), δ_g - δ)``-close; then ``(M, X_M)`` is ``(ε_g, δ_g)``-close.
Its proof splits a set ``V`` of views into slices ``V_j = V ∩ (S_j × Z)`` and bounds
each slice with the positive part ``μ_j^+`` of ``Pr[M(D^0) ∈ ·] - e^{e(S_j)} Pr[M(D^1)
∈ ·]`` on ``S_j`` (Eqs. (6)–(8)), then sums the slices with ``Σ_j μ_j^+(S_j) <= δ``
(Eq. (9), the ODP guarantee read as a sum over the cells).

**Eq. (8), one output at a time.**  Every term of a slice is a sum over the outputs
``y ∈ S_j``, so Eq. (8) is the sum over ``y`` of

    ``P · min(1, c x + δ') <= a Q · c x + δ' P + max(0, P - a Q)``

with ``P = Pr[M(D^b) = y]``, ``Q = Pr[M(D^{1-b}) = y]``, ``a = e^{e(S_j)}``,
``c = e^{ε_g - e(S_j)}`` (so ``a c = e^{ε_g}``), ``x = Pr[X^{1-b}_y ∈ V_y]`` and
``δ' = δ_g - δ``; the left side bounds ``P · Pr[X^b_y ∈ V_y]`` by Eq. (7).  The proof's
two cases — ``P <= aQ`` or not (Eq. (6): ``μ^+`` takes the excess) and ``c x + δ' <= 1``
or not (the minimum of Eq. (7)) — make four polynomial inequalities, each decided over
a box: write ``r = aQ``, and ``P = r s`` (``s ∈ [0, 1]``) or ``P = r + g``
(``g >= 0``), and ``c x = (1 - δ') t`` (``t ∈ [0, 1]``) or ``c x = 1 - δ' + t'``
(``t' >= 0``).  Both sides are linear in ``(P, Q)`` jointly (so the box ``r ∈ [0, 8]``,
``g ∈ [0, 1]`` covers every scale) and the difference is non-decreasing in ``t'``
(so ``t' ∈ [0, 8]`` loses nothing).
"""

from __future__ import annotations

import sympy as sp

from casestudies import claim
from verifier.checks.results import CheckResult
from verifier.claims.steps import Step, decide_steps

from . import search as S

SRC = "Hartmann et al. 2022"

r, s, g, dp, t, tp = sp.symbols("r s g delta_prime t t_prime", nonnegative=True)
dg, r1, r2, mass = sp.symbols("delta_g r_1 r_2 m", nonnegative=True)

EQ8 = [
    Step(
        "Eq. (8), P <= e^e(S_j) Q and c x + delta' <= 1",
        r * s * ((1 - dp) * t + dp),
        r * (1 - dp) * t + r * s * dp,
        domain={r: (0, 8), s: (0, 1), dp: (0, 1), t: (0, 1)},
        note="mu^+ takes nothing; P c x <= a Q c x",
    ),
    Step(
        "Eq. (8), P <= e^e(S_j) Q and c x + delta' >= 1",
        r * s,
        r * (1 - dp + tp) + r * s * dp,
        domain={r: (0, 8), s: (0, 1), dp: (0, 1), tp: (0, 8)},
        note="the minimum of Eq. (7) is 1",
    ),
    Step(
        "Eq. (8), P > e^e(S_j) Q and c x + delta' <= 1",
        (r + g) * ((1 - dp) * t + dp),
        r * (1 - dp) * t + (r + g) * dp + g,
        domain={r: (0, 8), g: (0, 1), dp: (0, 1), t: (0, 1)},
        note="Eq. (6): the excess P - a Q goes to mu_j^+",
    ),
    Step(
        "Eq. (8), P > e^e(S_j) Q and c x + delta' >= 1",
        r + g,
        r * (1 - dp + tp) + (r + g) * dp + g,
        domain={r: (0, 8), g: (0, 1), dp: (0, 1), tp: (0, 8)},
        note="Eq. (6) and the minimum of Eq. (7) is 1",
    ),
]


@claim(
    id="hartmann2022.theorem7.step.slice_bound",
    source=f"{SRC}, App. B, proof of Lemma 20, Eqs. (6)-(8) (one slice V_j)",
    statement="for every slice V_j ⊆ S_j × Z: Pr[(M(D^b), X^b) in V_j] <= e^(eps_g) Pr[(M(D^(1-b)), "
    "X^(1-b)) in V_j] + (delta_g - delta) Pr[M(D^b) in S_j] + mu_j^+(S_j), given Pr[X^b_y in V_y] <= "
    "min(1, e^(eps_g - e(S_j)) Pr[X^(1-b)_y in V_y] + delta_g - delta): output by output, in the "
    "proof's four cases, decided for every value of the parameters (module docstring)",
    expected="holds",
    kind="proof-step",
)
def lemma20_slice() -> CheckResult:
    return decide_steps("Eq. (8), output by output", EQ8)


EQ9 = [
    Step(
        "Eq. (9): sum of the slices",
        (dg - dg * r1) * mass + dg * r1 * r2,
        dg,
        domain={dg: (0, 1), r1: (0, 1), r2: (0, 1), mass: (0, 1)},
        note="delta = r_1 delta_g <= delta_g (the move fits), sum_j mu_j^+(S_j) = r_2 delta <= delta "
        "(Def. 2, sum reading), sum_j Pr[M in S_j] = m <= 1",
    ),
]


@claim(
    id="hartmann2022.theorem7.step.odp_sum",
    source=f"{SRC}, App. B, proof of Lemma 20, Eq. (9)",
    statement="the (P, e, delta)-ODP guarantee (Def. 2, a sum over the cells) gives sum_j "
    "mu_j^+(S_j) <= delta, and summing Eq. (8) over the slices gives Pr[(M, X) in V] <= "
    "e^(eps_g) Pr[...] + (delta_g - delta) sum_j Pr[M in S_j] + sum_j mu_j^+(S_j) <= ... + delta_g, "
    "for every delta <= delta_g, every mass and every mu",
    expected="holds",
    kind="proof-step",
)
def lemma20_odp_sum() -> CheckResult:
    return decide_steps("Eq. (9)", EQ9)


@claim(
    id="hartmann2022.theorem7.step.continuations",
    source=f"{SRC}, App. B, proof of Theorem 7, the induction step (the line invoking the induction "
    "hypothesis, then Lemma 20)",
    statement="after an output y in S_j the rest of the game is played with budgets (eps_g - e(S_j), "
    "delta_g - delta): its views are (eps_g - e(S_j), delta_g - delta)-close, the premise Lemma 20 "
    "consumes — searched over finite adaptive adversaries (the game after the first output whose "
    "continuation comes closest to its budget)",
    expected="holds",
    kind="proof-step",
    instances="the randomized-response continuation of one instance (a continuation is itself a game)",
    search=S.theorem7_search("hartmann2022.theorem7.step.continuations", continuation=True),
)
def theorem7_continuations() -> CheckResult:
    from verifier.checks.privacy import check_pure_dp
    from verifier.mechanism.instances import randomized_response

    # the continuation after an answer of the toy mechanism of §1 (e(S) = log 3) with
    # eps_g = log 9: randomized response at the budget left, log 3
    return check_pure_dp(randomized_response(sp.log(3)), epsilon=sp.log(9) - sp.log(3))
