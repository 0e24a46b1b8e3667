"""Ghazi et al. 2025: the paper's claimed bounds and the quantities its statements use.

The closed-form algorithms (Algorithms 1–4) are the library's
(:mod:`verifier.algorithms.ghazi`, :mod:`verifier.algorithms.ghazi_filter`); what
carries a statement number lives here: the ex-post bounds of Theorems 8–11 and 13,
Theorem 12's number of copies and failure probability, the moments plotted in
Figure 1, and both sides of Lemmas 14 and 15.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi import (
    Prior,
    copy_counts,
    output_index,
    probability_below,
)
from verifier.algorithms.ghazi_filter import (
    B0,
    B1,
    AdversaryNode,
    check_node_claims,
    transcript_mechanism,
)
from verifier.algorithms.ghazi_series import CertifiedSum, iv_of
from verifier.arithmetic.exact import Sign, approx, decide_sign, exact
from verifier.arithmetic.precision import interval_context
from verifier.checks.certified import certified_ceil
from verifier.checks.privacy import check_alpha, check_rdp
from verifier.checks.results import CheckResult, implication
from verifier.errors import InvalidParameter, VerifierError
from verifier.mechanism.instances import randomized_response
from verifier.mechanism.model import Dataset, FiniteMechanism, Output

__all__ = [
    "rr",
    "selection_bound",
    "theorem8_bound",
    "theorem9_bound",
    "theorem10_bound",
    "theorem11_bound",
    "theorem11_pure_bound",
    "expected_runs",
    "theorem13_bound",
    "theorem13_objective",
    "optimal_ell",
    "theorem12_copies",
    "theorem12_failure",
    "theorem11_run_moments",
    "papernot_steinke_moments",
    "MomentPoint",
    "figure1_data",
    "lemma14_sides",
    "lemma15_sides",
    "check_theorem16",
]


def rr(eps: Any, favour: str = "D") -> FiniteMechanism:
    """Randomized response ``RR(ε)`` on the pair ``D ~ D'``: output 1 w.p.
    ``e^ε/(1+e^ε)`` at the favoured dataset, ``1/(1+e^ε)`` at the other (the instance
    shared by the claims, the statements and the tightness witnesses)."""
    other = "D'" if favour == "D" else "D"
    return randomized_response(eps, datasets=(favour, other), name=f"RR({eps})@{favour}")


# ---------------------------------------------------------------------------
# claimed bounds (Theorems 8–11, 13)
# ---------------------------------------------------------------------------


def selection_bound(
    epsilons: Sequence[Any], eps_prime: Any, *, factor: Any = 2, bottom: Any = None
) -> Callable[[Output], sp.Expr]:
    """``ε̃(o, i) = factor·ε_i + ε'`` and ``ε̃(⊥) = bottom`` (default ``ε'``) — the
    shape of Theorems 8–11 (Ghazi et al. 2025).  Works on every output label of
    :func:`above_threshold`, :func:`generalized_above_threshold` and
    :func:`hyperparameter_tuning`."""
    eps = [exact(e) for e in epsilons]
    ep = exact(eps_prime)
    fac = exact(factor)
    bot = ep if bottom is None else exact(bottom)

    def bound(o: Output) -> sp.Expr:
        i = output_index(o)
        if i is None:
            return bot
        return fac * eps[i - 1] + ep

    return bound


def theorem8_bound(epsilons: Sequence[Any], eps_prime: Any) -> Callable[[Output], sp.Expr]:
    """Ghazi et al. 2025, Theorem 8: ``ε̃(o, i) = 2ε_i + ε'``, ``ε̃(⊥) = ε'``."""
    return selection_bound(epsilons, eps_prime, factor=2)


def theorem9_bound(epsilons: Sequence[Any], eps_prime: Any) -> Callable[[Output], sp.Expr]:
    """Ghazi et al. 2025, Theorem 9 (monotone ``f``): ``ε̃(o, i) = ε_i + ε'``,
    ``ε̃(⊥) = ε'``."""
    return selection_bound(epsilons, eps_prime, factor=1)


def theorem10_bound(
    epsilons: Sequence[Any], eps_prime: Any, *, bottom: Any = None
) -> Callable[[Output], sp.Expr]:
    """Ghazi et al. 2025, Theorem 10: ``ε̃(o, i) = 2ε_i + ε'``, ``ε̃(⊥) = ε'``
    (``bottom`` overrides ``ε̃(⊥)``, e.g. 0 to test Theorem 11's improvement)."""
    return selection_bound(epsilons, eps_prime, factor=2, bottom=bottom)


def theorem11_bound(
    epsilons: Sequence[Any], eps_prime: Any, *, factor: Any = 2
) -> Callable[[Output], sp.Expr]:
    """Ghazi et al. 2025, Theorem 11: ``ε̃(o, i) = 2ε_i + ε'``, ``ε̃(⊥) = 0``
    (``factor`` overrides the 2, e.g. 1 for the refuted variant)."""
    return selection_bound(epsilons, eps_prime, factor=factor, bottom=0)


def theorem11_pure_bound(epsilons: Sequence[Any], eps_prime: Any) -> sp.Expr:
    """The pure ε that Theorem 11 (Ghazi et al. 2025) implies for Algorithm 3: the
    largest ex-post bound, ``2 max_i ε_i + ε'``.

    >>> theorem11_pure_bound([sp.log(3)], sp.log(sp.Rational(5, 3)))
    log(5/3) + 2*log(3)
    """
    return 2 * sp.Max(*[exact(e) for e in epsilons]) + exact(eps_prime)


def expected_runs(
    epsilons: Sequence[Any], eps_prime: Any, prior: str = "exponential"
) -> list[sp.Expr]:
    """``τ_i = E_k[e^{-ε_i k}]``, the expected number of runs of copy ``i`` of
    Algorithm 3 (Ghazi et al. 2025, Theorem 13): ``ε'/(ε' + ε_i)`` for ``Exp_{ε'}``,
    ``(1-p')/(1-p' e^{-ε_i})`` for ``Geom_{p'}``."""
    pr = Prior(prior, eps_prime)
    return [pr.moment(exact(e), sp.exp(-exact(e))) for e in epsilons]


def _others(i: int, eps: Sequence[sp.Expr], ts: Sequence[int]) -> list[tuple[sp.Expr, int]]:
    """The budgets of every *other copy* than one copy of mechanism ``i``."""
    out = [(e, t) for j, (e, t) in enumerate(zip(eps, ts, strict=True)) if j != i]
    if ts[i] > 1:
        out.append((eps[i], ts[i] - 1))
    return [(e, t) for e, t in out if t > 0]


def theorem13_objective(
    i: int,
    ell: Any,
    epsilons: Sequence[Any],
    eps_prime: Any,
    alpha: Any,
    copies: Sequence[int] | None = None,
) -> sp.Expr:
    """``ε̃(o, i)`` of Ghazi et al. 2025, Theorem 13 for one ``ℓ_i`` (0-based ``i``):
    ``(2+ℓ_i)ε_i + (1+ℓ_i)ε' + (log(τ+1) + Σ_{j≠i} e^{-ε_j(1+αℓ_i)})/(α-1)``, with
    ``τ = Σ_j T_j ε'/(ε' + ε_j)`` and the sum over every other copy."""
    eps = [exact(e) for e in epsilons]
    ts = copy_counts(copies, len(eps))
    ep, a, ell_e = exact(eps_prime), exact(alpha), exact(ell)
    tau = sp.Add(*(t * r for t, r in zip(ts, expected_runs(eps, ep), strict=True)))
    others = sp.Add(*(t * sp.exp(-e * (1 + a * ell_e)) for e, t in _others(i, eps, ts)))
    return (2 + ell_e) * eps[i] + (1 + ell_e) * ep + (sp.log(tau + 1) + others) / (a - 1)


def optimal_ell(
    i: int,
    epsilons: Sequence[Any],
    eps_prime: Any,
    alpha: Any,
    copies: Sequence[int] | None = None,
    *,
    tolerance: Any = None,
) -> sp.Expr:
    """The ``ℓ_i >= 0`` minimising Theorem 13's ``ε̃(o, i)`` (0-based ``i``).

    It depends on no data (Ghazi et al. 2025, §4.2: ``ℓ_i`` may be any non-negative constant):
    ``g(ℓ) = ℓ(ε_i + ε') + Σ_{j≠i} e^{-ε_j(1+αℓ)}/(α-1)`` is convex with
    ``g'(ℓ) = (ε_i + ε') - (α/(α-1)) Σ_{j≠i} ε_j e^{-ε_j(1+αℓ)}``.  If
    ``g'(0) >= 0`` the minimiser is 0.  If every other copy has the same budget
    ``e`` (``n`` of them) it is, exactly,
    ``ℓ = (log(α n e / ((α-1)(ε_i + ε'))) - e) / (α e)``.  Otherwise the root of
    ``g'`` is bracketed with certified signs and a rational within ``tolerance`` of
    it is returned (any ``ℓ_i >= 0`` is valid for the theorem).

    >>> optimal_ell(0, [1, 1], 1, 2)                      # g'(0) > 0
    0
    >>> sp.simplify(optimal_ell(0, [sp.Rational(1, 10)] * 3, sp.Rational(1, 100), 2))
    -1/2 + log(102400000/161051)
    """
    eps = [exact(e) for e in epsilons]
    ts = copy_counts(copies, len(eps))
    ep, a = exact(eps_prime), exact(alpha)
    others = _others(i, eps, ts)
    others = [(e, t) for e, t in others if e != 0]
    if not others:
        return sp.Integer(0)
    lin = eps[i] + ep

    def dg(ell: sp.Expr) -> sp.Expr:
        s = sp.Add(*(t * e * sp.exp(-e * (1 + a * ell)) for e, t in others))
        return lin - a / (a - 1) * s

    numbers = [lin, a, a - 1, *(x for e, t in others for x in (t * e, e))]

    def sign_of_dg(ell: sp.Expr) -> Sign:
        """The sign of ``g'(ℓ)``: from an interval evaluation at 64 bits (the
        numbers' certified enclosures) when it excludes 0 (the certified sign the
        exact expression would give), else by :func:`decide_sign` of the exact
        expression."""
        if ell.is_Rational:
            with interval_context(64) as ctx:
                try:
                    lin_i, a_i, am1_i, *rest = (iv_of(x, ctx) for x in numbers)
                except VerifierError:  # a number without a 64-bit enclosure
                    return decide_sign(dg(ell)).sign
                ell_i = iv_of(ell, ctx)
                s = sum(
                    (
                        te * ctx.exp(-e * (1 + a_i * ell_i))
                        for te, e in zip(rest[::2], rest[1::2], strict=True)
                    ),
                    ctx.mpf(0),
                )
                v = lin_i - a_i / am1_i * s
                if v.a > 0:
                    return Sign.POSITIVE
                if v.b < 0:
                    return Sign.NEGATIVE
        return decide_sign(dg(ell)).sign

    s0 = sign_of_dg(sp.Integer(0))
    if s0 in (Sign.POSITIVE, Sign.ZERO):
        return sp.Integer(0)
    if len({e for e, _ in others}) == 1:
        e = others[0][0]
        n = sum(t for _, t in others)
        return (sp.log(a * n * e / ((a - 1) * lin)) - e) / (a * e)
    lo, hi = sp.Integer(0), sp.Integer(1)
    while sign_of_dg(hi) is Sign.NEGATIVE:
        lo, hi = hi, 2 * hi
    tol = sp.Rational(1, 2**40) if tolerance is None else exact(tolerance)
    while hi - lo > tol:
        mid = (lo + hi) / 2
        sg = sign_of_dg(mid)
        if sg is Sign.ZERO:
            return mid
        if sg is Sign.NEGATIVE:
            lo = mid
        else:
            hi = mid
    return hi


def theorem13_bound(
    epsilons: Sequence[Any],
    eps_prime: Any,
    alpha: Any,
    ells: Sequence[Any] | str = "optimal",
    copies: Sequence[int] | None = None,
) -> Callable[[Output], sp.Expr]:
    """Ghazi et al. 2025, Theorem 13 (ex-post RDP of Algorithm 3 with ``Exp_{ε'}``):
    ``ε̃(o, i) = (2+ℓ_i)ε_i + (1+ℓ_i)ε' + (log(τ+1) + Σ_{j≠i} e^{-ε_j(1+αℓ_i)})/(α-1)``,
    ``ε̃(⊥) = log(τ+1)/(α-1)``, ``τ = Σ_i τ_i``, ``τ_i = ε'/(ε'+ε_i)``.
    ``ells="optimal"`` uses :func:`optimal_ell` for each ``i``."""
    eps = [exact(e) for e in epsilons]
    ts = copy_counts(copies, len(eps))
    ep, a = exact(eps_prime), exact(alpha)
    if isinstance(ells, str):
        if ells != "optimal":
            raise InvalidParameter(f"ells must be a sequence or 'optimal', got {ells!r}")
        ls = [optimal_ell(i, eps, ep, a, ts) for i in range(len(eps))]
    else:
        ls = [exact(v) for v in ells]
        if len(ls) != len(eps):
            raise InvalidParameter("one ell_i per mechanism is needed")
    values = [theorem13_objective(i, ls[i], eps, ep, a, ts) for i in range(len(eps))]
    tau = sp.Add(*(t * r for t, r in zip(ts, expected_runs(eps, ep), strict=True)))
    bot = sp.log(tau + 1) / (a - 1)

    def bound(o: Output) -> sp.Expr:
        i = output_index(o)
        return bot if i is None else values[i - 1]

    return bound


# ---------------------------------------------------------------------------
# Theorem 12 (utility)
# ---------------------------------------------------------------------------


def theorem12_copies(alpha: Any, beta: Any, eps_i: Any, eps_prime: Any) -> int:
    """``T_i = ⌈(1/α)(2/β)^{ε_i/ε'} ln(2/β)⌉`` (Ghazi et al. 2025, Theorem 12),
    exactly.

    >>> theorem12_copies(sp.Rational(1, 10), sp.Rational(1, 10), 1, 1)   # 10·20·ln 20
    600
    """
    a, b = exact(alpha), exact(beta)
    return certified_ceil((2 / b) ** (exact(eps_i) / exact(eps_prime)) * sp.log(2 / b) / a)


def theorem12_failure(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    copies: Sequence[int],
    dataset: Dataset,
    o_star: Output,
    *,
    order: Sequence[Output] | None = None,
    bits: int = 80,
) -> CertifiedSum:
    """The failure probability ``Pr[A(D) < (o*, 0)]`` bounded by Ghazi et al. 2025,
    Theorem 12 (Algorithm 3 with ``Geom_{e^{-ε'}}`` and ``T_g`` copies of ``M_g``), as a
    certified enclosure (:func:`verifier.algorithms.ghazi.probability_below`)."""
    return probability_below(
        mechanisms, epsilons, eps_prime, copies, dataset, o_star, order=order, bits=bits
    )


# ---------------------------------------------------------------------------
# Figure 1: number of runs, Theorem 11's prior versus Papernot–Steinke
# ---------------------------------------------------------------------------


def theorem11_run_moments(d: int, eps: Any, eps_prime: Any) -> tuple[sp.Expr, sp.Expr]:
    """Exact ``(E[N], std(N))`` of the number ``N`` of runs of ``Q`` when Algorithm 3
    runs ``d`` copies of one ε-DP ``Q`` with ``k ~ Geom_{e^{-ε'}}`` (Ghazi et al.
    2025, Figure 1): ``N | k ~ Binomial(d, x^k)``, ``x = e^{-ε}``, so
    ``E[N] = d m_1`` and ``E[N²] = d m_1 + d(d-1) m_2`` with
    ``m_r = E[x^{rk}] = (1-p')/(1-p'x^r)``.

    >>> m, s = theorem11_run_moments(1, sp.log(2), sp.log(2))
    >>> m, s
    (2/3, sqrt(2)/3)
    """
    if not isinstance(d, int) or d < 1:
        raise InvalidParameter(f"d must be a positive integer, got {d!r}")
    pr = Prior("geometric", eps_prime)
    e = exact(eps)
    m1 = pr.moment(e, sp.exp(-e))
    m2 = pr.moment(2 * e, sp.exp(-2 * e))
    mean = d * m1
    second = d * m1 + d * (d - 1) * m2
    return sp.simplify(mean), sp.sqrt(sp.simplify(second - mean**2))


def papernot_steinke_moments(gamma: Any, eta: Any) -> tuple[sp.Expr, sp.Expr]:
    """Exact ``(E[K], std(K))`` of Papernot–Steinke's truncated negative binomial
    (``P[K=k] ∝ C(k+η-1, k)(1-γ)^k``, ``k >= 1``), as used by Ghazi et al. 2025, Figure 1 (Papernot & Steinke 2022, §2):
    ``E[K] = η(1-γ)/(γ(1-γ^η))``,
    ``E[K²] = (η(1-γ)/γ² + η²(1-γ)²/γ²)/(1-γ^η)``.

    >>> papernot_steinke_moments(sp.Rational(1, 2), 1)   # geometric on k >= 1
    (2, sqrt(2))
    """
    g, n = exact(gamma), exact(eta)
    mean = n * (1 - g) / (g * (1 - g**n))
    second = (n * (1 - g) / g**2 + n**2 * (1 - g) ** 2 / g**2) / (1 - g**n)
    return sp.simplify(mean), sp.sqrt(sp.simplify(second - mean**2))


@dataclass(frozen=True)
class MomentPoint:
    """One point of Figure 1: the parameter, exact mean and std, and float views."""

    parameter: sp.Expr
    mean: sp.Expr
    std: sp.Expr

    @property
    def mean_float(self) -> float:
        return approx(self.mean)

    @property
    def std_float(self) -> float:
        return approx(self.std)


def figure1_data(
    ds: Sequence[int] = tuple(range(10, 1301, 30)),
    gammas: Sequence[Any] | None = None,
    eps: Any = None,
    eps_prime: Any = None,
) -> dict[str, list[MomentPoint]]:
    """The data of Ghazi et al. 2025, Figure 1: std versus mean of the number of runs.

    ``"theorem11"``: one point per ``d`` (:func:`theorem11_run_moments`, ``ε = 1/10``,
    ``ε' = 1/100``); ``"papernot_steinke"``: one point per ``γ``
    (:func:`papernot_steinke_moments`, ``η = ε'/ε``).  Exact values with float
    views for plotting::

        data = figure1_data()
        plt.plot([p.mean_float for p in data["theorem11"]],
                 [p.std_float for p in data["theorem11"]])
    """
    eps = sp.Rational(1, 10) if eps is None else exact(eps)
    eps_prime = sp.Rational(1, 100) if eps_prime is None else exact(eps_prime)
    if gammas is None:
        gammas = [sp.Rational(1, 2**k) for k in range(1, 25)]
    eta = eps_prime / eps
    t11 = [MomentPoint(sp.Integer(d), *theorem11_run_moments(d, eps, eps_prime)) for d in ds]
    ps = [MomentPoint(exact(g), *papernot_steinke_moments(g, eta)) for g in gammas]
    return {"theorem11": t11, "papernot_steinke": ps}


# ---------------------------------------------------------------------------
# Lemmas 14 and 15 as pointwise inequalities
# ---------------------------------------------------------------------------


def lemma14_sides(
    probs: Sequence[Any], f: Sequence[Any], g: Sequence[Any], alpha: Any
) -> tuple[sp.Expr, sp.Expr]:
    """Both sides of Ghazi et al. 2025, Lemma 14 (reverse Hölder) for a finite
    random variable: ``(E[f]^α E[g]^{1-α}, E[f^α g^{1-α}])`` (``f, g > 0``)."""
    a = exact(alpha)
    P = [exact(p) for p in probs]
    F = [exact(v) for v in f]
    G = [exact(v) for v in g]
    ef = sp.Add(*(p * x for p, x in zip(P, F, strict=True)))
    eg = sp.Add(*(p * y for p, y in zip(P, G, strict=True)))
    rhs = sp.Add(*(p * x**a * y ** (1 - a) for p, x, y in zip(P, F, G, strict=True)))
    return ef**a * eg ** (1 - a), rhs


def lemma15_sides(
    eps: Any, alpha: Any, a: Any, b: Any, ell: Any
) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """Ghazi et al. 2025, Lemma 15: returns ``(premise_lhs, premise_rhs, lhs, rhs)``
    with premise ``a^{1-α} b^α <= e^{ε(α-1)}`` and conclusion
    ``(1-a)^α (1 - e^{-ε(1+ℓ)} b)^{1-α} <= exp(e^{-ε(1+αℓ)})``."""
    e, al, A, B, L = (exact(v) for v in (eps, alpha, a, b, ell))
    return (
        A ** (1 - al) * B**al,
        sp.exp(e * (al - 1)),
        (1 - A) ** al * (1 - sp.exp(-e * (1 + L)) * B) ** (1 - al),
        sp.exp(sp.exp(-e * (1 + al * L))),
    )


def check_theorem16(
    root: AdversaryNode, alpha: Any, budget: Any, *, enforce: bool = True
) -> CheckResult:
    """Ghazi et al. 2025, Theorem 16 on one finite adversary: if every request is
    ex-post ``(α, ε̃_i)``-RDP then ``D_α(IT^0 ‖ IT^1) <= ε`` (exact Rényi
    divergence of the transcripts, via :func:`verifier.checks.privacy.check_rdp`)."""
    a = check_alpha(alpha)
    eps = exact(budget)
    premise = check_node_claims(root, a)
    it = transcript_mechanism(root, eps, enforce=enforce)
    conclusion = check_rdp(
        it,
        alpha=a,
        epsilon=eps,
        pairs=[(B0, B1)],
        title=f"D_{a}(IT^0 || IT^1) <= {eps}" + ("" if enforce else " (no filter)"),
    )
    return implication(f"Theorem 16 (alpha={a}, eps={eps})", premise, conclusion)
