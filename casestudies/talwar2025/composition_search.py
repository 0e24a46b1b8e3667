"""Talwar 2025, Theorem 11 (advanced composition): the worst-case searches.

* :func:`leaky_search` — ``A_max^T`` of the ``(ε, w)``-DP oracle
  ``M_w = (1-w) RR(ε) + w·[a top score D' never gives]``
  (:func:`.tightness.leaky_rr`; ``w = 0`` is randomized response itself) against
  ``(Tε² + ε sqrt(2T ln(1/δ')), Tw + δ')``-DP, over ``(T, ε, w, δ')`` (with
  ``δ' = w²`` for the family where ``δ`` matters), restricted to ``Tw + δ' < 1`` (a
  larger bound on ``δ`` is no bound, and not a probability);
* :func:`rr_composition_search` — the ``T``-fold composition of ``RR(ε)`` (the worst
  case of composition among ε-DP mechanisms, lumped by the number of ones,
  :func:`.tightness.rr_composition`) against ``(ε_adv, δ')``-DP, over ``(T, e^ε, δ')``.

Screens in floats (the output distribution of ``A_max^T`` by its CDF transform; the
binomial composition with ``lgamma``).  The document of an instance, which decides it
exactly, is a spec file with the mechanism and Theorem 11's guarantee as an
``approx_dp`` claim: for ``A_max^T``, the oracle's table, the premise "the oracle is
``(ε, w)``-DP" (Theorem 11's hypothesis) and ``A_max^T`` derived by the transformer
``talwar_max_of_runs``; for the composition, its lumped table.  Both ratios the
screens mirror are the target's: realized ``δ(ε_adv)`` over the claimed ``δ``.  (The
guarantee is not written as an ``inequality`` between two numbers: the realized ``δ``
contains ``e^{ε_adv}``, a power of ``e^ε`` with the irrational exponent
``sqrt(2T ln(1/δ'))``, which the spec parser refuses as an exponent with a logarithm
in it; the ``approx_dp`` claim takes ``ε_adv`` itself, with no exponential.)
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from verifier.claims import SearchSpec
from verifier.search.certificates import claim_entry, expr_text, skeleton_document
from verifier.search.inequalities import GridPoint, GridSpace

from .search import apply_rows
from .tightness import advanced_composition_epsilon, leaky_rr

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


def _leaky_valid(v: dict[str, Fraction]) -> bool:
    """``Tw + δ' < 1``: Theorem 11's ``δ`` is a probability bound (at ``T = 100``,
    ``w = 1/100`` the grid would give ``1 + δ'``)."""
    dp = v["dp"] if "dp" in v else v["w"] ** 2
    return v["T"] * v["w"] + dp < 1


def _leaky_document(inst: GridPoint, space: GridSpace, claim_id: str) -> dict[str, Any]:
    """The spec document of one instance (module docstring): the oracle ``M``, its
    premise, ``A = talwar_max_of_runs(M, T)`` and Theorem 11's ``approx_dp`` claim."""
    T, eps, w, dp = _leaky_values(space, inst)
    e, wq, dq = _q(eps), _q(w), _q(dp)
    M = leaky_rr(e, wq)
    doc = skeleton_document(f"{SRC}: A_max^T of (1-w) RR(eps) + w at {space.describe(inst)}")
    doc["mechanisms"]["M"] = {
        "graph": "g",
        "outputs": list(M.outputs),
        "distributions": {
            str(d): {str(o): expr_text(M.p(d, o)) for o in M.outputs if M.p(d, o) != 0}
            for d in M.datasets
        },
        "description": f"(1 - {w}) RR({eps}) + {w} on the top score 2, which D' never gives",
    }
    doc["mechanisms"]["A"] = {
        "algorithm": "talwar_max_of_runs",
        "inputs": ["M"],
        "params": {"T": T, "score": "self"},
        "description": f"A_max^{T}: the best of {T} runs of M",
    }
    doc["claims"].append(
        claim_entry(
            "premise-M",
            "M",
            "approx_dp",
            "holds",
            epsilon=expr_text(e),
            delta=expr_text(wq),
            statement="Theorem 11's hypothesis: the oracle is (eps, delta)-DP, delta = w",
            source=SRC,
        )
    )
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "approx_dp",
            "refuted",
            epsilon=expr_text(advanced_composition_epsilon(T, e, dq)),
            delta=expr_text(T * wq + dq),
            statement="A_max^T is (T eps^2 + eps sqrt(2T ln(1/delta')), T delta + delta')-DP "
            f"({space.describe(inst)})",
            source=SRC,
        )
    )
    return doc


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
        space = GridSpace(("T", "eps", "w"), (_TS, _EPSS, ws), valid=_leaky_valid)
        notes = (
            "A_max^T of (1-w) RR(eps) + w [a D-only top score], delta' = w^2: T = 2..100, "
            "eps in [1/50, 1], w in [1e-6, 1e-2]"
        )
    else:
        space = GridSpace(
            ("T", "eps", "w", "dp"),
            (_TS, _EPSS, (F(0), *ws), tuple(F(1, 10**k) for k in (3, 6, 10))),
            valid=_leaky_valid,
        )
        notes = (
            "A_max^T of (1-w) RR(eps) + w [a D-only top score] (w = 0: RR): T = 2..100, "
            "eps in [1/50, 1], w in {0} + [1e-6, 1e-2], delta' in {1e-3, 1e-6, 1e-10}"
        )
    return _spec(space, _leaky_screen, _leaky_document, claim_id, notes + "; T w + delta' < 1")


def _spec(space: GridSpace, screen: Any, document: Any, claim_id: str, notes: str) -> SearchSpec:
    return SearchSpec(
        space=space,
        screen=functools.partial(_call, fn=screen, space=space),
        document=functools.partial(document, space=space, claim_id=claim_id),
        default_instances=400,
        casestudies_instances=80,
        exact_best=True,
        notes=notes,
    )


def _call(inst: GridPoint, fn: Any, space: GridSpace) -> float:
    return float(fn(space, inst))


def _rr_values(space: GridSpace, inst: GridPoint) -> tuple[int, Fraction, Fraction]:
    v = space.point(inst)
    return int(v["T"]), v["odds"], v["dp"]


def _rr_document(inst: GridPoint, space: GridSpace, claim_id: str) -> dict[str, Any]:
    """The spec document of one instance: the ``T``-fold composition of ``RR(ε)``,
    ``e^ε = a/b``, lumped by the number ``k`` of ones (``P_D(k) = C(T,k) a^k b^(T-k)/
    (a+b)^T``, ``D'`` the mirror image; :func:`.tightness.rr_composition`), and Theorem
    11's guarantee as an ``approx_dp`` claim on the pair ``(D, D')`` (the other pair is
    its mirror image)."""
    T, odds, dp = _rr_values(space, inst)
    a, b = odds.numerator, odds.denominator
    n = a + b

    def prob(k: int) -> str:
        return f"binomial({T}, {k})*{a}^{k}*{b}^{T - k}/{n}^{T}"

    doc = skeleton_document(f"{SRC}: the {T}-fold composition of RR(log({odds}))")
    doc["mechanisms"]["M"] = {
        "graph": "g",
        "outputs": list(range(T + 1)),
        "distributions": {
            "D": [prob(k) for k in range(T + 1)],
            "D'": [prob(T - k) for k in range(T + 1)],
        },
        "description": f"{T} independent runs of randomized response with e^eps = {odds}, "
        "lumped by the number of ones",
    }
    target = claim_entry(
        claim_id,
        "M",
        "approx_dp",
        "refuted",
        epsilon=expr_text(advanced_composition_epsilon(T, sp.log(_q(odds)), _q(dp))),
        delta=expr_text(_q(dp)),
        statement="the T-fold composition of RR(eps) is (T eps^2 + eps sqrt(2T ln(1/delta')), "
        f"delta')-DP ({space.describe(inst)})",
        source=SRC,
    )
    target["pairs"] = [["D", "D'"]]
    doc["claims"].append(target)
    return doc


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
    return _spec(
        space,
        _rr_screen,
        _rr_document,
        claim_id,
        "T-fold composition of RR(eps): T = 10..500, e^eps in [1.001, 2], delta' in "
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
