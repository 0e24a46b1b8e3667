"""Talwar 2025, Theorem 11 (advanced composition): the worst-case searches.

* :func:`leaky_search` — ``A_max^T`` of the ``(ε, w)``-DP oracle
  ``M_w = (1-w) RR(ε) + w·[a top score D' never gives]``
  (:func:`.tightness.leaky_rr`; ``w = 0`` is randomized response itself) against
  ``(Tε² + ε sqrt(2T ln(1/δ')), Tw + δ')``-DP, over ``(T, ε, w, δ')`` (with
  ``δ' = w²`` for the family where ``δ`` matters);
* :func:`rr_composition_search` — the ``T``-fold composition of ``RR(ε)`` (the worst
  case of composition among ε-DP mechanisms, lumped by the number of ones,
  :func:`.tightness.rr_composition`) against ``(ε_adv, δ')``-DP, over ``(T, e^ε, δ')``.

Screens in floats (the output distribution of ``A_max^T`` by its CDF transform; the
binomial composition with ``lgamma``); the exact decision is the claim's own
(:func:`verifier.privacy.check_approx_dp` on the exact mechanism).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from verifier.algorithms.talwar import a_max
from verifier.certified import check_eq, check_le
from verifier.claims import SearchSpec
from verifier.privacy import check_approx_dp, delta
from verifier.results import CheckResult, conjunction
from verifier.search.inequalities import GridPoint, GridSpace

from .search import apply_rows, exact_search
from .tightness import advanced_composition_epsilon, leaky_rr, rr_composition

__all__ = ["leaky_search", "rr_composition_search"]

F = Fraction
SRC = "Talwar 2025, Theorem 11"


def _q(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _leaky_values(space: GridSpace, inst: GridPoint) -> tuple[int, Fraction, Fraction, Fraction]:
    v = space.point(inst)
    w = v["w"]
    dp = v["dp"] if "dp" in v else w * w
    return int(v["T"]), v["eps"], w, dp


def _leaky_decide(space: GridSpace, inst: GridPoint) -> CheckResult:
    T, eps, w, dp = _leaky_values(space, inst)
    e, wq, dq = _q(eps), _q(w), _q(dp)
    M = leaky_rr(e, wq)
    A = a_max(T).apply(M)
    parts = [
        check_eq(delta(M, e)[0], wq, f"the oracle is ({e}, {wq})-DP"),
        check_approx_dp(A, advanced_composition_epsilon(T, e, dq), T * wq + dq),
    ]
    if "dp" not in space.names:  # the family: realized delta >= Pr_D[top] = 1 - (1 - w)^T
        parts.insert(
            1,
            check_le(
                1 - (1 - wq) ** T,
                delta(A, advanced_composition_epsilon(T, e, dq))[0],
                "realized delta >= 1 - (1 - w)^T",
            ),
        )
    return conjunction(f"A_max^{T} of RR({e}) + {w}", parts)


def _leaky_screen(space: GridSpace, inst: GridPoint) -> float:
    T, eps, w, dp = _leaky_values(space, inst)
    e, wf, dpf = float(eps), float(w), float(dp)
    p = 1 / (1 + math.exp(-e))
    rows = np.array([[(1 - wf) * (1 - p), (1 - wf) * p, wf], [p, 1 - p, 0.0]])
    P = apply_rows("max", {"T": float(T)}, rows)
    ea = T * e * e + e * math.sqrt(2 * T * math.log(1 / dpf))
    d = max(
        float(np.maximum(0.0, P[0] - math.exp(ea) * P[1]).sum()),
        float(np.maximum(0.0, P[1] - math.exp(ea) * P[0]).sum()),
    )
    return d / (T * wf + dpf)


_TS = tuple(F(t) for t in (2, 5, 10, 20, 50, 100))
_EPSS = tuple(F(*x) for x in ((1, 50), (1, 20), (1, 10), (1, 4), (1, 2), (1, 1)))


def leaky_search(claim_id: str, family: bool) -> SearchSpec:
    """``A_max^T`` of ``M_w`` (module docstring); ``family``: ``δ' = w²``, ``w > 0``."""
    ws = tuple(F(1, 10**k) for k in (2, 3, 4, 5, 6))
    if family:
        space = GridSpace(("T", "eps", "w"), (_TS, _EPSS, ws))
        notes = (
            "A_max^T of (1-w) RR(eps) + w [a D-only top score], delta' = w^2: T = 2..100, "
            "eps in [1/50, 1], w in [1e-6, 1e-2]"
        )
    else:
        space = GridSpace(
            ("T", "eps", "w", "dp"),
            (_TS, _EPSS, (F(0), *ws), tuple(F(1, 10**k) for k in (3, 6, 10))),
        )
        notes = (
            "A_max^T of (1-w) RR(eps) + w [a D-only top score] (w = 0: RR): T = 2..100, "
            "eps in [1/50, 1], w in {0} + [1e-6, 1e-2], delta' in {1e-3, 1e-6, 1e-10}"
        )
    return exact_search(
        claim_id,
        space,
        _leaky_decide,
        "A_max^T is (T eps^2 + eps sqrt(2T ln(1/delta')), T delta + delta')-DP",
        SRC,
        screen=_leaky_screen,
        notes=notes,
    )


def _rr_values(space: GridSpace, inst: GridPoint) -> tuple[int, Fraction, Fraction]:
    v = space.point(inst)
    return int(v["T"]), v["odds"], v["dp"]


def _rr_decide(space: GridSpace, inst: GridPoint) -> CheckResult:
    T, odds, dp = _rr_values(space, inst)
    m = rr_composition(T, _q(odds))
    return check_approx_dp(
        m, advanced_composition_epsilon(T, sp.log(_q(odds)), _q(dp)), _q(dp), pairs=[("D", "D'")]
    )


def rr_delta(T: int, odds: float, eps: float) -> float:
    """The exact δ(ε) of the ``T``-fold composition of randomized response with
    likelihood ratio ``odds``, in floats (screening): ``Σ_k P_D(k) max(0, 1 - e^{ε - L_k})``
    with ``L_k = (2k - T) ln odds``."""
    lo = math.log(odds)
    lp, lq = -math.log1p(1 / odds), -math.log1p(odds)  # ln p, ln q
    k = np.arange(T + 1, dtype=float)
    lc = np.array(
        [math.lgamma(T + 1) - math.lgamma(i + 1) - math.lgamma(T - i + 1) for i in range(T + 1)]
    )
    lpd = lc + k * lp + (T - k) * lq
    L = (2 * k - T) * lo
    return float((np.exp(lpd) * np.maximum(0.0, -np.expm1(eps - L))).sum())


def _rr_screen(space: GridSpace, inst: GridPoint) -> float:
    T, odds, dp = _rr_values(space, inst)
    e = math.log(float(odds))
    ea = T * e * e + e * math.sqrt(2 * T * math.log(1 / float(dp)))
    return rr_delta(T, float(odds), ea) / float(dp)


def rr_composition_search(claim_id: str) -> SearchSpec:
    """The ``T``-fold composition of ``RR(ε)`` against advanced composition."""
    space = GridSpace(
        ("T", "odds", "dp"),
        (
            tuple(F(t) for t in (10, 20, 50, 100, 200, 500)),
            tuple(F(*x) for x in ((1001, 1000), (101, 100), (21, 20), (11, 10), (3, 2), (2, 1))),
            tuple(F(1, 10**k) for k in (3, 6, 10)),
        ),
    )
    return exact_search(
        claim_id,
        space,
        _rr_decide,
        "the T-fold composition of RR(eps) is (T eps^2 + eps sqrt(2T ln(1/delta')), delta')-DP",
        SRC,
        screen=_rr_screen,
        notes="T-fold composition of RR(eps): T = 10..500, e^eps in [1.001, 2], delta' in "
        "{1e-3, 1e-6, 1e-10}",
    )


def epsilon_at(T: int, odds: float, dp: float) -> float:
    """The least ``ε`` with ``δ(ε) <= δ'`` for the ``T``-fold composition of RR (floats,
    bisection; for the tightness of the ε term, never a verdict)."""
    lo, hi = 0.0, T * math.log(odds)
    for _ in range(200):
        mid = (lo + hi) / 2
        if rr_delta(T, odds, mid) <= dp:
            hi = mid
        else:
            lo = mid
    return hi
