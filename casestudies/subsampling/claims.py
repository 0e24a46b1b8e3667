"""Balle, Barthe & Gaboardi 2018, "Privacy amplification by subsampling: tight
analyses via couplings and divergences" (NeurIPS), the Poisson and
without-replacement rows of their Table 1, on exact subsampled laws.

* **Poisson subsampling**, rate ``γ``, add/remove neighbours: an ``(ε, δ)``-DP base
  gives ``(log(1 + γ(e^ε - 1)), γδ)``-DP.
* **Sampling without replacement**, ``m`` of ``n`` records, substitution neighbours:
  an ``ε``-DP base gives ``log(1 + (m/n)(e^ε - 1))``-DP.

The base is randomized response on whether the sample holds a marked record ``x``:
``RR_ε(1[x ∈ S])`` — ``ε``-DP on samples, since adding, removing or replacing one
record moves the indicator by at most one.  Independent derivation of the expected
outcomes and of tightness: with ``D = D' + x`` the subsampled law at ``D`` is the
mixture ``(1-γ) RR(0) + γ RR(1)`` and at ``D'`` it is ``RR(0)``, so the ratio at the
output 1 is ``(1-γ) + γ e^ε = 1 + γ(e^ε - 1)`` exactly (attained, for every ``γ``);
without replacement the marked record is in the sample with probability ``m/n`` and
the same ratio is ``1 + (m/n)(e^ε - 1)``.  By convexity of ``exp``,
``e^{γε} <= 1 - γ + γ e^ε``, so the folklore "``γε``" is below the attained loss for
every ``γ`` in ``(0, 1)`` and ``ε > 0`` (a negative control, refuted).  The
``(ε, δ)`` base reveals the indicator with probability ``δ`` and runs ``RR_ε``
otherwise: its revealed output has probability ``γδ`` at ``D`` and 0 at ``D'``, so
``γδ`` is needed and suffices (attained).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.privacy import check_approx_dp, check_pure_dp
from verifier.checks.results import CheckResult, conjunction
from verifier.claims import Tightness
from verifier.mechanism.subsample import poisson_subsample, sample_without_replacement

SRC = "Balle, Barthe & Gaboardi 2018"
R = sp.Rational
GAMMA = sp.Symbol("gamma", nonnegative=True)
#: ``e^ε`` of the base as a symbol, for the decisions over a range of ``ε``.
ODDS_SYMBOL = sp.Symbol("E", positive=True)
#: The privacy parameters of the base, ``e^ε`` (rational, so every law is exact).
ODDS = (R(2), R(3), R(11, 10))
#: Poisson: the marked record added to a dataset of two other records.
POISSON_DATASETS = [("a", "b"), ("a", "b", "x")]
#: Without replacement: the marked record substituted for another one, n = 4.
WOR_DATASETS = [("a", "b", "c", "y"), ("a", "b", "c", "x")]


def marked_rr(odds: Any, reveal: Any = 0) -> Any:
    """The base: with probability ``reveal`` the indicator ``1[x ∈ S]`` in the clear
    (outputs ``"in"``/``"out"``), otherwise randomized response on it with
    ``e^ε = odds`` (outputs 1/0)."""
    p, q = odds / (1 + odds), 1 / (1 + odds)

    def base(sample: tuple[Any, ...]) -> dict[Any, Any]:
        inside = "x" in sample
        law = {1: (1 - reveal) * (p if inside else q), 0: (1 - reveal) * (q if inside else p)}
        if reveal:
            law["in" if inside else "out"] = reveal
        return law

    return base


def amplified(rate: Any, odds: Any) -> Any:
    """``log(1 + rate (e^ε - 1))`` (the Table 1 bound for rate ``γ`` or ``m/n``)."""
    return sp.log(1 + rate * (odds - 1))


def _poisson_pure(bound: Any, label: str) -> CheckResult:
    parts = []
    for odds in ODDS:
        m = poisson_subsample(marked_rr(odds), POISSON_DATASETS, GAMMA)
        parts.append(
            check_pure_dp(
                m,
                epsilon=bound(GAMMA, odds),
                over=(GAMMA, R(1, 100), 1),
                title=f"Poisson({label}), e^eps = {odds}, every gamma in [1/100, 1]",
            )
        )
    return conjunction(f"Poisson subsampling: {label}", parts)


@claim(
    id="subsampling.poisson.pure",
    source=f"{SRC}, Table 1 (Poisson subsampling, add/remove)",
    statement="an eps-DP base on a Poisson subsample with rate gamma is "
    "log(1 + gamma (e^eps - 1))-DP for add/remove neighbours: decided for every gamma in "
    "[1/100, 1] (a range) on randomized response about a marked record",
    expected="holds",
    instances="e^eps in {2, 3, 11/10}; D = (a, b, x) and D' = (a, b)",
    tightness=Tightness(
        "attained",
        1.0,
        "every gamma: the output 1 has ratio (1 - gamma) + gamma e^eps exactly",
    ),
)
def poisson_pure() -> CheckResult:
    return _poisson_pure(amplified, "log(1 + gamma (e^eps - 1))")


@claim(
    id="subsampling.poisson.linear",
    source=f"{SRC}, Table 1 (the folklore bound gamma eps, not theirs)",
    statement="the same mechanisms are gamma eps-DP: false for every gamma in (0, 1) "
    "(e^(gamma eps) < 1 - gamma + gamma e^eps by convexity)",
    expected="refuted",
    kind="negative-control",
    instances="as subsampling.poisson.pure",
)
def poisson_linear() -> CheckResult:
    return _poisson_pure(lambda g, odds: g * sp.log(odds), "gamma eps")


@claim(
    id="subsampling.wor.pure",
    source=f"{SRC}, Table 1 (sampling without replacement, substitution)",
    statement="an eps-DP base on m of n records drawn without replacement is "
    "log(1 + (m/n)(e^eps - 1))-DP for substitution neighbours",
    expected="holds",
    instances="n = 4, m in {1, 2, 3, 4}, every e^eps in [11/10, 20] (a range); the marked "
    "record substituted for another",
    tightness=Tightness(
        "attained",
        1.0,
        "every m: the marked record is sampled w.p. m/n, the ratio of the output 1 is "
        "1 + (m/n)(e^eps - 1) exactly",
    ),
)
def wor_pure() -> CheckResult:
    parts = []
    n = len(WOR_DATASETS[0])
    for size in range(1, n + 1):
        m = sample_without_replacement(marked_rr(ODDS_SYMBOL), WOR_DATASETS, size)
        parts.append(
            check_pure_dp(
                m,
                epsilon=amplified(R(size, n), ODDS_SYMBOL),
                over=(ODDS_SYMBOL, R(11, 10), 20),
                title=f"WOR(m = {size} of {n}), every e^eps in [11/10, 20]",
            )
        )
    return conjunction("sampling without replacement", parts)


@claim(
    id="subsampling.poisson.approx",
    source=f"{SRC}, Table 1 (Poisson subsampling, add/remove; delta' = gamma delta)",
    statement="an (eps, delta)-DP base on a Poisson subsample with rate gamma is "
    "(log(1 + gamma (e^eps - 1)), gamma delta)-DP: decided for every gamma in [1/100, 1] "
    "(a range)",
    expected="holds",
    instances="e^eps in {2, 3}, delta in {1/10, 1/1000}; the base reveals the marked "
    "record's presence w.p. delta",
    tightness=Tightness(
        "attained",
        1.0,
        "the revealed output 'in' has probability gamma delta at D and 0 at D'",
    ),
)
def poisson_approx() -> CheckResult:
    parts = []
    for odds in ODDS[:2]:
        for dl in (R(1, 10), R(1, 1000)):
            m = poisson_subsample(marked_rr(odds, dl), POISSON_DATASETS, GAMMA)
            parts.append(
                check_approx_dp(
                    m,
                    epsilon=amplified(GAMMA, odds),
                    delta=GAMMA * dl,
                    over=(GAMMA, R(1, 100), 1),
                    title=f"Poisson, e^eps = {odds}, delta = {dl}, every gamma in [1/100, 1]",
                )
            )
    return conjunction("Poisson subsampling, approximate DP", parts)
