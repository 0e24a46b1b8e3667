"""Tightness of Ghazi et al. 2025's bounds: extremal families and their limits, proved
symbolically (sympy) when the tightness entry is asked for.

* Theorems 10 and 11, outputs ``(o, i)``: ``RR(log 2)`` with a competitor ``RR(log E)``
  favouring the other dataset (Algorithm 2: the competitor first; Algorithm 3: second),
  ``ε' = log 2``.  Built with a symbolic ``E``, the ratio of the worst output is the
  rational function ``A_D(1, i)/A_D'(1, i) = (8E² - 2)/(E² + 3E - 1)``; its limit as
  ``E → ∞`` is ``8 = e^{2ε_i + ε'}`` and ``8(E² + 3E - 1) - (8E² - 2) = 24E - 6 > 0``, so
  realized/claimed ``= log R(E)/log 8`` increases to 1 and never reaches it.
* Theorem 10's ``ε̃(⊥) = ε'``: one ``RR(log E)``, ``τ = 1``: ``A_D'(⊥)/A_D(⊥) =
  (2E² - 1)/(E² + E - 1) → 2 = e^{ε'}``, below 2 for ``E > 1/2``.
* Lemma 7 (ii): ``leak(w, L)`` (loss ``L`` with probability ``w``) with ``ε̃ = D_α``.  The
  hockey-stick divergence at ``ε̃ + log(1/δ)/(α-1)`` is ``w (1 - e^{b-L})`` with
  ``e^{b-L} = ((w + (1-w)^α (1-we^{-L})^{1-α} e^{-L(α-1)})/δ)^{1/(α-1)}``, which tends to
  ``(w/δ)^k`` (``k = 1/(α-1)``) as ``L → ∞``; so ``H/δ → x(1 - x^k)`` with ``x = w/δ``,
  maximal at ``x = (k+1)^{-1/k}`` with value ``g(k) = (k/(k+1)) (k+1)^{-1/k}``, and
  ``g(k) → 1`` as ``k → ∞`` (``α → 1``): Lemma 7 (ii)'s ``δ`` is approached, never
  attained (``g(k) < 1``).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from verifier.algorithms.ghazi import BOTTOM, generalized_above_threshold, hyperparameter_tuning
from verifier.arithmetic import approx
from verifier.claims import Tightness
from verifier.errors import ConstructionFailed

R = sp.Rational
E = sp.Symbol("E", positive=True)
L2 = sp.log(2)


def _rr(eps: Any, favour: str) -> Any:
    from .claims import rr

    return rr(eps, favour)


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ConstructionFailed(f"the tightness proof failed: {what}")


def competitor_ratio(theorem: int) -> sp.Expr:
    """``A_D(1, i)/A_D'(1, i)`` on the competitor family, a rational function of ``E``."""
    comp = _rr(sp.log(E), "D'")
    if theorem == 10:
        A = generalized_above_threshold([comp, _rr(L2, "D")], [sp.log(E), L2], L2, 1)
        out = (1, 2)
    else:
        A = hyperparameter_tuning([_rr(L2, "D"), comp], [L2, sp.log(E)], L2)
        out = (1, 1)
    return sp.cancel(sp.together(A.p("D", out) / A.p("D'", out)))


def competitor_family(theorem: int, e_value: int = 10**6) -> Tightness:
    """Theorem 10 or 11 on the competitor family: ``approached`` (module docstring)."""
    ratio = competitor_ratio(theorem)
    num, den = sp.fraction(ratio)
    _require(sp.limit(ratio, E, sp.oo) == 8, "the ratio does not tend to 8")
    gap = sp.Poly(sp.expand(8 * den - num), E)
    _require(
        all(c >= 0 for c in gap.coeffs()[:-1]) and gap.degree() >= 1,
        "8 - ratio is not positive for large E",
    )
    value = approx(sp.log(ratio.subs(E, e_value)) / sp.log(8))
    which = "Algorithm 2, the competitor first" if theorem == 10 else "Algorithm 3, second"
    limit = (
        f"A_D(1, i)/A_D'(1, i) = {ratio} (exact); its limit as E -> oo is 8 = e^(2 eps_i + eps') "
        f"(sympy.limit) and 8 den - num = {gap.as_expr()} > 0 for E >= 1: realized/claimed "
        f"= log R(E)/log 8 -> 1, never 1"
    )
    if theorem == 10:
        bot = bottom_ratio()
        limit += f"; bot: A_D'(bot)/A_D(bot) = {bot} -> 2 = e^(eps') (one RR(log E), tau = 1)"
    return Tightness(
        "approached",
        value,
        f"E = {e_value}, output (1, i), D -> D'",
        family=f"RR(log 2) and a competitor RR(log E) favouring D' ({which}), eps' = log 2, "
        f"E -> oo",
        limit=limit,
    )


def bottom_ratio() -> sp.Expr:
    """Theorem 10's ``⊥`` on one ``RR(log E)``, ``τ = 1``: ``A_D'(⊥)/A_D(⊥)``."""
    A = generalized_above_threshold([_rr(sp.log(E), "D")], [sp.log(E)], L2, 1)
    ratio = sp.cancel(sp.together(A.p("D'", BOTTOM) / A.p("D", BOTTOM)))
    _require(sp.limit(ratio, E, sp.oo) == 2, "the bottom ratio does not tend to 2")
    return ratio


def theorem11_entry() -> Tightness:
    """Theorem 11: ``ε̃(⊥) = 0`` attained exactly; the outputs ``(o, i)`` approached."""
    fam = competitor_family(11)
    return Tightness(
        "attained",
        1.0,
        "bot: A(bot) does not depend on the data, realized 0 = claimed 0 exactly; the outputs "
        f"(o, i) are approached: {fam.instance}, ratio {fam.ratio:.7f}",
        family=fam.family,
        limit=fam.limit,
    )


K = sp.Symbol("k", positive=True)


def lemma7_ii_family() -> Tightness:
    """Lemma 7 (ii): ``sup H/δ = 1``, approached by ``leak(w, L)`` (module docstring)."""
    x, k, w, d, loss, a = sp.symbols("x k w delta L alpha", positive=True)
    g = x * (1 - x**k)
    xstar = (k + 1) ** (-1 / k)
    _require(sp.simplify(sp.diff(g, x).subs(x, xstar)) == 0, "x* is not stationary")
    best = sp.simplify(g.subs(x, xstar))
    _require(sp.limit(best, k, sp.oo) == 1, "g(k) does not tend to 1")
    inner = (w + (1 - w) ** a * (1 - w * sp.exp(-loss)) ** (1 - a) * sp.exp(-loss * (a - 1))) / d
    _require(
        sp.limit(inner.subs({w: R(1, 10), a: 2, d: R(1, 5)}), loss, sp.oo) == R(1, 2),
        "the L -> oo limit of e^(b - L) is not (w/delta)^k",
    )
    kk = 1000
    value = approx(best.subs(k, kk))
    return Tightness(
        "approached",
        value,
        f"k = 1/(alpha - 1) = {kk}, delta = w (k+1)^(1/k), L -> oo: H/delta = {value:.6f}",
        family="leak(w, L) (loss L with probability w), eps~ = D_alpha, alpha = 1 + 1/k, "
        "delta = w (k+1)^(1/k); L -> oo, then k -> oo",
        limit=f"H/delta -> x(1 - x^k) as L -> oo (x = w/delta), maximal at x = (k+1)^(-1/k) "
        f"with value {best} (< 1), whose limit as k -> oo is 1 (sympy.limit)",
    )
