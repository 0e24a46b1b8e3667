"""The base mechanisms, the tuned algorithm as a selection program, and the bounds of
Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy" (ICLR;
arXiv 2110.03620v2), shared by the claim modules.

The algorithm ``A`` of the paper (§2; the setting of Theorems 2 and 6) draws a number of
runs ``K``, runs the base mechanism ``Q`` that many times independently and releases the
run with the best score (the outputs of the other runs are not released).  Here it is a
selection program of the engine (:mod:`verifier.programs.selection`): one candidate
``Q``, the count ``K`` (:func:`verifier.programs.counts.truncated_negative_binomial`,
:func:`~verifier.programs.counts.logarithmic` for ``η = 0``,
:func:`~verifier.programs.counts.poisson`), the rule "best" and the score read from the
output itself.  Its exact law is the engine's: ``Pr[best ≤ o] = G(F(o))``, ``G`` the
probability generating function of ``K``.

The bounds are written from the paper's statements (each function cites its statement):
the privacy parameters of ``Q`` that enter them (``ε``, ``ε̂``, ``δ̂``) are ``Q``'s exact
values computed by the engine's checkers (:func:`verifier.checks.privacy.rdp_epsilon`,
:func:`~verifier.checks.privacy.pure_epsilon`, :func:`~verifier.checks.privacy.delta`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from verifier.checks.privacy import delta, pure_epsilon, rdp_epsilon
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.programs.counts import Count, logarithmic, poisson, truncated_negative_binomial
from verifier.programs.selection import SelectionProgram, selection_mechanism

__all__ = [
    "SOURCE",
    "R",
    "ETA",
    "GAMMA",
    "MU",
    "RR3",
    "RR9",
    "Q3",
    "RARE",
    "tnb",
    "tuned",
    "together",
    "definition1_mean",
    "theorem2_epsilon",
    "theorem6_epsilon",
    "theorem6_eps_hat",
    "to_approx_epsilon",
]

SOURCE = "Papernot & Steinke 2022"
R = sp.Rational

#: The parameters of the truncated negative binomial (Definition 1) and of the Poisson
#: count (Theorem 6), as box and range parameters.
ETA = sp.Symbol("eta", real=True)
GAMMA = sp.Symbol("gamma", positive=True)
MU = sp.Symbol("mu", positive=True)


def _binary(low: sp.Expr, name: str) -> FiniteMechanism:
    """Randomized response on two scored outputs ``0 < 1``: ``D`` puts ``low`` on 0,
    ``D'`` puts ``low`` on 1 (ε-DP with ``e^ε = (1 - low)/low``)."""
    return FiniteMechanism(
        pair(),
        {"D": {0: low, 1: 1 - low}, "D'": {0: 1 - low, 1: low}},
        [0, 1],
        name=name,
    )


#: Randomized response with ``e^ε = 3`` (scores 0 < 1).
RR3 = _binary(R(1, 4), "RR3")
#: Randomized response with ``e^ε = 9``.
RR9 = _binary(R(1, 10), "RR9")
#: A three-output scored mechanism, exactly ``log 2``-DP: at ``D'`` the middle output
#: doubles and the top one halves — the direction in which the best of ``K`` runs
#: compounds (NOTES.md, "The pure-DP corollary is nearly attained").
Q3 = FiniteMechanism(
    pair(),
    {
        "D": {0: R(49, 100), 1: R(1, 100), 2: R(1, 2)},
        "D'": {0: R(73, 100), 1: R(1, 50), 2: R(1, 4)},
    },
    [0, 1, 2],
    name="Q3",
)

#: A rare output whose probability falls 100-fold (pure ``ε = log 100``) with a small
#: Rényi divergence: the approximate-DP corollaries are not implied by pure DP here.
RARE = FiniteMechanism(
    pair(),
    {"D": {0: R(1, 100), 1: R(99, 100)}, "D'": {0: R(1, 10000), 1: R(9999, 10000)}},
    [0, 1],
    name="RARE",
)


def tnb(eta: Any, gamma: Any) -> Count:
    """Definition 1's count ``D_{η,γ}``: the logarithmic law at ``η = 0``, the truncated
    negative binomial otherwise (numbers or the symbols :data:`ETA`, :data:`GAMMA`)."""
    if not isinstance(eta, sp.Symbol) and sp.sympify(eta) == 0:
        return logarithmic(gamma)
    return truncated_negative_binomial(eta, gamma)


def tuned(Q: FiniteMechanism, count: Count) -> FiniteMechanism:
    """The algorithm ``A``: run ``Q`` ``K`` times, release the best run (a selection
    program; ``K = 0``, possible under the Poisson count, releases ``⊥``)."""
    return selection_mechanism(
        SelectionProgram((Q,), count, score="self"), name=f"A[{Q.name}, {count}]"
    )


def together(A: FiniteMechanism) -> FiniteMechanism:
    """``A`` with every probability put over one denominator (sympy's ``together``: an
    exact rewrite, the same function of the parameters).  The box decisions enclose the
    quotient form more tightly than the law's ``1 - (a - 1)/(b - 1)`` form."""
    return FiniteMechanism(
        A.graph,
        {d: {o: sp.together(A.p(d, o)) for o in A.outputs} for d in A.datasets},
        list(A.outputs),
        name=A.name,
        validate=False,
    )


def definition1_mean(eta: Any, gamma: Any) -> sp.Expr:
    """``E[K]`` of Definition 1: ``η(1-γ)/(γ(1-γ^η))`` for ``η != 0`` and
    ``(1/γ - 1)/log(1/γ)`` for ``η = 0`` (written from the paper, not taken from the
    engine's count; ``tests`` hold the two equal)."""
    e, g = sp.sympify(eta), sp.sympify(gamma)
    if not isinstance(e, sp.Symbol) and e == 0:
        return (1 / g - 1) / sp.log(1 / g)
    return e * (1 - g) / (g * (1 - g**e))


def theorem2_epsilon(Q: FiniteMechanism, lam: Any, lam_hat: Any, eta: Any, gamma: Any) -> sp.Expr:
    """Theorem 2's ``ε' = ε + (1+η)(1 - 1/λ̂) ε̂ + (1+η) log(1/γ)/λ̂ + log(E[K])/(λ-1)``
    with ``ε = D_λ(Q)`` and ``ε̂ = D_λ̂(Q)`` exact (the worst ordered pair).

    ``λ̂ = 1`` (the Kullback-Leibler order) multiplies ``ε̂`` by 0, so ``ε̂`` is not
    needed.  ``λ̂ = oo`` is the limit (derived, NOTES.md): ``ε + (1+η) D_∞(Q) +
    log(E[K])/(λ-1)``, ``D_∞`` the pure-DP ``ε`` of ``Q``."""
    lam, lam_hat = sp.sympify(lam), sp.sympify(lam_hat)
    e, g = sp.sympify(eta), sp.sympify(gamma)
    eps = rdp_epsilon(Q, alpha=lam).value
    tail = sp.log(definition1_mean(e, g)) / (lam - 1)
    if lam_hat is sp.oo:
        return eps + (1 + e) * pure_epsilon(Q).value + tail
    if lam_hat == 1:
        hat = sp.Integer(0)
    else:
        hat = (1 + e) * (1 - 1 / lam_hat) * rdp_epsilon(Q, alpha=lam_hat).value
    return eps + hat + (1 + e) * sp.log(1 / g) / lam_hat + tail


def theorem6_eps_hat(lam: Any) -> sp.Expr:
    """The largest ``ε̂`` Theorem 6 allows: ``e^ε̂ = 1 + 1/(λ-1)``."""
    lam = sp.sympify(lam)
    return sp.log(1 + 1 / (lam - 1))


def theorem6_epsilon(Q: FiniteMechanism, lam: Any, mu: Any) -> sp.Expr:
    """Theorem 6's ``ε' = ε + μ δ̂ + log(μ)/(λ-1)`` with ``ε = D_λ(Q)`` and ``δ̂ = δ_Q(ε̂)``
    at the largest allowed ``ε̂`` (:func:`theorem6_eps_hat`), both exact."""
    lam, m = sp.sympify(lam), sp.sympify(mu)
    eps = rdp_epsilon(Q, alpha=lam).value
    d_hat = delta(Q, epsilon=theorem6_eps_hat(lam)).value
    return eps + m * d_hat + sp.log(m) / (lam - 1)


def to_approx_epsilon(rdp_eps: sp.Expr, lam: Any, dlt: Any) -> sp.Expr:
    """Mironov 2017, "Rényi differential privacy", Proposition 3: ``(λ, ε')``-RDP implies
    ``(ε' + log(1/δ)/(λ-1), δ)``-DP."""
    lam, d = sp.sympify(lam), sp.sympify(dlt)
    return rdp_eps + sp.log(1 / d) / (lam - 1)


def poisson_tuned(Q: FiniteMechanism, mu: Any) -> FiniteMechanism:
    """``A`` with ``K ~ Poisson(μ)`` (Theorem 6)."""
    return tuned(Q, poisson(mu))
