"""Liu & Talwar 2019: every displayed step of the proofs of Theorem 3.1 (App. A.1),
Theorem 3.2 (§3.2) and the tight examples of App. B.1, each a claim of kind
``proof-step`` checked where the proof applies it, on exact instances (the scalar
steps also by worst-case search over rational grids).

Notation of the proofs: for a threshold ``τ``, ``p1 = Pr_{Q(D)}[q >= τ]``,
``r = (1 - p1)(1 - γ)`` (the probability of reaching the next round); for an output
``(x, q)`` of random stopping, ``p = Q(x, q)``, ``p0 = Pr[q̃ > q]``, ``p1 = p0 + p``.
The instances are base mechanisms with rational probabilities, so ``e^{ε1}`` (their
exact pure DP ratio) and every probability of the algorithms are rationals and most
steps are decided in exact rational arithmetic
(:func:`verifier.certified.check_all_le`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.liu_talwar import BOTTOM, random_stopping, ranking, thresholding
from verifier.certified import check_all_le, check_le
from verifier.mechanism import FiniteMechanism
from verifier.results import CheckResult, conjunction
from verifier.search.inequalities import GridSpace, inequality_search

from .theory import theorem31_min_T

F = Fraction
R = sp.Rational
SRC = "Liu & Talwar 2019"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


def _ratio(Q: FiniteMechanism) -> Fraction:
    """``e^{ε1}``: the exact pure DP ratio of ``Q`` (rational probabilities)."""
    return max(
        _q(Q.p(d, o)) / _q(Q.p(d2, o))
        for d, d2 in Q.ordered_pairs()
        for o in Q.outputs
        if Q.p(d, o) != 0
    )


def _bases() -> list[FiniteMechanism]:
    """Rational base mechanisms: the three-candidate instance of Theorem 3.2's refutation
    of 2 ε1 and seeded random mechanisms (on a pair and on a path)."""
    from .instances import selection_instances, three_candidate_instance

    return [three_candidate_instance(), *[q for q, _ in selection_instances()[1:]]]


#: (γ, ε0): Theorem 3.1's parameters (the registered claims' and a coarser one).
PARAMS = [(F(1, 10), F(1, 10)), (F(1, 4), F(1, 2)), (F(1, 2), F(1))]


class _Thr:
    """Thresholding (Theorem 3.1) on one base mechanism at one threshold."""

    def __init__(self, Q: FiniteMechanism, tau: Fraction, gamma: Fraction, eps0: Fraction):
        self.Q, self.tau, self.g, self.e0 = Q, tau, gamma, eps0
        self.T = theorem31_min_T(
            R(gamma.numerator, gamma.denominator), R(eps0.numerator, eps0.denominator)
        )
        self.a = _ratio(Q)
        rk = ranking(Q)
        self.passing = [o for o in rk.order if rk.scores[o] >= tau]
        self.A = thresholding(
            Q, R(tau.numerator, tau.denominator), R(gamma.numerator, gamma.denominator), self.T
        )

    def p(self, d: Any, o: Any) -> Fraction:
        return _q(self.Q.p(d, o))

    def p1(self, d: Any) -> Fraction:
        return sum((self.p(d, o) for o in self.passing), F(0))

    def r(self, d: Any) -> Fraction:
        return (1 - self.p1(d)) * (1 - self.g)

    def out(self, d: Any, o: Any) -> Fraction:
        return _q(self.A.p(d, o)) if o in self.A.outputs else F(0)


def _thrs() -> list[_Thr]:
    out = []
    for Q in _bases():
        rk = ranking(Q)
        scores = sorted({_q(rk.scores[o]) for o in rk.order})[1:]
        for g, e0 in PARAMS:
            for tau in scores:
                out.append(_Thr(Q, tau, g, e0))
    return out


def _eq(label: Any, a: Fraction, b: Fraction) -> Iterator[tuple[Any, Fraction, Fraction]]:
    yield (label, "<="), a, b
    yield (label, ">="), b, a


def _lab(t: _Thr, *rest: Any) -> tuple[Any, ...]:
    return (t.Q.name, f"tau={t.tau}", f"gamma={t.g}", f"eps0={t.e0}", *rest)


# ===========================================================================
# Theorem 3.1, App. A.1 (the proof of Theorem A.1)
# ===========================================================================


@claim(
    id="liu_talwar2019.thm31.step.a_closed_form",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (a), the display (three lines, =)",
    statement="Pr[A(D) = (x,q)] = Σ_{j=1}^T ((1-p1)(1-gamma))^(j-1) p(x,q) = p(x,q) (1 - r^T)/(1 - r) "
    "for q >= tau: the finite sum, its closed form and the algorithm's output agree exactly",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold, (gamma, eps0) in {(1/10, 1/10), (1/4, 1/2), "
    "(1/2, 1)}, T the least admissible",
)
def thm31_a_closed() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            for d in t.Q.datasets:
                r = t.r(d)
                for o in t.passing:
                    s = sum((r ** (j - 1) * t.p(d, o) for j in range(1, t.T + 1)), F(0))
                    yield from _eq(_lab(t, d, o, "sum"), s, t.out(d, o))
                    yield from _eq(_lab(t, d, o, "closed"), s, t.p(d, o) * (1 - r**t.T) / (1 - r))

    return check_all_le("Theorem 3.1 (a): the output distribution", rows())


@claim(
    id="liu_talwar2019.thm31.step.b_ratio",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (first line, =, and second line, <=)",
    statement="Pr[A(D)=(x,q)]/Pr[A(D')=(x,q)] = (p/p') (1 - r^T)/(1 - r'^T) (1 - r')/(1 - r) <= "
    "e^{eps1} (1/(1 - (1-gamma)^T)) (p1'(1-gamma) + gamma)/(p1(1-gamma) + gamma)",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold, output and ordered pair",
)
def thm31_b_ratio() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            for d, d2 in t.Q.ordered_pairs():
                r, r2, p1, p1b = t.r(d), t.r(d2), t.p1(d), t.p1(d2)
                for o in t.passing:
                    if t.p(d2, o) == 0:
                        continue
                    ratio = t.out(d, o) / t.out(d2, o)
                    form = (
                        t.p(d, o) / t.p(d2, o) * (1 - r**t.T) / (1 - r2**t.T) * (1 - r2) / (1 - r)
                    )
                    yield from _eq(_lab(t, d, d2, o, "="), ratio, form)
                    bound = (
                        t.a
                        / (1 - (1 - t.g) ** t.T)
                        * (p1b * (1 - t.g) + t.g)
                        / (p1 * (1 - t.g) + t.g)
                    )
                    yield _lab(t, d, d2, o, "<="), form, bound

    return check_all_le("Theorem 3.1 (b): the ratio of an output", rows())


@claim(
    id="liu_talwar2019.thm31.step.b_choice_of_T",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (third line)",
    statement="if T >= (1/gamma) ln(2/eps0): 1/(1 - (1-gamma)^T) <= 1/(1 - eps0/2), and "
    "(p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma) <= e^{eps1}",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold and ordered pair",
)
def thm31_b_choice_of_T() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            yield _lab(t, "T"), 1 / (1 - (1 - t.g) ** t.T), 1 / (1 - t.e0 / 2)
            for d, d2 in t.Q.ordered_pairs():
                p1, p1b = t.p1(d), t.p1(d2)
                yield _lab(t, d, d2, "p1"), (p1b * (1 - t.g) + t.g) / (p1 * (1 - t.g) + t.g), t.a

    return check_all_le("Theorem 3.1 (b): the choice of T", rows())


def _scalar_space(
    names: Sequence[str], grids: Sequence[Sequence[Fraction]], valid: Any = None
) -> GridSpace:
    return GridSpace(names, grids, valid)


_EPS0 = tuple(F(k, 20) for k in range(1, 21))


@claim(
    id="liu_talwar2019.thm31.step.b_eps0",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (last line, 'if eps0 <= 1')",
    statement="e^{eps1} (1/(1 - eps0/2)) e^{eps1} <= e^{2 eps1 + eps0}, i.e. 1/(1 - eps0/2) <= e^{eps0} "
    "for eps0 in (0, 1]",
    expected="holds",
    kind="proof-step",
    instances="eps0 = k/20, k = 1..20",
    search=inequality_search(
        "liu_talwar2019.thm31.step.b_eps0",
        _scalar_space(("eps0",), (tuple(F(k, 1000) for k in range(1, 1001)),)),
        lambda v: ([], (1 / (1 - v["eps0"] / 2), sp.exp(v["eps0"]))),
        "1/(1 - eps0/2) <= e^eps0",
        f"{SRC}, App. A.1, proof of Theorem 3.1 (b)",
    ),
)
def thm31_b_eps0() -> CheckResult:
    return conjunction(
        "1/(1 - eps0/2) <= e^eps0",
        [
            check_le(
                1 / (1 - R(e.numerator, e.denominator) / 2), sp.exp(R(e.numerator, e.denominator))
            )
            for e in _EPS0
        ],
    )


@claim(
    id="liu_talwar2019.thm31.step.bottom_closed_form",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for ⊥ (six lines, =)",
    statement="Pr[A(D) = ⊥] = Σ_{j<=T} r^(j-1)(1-p1) gamma + r^T = (1-p1) gamma (1-r^T)/(1-r) + r^T "
    "= (1-p1) gamma (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/(p1(1-gamma) + gamma)",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold and dataset",
)
def thm31_bottom_closed() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            for d in t.Q.datasets:
                p1, r, g, T = t.p1(d), t.r(d), t.g, t.T
                s = sum((r ** (j - 1) * (1 - p1) * g for j in range(1, T + 1)), F(0)) + r**T
                yield from _eq(_lab(t, d, "sum = A"), s, t.out(d, BOTTOM))
                yield from _eq(_lab(t, d, "second"), s, (1 - p1) * g * (1 - r**T) / (1 - r) + r**T)
                last = (
                    (1 - p1)
                    * g
                    * (1 + p1 / g * (1 - p1) ** (T - 1) * (1 - g) ** T)
                    / (p1 * (1 - g) + g)
                )
                yield from _eq(_lab(t, d, "last"), s, last)

    return check_all_le("Theorem 3.1: Pr[⊥] in closed form", rows())


@claim(
    id="liu_talwar2019.thm31.step.bottom_ratio",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for the ratio of ⊥ (first two lines)",
    statement="Pr[A(D)=⊥]/Pr[A(D')=⊥] = ((1-p1)/(1-p1')) (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/"
    "(1 + (p1'/gamma)(1-p1')^(T-1)(1-gamma)^T) (p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma) <= "
    "e^{eps1} (1 + p1 (1-p1)^(T-1) (1/gamma)(1-gamma)^T) e^{eps1}",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold and ordered pair",
)
def thm31_bottom_ratio() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            g, T = t.g, t.T
            for d, d2 in t.Q.ordered_pairs():
                p1, p1b = t.p1(d), t.p1(d2)
                if p1b == 1:
                    continue
                ratio = t.out(d, BOTTOM) / t.out(d2, BOTTOM)
                form = (
                    (1 - p1)
                    / (1 - p1b)
                    * (1 + p1 / g * (1 - p1) ** (T - 1) * (1 - g) ** T)
                    / (1 + p1b / g * (1 - p1b) ** (T - 1) * (1 - g) ** T)
                    * (p1b * (1 - g) + g)
                    / (p1 * (1 - g) + g)
                )
                yield from _eq(_lab(t, d, d2, "="), ratio, form)
                yield (
                    _lab(t, d, d2, "<="),
                    form,
                    t.a**2 * (1 + p1 * (1 - p1) ** (T - 1) / g * (1 - g) ** T),
                )

    return check_all_le("Theorem 3.1: the ratio of ⊥", rows())


def _amgm_sides(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    T, p = v["T"], v["p1"]
    return [], ((T - 1) * p * (1 - p) ** (T - 1), sp.exp(-1))


@claim(
    id="liu_talwar2019.thm31.step.amgm",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (†) (AM-GM)",
    statement="(T-1) p1 (1-p1)^(T-1) <= (((T-1) p1 + (T-1)(1-p1))/T)^T = (1 - 1/T)^T <= e^(-1) for "
    "integers T > 1 and p1 in [0, 1]",
    expected="holds",
    kind="proof-step",
    instances="T in {2, 3, 5, 10, 30, 89}, p1 = k/20",
    search=inequality_search(
        "liu_talwar2019.thm31.step.amgm",
        _scalar_space(
            ("T", "p1"),
            (tuple(F(t) for t in range(2, 200)), tuple(F(k, 400) for k in range(0, 401))),
        ),
        _amgm_sides,
        "(T-1) p1 (1-p1)^(T-1) <= 1/e",
        f"{SRC}, App. A.1, proof of Theorem 3.1 (b)",
    ),
)
def thm31_amgm() -> CheckResult:
    parts = []
    rows = []
    for T in (2, 3, 5, 10, 30, 89):
        for k in range(21):
            p = F(k, 20)
            rows.append(((T, p, "AM-GM"), (T - 1) * p * (1 - p) ** (T - 1), (1 - F(1, T)) ** T))
        parts.append(check_le((1 - R(1, T)) ** T, sp.exp(-1), f"(1 - 1/{T})^{T} <= 1/e"))
    return conjunction("(†)", [check_all_le("AM-GM", rows), *parts])


def _bottom_T_sides(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    g, e0 = v["gamma"], v["eps0"]
    T = theorem31_min_T(g, e0)
    return [], ((1 - g) ** T / (sp.E * (T - 1) * g), e0 / 2)


@claim(
    id="liu_talwar2019.thm31.step.bottom_choice_of_T",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for ⊥ (fourth line)",
    statement="if T >= max{(1/gamma) ln(2/eps0), 1 + 1/(e gamma)}: (1/(e(T-1) gamma))(1-gamma)^T <= eps0/2, "
    "so the bound is e^{2 eps1}(1 + eps0/2) <= e^{2 eps1 + eps0}",
    expected="holds",
    kind="proof-step",
    instances="(gamma, eps0) in {1/100, 1/10, 1/4, 1/2} x {1/100, 1/10, 1/2, 1}, T the least admissible",
    search=inequality_search(
        "liu_talwar2019.thm31.step.bottom_choice_of_T",
        _scalar_space(
            ("gamma", "eps0"),
            (tuple(F(1, k) for k in range(2, 101)), tuple(F(k, 100) for k in range(1, 101))),
        ),
        _bottom_T_sides,
        "(1-gamma)^T/(e (T-1) gamma) <= eps0/2 for the least admissible T",
        f"{SRC}, App. A.1, proof of Theorem 3.1 (b)",
    ),
)
def thm31_bottom_T() -> CheckResult:
    parts = []
    for g in (R(1, 100), R(1, 10), R(1, 4), R(1, 2)):
        for e0 in (R(1, 100), R(1, 10), R(1, 2), R(1)):
            lhs, rhs = _bottom_T_sides({"gamma": g, "eps0": e0})[1]
            parts.append(check_le(lhs, rhs, f"gamma = {g}, eps0 = {e0}"))
            parts.append(check_le(1 + e0 / 2, sp.exp(e0), f"1 + eps0/2 <= e^eps0, eps0 = {e0}"))
    return conjunction("the choice of T for ⊥", parts)


# --- (c): approximate DP ----------------------------------------------------------


def _approx_thrs() -> list[tuple[_Thr, Fraction]]:
    """Thresholding at τ = 1 on the (ε1, δ1) mixtures of the registered Theorem 3.1 (c)
    claim, with ``δ1`` exact and ``e^{ε1} = 2``."""
    from .instances import approx_selection_instances

    out = []
    for Q, _, d1 in approx_selection_instances():
        for g, e0 in PARAMS[:2]:
            t = _Thr(Q, F(1), g, e0)
            t.a = F(2)
            out.append((t, _q(d1)))
    return out


def _events(t: _Thr) -> list[tuple[Any, ...]]:
    outs = list(t.passing)
    return [E for r in range(1, len(outs) + 1) for E in itertools.combinations(outs, r)]


@claim(
    id="liu_talwar2019.thm31.step.c_event_bounds",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the two displays for an event F without ⊥",
    statement="Pr[A(D) in F] <= p/(p1(1-gamma)+gamma) <= (e^{eps1} p' + delta1)/(max{0, p1'-delta1} "
    "e^{-eps1}(1-gamma) + gamma) <= (e^{2 eps1} p' + e^{eps1} delta1)/(max{0, p1'-delta1}(1-gamma) + "
    "gamma), and Pr[A(D') in F] >= p'(1-(1-gamma)^T)/(p1'(1-gamma)+gamma) >= p'(1-eps0/2)/(...) "
    "(the last line, >= e^{-eps0} p'/(...), is decided in the next claim)",
    expected="holds",
    kind="proof-step",
    instances="two (log 2, delta1)-DP mixtures, threshold 1, every event F and ordered pair",
)
def thm31_c_events() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t, d1 in _approx_thrs():
            g, a = t.g, t.a
            for d, d2 in t.Q.ordered_pairs():
                p1, p1b = t.p1(d), t.p1(d2)
                m = max(F(0), p1b - d1)
                for E in _events(t):
                    p = sum((t.p(d, o) for o in E), F(0))
                    pb = sum((t.p(d2, o) for o in E), F(0))
                    lab = _lab(t, d, d2, E)
                    first = p / (p1 * (1 - g) + g)
                    yield (*lab, 1), sum((t.out(d, o) for o in E), F(0)), first
                    second = (a * pb + d1) / (m / a * (1 - g) + g)
                    yield (*lab, 2), first, second
                    yield (*lab, 3), second, (a * a * pb + a * d1) / (m * (1 - g) + g)
                    low = pb * (1 - (1 - g) ** t.T) / (p1b * (1 - g) + g)
                    yield (*lab, 4), low, sum((t.out(d2, o) for o in E), F(0))
                    yield (*lab, 5), pb * (1 - t.e0 / 2) / (p1b * (1 - g) + g), low

    return check_all_le("Theorem 3.1 (c): events without ⊥", rows())


@claim(
    id="liu_talwar2019.thm31.step.c_differences",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the difference displays and the last display",
    statement="Pr[A(D) in F] - e^{2 eps1 + eps0} Pr[A(D') in F] <= 2 e^{2 eps1} delta1/gamma, "
    "Pr[A(D) = ⊥] - e^{2 eps1 + eps0} Pr[A(D') = ⊥] <= e^{2 eps1 + eps0} delta1/gamma, so every "
    "event E gives <= 3 e^{2 eps1 + eps0} delta1/gamma",
    expected="holds",
    kind="proof-step",
    instances="two (log 2, delta1)-DP mixtures, threshold 1, every event and ordered pair",
)
def thm31_c_differences() -> CheckResult:
    parts = []
    for t, d1 in _approx_thrs():
        e = 2 * sp.log(2) + R(t.e0.numerator, t.e0.denominator)
        g = R(t.g.numerator, t.g.denominator)
        dd = R(d1.numerator, d1.denominator)
        for d, d2 in t.Q.ordered_pairs():
            bot = R(*_frac(t.out(d, BOTTOM))) - sp.exp(e) * R(*_frac(t.out(d2, BOTTOM)))
            parts.append(check_le(bot, sp.exp(e) * dd / g, f"⊥, {d} -> {d2}"))
            for E in _events(t):
                diff = sum((t.out(d, o) for o in E), F(0))
                diff2 = sum((t.out(d2, o) for o in E), F(0))
                f_part = R(*_frac(diff)) - sp.exp(e) * R(*_frac(diff2))
                parts.append(check_le(f_part, 8 * dd / g, f"F = {E}, {d} -> {d2}"))
                parts.append(check_le(f_part + bot, 3 * sp.exp(e) * dd / g, f"F + ⊥, {d} -> {d2}"))
    return conjunction("Theorem 3.1 (c): the differences", parts)


def _frac(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


@claim(
    id="liu_talwar2019.thm31.step.c_lower_eps0",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the lower bound display (last line, 'if eps0 <= 1')",
    statement="1 - eps0/2 >= e^{-eps0} for eps0 in (0, 1]",
    expected="holds",
    kind="proof-step",
    instances="eps0 = k/20, k = 1..20",
    search=inequality_search(
        "liu_talwar2019.thm31.step.c_lower_eps0",
        _scalar_space(("eps0",), (tuple(F(k, 1000) for k in range(1, 1001)),)),
        lambda v: ([], (sp.exp(-v["eps0"]), 1 - v["eps0"] / 2)),
        "e^-eps0 <= 1 - eps0/2",
        f"{SRC}, App. A.1, proof of Theorem 3.1 (c)",
    ),
)
def thm31_c_lower_eps0() -> CheckResult:
    return conjunction(
        "e^(-eps0) <= 1 - eps0/2",
        [check_le(sp.exp(-R(*_frac(e))), 1 - R(*_frac(e)) / 2) for e in _EPS0],
    )


@claim(
    id="liu_talwar2019.thm31.step.d_geometric",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (d), the line 'Pr[halting in any iteration]'",
    statement="each round halts with probability 1 - (1-p1)(1-gamma) = p1(1-gamma) + gamma, so "
    "E[T~] = Σ_{j<=T} r^(j-1) <= 1/(p1(1-gamma) + gamma)",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold and dataset",
)
def thm31_d_geometric() -> CheckResult:
    from verifier.algorithms.liu_talwar import thresholding_expected_iterations

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for t in _thrs():
            for d in t.Q.datasets:
                p1, r = t.p1(d), t.r(d)
                yield from _eq(_lab(t, d, "halting"), 1 - r, p1 * (1 - t.g) + t.g)
                et = _q(
                    thresholding_expected_iterations(t.Q, d, R(*_frac(t.tau)), R(*_frac(t.g)), t.T)
                )
                yield from _eq(
                    _lab(t, d, "E[T]"), et, sum((r ** (j - 1) for j in range(1, t.T + 1)), F(0))
                )
                yield _lab(t, d, "<="), et, 1 / (1 - r)

    return check_all_le("Theorem 3.1 (d)", rows())


@claim(
    id="liu_talwar2019.thm31.step.e_bottom",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (e), the display (three lines)",
    statement="Pr[⊥] = (1-p1) gamma (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/(p1(1-gamma)+gamma) <= "
    "(1-p1) gamma (1 + (1-gamma)^T/(e(T-1) gamma))/p1 <= (1-p1)(1 + eps0/2) gamma/p1",
    expected="holds",
    kind="proof-step",
    instances="rational base mechanisms, every threshold and dataset with p1 > 0",
)
def thm31_e_bottom() -> CheckResult:
    parts = []
    for t in _thrs():
        g, T = R(*_frac(t.g)), t.T
        for d in t.Q.datasets:
            p1 = R(*_frac(t.p1(d)))
            if p1 == 0:
                continue
            mid = (1 - p1) * g * (1 + (1 - g) ** T / (sp.E * (T - 1) * g)) / p1
            parts.append(check_le(R(*_frac(t.out(d, BOTTOM))), mid, str(_lab(t, d, 1))))
            parts.append(
                check_le(mid, (1 - p1) * (1 + R(*_frac(t.e0)) / 2) * g / p1, str(_lab(t, d, 2)))
            )
    return conjunction("Theorem 3.1 (e)", parts)


# ===========================================================================
# Theorem 3.2, §3.2
# ===========================================================================

GAMMAS32 = (F(1, 1000), F(1, 10), F(1, 2))


def _tails(Q: FiniteMechanism, d: Any) -> dict[Any, tuple[Fraction, Fraction, Fraction]]:
    """``{candidate: (p, p0, p1)}`` at ``d`` (``p0`` the mass ranked above)."""
    rk = ranking(Q)
    out = {}
    for idx, o in enumerate(rk.order):
        p = _q(Q.p(d, o))
        p0 = sum((_q(Q.p(d, o2)) for o2 in rk.order[idx + 1 :]), F(0))
        out[o] = (p, p0, p0 + p)
    return out


@claim(
    id="liu_talwar2019.thm32.step.conditionals",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the two displays after 'observe that'",
    statement="Pr[max S <= q | |S| = j] = (1-p0)^j and Pr[(x,q) in S | max S <= q, |S| = j] = "
    "1 - ((1-p1)/(1-p0))^j, by enumerating every j-tuple of samples (j = 1, 2, 3)",
    expected="holds",
    kind="proof-step",
    instances="the rational base mechanisms, every candidate and dataset",
)
def thm32_conditionals() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for Q in _bases():
            rk = ranking(Q)
            pos = {o: i for i, o in enumerate(rk.order)}
            for d in Q.datasets:
                tl = _tails(Q, d)
                probs = {o: _q(Q.p(d, o)) for o in rk.order}
                for j in (1, 2, 3):
                    for o in rk.order:
                        p, p0, p1 = tl[o]
                        below = F(0)
                        hit = F(0)
                        for tup in itertools.product(rk.order, repeat=j):
                            w = math.prod((probs[s] for s in tup), start=F(1))
                            if all(pos[s] <= pos[o] for s in tup):
                                below += w
                                if o in tup:
                                    hit += w
                        yield from _eq((Q.name, d, j, o, "max"), below, (1 - p0) ** j)
                        if below != 0:
                            yield from _eq(
                                (Q.name, d, j, o, "in S"),
                                hit / below,
                                1 - ((1 - p1) / (1 - p0)) ** j,
                            )

    return check_all_le("Theorem 3.2: the conditional probabilities", rows())


@claim(
    id="liu_talwar2019.thm32.step.closed_form",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the display 'Together we have' (five lines, =)",
    statement="Σ_j (1-gamma)^(j-1) gamma ((1-p0)^j - (1-p1)^j) = gamma(1-p0)/(1-(1-gamma)(1-p0)) - "
    "gamma(1-p1)/(1-(1-gamma)(1-p1)) = gamma p/((p0(1-gamma)+gamma)(p1(1-gamma)+gamma)), which is "
    "random stopping's output probability",
    expected="holds",
    kind="proof-step",
    instances="the rational base mechanisms, gamma in {1/1000, 1/10, 1/2}, every candidate and dataset",
)
def thm32_closed() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for Q in _bases():
            for g in GAMMAS32:
                A = random_stopping(Q, R(*_frac(g)))
                for d in Q.datasets:
                    for o, (p, p0, p1) in _tails(Q, d).items():
                        if p == 0:
                            continue
                        two = g * (1 - p0) / (1 - (1 - g) * (1 - p0)) - g * (1 - p1) / (
                            1 - (1 - g) * (1 - p1)
                        )
                        last = g * p / ((p0 * (1 - g) + g) * (p1 * (1 - g) + g))
                        yield from _eq((Q.name, g, d, o, "series"), two, last)
                        yield from _eq((Q.name, g, d, o, "algorithm"), _q(A.p(d, o)), last)
                        part = sum(
                            (
                                (1 - g) ** (j - 1) * g * ((1 - p0) ** j - (1 - p1) ** j)
                                for j in range(1, 31)
                            ),
                            F(0),
                        )
                        yield (Q.name, g, d, o, "partial sum"), part, last

    return check_all_le("Theorem 3.2: the output distribution", rows())


@claim(
    id="liu_talwar2019.thm32.step.ratio",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the last display",
    statement="Pr[A(D)=(x,q)]/Pr[A(D')=(x,q)] = (p/p') ((p0'(1-gamma)+gamma)/(p0(1-gamma)+gamma)) "
    "((p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma)), each factor at most e^{eps1}, so <= e^{3 eps1}",
    expected="holds",
    kind="proof-step",
    instances="the rational base mechanisms, gamma in {1/1000, 1/10, 1/2}, every candidate and "
    "ordered pair",
)
def thm32_ratio() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for Q in _bases():
            a = _ratio(Q)
            for g in GAMMAS32:
                A = random_stopping(Q, R(*_frac(g)))
                for d, d2 in Q.ordered_pairs():
                    t1, t2 = _tails(Q, d), _tails(Q, d2)
                    for o in t1:
                        (p, p0, p1), (pb, p0b, p1b) = t1[o], t2[o]
                        if pb == 0 or p == 0:
                            continue
                        f1, f2, f3 = (
                            p / pb,
                            (p0b * (1 - g) + g) / (p0 * (1 - g) + g),
                            (p1b * (1 - g) + g) / (p1 * (1 - g) + g),
                        )
                        lab = (Q.name, g, d, d2, o)
                        yield from _eq((*lab, "="), _q(A.p(d, o)) / _q(A.p(d2, o)), f1 * f2 * f3)
                        for k, f in enumerate((f1, f2, f3)):
                            yield (*lab, f"factor {k + 1}"), f, a

    return check_all_le("Theorem 3.2: the ratio", rows())


# ===========================================================================
# App. B.1: outputting the best candidate
# ===========================================================================


@claim(
    id="liu_talwar2019.B1.step.probabilities",
    source=f"{SRC}, App. B.1, the derivation of the first example, the display after 'It is easy to see'",
    statement="with the printed candidates (0.8 w.p. 1/2 on d1, e^eps/2 on d1'), Pr[i*(d1) = 0] = 2^-K, "
    "Pr[i*(d1') = 0] = e^{K eps} 2^-K and ln of their ratio = K eps (K = 1..4, eps = 1/2)",
    expected="holds",
    kind="proof-step",
    instances="K = 1..4, eps = 1/2, the printed candidates",
)
def b1_probabilities() -> CheckResult:
    from verifier.certified import check_eq

    from .instances import best_of_k, candidate

    parts = []
    eps = R(1, 2)
    for K in range(1, 5):
        m = best_of_k(K, candidate(R(1, 2), sp.exp(eps) / 2, "printed candidate"))
        p, pp = m.p("d1", 0), m.p("d1'", 0)
        parts.append(check_eq(p, R(1, 2**K), f"K = {K}: Pr[i*(d1) = 0]"))
        parts.append(check_eq(pp, sp.exp(K * eps) / 2**K, f"K = {K}: Pr[i*(d1') = 0]"))
        parts.append(check_eq(sp.log(pp / p), K * eps, f"K = {K}: log ratio"))
    return conjunction("App. B.1: the first example", parts)


@claim(
    id="liu_talwar2019.B1.step.delta_example",
    source=f"{SRC}, App. B.1, the derivation of the second example, the display with the two '≈'",
    statement="Pr[i*(d1) = 0] = (1 - ln(1/delta)/K)^K <= delta and Pr[i*(d1') = 0] = (1 - e^-eps "
    "ln(1/delta)/K)^K <= delta^(1-eps) (the directions of the printed approximations that hold; "
    "K = 100, delta = e^-10, eps = 1/2)",
    expected="holds",
    kind="proof-step",
    instances="K = 100, ln(1/delta) = 10, eps = 1/2 (the registered B.1 delta companion)",
)
def b1_delta_example() -> CheckResult:
    from .instances import B1D_EPS, B1D_K, B1D_L, b1_delta_best

    m = b1_delta_best()
    delta = sp.exp(-B1D_L)
    return conjunction(
        "App. B.1: the second example",
        [
            check_le(m.p("d1", 0), delta, "Pr[i*(d1) = 0] <= delta"),
            check_le(m.p("d1'", 0), delta ** (1 - B1D_EPS), "Pr[i*(d1') = 0] <= delta^(1-eps)"),
            check_le(
                (1 - sp.exp(-B1D_EPS) * R(B1D_L, B1D_K)) ** B1D_K,
                sp.exp(-sp.exp(-B1D_EPS) * B1D_L),
                "(1 - e^-eps L/K)^K <= delta^(e^-eps)",
            ),
        ],
    )
