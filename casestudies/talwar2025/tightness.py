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
