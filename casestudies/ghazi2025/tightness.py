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

import math
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi import BOTTOM, generalized_above_threshold, hyperparameter_tuning
from verifier.arithmetic.exact import approx
from verifier.claims import Tightness
from verifier.errors import ConstructionFailed

R = sp.Rational
E = sp.Symbol("E", positive=True)
L2 = sp.log(2)


def _rr(eps: Any, favour: str) -> Any:
    from .theory import rr

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
        family="leak(w, L) (loss L with probability w; the registered point is its padded "
        "variant, whose 'ok' output is equally likely at both datasets: the same limit), "
        "eps~ = D_alpha, alpha = 1 + 1/k, delta = w (k+1)^(1/k); L -> oo, then k -> oo",
        limit=f"H/delta -> x(1 - x^k) as L -> oo (x = w/delta), maximal at x = (k+1)^(-1/k) "
        f"with value {best} (< 1), whose limit as k -> oo is 1 (sympy.limit)",
    )


# ---------------------------------------------------------------------------
# Theorem 12 (utility): the supremum of the failure probability
# ---------------------------------------------------------------------------


def theorem12_worst_instance(alpha: Any) -> Any:
    """One mechanism with ``Pr[M(D) >= 1] = α`` exactly (the same on ``D'``): the
    premise of Ghazi et al. 2025, Theorem 12 holds with equality through ``M`` and no
    other mechanism helps, the worst case of the failure probability."""
    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import pair

    a = sp.sympify(alpha)
    table = {0: 1 - a, 1: a}
    return FiniteMechanism(pair(), {"D": dict(table), "D'": dict(table)}, [0, 1], name="M_alpha")


def theorem12_worst_failure(alpha: Any, beta: Any, ratio: Any, eps_prime: Any) -> Any:
    """``Pr[A(D) < (1, 0)]`` of Algorithm 3 (``Geom_{e^{-ε'}}``, Theorem 12's ``T``
    copies of :func:`theorem12_worst_instance`, ``ε_i = ratio · ε'``), as a certified
    enclosure computed from the algorithm (:func:`verifier.algorithms.ghazi.probability_below`)."""
    from .theory import theorem12_copies, theorem12_failure

    e = sp.sympify(ratio) * sp.sympify(eps_prime)
    copies = theorem12_copies(alpha, beta, e, eps_prime)
    return theorem12_failure([theorem12_worst_instance(alpha)], [e], eps_prime, [copies], "D", 1)


def theorem12_envelope(beta: Any, ratio: Any) -> Any:
    """``g_c(r) = ∫_0^{e^c} exp(-c w^r) dw = c^{-1/r} Γ(1+1/r) P(1/r, c e^{cr})``
    (``c = ln(2/β)``, ``r = ε_i/ε'``, ``P`` the regularized lower incomplete gamma):
    ``Pr[fail] <= (β/2) g_c(r)`` for every ``α`` and ``ε'`` (module docstring of this
    section: :func:`theorem12_entry`), an mpmath value (``beta``, ``ratio`` rationals)."""
    import mpmath as mp

    b, rr = sp.Rational(beta), sp.Rational(ratio)
    c = mp.log(2 * mp.mpf(b.q) / b.p)  # ln(2/beta)
    r = mp.mpf(rr.p) / rr.q
    return (
        c ** (-1 / r)
        * mp.gamma(1 + 1 / r)
        * mp.gammainc(1 / r, 0, c * mp.e ** (c * r), regularized=True)
    )


def theorem12_fixed_prior_limit(beta: Any, eps_prime: Any) -> sp.Expr:
    """The failure probability's limit as ``α → 0`` and ``r → ∞`` at a fixed ``ε'``
    (``k* = ln(2/β)/ε'`` not an integer): ``Pr[k > k*] = e^{-ε'(⌊k*⌋ + 1)}``."""
    ep = sp.sympify(eps_prime)
    kstar = sp.log(2 / sp.sympify(beta)) / ep
    if kstar.is_integer:
        raise ValueError("k* = ln(2/beta)/eps' is an integer: the limit has a boundary term")
    return sp.exp(-ep * (sp.floor(kstar) + 1))


THM12_POINT = (R(1, 1000), R(1, 100), 256, R(1, 100))  # alpha, beta, r, eps'


def theorem12_entry() -> Tightness:
    """Theorem 12: ``sup Pr[fail]/β = 1/2`` for ``β <= 2/e``, ``r = ε_i/ε' >= 1``,
    approached as ``α → 0``, ``ε' → 0``, ``r → ∞`` and never attained; the bound ``β``
    is loose by a factor 2.

    Proof.  (1) Other mechanisms only add candidates, and ``Pr[M_i*(D) >= o*] > α``
    only lowers the failure, so the worst case is one mechanism at ``α`` exactly:
    ``F = Σ_k (1-p) p^k (1 - α x_k)^T`` with ``p = e^{-ε'}``, ``x_k = e^{-ε_i k}``.
    (2) ``(1 - αx)^T <= exp(-αTx) <= exp(-A x)``, ``A = (2/β)^r ln(2/β)``.
    (3) ``x_k = t^r`` at ``t = p^k``; ``φ(t) = exp(-A t^r)`` decreases, and
    ``Σ_k (1-p)p^k φ(p^k)`` is the right-end Riemann sum of ``φ`` over the intervals
    ``[p^{k+1}, p^k]``, at most ``∫_0^1 φ = (β/2) g_c(r)`` (``w = e^c t``,
    :func:`theorem12_envelope`).  (4) ``g_c(r) < c^{-1/r} Γ(1 + 1/r) <= 1`` when
    ``c >= 1`` and ``r >= 1`` (``Γ(1+x) <= 1`` on ``[0, 1]``, ``P < 1``).  (5) As
    ``α → 0`` the bound of (2) becomes an equality in the limit, as ``ε' → 0`` the
    Riemann sum tends to the integral, and ``g_c(r) → 1`` as ``r → ∞``.
    """
    import mpmath as mp

    r = sp.Symbol("r", positive=True)
    c = sp.Symbol("c", positive=True)
    _require(
        sp.limit(c ** (-1 / r) * sp.gamma(1 + 1 / r), r, sp.oo) == 1,
        "c^(-1/r) Gamma(1 + 1/r) does not tend to 1",
    )
    alpha, beta, ratio, ep = THM12_POINT
    s = theorem12_worst_failure(alpha, beta, ratio, ep)
    lo, hi = s.enclosure.bounds()
    value = approx(sp.Rational(hi.numerator, hi.denominator) / beta)
    env = float(theorem12_envelope(beta, ratio)) / 2
    _require(value <= env, "the exact failure exceeds the envelope")
    lim = approx(theorem12_fixed_prior_limit(beta, ep) / beta)
    return Tightness(
        "loose",
        value,
        f"alpha = {alpha}, beta = {beta}, eps_i/eps' = {ratio}, eps' = {ep} (T = (2/beta)^r "
        f"ln(2/beta)/alpha rounded up): Pr[fail] = {value:.5f} beta (exact algorithm), "
        f"envelope (beta/2) g = {env:.5f} beta, limit in r at this eps' {lim:.5f} beta",
        family="one mechanism with Pr[M(D) >= o*] = alpha exactly, alpha -> 0, eps' -> 0, "
        "eps_i/eps' = r -> oo",
        limit="Pr[fail] <= (beta/2) g_c(r), g_c(r) = int_0^(e^c) exp(-c w^r) dw = "
        "c^(-1/r) Gamma(1+1/r) P(1/r, c e^(cr)) (c = ln(2/beta)) for every alpha and eps'; "
        "g_c(r) < 1 for c >= 1, r >= 1 and g_c(r) -> 1 as r -> oo (sympy.limit of "
        "c^(-1/r) Gamma(1+1/r)): sup Pr[fail]/beta = 1/2, approached, never attained",
        searched=f"the worst case (one mechanism at alpha exactly) along r = 1..{ratio}, within "
        f"beta <= 2/e and r >= 1 where the supremum is beta/2; over the theorem's whole range "
        f"(beta < 1, r > 0) the envelope peaks at beta -> 1, r ~ 0.908: "
        f"{float(_theorem12_global_sup(mp)):.4f} beta (numerical maximisation; certified "
        f"enclosure at r = 227/250: {theorem12_envelope_enclosure(R(227, 250))} / 2), and the "
        "exact algorithm reaches 0.538 beta there (ghazi2025.thm12.half_beta_everywhere)",
    )


def theorem12_envelope_enclosure(ratio: Any, n: int = 5000) -> tuple[float, float]:
    """A certified enclosure of ``g_{ln 2}(r) = ∫_0^2 exp(-ln 2 · w^r) dw`` (the envelope at
    ``β → 1``): the integrand decreases in ``w``, so the left and right Riemann sums over
    ``n`` equal pieces bound the integral; every term in interval arithmetic (outward
    rounding).  Returns the ends (floats rounded outward)."""
    import mpmath as mp

    r = mp.iv.mpf(sp.Rational(ratio).p) / sp.Rational(ratio).q
    c = mp.iv.log(2)
    h = mp.iv.mpf(2) / n

    def phi(k: int) -> Any:
        w = h * k
        return mp.iv.exp(-c * w**r) if k else mp.iv.mpf(1)

    vals = [phi(k) for k in range(n + 1)]
    upper = h * mp.iv.fsum(vals[:-1]) if hasattr(mp.iv, "fsum") else h * sum(vals[:-1])
    lower = h * mp.iv.fsum(vals[1:]) if hasattr(mp.iv, "fsum") else h * sum(vals[1:])
    lo = float(mp.mpf(lower.a))
    hi = float(mp.mpf(upper.b))
    return (math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf))


def _theorem12_global_sup(mp: Any) -> Any:
    """``max_r g_{ln 2}(r)/2`` (``β → 1``), by quadrature and a root of the derivative:
    the largest ``Pr[fail]/β`` over the whole parameter range (numerical)."""

    def g(r: Any) -> Any:
        c = mp.log(2)
        return mp.quad(lambda w: mp.exp(-c * w**r), [0, 1, 2])

    r0 = mp.findroot(lambda r: mp.diff(g, r), 0.9)
    return g(r0) / 2


# ---------------------------------------------------------------------------
# Theorem 13 (ex-post RDP): the ⊥ term and the data-dependent part separately
# ---------------------------------------------------------------------------


def theorem13_parts(A: Any, bound: Any, alpha: Any, D: str, Dp: str) -> tuple[sp.Expr, sp.Expr]:
    """Def 6's sum for the pair ``D -> D'`` split as the proof of Ghazi et al. 2025,
    Theorem 13 splits it (Eq. (5) and the last display): the ``⊥`` term
    ``A(⊥)^α A'(⊥)^{1-α} e^{-(α-1)ε̃(⊥)}`` (at most ``1/(τ+1)``) and the data-dependent
    part ``Σ_{(o,i)} A(o,i)^α A'(o,i)^{1-α} e^{-(α-1)ε̃(o,i)}`` (at most ``τ/(τ+1)``)."""
    a = sp.sympify(alpha)
    bot, data = sp.Integer(0), sp.Integer(0)
    for o in A.outputs:
        p, q = A.p(D, o), A.p(Dp, o)
        if p == 0:
            continue
        term = p**a * q ** (1 - a) * sp.exp(-(a - 1) * bound(o))
        if o == BOTTOM:
            bot += term
        else:
            data += term
    return bot, data


def theorem13_single(E: Any, eps_prime: Any, alpha: Any = 2) -> tuple[Any, Any, sp.Expr, sp.Expr]:
    """Algorithm 3 (``Exp_{ε'}``) on one ``RR(log E)`` with ``ε_1`` its exact RDP ``ε`` at
    ``α`` and ``ℓ_1 = 0``: ``(A, ε̃, ε_1, τ)``."""
    from verifier.checks.privacy import rdp_epsilon

    from .theory import expected_runs, theorem13_bound

    m = _rr(sp.log(sp.sympify(E)), "D")
    a = sp.sympify(alpha)
    e1 = rdp_epsilon(m, alpha=a).value
    A = hyperparameter_tuning(
        [m], [e1], eps_prime, prior="exponential", name=f"Alg3-Exp[RR(log {E})]"
    )
    bound = theorem13_bound([e1], eps_prime, a, ells=[0])
    (tau,) = expected_runs([e1], eps_prime)
    return A, bound, e1, tau


def theorem13_single_closed_forms(e1: Any, eps_prime: Any, alpha: Any) -> tuple[sp.Expr, sp.Expr]:
    """Hand derivation for ``d = 1``, ``ℓ = 0``: ``A(o, 1) = τ Q(o)``, ``A(⊥) = 1 - τ``,
    ``ε̃(o, 1) = 2ε_1 + ε' + log(τ+1)/(α-1)`` and ``Σ_o Q^α Q'^{1-α} = e^{(α-1)ε_1}``, so
    the data-dependent part over its share ``τ/(τ+1)`` is ``e^{-(α-1)(ε_1+ε')}`` and the
    ⊥ term over its share ``1/(τ+1)`` is ``1 - τ``, with ``τ = ε'/(ε'+ε_1)``."""
    a = sp.sympify(alpha)
    tau = eps_prime / (eps_prime + e1)
    return sp.exp(-(a - 1) * (e1 + eps_prime)), 1 - tau


def theorem13_entry() -> Tightness:
    """Theorem 13 as a whole: Def 6's sum ``(1 - τ + τ e^{-(α-1)(ε_1+ε')})/(1+τ)`` on one
    ``RR(log E)`` tends to 1 as ``E → ∞`` (``τ → 0``): driven by the data-independent ⊥
    term (its share of the sum tends to 1)."""
    e1, ep, a, Es = sp.symbols("epsilon_1 epsilon' alpha E", positive=True)
    data, bot = theorem13_single_closed_forms(e1, ep, a)
    tau = ep / (ep + e1)
    total = (bot + tau * data) / (1 + tau)
    _require(
        sp.limit(total.subs({a: 2, ep: R(1, 10)}), e1, sp.oo) == 1, "the sum does not tend to 1"
    )
    A, bound, eps1, tau_v = theorem13_single(100, R(1, 1000))
    b, d = theorem13_parts(A, bound, 2, "D", "D'")
    value = approx(b + d)
    return Tightness(
        "approached",
        value,
        f"one RR(log 100), alpha = 2, eps' = 1/1000, eps_1 = D_2 = {approx(eps1):.4f} (a registered "
        f"instance of ghazi2025.thm13): Def 6 sum {value:.5f}, of which the bot term "
        f"{approx(b):.5f} (data-independent) and the outputs (o, 1) {approx(d):.2e}; the "
        "data-dependent part alone: ghazi2025.thm13.data_dependent",
        family="one RR(log E) with eps_1 its exact RDP eps at alpha, ell = 0, eps_1/eps' -> oo "
        "(E -> oo or eps' -> 0): the bot term (1 - tau)/(1 + tau) -> 1",
        limit="sum = (1 - tau + tau e^(-(alpha-1)(eps_1+eps')))/(1+tau), tau = eps'/(eps'+eps_1) "
        "(hand derivation, equal to the algorithm's exact sum); -> 1 as eps_1 -> oo "
        "(sympy.limit), < 1 for every finite eps_1",
    )


def theorem13_data_entry() -> Tightness:
    """The data-dependent part of Theorem 13 over its share ``τ/(τ+1)``: ``loose`` for the
    factor 2 in front of ``ε_i``.  On one ``RR(log E)`` it is ``e^{-(α-1)(ε_1+ε')}``, which
    tends to 1 only as ``ε_1, ε' → 0`` — where any factor ``m >= 1`` in front of ``ε_1``
    gives the same limit (``e^{-(α-1)((m-1)ε_1 + ε')}``), so that figure says nothing
    about the 2.  With competitors a factor 3/2 fails
    (``ghazi2025.thm13.data_dependent.factor_three_halves``); the largest factor the part
    needed on the instances searched is :data:`THM13_FACTOR_NEEDED`."""
    e1, ep = sp.symbols("epsilon_1 epsilon'", positive=True)
    data, _ = theorem13_single_closed_forms(e1, ep, 2)
    _require(sp.limit(sp.limit(data, e1, 0), ep, 0) == 1, "the data ratio does not tend to 1")
    E, epv = R(101, 100), R(1, 1000)
    A, bound, eps1, tau = theorem13_single(E, epv)
    _, d = theorem13_parts(A, bound, 2, "D", "D'")
    value = approx(d / (tau / (tau + 1)))
    need, where = THM13_FACTOR_NEEDED
    return Tightness(
        "loose",
        value,
        f"one RR(log {E}), alpha = 2, eps' = {epv}, eps_1 = D_2 = {approx(eps1):.3e}: data-dependent "
        f"sum / (tau/(tau+1)) = {value:.5f} — degenerate: with 0, 1 or 10 eps_1 in place of 2 eps_1 "
        "it is 0.999 too, since eps_1 -> 0",
        searched="one RR(log E), every E > 1 and eps' > 0 (ratio e^(-(alpha-1)(eps_1+eps')), an "
        "identity); a target RR(eta) with 1-8 competitors RR(log E), eta in {0.02 .. 3}, "
        "E in {1.1 .. 10^4}, eps' in {1/1000 .. 1/2}, alpha in {3/2 .. 200}, ell_i the data-free "
        "optimum (float screen, about 900 instances): the factor in front of eps_i that the part "
        f"needs reached {need} (at {where}), never 2; the factor 3/2 fails exactly "
        "(ghazi2025.thm13.data_dependent.factor_three_halves: 1.40 times the share), so the "
        "factor is separated from 3/2 but not shown to be 2",
    )


#: The largest factor in front of ``ε_i`` the data-dependent part of Theorem 13 needed on
#: the instances searched (float screen; NOTES.md), and where.
THM13_FACTOR_NEEDED = ("1.81", "alpha = 100, RR(1/10) and 8 competitors RR(log 3), eps' = 1/20")


# ---------------------------------------------------------------------------
# Lemma 15: the slack in the exponent
# ---------------------------------------------------------------------------

#: ``max_b [log(1-b) - b log(b)/(1-b)]`` and its maximiser (mpmath, 30 digits): the limit of
#: ``log LHS / e^{-ε(1+αℓ)}`` of Lemma 15 as ``ε, ℓ -> 0``, ``α -> ∞``, ``a`` at the premise's
#: boundary.
LEMMA15_EXPONENT_SUP = (0.179239390551036, 0.203187869979980)


def lemma15_exponent_entry() -> Tightness:
    """Lemma 15 with a fifth of its exponent: ``loose``, the ratio of the exponents tends to
    ``5 · 0.17924 = 0.896``.

    Derivation.  ``LHS`` decreases in ``a``, so the worst ``a`` is the premise's boundary
    ``a = e^{-ε} b^{α/(α-1)}`` (Eq. (4)).  At ``ε = ℓ = 0`` the exponent is
    ``α log(1 - b^{α/(α-1)}) - (α-1) log(1 - b)``, and with ``b^{α/(α-1)} = b e^{log(b)/(α-1)}``
    it tends, as ``α → ∞``, to ``h(b) = log(1-b) - b log(b)/(1-b)`` (first order in
    ``1/(α-1)``); ``max_b h = 0.179239`` at ``b = 0.203188``.  The right side's exponent is
    ``e^{-ε(1+αℓ)} = 1`` there."""
    b, al = sp.symbols("b alpha", positive=True)
    lhs = al * sp.log(1 - b ** (al / (al - 1))) - (al - 1) * sp.log(1 - b)
    bstar = R(203188, 10**6)
    lim = sp.limit(lhs.subs(b, bstar), al, sp.oo)
    h = sp.log(1 - bstar) - bstar * sp.log(bstar) / (1 - bstar)
    _require(abs(approx(lim) - approx(h)) < 1e-12, "the alpha -> oo limit is not h(b)")
    sup, bmax = LEMMA15_EXPONENT_SUP
    return Tightness(
        "loose",
        5 * sup,
        f"the limit eps, l -> 0, alpha -> oo at b = {bmax:.6f}, a = e^-eps b^(alpha/(alpha-1)): "
        f"log LHS / e^(-eps(1+alpha l)) -> {sup:.6f}, i.e. {5 * sup:.4f} of the exponent 1/5",
        searched="the premise grid (eps in {1/20 .. 4}, alpha in {5/4 .. 4}, a, b in {1/1000 .. "
        "99/100}, l in {1/100 .. 3}) by worst-case search, and numerical optimisation over all "
        "four parameters (1500 starts): the largest ratio of the exponents is the limit above, "
        "at the boundary eps = l = 0, alpha = oo; the limit function h(b) by hand (sympy.limit "
        "at b = 0.203188)",
    )
