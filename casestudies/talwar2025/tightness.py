"""Tightness of Talwar 2025, Theorem 11's advanced-composition claim.

The registered instance (``A_max^T`` of randomized response, ``T = 50``, ``ε = 1/20``,
``δ' = 10^-6``) has realized ``δ = 1.2·10^-15`` at ``ε_adv = Tε² + ε sqrt(2T ln(1/δ'))``
against the claimed ``Tδ + δ' = 10^-6``: the claim holds vacuously there.  ``A_max^T`` is
a post-processing of the ``T``-fold composition, whose worst case among ``ε``-DP
mechanisms is randomized response (Kairouz, Oh, Viswanath 2015, optimal composition),
so the composition of ``T`` copies of ``RR(ε)`` is where the bound is tightest.  Its
output is lumped by the number ``k`` of ones (``P_D(k) = C(T,k) p^k (1-p)^{T-k}``,
``p = e^ε/(1+e^ε)``: the ratio only depends on ``k``), and exact with ``e^ε = 101/100``
(``p = 101/201``).  Realized ``δ(ε_adv)`` / claimed ``δ'``:

==========  =================  ==============  ================
``T``       ``ε``              ``ε_adv``       realized / ``δ'``
==========  =================  ==============  ================
50          1/20               1.983           1.57e-4
500         log(101/100)       1.219           1.27e-3
5000        log(101/100)       4.194           1.06e-3
5000        log(1001/1000)     0.377           7.40e-4
==========  =================  ==============  ================

The bound is loose by three orders of magnitude in ``δ`` even in the worst case (the
Hoeffding tail behind ``δ'`` against the binomial tail, times the factor
``1 - e^{ε_adv - L}`` of the hockey-stick divergence); the ``T = 500`` row is the
registered exact claim ``talwar2025.thm11.advanced_composition.rr_worst_case``.
"""

from __future__ import annotations

from math import comb

import sympy as sp

from verifier.claims import Tightness
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair

R = sp.Rational

#: (T, e^eps, realized delta / delta') of the table above (delta' = 1e-6).
SEARCHED = (
    (50, "e^(1/20)", 1.57e-4),
    (500, "101/100", 1.27e-3),
    (5000, "101/100", 1.06e-3),
    (5000, "1001/1000", 7.40e-4),
)


def rr_composition(T: int, odds: sp.Expr) -> FiniteMechanism:
    """``T`` independent runs of randomized response with ``e^ε = odds``, lumped by the
    number of ones (exact; the privacy loss depends on the count only)."""
    p, q = odds / (1 + odds), 1 / (1 + odds)
    return FiniteMechanism(
        pair(),
        {
            "D": {k: sp.Integer(comb(T, k)) * p**k * q ** (T - k) for k in range(T + 1)},
            "D'": {k: sp.Integer(comb(T, k)) * q**k * p ** (T - k) for k in range(T + 1)},
        },
        list(range(T + 1)),
        name=f"RR(log {odds})^{T}",
    )


def advanced_composition_epsilon(T: int, eps: sp.Expr, delta_prime: sp.Expr) -> sp.Expr:
    """``Tε² + ε sqrt(2T ln(1/δ'))`` (Talwar 2025, Theorem 11; Dwork, Rothblum, Vadhan
    2010's advanced composition)."""
    return T * eps**2 + eps * sp.sqrt(2 * T * sp.log(1 / delta_prime))


def advanced_composition_tightness() -> Tightness:
    best = max(SEARCHED, key=lambda row: row[2])
    rows = "; ".join(f"T = {T}, e^eps = {o}: {r:.3g}" for T, o, r in SEARCHED)
    return Tightness(
        "loose",
        best[2],
        f"T-fold composition of RR, T = {best[0]}, e^eps = {best[1]}, delta' = 1e-6 "
        f"(realized delta / delta')",
        searched=f"the worst case of composition, T copies of randomized response: {rows} "
        f"(the registered A_max^50 instance: 1.2e-9)",
    )


# ---------------------------------------------------------------------------
# Where delta matters: an (eps, delta)-DP oracle
# ---------------------------------------------------------------------------
#
# M_w = (1 - w) RR(eps) + w [a top score that D' never gives]: by hand delta_M(eps) = w
# (the top score from D; from D' the excess is w p at the output RR(eps) favours, p < 1).
# A_max^T releases the top score iff some run drew it: Pr_D = 1 - (1 - w)^T, Pr_D' = 0, so
# the realized delta at every eps is at least 1 - (1 - w)^T, against Theorem 11's
# T w + delta'.  With delta' = w^2 the ratio (1 - (1-w)^T)/(T w + w^2) -> 1 as w -> 0.


def leaky_rr(eps: sp.Expr, w: sp.Expr) -> FiniteMechanism:
    """``(1-w) RR(ε) + w·[score 2 at D only]`` on scores ``{0, 1, 2}`` (``δ = w`` at ``ε``)."""
    e = sp.exp(sp.sympify(eps))
    p = e / (1 + e)
    w = sp.sympify(w)
    return FiniteMechanism(
        pair(),
        {"D": {0: (1 - w) * (1 - p), 1: (1 - w) * p, 2: w}, "D'": {0: p, 1: 1 - p}},
        [0, 1, 2],
        name=f"RR({eps}) + {w} at a score D' never gives",
    )


def delta_point(T: int, eps: sp.Expr, w: sp.Expr, delta_prime: sp.Expr) -> tuple:  # type: ignore[type-arg]
    """``A_max^T`` on :func:`leaky_rr`: ``(A, ε_adv, claimed Tδ + δ', realized δ(ε_adv))``."""
    from verifier.algorithms.talwar import a_max
    from verifier.privacy import delta

    A = a_max(T).apply(leaky_rr(eps, w))
    e_adv = advanced_composition_epsilon(T, sp.sympify(eps), sp.sympify(delta_prime))
    realized, _ = delta(A, e_adv)
    return A, e_adv, T * w + delta_prime, realized


#: (T, eps, w, delta') of the registered points where delta matters.
DELTA_POINTS = ((50, R(1, 20), R(1, 1000), R(1, 10**6)), (50, R(1, 20), R(1, 10**5), R(1, 10**10)))


def delta_family_tightness() -> Tightness:
    """Theorem 11's advanced composition, approached where ``δ > 0`` matters."""
    from verifier.arithmetic import approx

    w = sp.Symbol("w", positive=True)
    lim = sp.limit((1 - (1 - w) ** 50) / (50 * w + w**2), w, 0)
    if lim != 1:
        from verifier.errors import ConstructionFailed

        raise ConstructionFailed(f"the tightness proof failed: the limit is {lim}, not 1")
    T_, eps, w_, dp = DELTA_POINTS[-1]
    _, e_adv, claimed, realized = delta_point(T_, eps, w_, dp)
    r = approx(realized / claimed)
    return Tightness(
        "approached",
        r,
        f"A_max^{T_} of (1-w) RR({eps}) + w on a D-only top score, w = {w_}, delta' = {dp}: "
        f"realized delta {approx(realized):.6e} at eps_adv = {approx(e_adv):.4f} against "
        f"T delta + delta' = {approx(claimed):.6e}",
        family="A_max^T of (1-w) RR(eps) + w [a top score D' never gives] (an (eps, w)-DP "
        "oracle), delta' = w^2, w -> 0",
        limit="realized delta >= Pr_D[top] - 0 = 1 - (1-w)^T (A_max^T releases the top score iff "
        "a run drew it); (1 - (1-w)^T)/(T w + w^2) -> 1 as w -> 0 (sympy.limit at T = 50); "
        "the pure part is loose (T-fold RR: realized/claimed <= 1.3e-3, rr_worst_case)",
    )
