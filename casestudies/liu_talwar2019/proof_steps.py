"""Liu & Talwar 2019: every displayed step of the proofs of Theorem 3.1 (App. A.1),
Theorem 3.2 (§3.2), the tight examples of App. B.1 and Lemma C.2 (App. C), each a
claim of kind ``proof-step`` whose steps are data (:class:`verifier.claims.steps.Step`)
decided over their whole domain by one engine (:func:`verifier.claims.steps.decide_steps`):
identities in the proof's symbols (the algorithm's exact output on a base mechanism with
*symbolic* probabilities against the displayed closed form — so for every base
mechanism), inequalities over ranges and boxes of the parameters the step uses.

Notation of the proofs: for a threshold ``τ``, ``p1 = Pr_{Q(D)}[q >= τ]``,
``r = (1 - p1)(1 - γ)`` (the probability of reaching the next round); for an output
``(x, q)`` of random stopping, ``p = Q(x, q)``, ``p0 = Pr[q̃ > q]``, ``p1 = p0 + p``;
``a = e^{ε1}``.  Where the proof applies a hypothesis (``p1' <= e^{ε1} p1``, ``T >=
ln(2/ε0)/γ``) the step is written on a reparametrisation that makes its region a box:
``p1'(1-γ) <= a p1(1-γ)`` becomes the monotonicity in the numerator and the bound at
``y = a x``; ``T = ln(2/ε0)/γ + v/γ`` with ``v >= 0`` turns ``e^{-γT}`` into
``(ε0/2) e^{-v}``.  ``T`` is a positive integer; the identities and the AM-GM step are
decided for each ``T`` of a list (the other steps hold for every ``T``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.liu_talwar import BOTTOM, random_stopping, thresholding
from verifier.algorithms.liu_talwar import thresholding_expected_iterations as _expected
from verifier.checks.results import CheckResult
from verifier.claims.steps import Step, decide_steps
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from .instances import SOURCE, R

SRC = SOURCE

# the proof's symbols
P, PP, P1, P1P, G, A, T_, X, Y, V, S, E0, M, D1, W = sp.symbols(
    "p p' p1 p1' gamma a t x y v s eps0 m delta1 w", nonnegative=True
)
#: where the proof applies its steps
UNIT = (0, 1)
GAMMA = (R(1, 1000), 1)
BUDGET = (1, 10)  # a = e^{eps1}
TS = (1, 2, 3, 6)  # the number of rounds in the identities


def _mech(d: dict[Any, Any], dp: dict[Any, Any]) -> FiniteMechanism:
    outs = sorted(set(d) | set(dp))
    return FiniteMechanism(pair(), {"D": d, "D'": dp}, outs, validate=False)


def _thr_q() -> FiniteMechanism:
    """Scores 0 (below τ = 1), 1 and 2 (passing): masses ``(1 - p1, p1 - p, p)`` at
    ``D`` and ``(1 - p1', p1' - p', p')`` at ``D'``."""
    return _mech({0: 1 - P1, 1: P1 - P, 2: P}, {0: 1 - P1P, 1: P1P - PP, 2: PP})


def _r(p1: Any) -> Any:
    return (1 - p1) * (1 - G)


def _geometric(T: int, r: Any) -> Any:
    return sp.Add(*[r ** (j - 1) for j in range(1, T + 1)])


# --- steps shared by several displays ---------------------------------------------


def _rT_at_most_one(T: int) -> Step:
    return Step(
        f"T = {T}: 1 - r^T <= 1 (r = (1-p1)(1-gamma) in [0, 1])", 1 - X**T, 1, domain={X: UNIT}
    )


def _rT_below(T: int) -> Step:
    return Step(
        f"T = {T}: r'^T <= (1-gamma)^T, i.e. (1-p1')^T <= 1 (times (1-gamma)^T > 0)",
        (1 - P1P) ** T,
        1,
        domain={P1P: UNIT},
    )


RATIO_STEPS = (
    Step(
        "(y + gamma)/(x + gamma) increases in y: at y <= a x it is at most (a x + gamma)/(x + gamma) "
        "(x = p1(1-gamma), y = p1'(1-gamma) <= e^eps1 x)",
        (Y * S + G) / (X + G),
        (Y + G) / (X + G),
        domain={Y: UNIT, S: UNIT, X: UNIT, G: GAMMA},
        note="y s with s in [0, 1] is any value up to y",
    ),
    Step(
        "(a x + gamma)/(x + gamma) <= a (a >= 1)",
        (A * X + G) / (X + G),
        A,
        domain={X: UNIT, G: GAMMA, A: BUDGET},
    ),
)

ONE_MINUS = Step("1 - gamma <= e^-gamma", 1 - G, sp.exp(-G), domain={G: UNIT})

CHOICE_OF_T = (
    ONE_MINUS,
    Step(
        "(1-gamma)^T <= e^(-gamma T) = (eps0/2) e^(-v) <= eps0/2 for T = (ln(2/eps0) + v)/gamma, v >= 0",
        E0 / 2 * sp.exp(-V),
        E0 / 2,
        domain={E0: (R(1, 1000), 1), V: (0, 20)},
    ),
)


def _amgm(Ts: Sequence[int]) -> list[Step]:
    steps = [
        Step(
            f"T = {T}: (T-1) p1 (1-p1)^(T-1) <= ((T-1)/T)^T (AM-GM)",
            (T - 1) * P1 * (1 - P1) ** (T - 1),
            (1 - R(1, T)) ** T,
            domain={P1: UNIT},
        )
        for T in Ts
    ]
    steps.append(
        Step(
            "(1 - 1/T)^T <= e^-1 for every T >= 2: 1 - x <= e^-x at x = 1/T, raised to T",
            1 - X,
            sp.exp(-X),
            domain={X: (0, R(1, 2))},
        )
    )
    return steps


# ===========================================================================
# Theorem 3.1, App. A.1 (the proof of Theorem A.1)
# ===========================================================================


@claim(
    id="liu_talwar2019.thm31.step.a_closed_form",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (a), the display (three lines, =)",
    statement="Pr[A(D) = (x,q)] = Σ_{j=1}^T ((1-p1)(1-gamma))^(j-1) p(x,q) = p(x,q) (1 - r^T)/(1 - r) "
    "for q >= tau: the algorithm's output, the finite sum and its closed form agree, as identities in "
    "p, p1 and gamma",
    expected="holds",
    kind="proof-step",
    instances="a base mechanism with symbolic masses (1 - p1, p1 - p, p) on scores 0, 1, 2, tau = "
    "1; T in {1, 2, 3, 6}",
)
def thm31_a_closed() -> CheckResult:
    steps = []
    for T in TS:
        A_ = thresholding(_thr_q(), 1, G, T)
        r = _r(P1)
        steps.append(
            Step(
                f"T = {T}: Pr[A(D) = (x,q)] = Σ_j r^(j-1) p",
                A_.p("D", 2),
                _geometric(T, r) * P,
                "==",
            )
        )
        steps.append(
            Step(
                f"T = {T}: Σ_j r^(j-1) p = p (1 - r^T)/(1 - r)",
                _geometric(T, r) * P,
                P * (1 - r**T) / (1 - r),
                "==",
            )
        )
    return decide_steps(
        "Theorem 3.1 (a): the output distribution", steps, domain={P: UNIT, P1: UNIT, G: GAMMA}
    )


@claim(
    id="liu_talwar2019.thm31.step.b_ratio",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (first line, =, and second line, <=)",
    statement="Pr[A(D)=(x,q)]/Pr[A(D')=(x,q)] = (p/p') (1 - r^T)/(1 - r'^T) (1 - r')/(1 - r) <= "
    "e^{eps1} (1/(1 - (1-gamma)^T)) (p1'(1-gamma) + gamma)/(p1(1-gamma) + gamma)",
    expected="holds",
    kind="proof-step",
    instances="the identity for symbolic (p, p', p1, p1', gamma), T in {1, 2, 3, 6}; the bounds "
    "1 - r^T <= 1 and r'^T <= (1-gamma)^T for every r, p1' in [0, 1]",
)
def thm31_b_ratio() -> CheckResult:
    steps = []
    for T in TS:
        A_ = thresholding(_thr_q(), 1, G, T)
        r, rp = _r(P1), _r(P1P)
        form = P / PP * (1 - r**T) / (1 - rp**T) * (1 - rp) / (1 - r)
        steps.append(
            Step(
                f"T = {T}: the ratio of the algorithm's outputs",
                A_.p("D", 2) / A_.p("D'", 2),
                form,
                "==",
            )
        )
        steps += [_rT_at_most_one(T), _rT_below(T)]
    return decide_steps(
        "Theorem 3.1 (b): the ratio of an output",
        steps,
        domain={P: UNIT, PP: (R(1, 1000), 1), P1: UNIT, P1P: UNIT, G: GAMMA},
    )


@claim(
    id="liu_talwar2019.thm31.step.b_choice_of_T",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (third line)",
    statement="if T >= (1/gamma) ln(2/eps0): 1/(1 - (1-gamma)^T) <= 1/(1 - eps0/2), and "
    "(p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma) <= e^{eps1} when p1' <= e^{eps1} p1",
    expected="holds",
    kind="proof-step",
    instances="gamma in [0, 1], eps0 in [1/1000, 1], v = gamma T - ln(2/eps0) in [0, 20]; x, y in "
    "[0, 1], e^eps1 in [1, 10]",
)
def thm31_b_choice_of_T() -> CheckResult:
    return decide_steps("Theorem 3.1 (b): the choice of T", [*CHOICE_OF_T, *RATIO_STEPS])


@claim(
    id="liu_talwar2019.thm31.step.b_eps0",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (last line, 'if eps0 <= 1')",
    statement="e^{eps1} (1/(1 - eps0/2)) e^{eps1} <= e^{2 eps1 + eps0}, i.e. 1/(1 - eps0/2) <= e^{eps0} "
    "for every eps0 in [0, 1]",
    expected="holds",
    kind="proof-step",
)
def thm31_b_eps0() -> CheckResult:
    return decide_steps(
        "1/(1 - eps0/2) <= e^eps0",
        [Step("1/(1 - eps0/2) <= e^eps0", 1 / (1 - E0 / 2), sp.exp(E0), domain={E0: UNIT})],
    )


def _bottom_form(p1: Any, T: int) -> Any:
    return (1 - p1) * G * (1 + p1 / G * (1 - p1) ** (T - 1) * (1 - G) ** T) / (p1 * (1 - G) + G)


@claim(
    id="liu_talwar2019.thm31.step.bottom_closed_form",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for ⊥ (six lines, =)",
    statement="Pr[A(D) = ⊥] = Σ_{j<=T} r^(j-1)(1-p1) gamma + r^T = (1-p1) gamma (1-r^T)/(1-r) + r^T "
    "= (1-p1) gamma (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/(p1(1-gamma) + gamma), identities in "
    "p1 and gamma",
    expected="holds",
    kind="proof-step",
    instances="T in {1, 2, 3, 6}",
)
def thm31_bottom_closed() -> CheckResult:
    steps = []
    for T in TS:
        r = _r(P1)
        s = sp.Add(*[r ** (j - 1) * (1 - P1) * G for j in range(1, T + 1)]) + r**T
        A_ = thresholding(_thr_q(), 1, G, T)
        steps += [
            Step(f"T = {T}: Pr[A(D) = ⊥] = the sum", A_.p("D", BOTTOM), s, "=="),
            Step(
                f"T = {T}: the sum = (1-p1) gamma (1-r^T)/(1-r) + r^T",
                s,
                (1 - P1) * G * (1 - r**T) / (1 - r) + r**T,
                "==",
            ),
            Step(f"T = {T}: = the last line", s, _bottom_form(P1, T), "=="),
        ]
    return decide_steps(
        "Theorem 3.1: Pr[⊥] in closed form", steps, domain={P: UNIT, P1: UNIT, G: GAMMA}
    )


@claim(
    id="liu_talwar2019.thm31.step.bottom_ratio",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for the ratio of ⊥ (first two lines)",
    statement="Pr[A(D)=⊥]/Pr[A(D')=⊥] = ((1-p1)/(1-p1')) (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/"
    "(1 + (p1'/gamma)(1-p1')^(T-1)(1-gamma)^T) (p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma) <= "
    "e^{eps1} (1 + p1 (1-p1)^(T-1) (1/gamma)(1-gamma)^T) e^{eps1}",
    expected="holds",
    kind="proof-step",
    instances="the identity for symbolic p1, p1', gamma (T in {1, 2, 3}); the denominator "
    "1 + (p1'/gamma)(1-p1')^(T-1)(1-gamma)^T >= 1 and the ratio lemma over their boxes",
)
def thm31_bottom_ratio() -> CheckResult:
    steps = []
    for T in TS[:3]:
        A_ = thresholding(_thr_q(), 1, G, T)
        form = (
            (1 - P1)
            / (1 - P1P)
            * _bottom_form(P1, T)
            / ((1 - P1) * G)
            * ((1 - P1P) * G)
            / _bottom_form(P1P, T)
        )
        steps.append(
            Step(f"T = {T}: the ratio of ⊥", A_.p("D", BOTTOM) / A_.p("D'", BOTTOM), form, "==")
        )
        steps.append(
            Step(
                f"T = {T}: p1'(1-p1')^(T-1) >= 0, so the denominator is >= 1",
                0,
                P1P * (1 - P1P) ** (T - 1),
                domain={P1P: UNIT},
            )
        )
    steps += RATIO_STEPS
    return decide_steps(
        "Theorem 3.1: the ratio of ⊥",
        steps,
        domain={P1: UNIT, P1P: (0, R(999, 1000)), G: GAMMA, P: UNIT},
    )


@claim(
    id="liu_talwar2019.thm31.step.amgm",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display (†) (AM-GM)",
    statement="(T-1) p1 (1-p1)^(T-1) <= (((T-1) p1 + (T-1)(1-p1))/T)^T = (1 - 1/T)^T <= e^(-1) for "
    "integers T > 1 and p1 in [0, 1]",
    expected="holds",
    kind="proof-step",
    instances="the AM-GM line for every p1 in [0, 1] at each T = 2..30; (1 - 1/T)^T <= 1/e for every "
    "T >= 2 (1 - x <= e^-x on [0, 1/2])",
)
def thm31_amgm() -> CheckResult:
    return decide_steps("(†)", _amgm(range(2, 31)))


@claim(
    id="liu_talwar2019.thm31.step.bottom_choice_of_T",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (b), the display for ⊥ (fourth line)",
    statement="if T >= max{(1/gamma) ln(2/eps0), 1 + 1/(e gamma)}: (1/(e(T-1) gamma))(1-gamma)^T <= eps0/2, "
    "so the bound is e^{2 eps1}(1 + eps0/2) <= e^{2 eps1 + eps0}",
    expected="holds",
    kind="proof-step",
    instances="(1-gamma)^T <= eps0/2 as in the third line; e (T-1) gamma = 1 + e gamma s >= 1 for "
    "T = 1 + 1/(e gamma) + s, s >= 0; 1 + eps0/2 <= e^eps0 on [0, 1]",
)
def thm31_bottom_T() -> CheckResult:
    return decide_steps(
        "the choice of T for ⊥",
        [
            *CHOICE_OF_T,
            Step(
                "e (T-1) gamma >= 1 for T >= 1 + 1/(e gamma)",
                1,
                1 + sp.E * G * S,
                domain={G: UNIT, S: (0, 100)},
            ),
            Step("1 + eps0/2 <= e^eps0", 1 + E0 / 2, sp.exp(E0), domain={E0: UNIT}),
        ],
    )


# --- (c): approximate DP ----------------------------------------------------------


@claim(
    id="liu_talwar2019.thm31.step.c_event_bounds",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the two displays for an event F without ⊥",
    statement="Pr[A(D) in F] <= p/(p1(1-gamma)+gamma) <= (e^{eps1} p' + delta1)/(max{0, p1'-delta1} "
    "e^{-eps1}(1-gamma) + gamma) <= (e^{2 eps1} p' + e^{eps1} delta1)/(max{0, p1'-delta1}(1-gamma) + "
    "gamma), and Pr[A(D') in F] >= p'(1-(1-gamma)^T)/(p1'(1-gamma)+gamma) >= p'(1-eps0/2)/(...) "
    "(the last line, >= e^{-eps0} p'/(...), is decided in liu_talwar2019.thm31.step.c_lower_eps0)",
    expected="holds",
    kind="proof-step",
    instances="1 - r^T <= 1 (T in {1, 2, 3, 6}); N s/(y + w) <= N/y (the numerator bounded by "
    "e^eps1 p' + delta1, the denominator from below) over a box; m(1-gamma) + gamma <= e^eps1 (m "
    "e^-eps1 (1-gamma) + gamma); r'^T <= (1-gamma)^T; (1-gamma)^T <= eps0/2",
)
def thm31_c_events() -> CheckResult:
    N, YY, WW = sp.symbols("N y w", nonnegative=True)
    steps = [_rT_at_most_one(T) for T in TS]
    steps.append(
        Step(
            "a smaller numerator over a larger denominator: N s/(y + w) <= N/y",
            N * S / (YY + WW),
            N / YY,
            domain={N: (0, 10), S: UNIT, YY: (R(1, 1000), 10), WW: (0, 10)},
        )
    )
    steps.append(
        Step(
            "e^eps1 (m e^-eps1 (1-gamma) + gamma) >= m (1-gamma) + gamma: the factor e^eps1 moves out",
            M * (1 - G) + G,
            A * (M * (1 - G) / A + G),
            domain={M: UNIT, G: UNIT, A: BUDGET},
        )
    )
    steps += [_rT_below(T) for T in TS]
    steps += list(CHOICE_OF_T)
    return decide_steps("Theorem 3.1 (c): events without ⊥", steps)


@claim(
    id="liu_talwar2019.thm31.step.c_differences",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the difference displays and the last display",
    statement="Pr[A(D) in F] - e^{2 eps1 + eps0} Pr[A(D') in F] <= 2 e^{2 eps1} delta1/gamma, "
    "Pr[A(D) = ⊥] - e^{2 eps1 + eps0} Pr[A(D') = ⊥] <= e^{2 eps1 + eps0} delta1/gamma, so every "
    "event E gives <= 3 e^{2 eps1 + eps0} delta1/gamma",
    expected="holds",
    kind="proof-step",
    instances="each line over the box of the quantities it uses: p', p1', m = max{0, p1' - delta1}, "
    "t = p'/p1' in [0, 1], gamma in [1/1000, 1] (or [0, 1]), e^eps1 in [1, 10], delta1, eps0 in [0, 1]",
)
def thm31_c_differences() -> CheckResult:
    lo = M * (1 - G) + G  # max{0, p1' - delta1}(1-gamma) + gamma, m = max{0, p1' - delta1}
    hi = P1P * (1 - G) + G
    steps = [
        Step(
            "the first difference line over a common denominator (then p1' - m <= delta1)",
            A**2 * PP * (1 / lo - 1 / hi) + A * D1 / lo,
            (A**2 * PP * (P1P - M) * (1 - G) + A * D1 * hi) / (lo * hi),
            "==",
            domain={PP: UNIT, P1P: UNIT, M: UNIT, G: GAMMA, A: BUDGET, D1: UNIT},
        ),
        Step(
            "a p'(1-gamma) <= a p1'(1-gamma) (p' = p1' t <= p1'), the first half of "
            "a p'(1-gamma) + (p1'(1-gamma) + gamma) <= a (2 p1'(1-gamma) + gamma)",
            P1P * T_ * (1 - G),
            P1P * (1 - G),
            domain={P1P: UNIT, T_: UNIT, G: UNIT},
        ),
        Step(
            "p1'(1-gamma) + gamma <= a (p1'(1-gamma) + gamma), the second half: 1 <= a = e^eps1, "
            "times p1'(1-gamma) + gamma > 0",
            1,
            A,
            domain={A: BUDGET},
        ),
        Step(
            "(2 p1'(1-gamma) + gamma)/(p1'(1-gamma) + gamma) <= 2",
            2 * P1P * (1 - G) + G,
            2 * hi,
            domain={P1P: UNIT, G: UNIT},
        ),
        Step(
            "max{0, p1'-delta1}(1-gamma) + gamma >= gamma: so the F difference is <= 2 e^(2eps1) "
            "delta1/gamma",
            G,
            lo,
            domain={M: UNIT, G: UNIT},
        ),
        Step(
            "⊥: (1-p1')(1-gamma) + p1'(1-gamma) + gamma = 1",
            (1 - P1P) * (1 - G) + P1P * (1 - G) + G,
            1,
            "==",
            domain={P1P: UNIT, G: UNIT},
        ),
        Step(
            "⊥: p1'(1-gamma) + gamma >= gamma: with the line above, the ⊥ difference is <= "
            "e^(2eps1+eps0) delta1/gamma",
            G,
            hi,
            domain={P1P: UNIT, G: UNIT},
        ),
        Step(
            "every event: 2 e^(2eps1) + e^(2eps1+eps0) <= 3 e^(2eps1+eps0), i.e. 2 <= 2 e^eps0",
            2,
            2 * sp.exp(E0),
            domain={E0: UNIT},
        ),
    ]
    return decide_steps("Theorem 3.1 (c): the differences", steps)


@claim(
    id="liu_talwar2019.thm31.step.c_lower_eps0",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (c), the lower bound display (last line, 'if eps0 <= 1')",
    statement="1 - eps0/2 >= e^{-eps0} for every eps0 in [0, 1]",
    expected="holds",
    kind="proof-step",
)
def thm31_c_lower_eps0() -> CheckResult:
    return decide_steps(
        "e^(-eps0) <= 1 - eps0/2",
        [Step("e^-eps0 <= 1 - eps0/2", sp.exp(-E0), 1 - E0 / 2, domain={E0: UNIT})],
    )


@claim(
    id="liu_talwar2019.thm31.step.d_geometric",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (d), the line 'Pr[halting in any iteration]'",
    statement="each round halts with probability 1 - (1-p1)(1-gamma) = p1(1-gamma) + gamma, so "
    "E[T~] = Σ_{j<=T} r^(j-1) <= 1/(p1(1-gamma) + gamma)",
    expected="holds",
    kind="proof-step",
    instances="the algorithm's E[T~] for symbolic p1, gamma (T in {1, 2, 3, 6}); 1 - r^T <= 1",
)
def thm31_d_geometric() -> CheckResult:
    steps = [
        Step(
            "halting: 1 - (1-p1)(1-gamma) = p1(1-gamma) + gamma", 1 - _r(P1), P1 * (1 - G) + G, "=="
        )
    ]
    for T in TS:
        et = _expected(_thr_q(), "D", 1, G, T)
        steps.append(Step(f"T = {T}: E[T~] = Σ_j r^(j-1)", et, _geometric(T, _r(P1)), "=="))
        steps.append(
            Step(
                f"T = {T}: Σ_j r^(j-1) (1 - r) = 1 - r^T",
                _geometric(T, X) * (1 - X),
                1 - X**T,
                "==",
            )
        )
        steps.append(_rT_at_most_one(T))
    return decide_steps("Theorem 3.1 (d)", steps, domain={P1: UNIT, P: UNIT, G: GAMMA, X: UNIT})


@claim(
    id="liu_talwar2019.thm31.step.e_bottom",
    source=f"{SRC}, App. A.1, proof of Theorem 3.1 (e), the display (three lines)",
    statement="Pr[⊥] = (1-p1) gamma (1 + (p1/gamma)(1-p1)^(T-1)(1-gamma)^T)/(p1(1-gamma)+gamma) <= "
    "(1-p1) gamma (1 + (1-gamma)^T/(e(T-1) gamma))/p1 <= (1-p1)(1 + eps0/2) gamma/p1",
    expected="holds",
    kind="proof-step",
    instances="AM-GM at T in {2, 3, 5, 10, 30} (every T = 2..30: liu_talwar2019.thm31.step.amgm); 1/(p1(1-gamma) + gamma) <= 1/p1 over [1/1000, 1] x [0, 1]; the "
    "choice of T as in the proof of (b)",
)
def thm31_e_bottom() -> CheckResult:
    steps = [
        *_amgm((2, 3, 5, 10, 30)),
        Step(
            "1/(p1(1-gamma) + gamma) <= 1/p1",
            1 / (P1 * (1 - G) + G),
            1 / P1,
            domain={P1: (R(1, 1000), 1), G: UNIT},
        ),
        *CHOICE_OF_T,
        Step(
            "e (T-1) gamma >= 1 for T >= 1 + 1/(e gamma)",
            1,
            1 + sp.E * G * S,
            domain={G: UNIT, S: (0, 100)},
        ),
    ]
    return decide_steps("Theorem 3.1 (e)", steps)


# ===========================================================================
# Theorem 3.2, §3.2
# ===========================================================================

PL, PM = sp.symbols("p_low p_mid", nonnegative=True)


def _three() -> tuple[FiniteMechanism, dict[int, Any]]:
    """Three candidates (scores 0 < 1 < 2) with symbolic masses, at ``D`` and ``D'``."""
    d = {0: PL, 1: PM, 2: 1 - PL - PM}
    return _mech(d, {0: P, 1: PP, 2: 1 - P - PP}), d


@claim(
    id="liu_talwar2019.thm32.step.conditionals",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the two displays after 'observe that'",
    statement="Pr[max S <= q | |S| = j] = (1-p0)^j and Pr[(x,q) in S | max S <= q, |S| = j] = "
    "1 - ((1-p1)/(1-p0))^j, by enumerating every j-tuple of samples: identities in the three "
    "candidates' masses",
    expected="holds",
    kind="proof-step",
    instances="three candidates with symbolic masses (p_low, p_mid, 1 - p_low - p_mid), j = 1, 2, 3, "
    "every candidate",
)
def thm32_conditionals() -> CheckResult:
    _, d = _three()
    steps = []
    for j in (1, 2, 3):
        for o in (0, 1, 2):
            p = d[o]
            p0 = sp.Add(*[d[k] for k in d if k > o])
            p1 = p0 + p
            below = hit = sp.Integer(0)
            for tup in itertools.product(d, repeat=j):
                w = math.prod((d[k] for k in tup), start=sp.Integer(1))
                if all(k <= o for k in tup):
                    below += w
                    if o in tup:
                        hit += w
            steps.append(
                Step(f"j = {j}, candidate {o}: Pr[max S <= q]", below, (1 - p0) ** j, "==")
            )
            steps.append(
                Step(
                    f"j = {j}, candidate {o}: Pr[(x,q) in S and max S <= q]",
                    hit,
                    (1 - p0) ** j * (1 - ((1 - p1) / (1 - p0)) ** j),
                    "==",
                )
            )
    return decide_steps(
        "Theorem 3.2: the conditional probabilities", steps, domain={PL: UNIT, PM: UNIT}
    )


@claim(
    id="liu_talwar2019.thm32.step.closed_form",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the display 'Together we have' (five lines, =)",
    statement="Σ_j (1-gamma)^(j-1) gamma ((1-p0)^j - (1-p1)^j) = gamma(1-p0)/(1-(1-gamma)(1-p0)) - "
    "gamma(1-p1)/(1-(1-gamma)(1-p1)) = gamma p/((p0(1-gamma)+gamma)(p1(1-gamma)+gamma)), which is "
    "random stopping's output probability: identities",
    expected="holds",
    kind="proof-step",
    instances="the series summed by sympy for every x = 1 - p0 in (0, 1]; p0, p in [0, 1] and gamma "
    "symbolic; the algorithm on three candidates with symbolic masses",
)
def thm32_closed() -> CheckResult:
    j = sp.Symbol("j", integer=True, positive=True)
    series = sp.piecewise_fold(sp.summation((1 - G) ** (j - 1) * G * X**j, (j, 1, sp.oo)))
    # the first branch holds for |x (1 - gamma)| < 1: every x in [0, 1], gamma in (0, 1]
    geo = series.args[0][0] if isinstance(series, sp.Piecewise) else series
    P0 = sp.Symbol("p0", nonnegative=True)
    two = G * (1 - P0) / (1 - (1 - G) * (1 - P0)) - G * (1 - P0 - P) / (1 - (1 - G) * (1 - P0 - P))
    last = G * P / ((P0 * (1 - G) + G) * ((P0 + P) * (1 - G) + G))
    Q3, d = _three()
    A_ = random_stopping(Q3, G)
    steps = [
        Step(
            "Σ_j (1-gamma)^(j-1) gamma x^j = gamma x/(1 - (1-gamma) x)",
            geo,
            G * X / (1 - (1 - G) * X),
            "==",
        ),
        Step("the difference of the two series = the last line", two, last, "=="),
    ]
    for o in (0, 1, 2):
        p0 = sp.Add(*[d[k] for k in d if k > o])
        steps.append(
            Step(
                f"random stopping's Pr[candidate {o}] = the last line",
                A_.p("D", o),
                last.xreplace({P0: p0, P: d[o]}),
                "==",
            )
        )
    return decide_steps(
        "Theorem 3.2: the output distribution",
        steps,
        domain={X: UNIT, G: GAMMA, P0: UNIT, P: UNIT, PL: UNIT, PM: UNIT},
    )


@claim(
    id="liu_talwar2019.thm32.step.ratio",
    source=f"{SRC}, §3.2, proof of Theorem 3.2, the last display",
    statement="Pr[A(D)=(x,q)]/Pr[A(D')=(x,q)] = (p/p') ((p0'(1-gamma)+gamma)/(p0(1-gamma)+gamma)) "
    "((p1'(1-gamma)+gamma)/(p1(1-gamma)+gamma)), each factor at most e^{eps1}, so <= e^{3 eps1}",
    expected="holds",
    kind="proof-step",
    instances="the ratio of random stopping's outputs on three candidates with symbolic masses at D "
    "and D'; each factor by the ratio lemma (y <= e^eps1 x) over its box",
)
def thm32_ratio() -> CheckResult:
    Q3, d = _three()
    dp = {0: P, 1: PP, 2: 1 - P - PP}
    A_ = random_stopping(Q3, G)
    steps = []
    for o in (0, 1, 2):
        p0 = sp.Add(*[d[k] for k in d if k > o])
        p0p = sp.Add(*[dp[k] for k in dp if k > o])
        f1, f2, f3 = (
            d[o] / dp[o],
            (p0p * (1 - G) + G) / (p0 * (1 - G) + G),
            ((p0p + dp[o]) * (1 - G) + G) / ((p0 + d[o]) * (1 - G) + G),
        )
        steps.append(
            Step(
                f"candidate {o}: the ratio = the three factors",
                A_.p("D", o) / A_.p("D'", o),
                f1 * f2 * f3,
                "==",
            )
        )
    steps += RATIO_STEPS
    return decide_steps(
        "Theorem 3.2: the ratio",
        steps,
        domain={PL: UNIT, PM: UNIT, P: (R(1, 1000), 1), PP: (R(1, 1000), 1), G: GAMMA},
    )


# ===========================================================================
# App. B.1: outputting the best candidate
# ===========================================================================


@claim(
    id="liu_talwar2019.B1.step.probabilities",
    source=f"{SRC}, App. B.1, the derivation of the first example, the display after 'It is easy to see'",
    statement="with the printed candidates (0.8 w.p. 1/2 on d1, e^eps/2 on d1'), Pr[i*(d1) = 0] = 2^-K, "
    "Pr[i*(d1') = 0] = e^{K eps} 2^-K and their ratio is e^{K eps}: identities in eps, K = 1..4",
    expected="holds",
    kind="proof-step",
)
def b1_probabilities() -> CheckResult:
    from verifier.mechanism.compose import best_index, independent, postprocess

    from .instances import HIGH, LOW, MID

    eps = sp.Symbol("epsilon", nonnegative=True)
    cand = FiniteMechanism(
        pair("d1", "d1'"),
        {
            "d1": {LOW: R(1, 2), HIGH: R(1, 2)},
            "d1'": {LOW: sp.exp(eps) / 2, HIGH: 1 - sp.exp(eps) / 2},
        },
        [LOW, HIGH],
        validate=False,
    )
    fixed = FiniteMechanism(cand.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID])
    steps = []
    for K in range(1, 5):
        m = postprocess(independent(fixed, *([cand] * K)), best_index(lambda s: s))
        p, pp = m.p("d1", 0), m.p("d1'", 0)
        steps += [
            Step(
                f"K = {K}: Pr[i*(d1) = 0] = 2^-K", p, R(1, 2**K), "==", domain={eps: (0, sp.log(2))}
            ),
            Step(
                f"K = {K}: Pr[i*(d1') = 0] = e^(K eps) 2^-K",
                pp,
                sp.exp(K * eps) / 2**K,
                "==",
                domain={eps: (0, 1)},
            ),
            Step(
                f"K = {K}: the ratio is e^(K eps)",
                pp / p,
                sp.exp(K * eps),
                "==",
                domain={eps: (0, 1)},
            ),
        ]
    return decide_steps("App. B.1: the first example", steps)


@claim(
    id="liu_talwar2019.B1.step.delta_example",
    source=f"{SRC}, App. B.1, the derivation of the second example, the display with the two '≈'",
    statement="Pr[i*(d1) = 0] = (1 - ln(1/delta)/K)^K <= delta and Pr[i*(d1') = 0] = (1 - e^-eps "
    "ln(1/delta)/K)^K <= delta^(e^-eps) <= delta^(1-eps) (the directions of the printed approximations "
    "that hold)",
    expected="holds",
    kind="proof-step",
    instances="the best of K = 100 candidates with symbolic x = ln(1/delta)/K and eps (identities); "
    "1 - x <= e^-x on [0, 1] (raised to K: (1 - x)^K <= e^(-Kx)); e^-eps >= 1 - eps on [0, 3] "
    "(delta < 1)",
)
def b1_delta_example() -> CheckResult:
    from verifier.algorithms import best_of

    from .instances import B1D_K, HIGH, LOW, MID

    eps = sp.Symbol("epsilon", nonnegative=True)
    cand = FiniteMechanism(
        pair("d1", "d1'"),
        {"d1": {LOW: 1 - X, HIGH: X}, "d1'": {LOW: 1 - sp.exp(-eps) * X, HIGH: sp.exp(-eps) * X}},
        [LOW, HIGH],
        validate=False,
    )
    fixed = FiniteMechanism(cand.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID])
    m = best_of([fixed, *([cand] * B1D_K)], report="index")
    return decide_steps(
        "App. B.1: the second example",
        [
            Step("Pr[i*(d1) = 0] = (1 - x)^K", m.p("d1", 0), (1 - X) ** B1D_K, "=="),
            Step(
                "Pr[i*(d1') = 0] = (1 - e^-eps x)^K",
                m.p("d1'", 0),
                (1 - sp.exp(-eps) * X) ** B1D_K,
                "==",
            ),
            Step("1 - x <= e^-x", 1 - X, sp.exp(-X), domain={X: UNIT}),
            Step(
                "e^-eps >= 1 - eps (so delta^(e^-eps) <= delta^(1 - eps))",
                1 - eps,
                sp.exp(-eps),
                domain={eps: (0, 3)},
            ),
        ],
        domain={X: UNIT, eps: (0, 3)},
    )


# ===========================================================================
# App. C: the last lines of the proof of Lemma C.2
# ===========================================================================


@claim(
    id="liu_talwar2019.lemmaC2.step.last_line",
    source=f"{SRC}, App. C, proof of Lemma C.2, the display and the last two lines (corrected sign)",
    statement="∫_0^1 t^x dt = 1/(1+x); t^x <= (t-1)x + 1 for t, x in [0, 1]; Π(1 + (t-1) E X_i) <= "
    "exp((t-1) Σ E X_i); ∫_0^1 exp((t-1) s) dt = (1 - exp(-s))/s <= 1/s",
    expected="holds",
    kind="proof-step",
    instances="t^x <= (t-1)x + 1 at x = k/20 (k = 1..20) for every t = w^20, w in [0, 1]; 1 + y <= "
    "e^y on [-10, 0]; the integral as an identity in s; (1 - e^-s)/s <= 1/s on [1/100, 10]",
)
def lemma_c2_last() -> CheckResult:
    tt, xx, ss, yy, ww = (
        sp.Symbol("t", positive=True),
        sp.Symbol("x", positive=True),
        sp.Symbol("s", positive=True),
        sp.Symbol("y"),
        sp.Symbol("w", nonnegative=True),
    )
    steps = [
        Step(
            "∫_0^1 t^x dt = 1/(1 + x) (u = 1 in u^(1+x)/(1+x) = ∫_0^u t^x dt)",
            sp.integrate(tt**xx, (tt, 0, 1), conds="none"),
            1 / (1 + xx),
            "==",
            domain={xx: (R(1, 1000), 10)},
        ),
    ]
    for k in range(1, 21):  # x = 0 is t^0 = 1 on both sides
        # t = w^20 makes t^(k/20) = w^k a polynomial
        steps.append(
            Step(
                f"x = {k}/20: t^x <= (t-1)x + 1",
                ww**k,
                (ww**20 - 1) * R(k, 20) + 1,
                domain={ww: UNIT},
            )
        )
    steps += [
        Step(
            "1 + y <= e^y (each factor, y = (t-1) E X_i)", 1 + yy, sp.exp(yy), domain={yy: (-10, 0)}
        ),
        Step(
            "∫_0^1 exp((t-1) s) dt = (1 - exp(-s))/s",
            sp.integrate(sp.exp((tt - 1) * ss), (tt, 0, 1)),
            (1 - sp.exp(-ss)) / ss,
            "==",
            domain={ss: (R(1, 100), 10)},
        ),
        Step(
            "(1 - exp(-s))/s <= 1/s", (1 - sp.exp(-ss)) / ss, 1 / ss, domain={ss: (R(1, 100), 10)}
        ),
    ]
    return decide_steps("the last lines of Lemma C.2, with exp(-Σ E X_i)", steps)
