"""Ghazi et al. 2025: the numbered statements not covered by :mod:`.claims` — the
remarks that come with Definitions 1–6, property (1) of the geometric distribution,
the claim Figure 1 illustrates, and the two results of Papernot & Steinke 2022 the
paper builds on and compares with (Theorem 2 in §4.2, Corollary 3 in §4.1).

Expected outcomes come from the paper (or Papernot & Steinke 2022 where cited) and the
derivations written next to each claim.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.ghazi import hyperparameter_tuning
from verifier.arithmetic import Verdict, combine_verdicts
from verifier.certified import check_all_le, check_le
from verifier.instances import random_mechanism
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair
from verifier.privacy import (
    check_ex_post,
    check_ex_post_approx,
    check_ex_post_rdp,
    check_pure_dp,
    check_rdp,
)
from verifier.results import CheckResult, Finding, conjunction, implication

F = Fraction
R = sp.Rational
SRC = "Ghazi et al. 2025"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


# ---------------------------------------------------------------------------
# Definitions 1-6: the remarks made with them
# ---------------------------------------------------------------------------


def _mechs() -> list[FiniteMechanism]:
    return [
        random_mechanism(pair(), 3, seed=s, denominator=10, name=f"random3[{s}]")
        for s in (31, 32, 33)
    ]


def _direct(m: FiniteMechanism, a: Fraction, delta: Fraction, alpha: int) -> dict[str, bool]:
    """Definitions 1, 3 and 4 evaluated literally (every event S for Def 3), in rationals,
    with ``e^ε = a``."""
    P = {d: [_q(m.p(d, o)) for o in m.outputs] for d in m.datasets}
    pairs = list(m.ordered_pairs())
    n = len(m.outputs)
    events = [S for r in range(1, n + 1) for S in itertools.combinations(range(n), r)]
    return {
        "def1": all(P[d][o] <= a * P[e][o] for d, e in pairs for o in range(n)),
        "def3": all(
            sum(P[d][o] for o in S) <= a * sum(P[e][o] for o in S) + delta
            for d, e in pairs
            for S in events
        ),
        "def4": all(
            sum(P[d][o] ** alpha * P[e][o] ** (1 - alpha) for o in range(n)) <= a ** (alpha - 1)
            for d, e in pairs
        ),
    }


def _ratio(m: FiniteMechanism) -> Fraction:
    return max(_q(m.p(d, o)) / _q(m.p(e, o)) for d, e in m.ordered_pairs() for o in m.outputs)


@claim(
    id="ghazi2025.defs.constant_eps_tilde",
    source=f"{SRC}, §2, the remark after Definition 6 ('if eps~ is a constant function, ex-ante and "
    "ex-post are equivalent for all DP notions stated')",
    statement="with a constant eps~ = eps, ex-post eps~-DP (Def 2), ex-post (eps~, delta)-DP (Def 5) and "
    "ex-post (alpha, eps~)-RDP (Def 6) give the same verdicts as eps-DP (Def 1), (eps, delta)-DP "
    "(Def 3, every event S) and (alpha, eps)-RDP (Def 4) evaluated literally, and Def 5 with delta = 0 "
    "is Def 2",
    expected="holds",
    instances="three seeded random mechanisms with 3 outputs; e^eps in {their exact ratio, 9/10 of it, 2}; "
    "delta in {1/100, 1/20}; alpha in {2, 3}",
)
def defs_constant() -> CheckResult:
    findings = []
    for m in _mechs():
        a0 = _ratio(m)
        for a in (a0, a0 * F(9, 10), F(2)):
            if a < 1:
                continue
            eps = sp.log(R(a.numerator, a.denominator))
            for delta in (F(1, 100), F(1, 20)):
                for alpha in (2, 3):
                    direct = _direct(m, a, delta, alpha)
                    const = lambda o, eps=eps: eps  # noqa: E731
                    got = {
                        "def1": check_ex_post(m, const).verdict is Verdict.HOLDS,
                        "def3": check_ex_post_approx(
                            m, const, R(delta.numerator, delta.denominator)
                        ).verdict
                        is Verdict.HOLDS,
                        "def4": check_ex_post_rdp(m, const, alpha).verdict is Verdict.HOLDS,
                    }
                    zero = (check_ex_post_approx(m, const, 0).verdict is Verdict.HOLDS) is (
                        check_ex_post(m, const).verdict is Verdict.HOLDS
                    )
                    for k in direct:
                        same = direct[k] is got[k]
                        findings.append(
                            Finding(
                                Verdict.HOLDS if same else Verdict.VIOLATED,
                                (m.name, str(a), str(delta), alpha, k),
                                None,
                                sp.Integer(int(got[k])),
                                sp.Integer(int(direct[k])),
                                sp.Integer(0),
                                sp.Integer(0),
                                note=f"ex-post with constant eps~: {got[k]}; {k} literally: {direct[k]}",
                            )
                        )
                    findings.append(
                        Finding(
                            Verdict.HOLDS if zero else Verdict.VIOLATED,
                            (m.name, str(a), "Def 5 at delta = 0"),
                            None,
                            sp.Integer(0),
                            sp.Integer(0),
                            sp.Integer(0),
                            sp.Integer(0),
                        )
                    )
    return CheckResult(
        "constant eps~: ex-post = ex-ante",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="ex-post verdict (1 = holds)",
    )


@claim(
    id="ghazi2025.def2.ex_ante_max",
    source=f"{SRC}, §1, the remark after Definition 2 ('any ex-post eps~-DP mechanism is ex-ante "
    "eps-DP where eps = max_o eps~(o)')",
    statement="Algorithm 3 is ex-post eps~-DP with Theorem 11's eps~, hence ex-ante max_o eps~(o)-DP "
    "(RR(log 2), RR(log 100) favouring D', eps' = log 2: max eps~ = 2 log 100 + log 2)",
    expected="holds",
)
def def2_ex_ante_max() -> CheckResult:
    from .claims import rr
    from .theory import theorem11_bound

    eps = [sp.log(2), sp.log(100)]
    A = hyperparameter_tuning([rr(eps[0]), rr(eps[1], "D'")], eps, sp.log(2))
    bound = theorem11_bound(eps, sp.log(2))
    top = 2 * sp.log(100) + sp.log(2)
    return implication(
        "ex-post => ex-ante at the maximum",
        check_ex_post(A, bound),
        check_pure_dp(A, top),
    )


# ---------------------------------------------------------------------------
# Eq. (1)
# ---------------------------------------------------------------------------


def _geom(p: Fraction, k: int) -> Fraction:
    return (1 - p) * p**k if k >= 0 else F(0)


@claim(
    id="ghazi2025.eq1.geometric",
    source=f"{SRC}, §2, Eq. (1)",
    statement="Geom_p(u) <= p^(u-v) Geom_p(v) for all integers u <= v, with equality for u >= 0",
    expected="holds",
    instances="p in {1/10, 1/2, 2/3, 99/100}, -4 <= u <= v <= 8",
)
def eq1() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for p in (F(1, 10), F(1, 2), F(2, 3), F(99, 100)):
            for u in range(-4, 9):
                for v in range(u, 9):
                    lhs, rhs = _geom(p, u), p ** (u - v) * _geom(p, v)
                    yield (p, u, v), lhs, rhs
                    if u >= 0:
                        yield (p, u, v, "equality"), rhs, lhs

    return check_all_le("Eq. (1)", rows())


# ---------------------------------------------------------------------------
# Figure 1: the claim it illustrates
# ---------------------------------------------------------------------------

FIG1_DS = (10, 40, 100, 190, 400, 700, 1000, 1300)


def _ps_gamma_for_mean(target: float, eta: int) -> Fraction:
    """A rational ``γ = u^{1/η}`` (``η = 1/10`` here: ``γ = u^10``, so ``γ^η = u`` is
    rational) whose Papernot–Steinke mean ``η(1-γ)/(γ(1-γ^η))`` is at least ``target``
    (float bisection on ``u``, a rational slightly below; decided exactly after)."""

    def mean(u: float) -> float:
        g = u**eta
        return (1 - g) / (eta * g * (1 - u))

    lo, hi = 1e-6, 0.999999
    for _ in range(200):
        mid = (lo + hi) / 2
        if mean(mid) >= target:
            lo = mid
        else:
            hi = mid
    return F(lo).limit_denominator(10**6) * F(999, 1000)


def _ps_moments(u: sp.Expr, inv_eta: int) -> tuple[sp.Expr, sp.Expr]:
    """Papernot–Steinke's ``(E[K], Var[K])`` at ``γ = u^{1/η}`` (``1/η = inv_eta``):
    ``E[K] = η(1-γ)/(γ(1-γ^η))``, ``E[K²] = (η(1-γ) + η²(1-γ)²)/(γ²(1-γ^η))`` (Papernot &
    Steinke 2022, §2)."""
    eta = R(1, inv_eta)
    g = u**inv_eta
    mean = eta * (1 - g) / (g * (1 - u))
    second = (eta * (1 - g) + eta**2 * (1 - g) ** 2) / (g**2 * (1 - u))
    return mean, second - mean**2


def _thm11_moments(d: int, eps: sp.Expr, ep: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Theorem 11's ``(E[N], Var[N])`` for ``d`` copies: ``N | k ~ Binomial(d, x^k)``,
    ``m_r = E[x^{rk}] = (1-p')/(1-p' x^r)`` (as :func:`.theory.theorem11_run_moments`)."""
    p, x = sp.exp(-ep), sp.exp(-eps)
    m1 = (1 - p) / (1 - p * x)
    m2 = (1 - p) / (1 - p * x**2)
    mean = d * m1
    return mean, d * m1 + d * (d - 1) * m2 - mean**2


@claim(
    id="ghazi2025.figure1.larger_variance",
    source=f"{SRC}, §4.1, Figure 1 and the sentence before it ('While our distribution has a larger "
    "variance')",
    statement="for every d of the plotted range, Theorem 11's number of runs (d copies of one "
    "eps-DP mechanism, eps = 1/10, eps' = 1/100) has a larger variance than a Papernot-Steinke "
    "truncated negative binomial (eta = eps'/eps = 1/10) with at least the same mean",
    expected="holds",
    instances="d in {10, 40, 100, 190, 400, 700, 1000, 1300}; for each, gamma = u^10 (u rational) with "
    "E_PS >= E_Thm11, then Var_PS <= Var_Thm11, both decided exactly",
)
def figure1_variance() -> CheckResult:
    eps, ep = R(1, 10), R(1, 100)
    parts = []
    for d in FIG1_DS:
        m, v = _thm11_moments(d, eps, ep)
        u = _ps_gamma_for_mean(float(sp.N(m)), 10)
        pm, pv = _ps_moments(R(u.numerator, u.denominator), 10)
        parts.append(check_le(m, pm, f"d = {d}: E_Thm11 <= E_PS (gamma = ({u})^10)"))
        parts.append(check_le(pv, v, f"d = {d}: Var_PS <= Var_Thm11"))
    return conjunction("Figure 1: Theorem 11's runs have the larger variance", parts)


# ---------------------------------------------------------------------------
# Papernot & Steinke 2022: Corollary 3 (pure DP) and Theorem 2 (RDP)
# ---------------------------------------------------------------------------


def _pgf(x: sp.Expr, eta: sp.Expr, gamma: sp.Expr) -> sp.Expr:
    """``E[x^K]`` of the truncated negative binomial ``Pr[K = k] ∝ C(k+η-1, k)(1-γ)^k``,
    ``k >= 1`` (Papernot & Steinke 2022, §2): ``(γ^η/(1-γ^η))((1-(1-γ)x)^{-η} - 1)``;
    the logarithmic distribution ``log(1-(1-γ)x)/log γ`` at ``η = 0``."""
    if eta == 0:
        return sp.log(1 - (1 - gamma) * x) / sp.log(gamma)
    return gamma**eta / (1 - gamma**eta) * ((1 - (1 - gamma) * x) ** (-eta) - 1)


def tnb_best_of(Q: FiniteMechanism, eta: Any, gamma: Any) -> FiniteMechanism:
    """Papernot & Steinke's repeated mechanism: ``K ~`` truncated negative binomial,
    ``K`` runs of ``Q``, the best output (outputs ordered by ``Q``'s output order):
    ``Pr[o] = G(F_<=(o)) - G(F_<(o))`` with ``G`` the PGF of ``K``."""
    e, g = sp.sympify(eta), sp.sympify(gamma)
    dists = {}
    for d in Q.datasets:
        row = {}
        below = sp.Integer(0)
        for o in Q.outputs:
            upto = below + Q.p(d, o)
            row[o] = _pgf(upto, e, g) - _pgf(below, e, g)
            below = upto
        dists[d] = row
    return FiniteMechanism(
        Q.graph, dists, list(Q.outputs), name=f"TNB(eta={e}, gamma={g})[{Q.name}]", validate=False
    )


def _ps_bases() -> list[tuple[FiniteMechanism, sp.Expr]]:
    from .claims import rr

    m = random_mechanism(pair(), 3, seed=36, denominator=10, name="random3[36]")
    from verifier.privacy import pure_epsilon

    return [
        (rr(sp.log(2)), sp.log(2)),
        (rr(sp.log(3), "D'"), sp.log(3)),
        (m, pure_epsilon(m).value),
    ]


@claim(
    id="ghazi2025.papernot_steinke.cor3",
    source=f"{SRC}, §4.1 (Papernot & Steinke 2022, Corollary 3, the prior result Figure 1 compares "
    "with)",
    statement="repeating an eps-DP mechanism a truncated-negative-binomial number of times "
    "(eta, gamma) and releasing the best output is (2 + eta) eps-DP (eta in {0 (logarithmic), 1/2, 1, 2}, "
    "gamma in {1/10, 1/2})",
    expected="holds",
    instances="randomized response RR(log 2), RR(log 3) and a random 3-output mechanism with its exact eps",
)
def papernot_steinke_cor3() -> CheckResult:
    parts = []
    for Q, eps in _ps_bases():
        for eta in (sp.Integer(0), R(1, 2), sp.Integer(1), sp.Integer(2)):
            for gamma in (R(1, 10), R(1, 2)):
                A = tnb_best_of(Q, eta, gamma)
                parts.append(
                    check_pure_dp(A, (2 + eta) * eps, title=f"{A.name}: ({2 + eta}) eps-DP")
                )
    return conjunction("Papernot-Steinke Corollary 3", parts)


@claim(
    id="ghazi2025.papernot_steinke.thm2",
    source=f"{SRC}, §4.2 (Papernot & Steinke 2022, Theorem 2, the prior result Theorem 13 is compared "
    "with)",
    statement="if Q is (lambda, eps)- and (lambda_hat, eps_hat)-RDP, the truncated negative binomial "
    "repetition is (lambda, eps')-RDP with eps' = eps + (1+eta)(1 - 1/lambda_hat) eps_hat + (1+eta) "
    "log(1/gamma)/lambda_hat + log(E[K])/(lambda - 1) (lambda = lambda_hat in {2, 3}, eta in {1, 2}, "
    "gamma in {1/10, 1/2})",
    expected="holds",
    instances="RR(log 2), RR(log 3) and a random 3-output mechanism with their exact RDP eps",
)
def papernot_steinke_thm2() -> CheckResult:
    from verifier.privacy import rdp_epsilon

    parts = []
    for Q, _ in _ps_bases():
        for lam in (2, 3):
            e, _ = rdp_epsilon(Q, lam)
            for eta in (sp.Integer(1), sp.Integer(2)):
                for gamma in (R(1, 10), R(1, 2)):
                    A = tnb_best_of(Q, eta, gamma)
                    mean = eta * (1 - gamma) / (gamma * (1 - gamma**eta))
                    bound = (
                        e
                        + (1 + eta) * (1 - R(1, lam)) * e
                        + (1 + eta) * sp.log(1 / gamma) / lam
                        + sp.log(mean) / (lam - 1)
                    )
                    parts.append(check_rdp(A, lam, bound, title=f"{A.name}, lambda = {lam}"))
    return conjunction("Papernot-Steinke Theorem 2", parts)
