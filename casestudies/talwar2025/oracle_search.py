"""Talwar 2025: worst-case searches over oracles for Theorems 11–14 and Proposition 3.

Oracles are seeded random mechanisms on a neighbouring pair with rational
probabilities and integer scores ``0..m-1`` (``shape = 0``), or *balanced* ones
(``shape = 1``) whose mass at the top score is exactly the target quantile ``β`` at
``D`` — the worst case of the utility bounds, where ``Pr[val < target] = 1 - β``.
Each instance is decided exactly by the claim's own checks (:func:`decide_*`), and the
search (:func:`.search.exact_search`) screens with that exact decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms.liu_talwar import uniform_selection, upper_quantile, value_of
from verifier.algorithms.talwar import (
    HALF,
    a_lt,
    a_max,
    failure_probability,
    hybrid,
    metaselection_algorithms,
    repetition_algorithms,
)
from verifier.checks.certified import check_eq, check_le
from verifier.checks.privacy import check_approx_dp, check_pure_dp, delta, pure_epsilon
from verifier.checks.results import CheckResult, conjunction
from verifier.claims import SearchSpec
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.search.inequalities import GridPoint, GridSpace

from .search import exact_search

__all__ = [
    "pair_oracle",
    "weighted_selection",
    "utility",
    "decide_thm11_utility",
    "decide_thm11_privacy",
    "decide_thm12",
    "decide_thm13",
    "decide_thm14",
    "decide_prop3",
    "oracle_search",
]

F = Fraction
R = sp.Rational
SRC = "Talwar 2025"


def _rational(rng: random.Random, k: int, den: int = 60) -> list[sp.Rational]:
    cuts = sorted(rng.sample(range(1, den), k - 1))
    return [R(b - a, den) for a, b in zip([0, *cuts], [*cuts, den], strict=True)]


def pair_oracle(seed: int, m: int, shape: int = 0, beta: Any = HALF) -> FiniteMechanism:
    """A seeded oracle on the pair ``D ~ D'`` with scores ``0..m-1`` (module
    docstring): ``shape = 1`` puts exactly ``β`` on the top score at ``D``."""
    rng = random.Random(seed)
    m = max(2, m)
    dD = _rational(rng, m)
    dE = _rational(rng, m)
    if shape == 1:
        b = sp.sympify(beta)
        low = _rational(rng, m - 1)
        dD = [(1 - b) * x for x in low] + [b]
    return FiniteMechanism(
        pair(),
        {"D": dict(enumerate(dD)), "D'": dict(enumerate(dE))},
        list(range(m)),
        name=f"oracle[{seed}, m={m}, shape={shape}]",
    )


def weighted_selection(
    arms: list[FiniteMechanism], weights: list[Any], name: str
) -> FiniteMechanism:
    """``M̃(d)``: ``h ~ μ_H`` (``weights``), then ``M(d, h)`` (Talwar 2025, Prop. 3's
    proof); outputs ``((h, o), score)`` like
    :func:`verifier.algorithms.liu_talwar.uniform_selection`."""
    outs = [((h, o), value_of(o)) for h, M in enumerate(arms) for o in M.outputs]
    dists = {
        d: {
            ((h, o), value_of(o)): sp.sympify(weights[h]) * M.p(d, o)
            for h, M in enumerate(arms)
            for o in M.outputs
        }
        for d in arms[0].datasets
    }
    return FiniteMechanism(arms[0].graph, dists, outs, name=name)


def utility(alg: Any, M: FiniteMechanism, bound: Any, what: str = "") -> CheckResult:
    """``Pr[val(A(d)) < target] <= bound`` at every dataset (target: the algorithm's
    quantile of ``M(d)``)."""
    A = alg.apply(M)
    parts = [
        check_le(
            failure_probability(A, M, d, alg.quantile),
            bound,
            f"{alg.label} on {M.name} at {d}{what}",
        )
        for d in M.datasets
    ]
    return conjunction(f"failure of {alg.label} <= {bound}", parts)


def _v(space: GridSpace, inst: GridPoint) -> dict[str, Any]:
    return {
        k: (int(x) if x.denominator == 1 else sp.Rational(x.numerator, x.denominator))
        for k, x in space.point(inst).items()
    }


# --- Theorem 11 ---------------------------------------------------------------------


def decide_thm11_utility(space: GridSpace, inst: GridPoint) -> CheckResult:
    """A_max^T with ``T = ⌈log₂(1/γ)⌉`` against the median (``K = 1``) or
    ``T = ⌈K ln(1/γ)⌉`` against ``q_{1-1/K}``: failure ``<= γ``."""
    v = _v(space, inst)
    g, K = v["gamma"], v["K"]
    if K == 1:
        alg = repetition_algorithms(g, ())[0]
    else:
        alg = metaselection_algorithms(g, K, ())[0]
    return conjunction(
        f"Theorem 11 utility, {alg.label}",
        [
            check_eq(alg.expected_calls, alg.params["T"], "exactly T calls"),
            utility(alg, pair_oracle(v["seed"], v["m"], v["shape"], alg.quantile), g),
        ],
    )


def decide_thm11_privacy(space: GridSpace, inst: GridPoint) -> CheckResult:
    """A_max^T of an ε-DP oracle is ``Tε``-DP (``ε`` the oracle's exact pure ε)."""
    v = _v(space, inst)
    M = pair_oracle(v["seed"], v["m"])
    return check_pure_dp(a_max(v["T"]).apply(M), epsilon=v["T"] * pure_epsilon(M).value)


# --- Theorems 12-14 -------------------------------------------------------------------


def decide_thm12(space: GridSpace, inst: GridPoint) -> CheckResult:
    """A_LT,γ: ``3ε``-DP, ``1/γ`` calls, failure ``<= γ`` (median) and ``<= Kγ``
    against ``q_{1-1/K}``."""
    v = _v(space, inst)
    g, K = v["gamma"], v["K"]
    M = pair_oracle(v["seed"], v["m"], v["shape"])
    alg = a_lt(g)
    return conjunction(
        "Theorem 12",
        [
            check_eq(alg.expected_calls, 1 / g, "1/gamma calls"),
            check_pure_dp(alg.apply(M), epsilon=3 * pure_epsilon(M).value),
            utility(alg, M, g),
            utility(
                a_lt(g, R(1, K)),
                pair_oracle(v["seed"], v["m"], v["shape"], R(1, K)),
                K * g,
                f" (q_(1-1/{K}))",
            ),
        ],
    )


def decide_thm13(space: GridSpace, inst: GridPoint) -> CheckResult:
    """The hybrid: ``3cε``-DP, ``cγ^{-1/c}`` calls, failure ``<= γ``."""
    v = _v(space, inst)
    c = v["c"]
    g = R(1, 2 ** (c * v["j"]))  # gamma = 2^(-cj): gamma^(1/c) rational
    M = pair_oracle(v["seed"], v["m"], v["shape"])
    alg = hybrid(g, c)
    return conjunction(
        "Theorem 13",
        [
            check_eq(alg.expected_calls, c * g ** (-R(1, c)), "c gamma^(-1/c) calls"),
            check_pure_dp(alg.apply(M), epsilon=3 * c * pure_epsilon(M).value),
            utility(alg, M, g),
        ],
    )


def decide_thm14(space: GridSpace, inst: GridPoint) -> CheckResult:
    """The metaselection hybrid on the uniform selection over ``K`` arms:
    ``3cε``-DP, ``cKγ^{-1/c}`` calls, failure against ``q_{1-1/K}`` ``<= γ``."""
    v = _v(space, inst)
    c, K = v["c"], v["K"]
    g = R(1, 2 ** (c * v["j"]))  # gamma = 2^(-cj): gamma^(1/c) rational
    arms = [
        pair_oracle(v["seed"] + 97 * h, v["m"], v["shape"] if h == 0 else 0, R(1, K))
        for h in range(K)
    ]
    meta = uniform_selection(arms, name=f"Uniform{K}")
    alg = hybrid(g, c, K)
    return conjunction(
        "Theorem 14",
        [
            check_eq(alg.expected_calls, c * K * g ** (-R(1, c)), "cK gamma^(-1/c) calls"),
            check_pure_dp(alg.apply(meta), epsilon=3 * c * pure_epsilon(meta).value),
            utility(alg, meta, g),
        ],
    )


# --- Proposition 3 -------------------------------------------------------------------

#: Priors on [K]: 0 uniform, 1 a seeded random rational distribution, 2 geometric
#: (weights proportional to 2^-h).
PRIORS = ("uniform", "random", "geometric")
#: Repetition algorithms for quantile beta: 0 A_max^T with T = ceil(ln(1/gamma)/beta),
#: 1 A_LT,gamma beta (failure <= gamma), 2 the hybrid with c = 2 (1/beta an integer).
SCHEMES = ("A_max^T", "A_LT", "hybrid c=2")


def _prior(kind: int, K: int, rng: random.Random) -> list[sp.Rational]:
    if kind == 0:
        return [R(1, K)] * K
    if kind == 1:
        return _rational(rng, K, 12 * K)
    w = [R(1, 2**h) for h in range(K)]
    s = sum(w)
    return [x / s for x in w]


def _scheme(kind: int, g: sp.Rational, beta: sp.Rational) -> Any:
    if kind == 0:
        T = int(sp.ceiling(sp.log(1 / g) / beta))
        return a_max(max(1, T), beta)
    if kind == 1:
        return a_lt(g * beta, beta)
    return hybrid(g, 2, int(1 / beta))


def decide_prop3(space: GridSpace, inst: GridPoint) -> CheckResult:
    """Proposition 3 on one instance: ``K`` arms (scores, seeded) under the prior
    ``μ_H``; ``M̃`` = the ``μ_H``-mixture; ``β`` the quantile (``β = 1/(2K)`` with
    the uniform prior: the "in particular" part).  Decided: ``M̃`` is ε-DP when every
    arm is (ε = the largest arm's); it is ``(ε', Σ μ_h δ_h)``-DP at ``ε' = log 2``
    (the approximate variant; ``δ_h`` each arm's exact δ there); for every ``d`` the
    largest ``m`` with ``Pr_{h~μ}[val(M(d,h)) >= m] >= β`` is reached by the
    repetition algorithm (tuned to ``β`` and ``γ``) run on ``M̃`` w.p. ``>= 1 - γ``;
    the algorithm on ``M̃`` keeps its ``cε``-DP and its number of calls; with the
    uniform prior the largest median ``max_k Median(val(M(d, k)))`` has
    ``Pr[val(M̃(d)) >= it] >= 1/(2K)``."""
    v = _v(space, inst)
    K, g = v["K"], v["gamma"]
    rng = random.Random(v["seed"])
    arms = [pair_oracle(v["seed"] * 31 + h, v["m"]) for h in range(K)]
    prior = _prior(v["prior"], K, rng)
    beta = R(1, 2 * K) if v["prior"] == 0 else v["beta"]
    Mt = weighted_selection(arms, prior, f"M~ ({PRIORS[v['prior']]} prior, K = {K})")
    eps = max(pure_epsilon(M).value for M in arms)
    alg = _scheme(v["scheme"], g, beta)
    A = alg.apply(Mt)
    e2 = sp.log(2)
    d_arms = [delta(M, epsilon=e2).value for M in arms]
    parts = [
        check_pure_dp(Mt, epsilon=eps, title="M~ is eps-DP when every M(., h) is"),
        check_approx_dp(
            Mt,
            epsilon=e2,
            delta=sum(p * d for p, d in zip(prior, d_arms, strict=True)),
            title="M~ is (log 2, sum mu_h delta_h)-DP",
        ),
        check_pure_dp(A, epsilon=alg.overhead * eps, title=f"{alg.label} on M~ is c eps-DP"),
    ]
    for d in Mt.datasets:
        target = upper_quantile(Mt, d, beta)
        mass = sum(
            (
                sum(M.p(d, o) for o in M.outputs if value_of(o) >= target) * p
                for M, p in zip(arms, prior, strict=True)
            ),
            sp.Integer(0),
        )
        parts.append(check_le(beta, mass, f"{d}: Pr_(h~mu)[val(M(d,h)) >= {target}] >= beta"))
        fail = sum((A.p(d, o) for o in A.outputs if value_of(o) < target), sp.Integer(0))
        parts.append(check_le(fail, g, f"{d}: {alg.label} on M~ fails w.p. <= gamma"))
        if v["prior"] == 0:
            best = max(upper_quantile(M, d, R(1, 2)) for M in arms)
            mt = sum((Mt.p(d, o) for o in Mt.outputs if value_of(o) >= best), sp.Integer(0))
            parts.append(check_le(R(1, 2 * K), mt, f"{d}: Pr[val(M~) >= max median] >= 1/(2K)"))
    return conjunction(f"Proposition 3 ({PRIORS[v['prior']]} prior, {alg.label})", parts)


# --- the spaces -------------------------------------------------------------------

_GAMMAS = tuple(F(1, k) for k in (2, 3, 4, 8, 10, 16, 100, 1000, 1024))


def _grid(**params: Iterable[Any]) -> GridSpace:
    return GridSpace(tuple(params), tuple(tuple(F(x) for x in g) for g in params.values()))


SPACES: dict[str, Any] = {
    "thm11.utility": (
        lambda: _grid(seed=range(40), m=(2, 3, 4), shape=(0, 1), gamma=_GAMMAS, K=(1, 2, 3, 5, 10)),
        decide_thm11_utility,
        "A_max^T (T = ceil(log2(1/gamma)), or ceil(K ln(1/gamma)) for q_(1-1/K)) on random and "
        "balanced oracles (Pr[top] = beta exactly), gamma in [1/1024, 1/2], K in {1, 2, 3, 5, 10}",
    ),
    "thm11.privacy": (
        lambda: _grid(seed=range(60), m=(2, 3, 4, 5), T=range(1, 9)),
        decide_thm11_privacy,
        "A_max^T (T = 1..8) of random oracles (2-5 scores), eps their exact pure eps",
    ),
    "thm12": (
        lambda: _grid(seed=range(40), m=(2, 3, 4), shape=(0, 1), gamma=_GAMMAS, K=(2, 3, 4)),
        decide_thm12,
        "A_LT,gamma on random and balanced oracles, gamma in [1/1024, 1/2], K in {2, 3, 4}",
    ),
    "thm13": (
        lambda: _grid(seed=range(40), m=(2, 3, 4), shape=(0, 1), j=range(1, 7), c=(2, 3, 4)),
        decide_thm13,
        "the hybrids (c = 2..4) on random and balanced oracles, gamma = 2^(-cj), j = 1..6",
    ),
    "thm14": (
        lambda: _grid(seed=range(30), m=(2, 3), shape=(0, 1), j=range(1, 6), c=(2, 3), K=(2, 3, 4)),
        decide_thm14,
        "the metaselection hybrids (c = 2, 3) on the uniform selection over K = 2..4 random "
        "arms (the first balanced or random), gamma = 2^(-cj), j = 1..5",
    ),
    "prop3": (
        lambda: _grid(
            seed=range(30),
            m=(2, 3),
            K=(2, 3, 4, 5),
            prior=(0, 1, 2),
            scheme=(0, 1, 2),
            gamma=(F(1, 4), F(1, 16), F(1, 100)),
            beta=(F(1, 2), F(1, 4), F(1, 5)),
        ),
        decide_prop3,
        "K = 2..5 arms under uniform, random and geometric priors; A_max^T, A_LT and the "
        "hybrid tuned to beta (1/(2K) for the uniform prior), gamma in {1/4, 1/16, 1/100}",
    ),
}


def oracle_search(claim_id: str, which: str, statement: str, source: str) -> SearchSpec:
    """The search of ``which`` (a key of :data:`SPACES`)."""
    make, decide, notes = SPACES[which]
    return exact_search(claim_id, make(), decide, statement, source, notes=notes)
