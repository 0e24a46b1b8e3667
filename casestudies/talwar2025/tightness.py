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
from typing import Any

import sympy as sp

from verifier.claims import Tightness
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

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


#: (T, e^eps, delta', eps*/eps_adv): the least eps with delta(eps) <= delta' of the T-fold
#: composition of RR over Theorem 11's eps_adv (floats, bisection on the exact binomial
#: sum; a measurement, never a verdict: casestudies.talwar2025.composition_search.epsilon_at).
EPSILON_TERM = (
    (50, "e^(1/20)", "1e-6", 0.751),
    (500, "101/100", "1e-6", 0.765),
    (500, "101/100", "1e-10", 0.842),
    (50000, "1001/1000", "1e-10", 0.847),
    (500000, "10001/10000", "1e-30", 0.935),
)


def advanced_composition_tightness() -> Tightness:
    """The epsilon term ``Tε² + ε sqrt(2T ln(1/δ'))`` of Theorem 11 (pure oracles,
    ``δ = 0``): loose.  What the witness reaches: nothing of the additive term (there is
    none here), and ``δ'`` only up to ``1.3·10^-3``; the ε term by ``ε*/ε_adv <= 0.85``
    on the exactly searched family."""
    best = max(SEARCHED, key=lambda row: row[2])
    rows = "; ".join(f"T = {T}, e^eps = {o}: {r:.3g}" for T, o, r in SEARCHED)
    eps_rows = "; ".join(f"T = {T}, e^eps = {o}, delta' = {d}: {r}" for T, o, d, r in EPSILON_TERM)
    return Tightness(
        "loose",
        best[2],
        f"T-fold composition of RR, T = {best[0]}, e^eps = {best[1]}, delta' = 1e-6 "
        f"(realized delta at eps_adv / delta'; this witness reaches the eps term "
        f"T eps^2 + eps sqrt(2T ln 1/delta') only: delta = 0, no additive T delta term)",
        searched=f"the worst case of composition, T copies of randomized response (searched "
        f"over T = 10..500, e^eps in [1.001, 2], delta' in {{1e-3, 1e-6, 1e-10}}): {rows} "
        f"(the registered A_max^50 instance: 1.2e-9); in eps, the least eps with delta(eps) "
        f"<= delta' over eps_adv (floats): {eps_rows} -- rising towards 1 as delta' -> 0, no "
        f"limit proved",
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
    from verifier.checks.privacy import delta

    A = a_max(T).apply(leaky_rr(eps, w))
    e_adv = advanced_composition_epsilon(T, sp.sympify(eps), sp.sympify(delta_prime))
    realized = delta(A, epsilon=e_adv).value
    return A, e_adv, T * w + delta_prime, realized


#: (T, eps, w, delta') of the registered points where delta matters.
DELTA_POINTS = ((50, R(1, 20), R(1, 1000), R(1, 10**6)), (50, R(1, 20), R(1, 10**5), R(1, 10**10)))


def delta_family_tightness() -> Tightness:
    """Theorem 11's advanced composition, approached where ``δ > 0`` matters."""
    from verifier.arithmetic.exact import approx

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
        f"T delta + delta' = {approx(claimed):.6e} (this witness reaches the additive T delta "
        f"term only; the eps term is loose, see rr_worst_case)",
        family="A_max^T of (1-w) RR(eps) + w [a top score D' never gives] (an (eps, w)-DP "
        "oracle), delta' = w^2, w -> 0",
        limit="realized delta >= Pr_D[top] - 0 = 1 - (1-w)^T (A_max^T releases the top score iff "
        "a run drew it); (1 - (1-w)^T)/(T w + w^2) -> 1 as w -> 0 (sympy.limit at T = 50); "
        "the pure part is loose (T-fold RR: realized/claimed <= 1.3e-3, rr_worst_case)",
    )


# ---------------------------------------------------------------------------
# The other statements: each tag from the statement's own bound
# ---------------------------------------------------------------------------


def _limit_is_one(expr: sp.Expr, var: sp.Symbol, at: Any, what: str) -> None:
    from verifier.errors import ConstructionFailed

    lim = sp.limit(expr, var, at)
    if lim != 1:
        raise ConstructionFailed(f"the tightness proof of {what} failed: the limit is {lim}")


#: The near-tight member of Prop. 2's family: randomized response at 2 eps on the ends of
#: the path 0 - 1 - 2 with e^eps = 10^16.
PROP2_ODDS = sp.Integer(10) ** 16


def prop2_tightness() -> Tightness:
    """Prop. 2's factor 2, approached: RR at ``2ε`` on ``B = {0, 2}`` of the path
    ``0 - 1 - 2`` extends to ``p̂_1 = (1/2, 1/2)`` with loss ``ln((1 + e^{2ε})/2)``."""
    from verifier.arithmetic.exact import approx

    a = sp.Symbol("a", positive=True)
    ratio = sp.log((1 + a**2) / 2) / (2 * sp.log(a))
    _limit_is_one(ratio, a, sp.oo, "Prop. 2")
    return Tightness(
        "approached",
        approx(ratio.subs(a, PROP2_ODDS)),
        f"RR at 2 eps on B = {{0, 2}} of the path 0 - 1 - 2, e^eps = {PROP2_ODDS}: the loss of "
        "p_hat_1 = (1/2, 1/2) against p_0 is ln((1 + e^(2 eps))/2) (a registered instance)",
        family="RR at 2 eps on the ends of the path 0 - 1 - 2 (premise attained), eps -> oo",
        limit="realized loss / (2 eps) = ln((1 + e^(2 eps))/2)/(2 eps) -> 1 as eps -> oo "
        "(sympy.limit), about 1 - ln 2/(2 eps)",
    )


def prop5_quarter_tightness() -> Tightness:
    """Prop. 5's second part from its first: the bound ``e^{-εΔ}/8`` is approached as
    ``Δδ -> e^{-εΔ}/8`` (the premise is strict) with ``Pr[M(d) ∈ E] = 1/4``."""
    u = sp.Symbol("u", positive=True)
    _limit_is_one(1 / (2 - u), u, 1, "Prop. 5 (second part)")
    return Tightness(
        "approached",
        1.0,
        "the derivation at Pr[M(d) in E] = 1/4 and Delta delta = e^(-eps Delta)/8 (the box's "
        "face u = 1, decided exactly there)",
        family="Pr[M(d) in E] = 1/4, Delta delta = u e^(-eps Delta)/8, the first part with "
        "equality; u -> 1 (the premise delta < e^(-eps Delta)/(8 Delta) is strict)",
        limit="bound / derived lower estimate = (1/8)/(1/4 - u/8) = 1/(2 - u) -> 1 as u -> 1 "
        "(sympy.limit); a tag of the implication from the first part, which itself is loose for "
        "Delta >= 2 and delta > 0 (prop5.hockey_stick: best 0.165 in the search)",
    )


def prop6_second_tightness() -> Tightness:
    """Prop. 6's exponent ``1/e``: ``(1 - 1/α)^Δ >= 1/e`` at ``α = Δ + 1`` is approached
    as ``Δ -> ∞``."""
    from verifier.arithmetic.exact import approx

    D = sp.Symbol("Delta", positive=True)
    ratio = -D * sp.log(1 - 1 / (D + 1))
    _limit_is_one(ratio, D, sp.oo, "Prop. 6 (second part)")
    return Tightness(
        "approached",
        approx(ratio.subs(D, 100)),
        "Delta = 100, alpha = Delta + 1 (the box's vertex): -Delta ln(1 - 1/alpha) against 1",
        family="alpha = Delta + 1, Delta -> oo",
        limit="-Delta ln(1 - 1/(Delta + 1)) -> 1, i.e. (Delta/(Delta + 1))^Delta -> 1/e "
        "(sympy.limit); the sum sum_(i <= Delta) r^i <= alpha - 1 is not approached there "
        "(it tends to (alpha - 1)(1 - 1/e))",
    )


def prop6_printed_tightness() -> Tightness:
    """The printed ``/4^4`` against the derived ``/4^e``: loose by ``4^{e-4}``."""
    from verifier.arithmetic.exact import approx

    return Tightness(
        "loose",
        approx(sp.Integer(4) ** (sp.E - 4)),
        "e^(-e x)/4^4 against the derived e^(-e x)/4^e (attained by the derivation at "
        "Pr[M(d) in E] = 1/4): the ratio 4^(e-4) for every x",
        searched="the derivation over x = (alpha - 1) eps in [0, 20] (prop6.quarter_4e)",
    )


def chain_final_tightness(which: str) -> Tightness:
    """The lower bound a chain claim concludes, against the registered algorithm
    (A_LT, ``T = 100``, ``γ = 1/101``, ``c = 3``): loose (the lower bounds are tight only
    up to constants in ``c``, Talwar 2025, §4)."""
    from verifier.arithmetic.exact import approx

    c, T, g = 3, 100, sp.Rational(1, 101)
    bound = {
        "two_c": (8 * g) ** sp.Rational(-1, 2 * c) / 4,
        "cor8": (4**sp.E * g) ** (-1 / (4 * sp.E * c)) / 4,
        "cor8_printed": (4**4 * g) ** (-1 / (2 * sp.E * c)) / 4,
    }[which]
    return Tightness(
        "loose",
        approx(bound / T),
        f"A_LT,1/100 (c = 3, T = 100, failure 1/101): bound {approx(bound):.4g} against T = 100",
        searched="the registered instance and the search over A_max^T, A_LT and the hybrids and "
        "eps (or Delta): every algorithm of §4 lies far above the bound; the chain's other "
        "equalities (eps Delta = ln 4T, alpha = Delta + 1) are its construction, not the bound",
    )


def thm9_counting_tightness() -> Tightness:
    """Theorem 9's counting fact ``|B_v|/2^{10Δ} <= 1/(8T)``: loose overall."""
    return Tightness(
        "loose",
        11 / 1024 / 0.049787068367863944,
        "Delta = 1, eps = 3 (the last link attained): |B_v|/2^10 = 11/1024 against e^(-3)",
        searched="the links over Delta in [1, 10^4] and the box (eps, T): "
        "sum C(10 Delta, i)/2^(10 Delta) <= (10e/1024)^Delta is loose (ratio 0.41 at Delta = 1, "
        "falling; exact sums for Delta = 1..60), (10e/1024)^Delta <= e^(-3 Delta) by the factor "
        "(10e^4/1024)^Delta <= 0.533, e^(-3 Delta) <= 1/(8T) attained at eps = 3 when ln(8T)/3 "
        "is an integer",
    )


def lt_tightness() -> Tightness:
    """Theorem 12's failure ``<= γ``: the balanced oracle fails w.p. ``γ/(1+γ)``."""
    g = sp.Symbol("gamma", positive=True)
    _limit_is_one(1 / (1 + g), g, 0, "Theorem 12")
    return Tightness(
        "approached",
        1000 / 1001,
        "gamma = 1/1000 on an oracle with mass 1/2 at its median: failure gamma/(1 + gamma)",
        family="A_LT,gamma on an oracle with exactly half its mass at or above the median "
        "(the worst case, Phi(1/2)), gamma -> 0",
        limit="failure/gamma = 1/(1 + gamma) -> 1 (sympy.limit); the privacy 3 eps is not "
        "tagged here",
    )


def hybrid_tightness() -> Tightness:
    """Theorem 13's failure ``<= γ``: ``γ/(1 + γ^{1/c})^c`` on the balanced oracle."""
    g = sp.Symbol("gamma", positive=True)
    _limit_is_one(1 / (1 + g ** sp.Rational(1, 2)) ** 2, g, 0, "Theorem 13")
    return Tightness(
        "approached",
        1 / (1 + 0.001) ** 2,
        "c = 2, gamma = 1/10^6 on an oracle with mass 1/2 at its median",
        family="the hybrid on an oracle with exactly half its mass at or above the median, "
        "gamma -> 0 (any c)",
        limit="failure/gamma = 1/(1 + gamma^(1/c))^c -> 1 (sympy.limit at c = 2)",
    )


#: Theorem 14's near-tight member: K settings, c = 2, gamma = 2^-40, an oracle with mass
#: exactly 1/K at its top score.
THM14_NEAR = (400, 2, sp.Rational(1, 2**40))


def meta_hybrid_tightness() -> Tightness:
    """Theorem 14's failure against ``q_{1-1/K}``: ``[γ^{1/c}(1-1/K)/(1 + γ^{1/c}(1-1/K))]^c``
    on the balanced oracle, ratio to ``γ`` tending to 1 as ``K -> ∞``, ``γ -> 0``."""
    from verifier.arithmetic.exact import approx

    K, c, g = THM14_NEAR
    r = (1 - sp.Rational(1, K)) ** c / (1 + g ** sp.Rational(1, c) * (1 - sp.Rational(1, K))) ** c
    k = sp.Symbol("K", positive=True)
    _limit_is_one((1 - 1 / k) ** 2, k, sp.oo, "Theorem 14")
    return Tightness(
        "approached",
        approx(r),
        f"K = {K}, c = {c}, gamma = 2^-40 on an oracle with mass exactly 1/K at its top score "
        "(a registered instance)",
        family="the metaselection hybrid on an oracle with mass 1/K at or above q_(1-1/K), "
        "K -> oo and gamma -> 0",
        limit="failure/gamma = (1-1/K)^c/(1 + gamma^(1/c)(1-1/K))^c -> 1 (sympy.limit of "
        "(1-1/K)^2 as K -> oo; the second factor -> 1 as gamma -> 0)",
    )


def figure1_tightness() -> Tightness:
    """Figure 1: the failure bound of A_LT approached; the lower-bound side loose."""
    g = sp.Symbol("gamma", positive=True)
    _limit_is_one(1 / (1 + g), g, 0, "Figure 1")
    return Tightness(
        "approached",
        1.0,
        "A_LT,1e-40: failure 1/(10^40 + 1) against gamma = 10^-40 (ratio 1 - 10^-40)",
        family="A_LT,gamma, gamma -> 0 (its worst-case failure gamma/(1 + gamma))",
        limit="failure/gamma = 1/(1 + gamma) -> 1 (sympy.limit); the lower-bound side of the "
        "figure is loose (every algorithm far above the bound)",
    )


def prop3_tightness() -> Tightness:
    """Proposition 3's ``1/(2K)``: attained by a uniform prior whose best setting has
    exactly half its mass at its median and whose others have none above it."""
    return Tightness(
        "attained",
        1.0,
        "K = 3, setting 0 = {0: 1/2, 1: 1/2}, settings 1, 2 constant 0: Pr[val(M~) >= max median "
        "= 1] = 1/6 = 1/(2K) exactly (a registered instance)",
    )


def prop6_first_tightness() -> Tightness:
    """Prop. 6's first part: approached only as the RDP ε -> 0 (every bound
    ``f(ε)·Pr[...]^{(1-1/α)^k}`` with ``f(0) = 1`` is): for ``E`` = every output both sides
    are ``1`` and ``e^{ε S_k}``.  For a fixed ``ε > 0`` no family approaching it is known
    here (Hölder's step behind [22, Prop. 10] keeps slack when ``P ∝ Q`` fails on ``E``)."""
    e, S = sp.symbols("eps S", positive=True)
    _limit_is_one(sp.exp(-e * S), e, 0, "Prop. 6 (first part)")
    return Tightness(
        "approached",
        0.9999996072574289,
        "random-path3[4] at alpha = 5, event {1}, pair 0 -> 1: 41/60 against "
        "45106259202131560368^(1/5)/12480 (a registered instance)",
        family="E = every output and any mechanism whose RDP eps -> 0 (the degenerate end: "
        "no constant factor can be taken off the bound); no family with a fixed eps > 0",
        limit="1/e^(eps S_k) -> 1 as eps -> 0 (sympy.limit)",
    )
