"""Talwar 2025: the displayed steps of the proofs of Proposition 6 and Theorems 7, 9
and 10 as tables of :class:`verifier.claims.steps.Step`, each decided over a box of
the proof's parameters by :func:`verifier.claims.steps.decide_steps` (one engine for
every chain; no hand-written step checks).

Reparametrisations (so that every hypothesis of a step is a box):

* ``T = e^τ`` (``τ ≥ 0``) and ``ε = uτ`` with ``u ∈ [0, 1]``: exactly the hypothesis
  ``T ≥ e^ε`` of Theorems 7, 9 and 10;
* ``Δ = ln(bT)/ε + s`` with ``s ∈ [0, 1]`` (``b = 4`` for Theorem 7, ``8`` for
  Theorems 9 and 10): every real ``Δ`` with ``ln(bT)/ε ≤ Δ ≤ ln(bT)/ε + 1``, which
  contains the proofs' ``Δ = ⌈ln(bT)/ε⌉``;
* ``q = v/(4T)`` (``v ∈ [0, 1]``): the hypothesis ``q ≤ 1/(4T)``; likewise a
  probability ``p ≤ 1/(8T)`` is ``p = v/(8T)``;
* ``γ = e^{h}(4T)^{-4c}/8`` (``h ≥ 0``): the hypothesis ``γ ≥ (4T)^{-4c}/8``; with
  ``L = ln 4T`` it reads ``γ = e^{h - 4cL}/8``;
* Prop. 6 in logarithms: ``ℓ_k = ln Pr[M(d_k) ∈ E]``, ``L = ℓ_0 ≤ 0``,
  ``r = 1 - 1/α ∈ [0, 1)``, ``R = r^{k-1}`` (any ``k ≥ 1``) and
  ``S_k = Σ_{i≤k} r^i = r(1 - r^k)/(1 - r)``.

The boxes bound the parameters (``T ≤ e^46 ≈ 10^20``, ``c ≤ 100``, ...); the steps
are proved for every point of them (certified branch and bound, or an identity proved
exactly for every value).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from verifier.claims.steps import Step

__all__ = [
    "SPECIFICATION_DP",
    "MARKOV_AND_UNION",
    "exponent_bound",
    "DELTA_CONDITION",
    "REARRANGE",
    "THM9_UNION",
    "THM10_UNION",
    "PROP6_INDUCTION",
    "ln_bT",
]

R = sp.Rational

EPS, DELTA, TAU, U, S, C = sp.symbols("eps Delta tau u s c", nonnegative=True)
T_, V, A_, B_, K_, H, L_ = sp.symbols("T v a b K h L", nonnegative=True)
PE, PS = sp.symbols("P_E p_see", nonnegative=True)
r, Rk, ell, ell0, t_ = sp.symbols("r R ell L t", real=True)

#: T = e^tau up to 10^20; u = eps/ln T in [0, 1]; s in [0, 1]; c in [1/100, 100].
TAU_BOX = (0, 46)
C_BOX = (R(1, 100), 100)


def _T() -> sp.Expr:
    return sp.exp(TAU)


def _eps() -> sp.Expr:
    """``ε = uτ = u ln T`` (``T ≥ e^ε`` iff ``u ≤ 1``)."""
    return U * TAU


def _eps_delta(base: int) -> sp.Expr:
    """``εΔ`` with ``Δ = ln(bT)/ε + s``: ``ln b + τ + uτs``."""
    return sp.expand(_eps() * ((sp.log(base) + TAU) / _eps() + S))


def ln_bT(base: int) -> sp.Expr:
    """``ln(bT) = ln b + τ``."""
    return sp.log(base) + TAU


# --- Theorem 7: "this specification on {d0, d1} satisfies eps-DP" ------------------

SPEC_BOX = {EPS: (R(1, 100), 3), DELTA: (1, 1000)}

SPECIFICATION_DP = [
    Step(
        "(1 - q)/q <= 1/q, q = e^(-eps Delta)",
        (1 - sp.exp(-EPS * DELTA)) / sp.exp(-EPS * DELTA),
        1 / sp.exp(-EPS * DELTA),
        domain=SPEC_BOX,
    ),
    Step(
        "1/q = e^(eps |d0 - d1|_H), |d0 - d1|_H = Delta",
        1 / sp.exp(-EPS * DELTA),
        sp.exp(EPS * DELTA),
        "==",
        domain=SPEC_BOX,
    ),
]

# --- Theorem 7: "Consider a run of A(d0)" (Markov, the union bound, 1/4) ------------

MARKOV_AND_UNION = [
    Step(
        "Markov for A_LT (N geometric, E[N] = T = 1/gamma): Pr[N > 2T] = (1 - 1/T)^(2T) "
        "<= E[N]/(2T) = 1/2",
        (1 - 1 / T_) ** (2 * T_),
        R(1, 2),
        domain={T_: (2, 10**6)},
        note="2T an integer; A_max^T makes exactly T calls (Pr[N > 2T] = 0)",
    ),
    Step(
        "(r,1) unseen in the first 2T draws: (1 - q)^(2T) >= (1 - 1/(4T))^(2T) for "
        "q = v/(4T) <= 1/(4T)",
        (1 - V / (4 * T_)) ** (2 * T_),
        (1 - 1 / (4 * T_)) ** (2 * T_),
        ">=",
        domain={V: (0, 1), T_: (1, 10**6)},
    ),
    *[
        Step(
            f"Pr[(r,1) seen | E] <= 1 - (1 - 1/(4T))^(2T) <= 1/2, T in [{lo}, {hi}] (the union "
            "bound gives 2T/(4T) = 1/2)",
            1 - (1 - 1 / (4 * T_)) ** (2 * T_),
            R(1, 2),
            domain={T_: (lo, hi)},
        )
        for lo, hi in ((1, 10**4), (10**4, 10**9))
    ],
    Step(
        "Pr[A(d0) = (r',0)] >= Pr[E] (1 - Pr[(r,1) seen | E]) >= 1/4 for Pr[E] >= 1/2, "
        "Pr[(r,1) seen | E] <= 1/2",
        PE * (1 - PS),
        R(1, 4),
        ">=",
        domain={PE: (R(1, 2), 1), PS: (0, R(1, 2))},
    ),
]


# --- Theorems 7 and 9: the exponent bound ------------------------------------------


def exponent_bound(base: int, factor: int) -> list[Step]:
    """``εΔ ≤ ln(bT) + ε ≤ 2 ln(bT)`` when ``T ≥ e^ε`` and ``Δ ≤ ln(bT)/ε + 1``, hence
    ``e^{-2·factor·cεΔ} ≥ (bT)^{-4·factor·c}`` (Theorem 7: ``b = 4``, factor 1;
    Theorems 9/10: ``b = 8``, the exponent ``20c`` = factor 10)."""
    box = {TAU: TAU_BOX, U: (0, 1), S: (0, 1)}
    ed = _eps_delta(base)
    return [
        Step(
            f"eps Delta <= ln({base}T) + eps (Delta <= ln({base}T)/eps + 1)",
            ed,
            ln_bT(base) + _eps(),
            domain=box,
        ),
        Step(
            f"ln({base}T) + eps <= 2 ln({base}T) (T >= e^eps)",
            ln_bT(base) + _eps(),
            2 * ln_bT(base),
            domain={TAU: TAU_BOX, U: (0, 1)},
        ),
        Step(
            f"-{2 * factor}c eps Delta >= -{4 * factor}c ln({base}T), so "
            f"e^(-{2 * factor}c eps Delta) >= ({base}T)^(-{4 * factor}c) (exp increases)",
            -2 * factor * C * ed,
            -4 * factor * C * ln_bT(base),
            ">=",
            domain={**box, C: C_BOX},
        ),
    ]


# --- Theorem 7: the delta condition ------------------------------------------------

#: gamma = g e^(-2c eps Delta)/8 with g in [0, 1]: the case gamma < e^(-2c eps Delta)/8
#: the proof rules out.
G = sp.Symbol("g", nonnegative=True)


def _delta_condition() -> list[Step]:
    ed = _eps_delta(4)
    gp = sp.exp(-2 * C * ed)  # e^(-2c eps Delta)
    box = {TAU: (R(1, 100), 46), U: (R(1, 1000), 1), S: (0, 1), C: C_BOX, G: (0, 1)}
    delta = sp.expand(ed / _eps())  # Delta
    return [
        Step(
            "eps gamma/(4 ln 4T) <= eps e^(-2c eps Delta)/(32 ln 4T) for gamma <= "
            "e^(-2c eps Delta)/8",
            _eps() * G * gp / 8 / (4 * ln_bT(4)),
            _eps() * gp / (32 * ln_bT(4)),
            domain=box,
        ),
        Step(
            "eps/(32 ln 4T) <= 1/(8 Delta), i.e. eps Delta <= 4 ln 4T, so the statement's "
            "delta < eps gamma/(4 ln 4T) gives Prop. 5's delta < e^(-2c eps Delta)/(8 Delta)",
            ed,
            4 * ln_bT(4),
            domain={TAU: TAU_BOX, U: (0, 1), S: (0, 1)},
            note=f"Delta = {delta}",
        ),
    ]


DELTA_CONDITION = _delta_condition()

# --- Theorem 7: "Rearranging, we get the claimed result" ----------------------------


def _rearrange() -> list[Step]:
    T = sp.exp(L_) / 4  # L = ln 4T
    gamma = sp.exp(H - 4 * C * L_) / 8  # = e^h (4T)^(-4c)/8, h >= 0
    bound = (8 * gamma) ** (-1 / (4 * C)) / 4
    box = {L_: (R(7, 5), 50), H: (0, 50), C: C_BOX}
    return [
        Step(
            "gamma >= (4T)^(-4c)/8 implies T >= (8 gamma)^(-1/(4c))/4 "
            "(gamma = e^h (4T)^(-4c)/8, h >= 0; L = ln 4T)",
            sp.powsimp(sp.expand_power_base(bound, force=True), force=True),
            T,
            domain=box,
            note="equality at h = 0: the two forms are equivalent",
        ),
    ]


REARRANGE = _rearrange()

# --- Theorem 9: the union bound ----------------------------------------------------


def _thm9_union() -> list[Step]:
    ed = _eps_delta(8)  # eps Delta with Delta = ln(8T)/eps + s
    q = sp.exp(-ed)
    box = {TAU: TAU_BOX, U: (0, 1), S: (0, 1)}
    return [
        Step("q = e^(-eps Delta) <= 1/(8T)", q, 1 / (8 * _T()), domain=box),
        Step(
            "Pr[M_v(d) = (r,1)] <= Pr[d in B_v] + q <= 1/(8T) + q <= 1/(4T)",
            1 / (8 * _T()) + q,
            1 / (4 * _T()),
            domain=box,
        ),
        Step(
            "at most 2T runs, each <= 1/(4T): (2T a)(b/(4T)) <= 1/2 (a, b in [0, 1])",
            (2 * T_ * A_) * (B_ / (4 * T_)),
            R(1, 2),
            domain={A_: (0, 1), B_: (0, 1)},
        ),
    ]


THM9_UNION = _thm9_union()

# --- Theorem 10: the union bound ---------------------------------------------------


def _thm10_union() -> list[Step]:
    box = {B_: (0, 1), K_: (1, 10**6), T_: (1, 10**6)}
    return [
        Step(
            "Pr[j = k and d in B_v] = Pr[j = k] |B_v|/2^(10 Delta) <= (1/K)(1/(8T)) "
            "(|B_v|/2^(10 Delta) = b/(8T), b in [0, 1]; k uniform, independent of j)",
            (1 / K_) * B_ / (8 * T_),
            1 / (8 * T_ * K_),
            domain=box,
        ),
        Step(
            "1/(8TK) + Pr[j = k] q <= 1/(4TK) for q = v/(8T) <= 1/(8T)",
            1 / (8 * T_ * K_) + V / (8 * T_ * K_),
            1 / (4 * T_ * K_),
            domain={V: (0, 1), K_: (1, 10**6), T_: (1, 10**6)},
        ),
        Step(
            "at most 2TK runs, each <= 1/(4TK): (2TK a)(b/(4TK)) <= 1/2",
            (2 * T_ * K_ * A_) * (B_ / (4 * T_ * K_)),
            R(1, 2),
            domain={A_: (0, 1), B_: (0, 1)},
        ),
    ]


THM10_UNION = _thm10_union()

# --- Proposition 6: the induction -------------------------------------------------


def _prop6() -> list[Step]:
    def S_(k: Any) -> sp.Expr:  # S_k with r^k written through R = r^(k-1)
        return r * (1 - k) / (1 - r)

    box = {EPS: (0, 10), r: (0, R(99, 100)), Rk: (0, 1), ell0: (-100, 0)}
    return [
        Step(
            "base k = 1 ([22, Prop. 10]): ln Pr[M(d_1) in E] <= eps r + r L = eps S_1 + r^1 L",
            EPS * r + r * ell0,
            EPS * S_(r) + r * ell0,
            "==",
            domain=box,
        ),
        Step(
            "applying [22, Prop. 10] to the hypothesis ell_(k-1) = eps S_(k-1) + R L - t "
            "(t >= 0): eps r + r ell_(k-1) <= eps r + r (eps S_(k-1) + R L)",
            EPS * r + r * (EPS * S_(Rk) + Rk * ell0 - t_),
            EPS * r + r * (EPS * S_(Rk) + Rk * ell0),
            domain={**box, t_: (0, 100)},
            note="the map x -> e^(eps r) x^r increases",
        ),
        Step(
            "eps r + r (eps S_(k-1) + r^(k-1) L) = eps S_k + r^k L (S_k = r(1 - r^k)/(1 - r))",
            EPS * r + r * (EPS * S_(Rk) + Rk * ell0),
            EPS * S_(r * Rk) + r * Rk * ell0,
            "==",
            domain=box,
        ),
    ]


PROP6_INDUCTION = _prop6()
