"""Selection programs (verifier.programs): every selection transformer equals its
program in law (exact equality of every probability), the programs' laws agree with a
seeded simulation of the program run as written, the counts' generating functions are
sane, and bad input gets a clear error."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import mpmath
import pytest
import sympy as sp

from verifier.algorithms import TRANSFORMERS
from verifier.algorithms.generic import best_of
from verifier.algorithms.liu_talwar import (
    BOTTOM,
    percentile_release,
    random_stopping,
    random_stopping_hard,
    thresholding,
    uniform_selection,
)
from verifier.algorithms.repeat_select import repeat_and_select
from verifier.algorithms.talwar import hybrid, max_of_runs
from verifier.arithmetic.exact import Verdict, approx
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.compose import postprocess, repeat
from verifier.mechanism.instances import randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.programs import counts
from verifier.programs.counts import Z
from verifier.programs.selection import (
    Best,
    FirstAbove,
    KthBest,
    SelectionProgram,
    TopK,
    laws_equal,
    selection_mechanism,
    simulate,
)

R = sp.Rational


def mech(d: dict[Any, Any], d2: dict[Any, Any], name: str = "Q") -> FiniteMechanism:
    return FiniteMechanism(pair(), {"D": d, "D'": d2}, list(d), name=name)


# candidates: (label, score) tuples, the score last (Liu & Talwar's (x, q))
Q3 = mech(
    {("a", 0): R(1, 2), ("b", 1): R(1, 3), ("c", 2): R(1, 6)},
    {("a", 0): R(1, 4), ("b", 1): R(1, 4), ("c", 2): R(1, 2)},
    "Q3",
)
# ties: two outputs of score 1, one of probability 0 at D'
QT = mech(
    {("a", 0): R(1, 5), ("b", 1): R(2, 5), ("c", 1): R(2, 5)},
    {("a", 0): R(1, 2), ("b", 1): R(1, 2), ("c", 1): R(0)},
    "QT",
)
RR = randomized_response(sp.log(3))  # outputs 0, 1 (the score is the output)
# an irrational instance: randomized response with eps = 1 (e/(1+e))
RR1 = randomized_response(sp.Integer(1))


def same(a: FiniteMechanism, b: FiniteMechanism) -> None:
    assert a.outputs == b.outputs
    assert laws_equal(a, b) is Verdict.HOLDS


def law(program: SelectionProgram) -> FiniteMechanism:
    return selection_mechanism(program)


# ---------------------------------------------------------------------------
# every transformer equals its program in law
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("Q", [Q3, QT, RR])
@pytest.mark.parametrize("T", [1, 3])
def test_max_of_runs(Q: FiniteMechanism, T: int) -> None:
    same(max_of_runs(Q, T), law(SelectionProgram((Q,), counts.fixed(T))))


@pytest.mark.parametrize("Q", [Q3, QT])
@pytest.mark.parametrize("gamma", [R(1, 3), R(1)])
def test_random_stopping(Q: FiniteMechanism, gamma: sp.Expr) -> None:
    A = random_stopping(Q, gamma)
    same(A, law(SelectionProgram((Q,), None, halting=gamma)))  # halting alone
    same(A, law(SelectionProgram((Q,), counts.geometric(gamma))))  # the count
    if gamma < 1:  # Papernot & Steinke's eta = 1
        same(A, law(SelectionProgram((Q,), counts.truncated_negative_binomial(1, gamma))))


@pytest.mark.parametrize("Q", [Q3, QT])
@pytest.mark.parametrize(("gamma", "T"), [(R(1, 3), 4), (R(1), 3), (R(1, 2), 1), (R(0), 2)])
def test_random_stopping_hard(Q: FiniteMechanism, gamma: sp.Expr, T: int) -> None:
    if gamma == 0:  # the transformer refuses gamma = 0; the program is A_max^T
        same(max_of_runs(Q, T), law(SelectionProgram((Q,), counts.fixed(T), halting=gamma)))
        return
    same(
        random_stopping_hard(Q, gamma, T),
        law(SelectionProgram((Q,), counts.fixed(T), halting=gamma)),
    )


@pytest.mark.parametrize("Q", [Q3, QT])
@pytest.mark.parametrize(
    ("tau", "gamma", "T"),
    [(1, R(1, 4), 3), (1, R(1, 4), None), (2, R(0), 2), (1, R(1), 1), (5, R(1, 2), 2)],
)
def test_thresholding(Q: FiniteMechanism, tau: int, gamma: sp.Expr, T: int | None) -> None:
    count = None if T is None else counts.fixed(T)
    A = thresholding(Q, tau, gamma, T)
    same(A, law(SelectionProgram((Q,), count, FirstAbove(tau), halting=gamma)))
    # the same through the enumerated rounds (release of the output via the index path)
    if T is not None:
        P = law(SelectionProgram((Q,) * T, count, FirstAbove(tau), halting=gamma))
        same(A, P)


@pytest.mark.parametrize("Q", [Q3, QT, RR])
@pytest.mark.parametrize("mean", [1, R(5, 2)])
def test_repeat_and_select(Q: FiniteMechanism, mean: sp.Expr) -> None:
    same(
        repeat_and_select(Q, "poisson", mean, score=None),
        law(SelectionProgram((Q,), counts.poisson(mean))),
    )
    same(
        repeat_and_select(Q, "geometric", mean),
        law(SelectionProgram((Q,), counts.geometric(1 / sp.sympify(mean)))),
    )


def _first(m: FiniteMechanism) -> FiniteMechanism:
    """``m`` with outputs (score, label): best_of reads the first component."""
    return FiniteMechanism(
        m.graph,
        {d: {(o[1], o[0]): m.p(d, o) for o in m.outputs} for d in m.datasets},
        [(o[1], o[0]) for o in m.outputs],
        name=m.name,
    )


@pytest.mark.parametrize("ties", ["highest_index", "lowest_index"])
@pytest.mark.parametrize("report", ["output", "index"])
def test_best_of_distinct_runs(ties: str, report: str) -> None:
    runs = [_first(Q3), _first(QT), _first(QT)]
    rule = Best("latest" if ties == "highest_index" else "earliest")
    P = SelectionProgram(runs, counts.fixed(3), rule, release=report, score="first")
    same(best_of(runs, ties=ties, report=report), law(P))


@pytest.mark.parametrize("ties", ["highest_index", "lowest_index"])
@pytest.mark.parametrize("report", ["output", "index"])
def test_best_of_with_an_irrational_run(ties: str, report: str) -> None:
    # one run with probabilities e/(1+e): best_of's symbolic path (the rational runs
    # above take its path in GMP rationals), against the selection program's law
    e = sp.E
    irr = mech(
        {("a", 0): 1 / (1 + e), ("b", 1): e / (1 + e)},
        {("a", 0): e / (1 + e), ("b", 1): 1 / (1 + e)},
        "IRR",
    )
    runs = [_first(Q3), _first(irr)]
    rule = Best("latest" if ties == "highest_index" else "earliest")
    P = SelectionProgram(runs, counts.fixed(2), rule, release=report, score="first")
    same(best_of(runs, ties=ties, report=report), law(P))


@pytest.mark.parametrize("ties", ["highest_index", "lowest_index"])
@pytest.mark.parametrize("report", ["output", "index"])
@pytest.mark.parametrize("k", [1, 3])
def test_best_of_copies(ties: str, report: str, k: int) -> None:
    Q = _first(QT)
    rule = Best("latest" if ties == "highest_index" else "earliest")
    P = SelectionProgram((Q,), counts.fixed(k), rule, release=report, score="first")
    same(TRANSFORMERS["best_of"].apply([Q], {"k": k, "ties": ties, "report": report}), law(P))


@pytest.mark.parametrize(
    ("gamma", "c", "K"),
    [
        (R(1, 100), 2, 1),
        (R(1, 4), 2, 3),
        (R(1, 10), 1, 1),  # c = 1: A_LT itself
        pytest.param(R(1, 2), 2, 1, marks=pytest.mark.slow),
    ],
)
def test_talwar_hybrid(gamma: sp.Expr, c: int, K: int) -> None:
    """Theorems 13/14: A_max^c over A_LT with gamma^(1/c)/K — a program whose candidate
    is a program (gamma = 1/2, c = 2: the inner halting sqrt(2)/2 is algebraic)."""
    inner = law(SelectionProgram((Q3,), None, halting=gamma ** R(1, c) / K))
    outer = law(SelectionProgram((inner,), counts.fixed(c)))
    same(hybrid(gamma, c, K).apply(Q3), outer)


@pytest.mark.parametrize("mechs", [[Q3, QT], [RR, RR, RR]])
def test_uniform_selection(mechs: list[FiniteMechanism]) -> None:
    P = SelectionProgram(mechs, counts.fixed(1), pick="uniform")
    same(uniform_selection(mechs), law(P))


@pytest.mark.parametrize("Q", [Q3, QT])
@pytest.mark.parametrize(("n", "k"), [(3, 2), (1, 1), (4, 4)])
def test_percentile_release(Q: FiniteMechanism, n: int, k: int) -> None:
    same(percentile_release(Q, n, k), law(SelectionProgram((Q,), counts.fixed(n), KthBest(k))))


@pytest.mark.parametrize(
    "eta",
    [
        pytest.param(R(-1, 2), marks=pytest.mark.slow),  # algebraic: minimal polynomials
        0,
        pytest.param(R(1, 2), marks=pytest.mark.slow),
        2,
    ],
)
def test_papernot_steinke_repetition_of_the_case_study(eta: sp.Expr) -> None:
    """Papernot & Steinke 2022, §2: the case study's own G(F) - G(F⁻) implementation
    (casestudies.ghazi2025.statements.tnb_best_of) equals the program's law."""
    from casestudies.ghazi2025.statements import tnb_best_of

    c = counts.truncated_negative_binomial(eta, R(1, 3))
    same(tnb_best_of(RR, eta, R(1, 3)), law(SelectionProgram((RR,), c, score="self")))


@pytest.mark.slow
def test_irrational_probabilities() -> None:
    """Randomized response with eps = 1 (e/(1+e)): equality by symbolic proof."""
    same(max_of_runs(RR1, 2), law(SelectionProgram((RR1,), counts.fixed(2))))
    same(random_stopping(RR1, R(1, 2)), law(SelectionProgram((RR1,), counts.geometric(R(1, 2)))))


PRESET_CASES = [
    ("best_of", [_first(Q3), _first(QT)], {"ties": "lowest_index", "report": "index"}),
    ("best_of", [_first(QT)], {"k": 2}),
    ("lt_uniform_selection", [Q3, QT], {}),
    ("lt_thresholding", [QT], {"tau": 1, "gamma": "1/3", "T": 2}),
    ("lt_thresholding", [Q3], {"tau": 2, "gamma": 1}),
    ("lt_random_stopping", [QT], {"gamma": "2/5"}),
    ("lt_random_stopping_hard", [Q3], {"gamma": 1, "T": 2}),
    ("lt_percentile_release", [QT], {"n": 2, "k": 1}),
    ("repeat_and_select", [Q3], {"count": "poisson", "mean": "3/2"}),
    ("repeat_and_select", [QT], {"count": "geometric", "mean": 1}),
    ("talwar_max_of_runs", [RR], {"T": 1, "score": "self"}),
    ("talwar_hybrid", [Q3], {"gamma": "1/9", "c": 2, "K": 2}),
]


@pytest.mark.parametrize(("name", "inputs", "params"), PRESET_CASES)
def test_every_preset_equals_its_transformer(name: str, inputs: list[Any], params: Any) -> None:
    from verifier.algorithms.selection import preset_program

    same(TRANSFORMERS[name].apply(inputs, params), law(preset_program(name, inputs, params)))


def test_every_selection_transformer_has_a_preset() -> None:
    """The selection transformers are exactly the presets; the other transformers are
    not selection programs of this grammar (noise programs, Ghazi et al.'s random
    dropping, decreasing thresholds, compositions)."""
    from verifier.algorithms.selection import PRESETS

    others = {
        "independent",
        "repeat",
        "selection",
        "lt_decreasing_thresholds",
        "ghazi_above_threshold",
        "ghazi_generalized_above_threshold",
        "ghazi_hyperparameter_tuning",
        "sparse_vector",
        "report_noisy_max",
        "noise_program",
    }
    assert set(PRESETS) | others == set(TRANSFORMERS)
    assert {name for name, _, _ in PRESET_CASES} == set(PRESETS)


def test_transformer_selection_matches_presets() -> None:
    t = TRANSFORMERS["selection"]
    A = t.apply([Q3], {"count": {"law": "fixed", "T": 3}, "halting": "1/3"})
    same(random_stopping_hard(Q3, R(1, 3), 3), A)
    B = t.apply([Q3], {"rule": "first_above", "tau": "1", "halting": "1/4"})
    same(thresholding(Q3, 1, R(1, 4), None), B)
    C = t.apply([Q3], {"count": {"law": "finite", "pmf": {"2": "1"}}, "rule": "kth_best", "k": 2})
    same(percentile_release(Q3, 2, 2), C)


# ---------------------------------------------------------------------------
# laws with no transformer: closed forms by hand
# ---------------------------------------------------------------------------


def test_poisson_best_by_hand() -> None:
    """K ~ Poisson(2) draws of RR (Pr[1] = 3/4 at D): Pr[⊥] = e^{-2}; the best is 0 iff
    K >= 1 and every draw is 0: G(1/4) - G(0) = e^{-3/2} - e^{-2}."""
    A = law(SelectionProgram((RR,), counts.poisson(2), score="self"))
    assert A.outputs == (BOTTOM, 0, 1)
    assert A.p("D", BOTTOM) == sp.exp(-2)
    assert sp.simplify(A.p("D", 0) - (sp.exp(R(-3, 2)) - sp.exp(-2))) == 0


def test_release_count_and_crossing_by_hand() -> None:
    """K = 2, halting 1/2, threshold 1 on RR: N = 1 when the first draw passes (3/4 at
    D) or fails and halts (1/4 * 1/2), else N = 2: Pr[N = 1] = 7/8, Pr[N = 2] = 1/8.
    Crossing: 3/4 + 1/4 * 1/2 * 3/4 = 27/32."""
    P = SelectionProgram((RR,), counts.fixed(2), FirstAbove(1), R(1, 2), "count", score="self")
    A = law(P)
    assert A.outputs == (1, 2) and (A.p("D", 1), A.p("D", 2)) == (R(7, 8), R(1, 8))
    C = law(SelectionProgram((RR,), counts.fixed(2), FirstAbove(1), R(1, 2), "crossing"))
    assert (C.p("D", True), C.p("D", False)) == (R(27, 32), R(5, 32))
    idx = law(SelectionProgram((RR,), counts.fixed(2), FirstAbove(1), R(1, 2), "index"))
    assert idx.outputs == (BOTTOM, 0, 1)
    assert (idx.p("D", 0), idx.p("D", 1)) == (R(3, 4), R(3, 32))


def test_halting_one_with_an_unbounded_count() -> None:
    """Halting 1 makes one draw unless K = 0: K ~ Poisson(2), threshold 1 on RR (3/4 pass
    at D): index 0 w.p. (1 - e^{-2}) 3/4, ⊥ w.p. e^{-2} + (1 - e^{-2})/4."""
    A = law(SelectionProgram((RR,), counts.poisson(2), FirstAbove(1), 1, "index", score="self"))
    assert A.outputs == (BOTTOM, 0)
    assert sp.simplify(A.p("D", 0) - (1 - sp.exp(-2)) * R(3, 4)) == 0
    assert sp.simplify(A.p("D", BOTTOM) - (sp.exp(-2) + (1 - sp.exp(-2)) / 4)) == 0


def test_best_count_release_is_data_free() -> None:
    """The count of a best-of program: N = min(K, H), K uniform on 1..3, halting 1/2:
    Pr[N=1] = 1/3 + 2/3 * 1/2 = 2/3, Pr[N=2] = 1/2 (1/3 + 1/3 * 1/2) = 1/4, Pr[N=3] = 1/12."""
    A = law(SelectionProgram((Q3,), counts.uniform(3), halting=R(1, 2), release="count"))
    assert A.outputs == (1, 2, 3)
    for d in A.datasets:
        assert [A.p(d, n) for n in (1, 2, 3)] == [R(2, 3), R(1, 4), R(1, 12)]


def test_kth_best_random_count_matches_enumeration() -> None:
    """Second best of K ~ Binomial(3, 1/2) draws: the derivative formula of the PGF
    against the mixture over K = n of App. B.3's closed form (⊥ when K < 2)."""
    c = counts.binomial(3, R(1, 2))
    A = law(SelectionProgram((Q3,), c, KthBest(2)))
    assert A.outputs == (BOTTOM, *Q3.outputs)
    for d in A.datasets:
        assert A.p(d, BOTTOM) == c.pmf(0) + c.pmf(1)
        for o in Q3.outputs:
            mix = sum(c.pmf(n) * percentile_release(Q3, n, 2).p(d, o) for n in (2, 3))
            assert sp.nsimplify(A.p(d, o) - mix) == 0


def _top_k_by_enumeration(Q: FiniteMechanism, n: int, k: int, order: list[Any]) -> FiniteMechanism:
    """The top k of n runs by brute force: the product of n runs, each n-tuple sorted
    best first in Q's candidate order and cut to k (a second exact method)."""
    pos = {o: i for i, o in enumerate(order)}

    def top(t: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(sorted(t, key=pos.__getitem__, reverse=True)[:k])

    return postprocess(repeat(Q, n), top, outputs=None)


@pytest.mark.parametrize("Q", [Q3, QT])
@pytest.mark.parametrize(("n", "k"), [(3, 2), (2, 2), (3, 1)])
def test_top_k_fixed_count_matches_enumeration(Q: FiniteMechanism, n: int, k: int) -> None:
    A = law(SelectionProgram((Q,), counts.fixed(n), TopK(k)))
    B = _top_k_by_enumeration(Q, n, k, list(Q.outputs))
    for d in A.datasets:
        for o in A.outputs:
            assert A.p(d, o) == (B.p(d, o) if o in B.outputs else 0), (d, o)
    assert set(B.outputs) <= set(A.outputs)


def test_top_k_random_count_is_the_mixture() -> None:
    """Top 2 of K ~ finite {1: 1/4, 2: 1/4, 3: 1/2} with halting 1/3: the PGF-derivative
    formula equals the mixture over N = n of the enumerations (⊥ when N < 2)."""
    c = counts.finite({1: R(1, 4), 2: R(1, 4), 3: R(1, 2)})
    prog = SelectionProgram((QT,), c, TopK(2), halting=R(1, 3))
    A = law(prog)
    N = law(SelectionProgram((QT,), c, halting=R(1, 3), release="count"))
    for d in A.datasets:
        assert A.p(d, BOTTOM) == N.p(d, 1)
        by_n = {n: _top_k_by_enumeration(QT, n, 2, list(QT.outputs)) for n in (2, 3)}
        for o in A.outputs[1:]:
            mix = sum(N.p(d, n) * (by_n[n].p(d, o) if o in by_n[n].outputs else 0) for n in (2, 3))
            assert A.p(d, o) == mix, (d, o)


# ---------------------------------------------------------------------------
# the laws against the program run as written (seeded simulation)
# ---------------------------------------------------------------------------


def _chi_square_p(observed: dict[Any, int], expected: dict[Any, float], n: int) -> float:
    """The p-value of Pearson's chi-square test (cells of expected count < 5 pooled);
    the tail of the chi-square law from mpmath's regularised incomplete gamma."""
    cells: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for o, p in expected.items():
        e = p * n
        if e < 5:
            pool_e += e
            pool_o += observed.get(o, 0)
        else:
            cells.append((e, observed.get(o, 0)))
    if pool_e > 0:
        cells.append((pool_e, pool_o))
    extra = sum(v for o, v in observed.items() if o not in expected)
    assert extra == 0, f"outputs outside the law: {set(observed) - set(expected)}"
    stat = sum((o - e) ** 2 / e for e, o in cells)
    dof = len(cells) - 1
    if dof == 0:
        return 1.0
    return float(mpmath.gammainc(dof / 2, stat / 2, mpmath.inf, regularized=True))


SIMULATED = [
    ("poisson best", SelectionProgram((Q3,), counts.poisson(R(3, 2)))),
    (
        "TNB eta=-1/2",
        SelectionProgram((QT,), counts.truncated_negative_binomial(R(-1, 2), R(1, 5))),
    ),
    ("logarithmic", SelectionProgram((Q3,), counts.logarithmic(R(1, 3)))),
    ("binomial ties latest", SelectionProgram((QT,), counts.binomial(3, R(1, 2)), Best("latest"))),
    ("uniform count + halting", SelectionProgram((Q3,), counts.uniform(4), halting=R(1, 3))),
    ("threshold no count", SelectionProgram((Q3,), None, FirstAbove(2), halting=R(1, 4))),
    ("threshold index", SelectionProgram((QT,), counts.fixed(3), FirstAbove(1), R(1, 3), "index")),
    ("kth best of poisson", SelectionProgram((Q3,), counts.poisson(3), KthBest(2))),
    (
        "in turn, index",
        SelectionProgram(
            (Q3, QT), counts.finite({1: R(1, 3), 2: R(2, 3)}), Best("earliest"), release="index"
        ),
    ),
    ("uniform pick", SelectionProgram((Q3, QT), counts.geometric(R(1, 2)), pick="uniform")),
    ("count release", SelectionProgram((QT,), counts.fixed(3), FirstAbove(1), R(1, 2), "count")),
    ("top 2 of poisson", SelectionProgram((Q3,), counts.poisson(R(5, 2)), TopK(2))),
]


@pytest.mark.parametrize(("label", "program"), SIMULATED, ids=[s[0] for s in SIMULATED])
def test_simulation_agrees(label: str, program: SelectionProgram) -> None:
    """Fixed seed, 4000 runs per dataset; the chi-square p-value must exceed 1e-4 (a
    wrong law of this size is rejected with overwhelming probability)."""
    A = law(program)
    n = 4000
    for i, d in enumerate(A.datasets):
        observed = simulate(program, d, n, seed=1000 + i)
        expected = {o: approx(A.p(d, o)) for o in A.outputs if A.p(d, o) != 0}
        assert _chi_square_p(dict(observed), expected, n) > 1e-4, (label, d, observed, expected)


@pytest.mark.parametrize(("name", "inputs", "params"), PRESET_CASES)
def test_every_transformer_against_its_program_run(
    name: str, inputs: list[Any], params: Any
) -> None:
    """Each selection transformer's exact law against a seeded run of its program as
    written (talwar_hybrid: the outer repetition run, its candidate drawn from the inner
    program's law)."""
    from verifier.algorithms.selection import preset_program

    A = TRANSFORMERS[name].apply(inputs, params)
    prog = preset_program(name, inputs, params)
    n = 3000
    for i, d in enumerate(A.datasets):
        observed = simulate(prog, d, n, seed=2000 + i)
        expected = {o: approx(A.p(d, o)) for o in A.outputs if A.p(d, o) != 0}
        assert _chi_square_p(dict(observed), expected, n) > 1e-4, (name, d, observed, expected)


def test_simulation_rejects_a_wrong_law() -> None:
    """The same test refutes a wrong law: the geometric program's simulation against
    the law of the fixed count 2 (same mean)."""
    prog = SelectionProgram((Q3,), counts.geometric(R(1, 2)))
    wrong = law(SelectionProgram((Q3,), counts.fixed(2)))
    observed = simulate(prog, "D", 4000, seed=7)
    expected = {o: approx(wrong.p("D", o)) for o in wrong.outputs if wrong.p("D", o) != 0}
    assert _chi_square_p(dict(observed), expected, 4000) < 1e-4


# ---------------------------------------------------------------------------
# the generating functions
# ---------------------------------------------------------------------------

COUNTS = [
    counts.fixed(3),
    counts.uniform(4),
    counts.geometric(R(1, 3)),
    counts.geometric(1),
    counts.poisson(R(5, 2)),
    counts.truncated_negative_binomial(R(1, 2), R(1, 4)),
    counts.truncated_negative_binomial(R(-1, 2), R(1, 4)),
    counts.truncated_negative_binomial(2, R(1, 3)),
    counts.logarithmic(R(1, 5)),
    counts.binomial(4, R(1, 3)),
    counts.finite({0: R(1, 4), 2: R(3, 4)}),
]


def _series(c: counts.Count, n: int) -> Iterable[tuple[int, sp.Expr]]:
    s = sp.series(c.pgf, Z, 0, n).removeO()
    for k in range(n):
        yield k, s.coeff(Z, k)


@pytest.mark.parametrize("c", COUNTS, ids=str)
def test_pgf_sanity(c: counts.Count) -> None:
    """G(1) = 1 exactly, E[K] = G'(1), and the coefficients of G are the pmf (its own
    closed form) for k < 6."""
    assert sp.simplify(c.at(1) - 1) == 0
    assert sp.simplify(sp.diff(c.pgf, Z).subs(Z, 1) - c.mean) == 0
    for k, coeff in _series(c, 6):
        assert sp.simplify(coeff - c.pmf(k)) == 0, (c, k)


def test_count_exactness_labels() -> None:
    assert counts.fixed(2).exactness == "rational"
    assert counts.truncated_negative_binomial(R(1, 2), R(1, 4)).exactness == "algebraic"
    assert counts.poisson(1).exactness == "certified"
    assert counts.logarithmic(R(1, 2)).exactness == "certified"
    assert counts.truncated_negative_binomial(0, R(1, 2)).law == "logarithmic"


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: counts.truncated_negative_binomial(-1, R(1, 2)), "eta must be > -1"),
        (lambda: counts.truncated_negative_binomial(R(-3, 2), R(1, 2)), "eta must be > -1"),
        (lambda: counts.truncated_negative_binomial(1, 1), r"gamma must lie in \(0, 1\)"),
        (lambda: counts.geometric(0), r"gamma must lie in \(0, 1\]"),
        (lambda: counts.geometric(R(3, 2)), r"gamma must lie in \(0, 1\]"),
        (lambda: counts.geometric(0.5), "gamma: 0.5 is a float"),
        (lambda: counts.fixed(0), "T must be an integer >= 1"),
        (lambda: counts.uniform(R(3, 2)), "T must be an integer >= 1"),
        (lambda: counts.poisson(0), "mu must be > 0"),
        (lambda: counts.binomial(2, R(3, 2)), r"p must lie in \(0, 1\]"),
        (lambda: counts.finite({1: R(1, 2), 2: R(1, 3)}), "must sum to exactly 1"),
        (lambda: counts.finite({1: 0.5, 2: 0.5}), "pmf.1.: 0.5 is a float"),
        (lambda: counts.finite({-1: 1}), "pmf key must be an integer >= 0"),
        (lambda: counts.make_count("zipf", s=2), "unknown count law 'zipf'"),
        (lambda: counts.make_count("poisson", lam=2), "takes no parameter 'lam'"),
    ],
)
def test_bad_counts(make: Any, match: str) -> None:
    with pytest.raises(InvalidParameter, match=match):
        make()


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: SelectionProgram((Q3,), None), "never stops"),
        (lambda: SelectionProgram((Q3,), counts.fixed(2), halting=R(3, 2)), "halting must lie"),
        (lambda: SelectionProgram((Q3,), counts.fixed(2), release="crossing"), "needs the rule"),
        (lambda: SelectionProgram((Q3, QT), counts.fixed(3)), "candidates run in turn"),
        (lambda: SelectionProgram((), counts.fixed(3)), "at least one"),
        (lambda: Best("random"), "ties must be one of"),
        (lambda: KthBest(0), "k must be a positive integer"),
        (lambda: FirstAbove(0.5), "tau: 0.5 is a float"),
        (
            lambda: law(SelectionProgram((Q3,), counts.poisson(1), release="index")),
            "unbounded",
        ),
        (
            lambda: law(
                SelectionProgram((Q3,), None, FirstAbove(5), halting=R(1, 2), release="count")
            ),
            "unbounded",
        ),
    ],
)
def test_bad_programs(make: Any, match: str) -> None:
    with pytest.raises(InvalidParameter, match=match):
        make()


def test_bottom_in_candidates_refused() -> None:
    bad = mech({BOTTOM: R(1)}, {BOTTOM: R(1)})
    with pytest.raises(InvalidMechanism, match="already has the output"):
        SelectionProgram((bad,), counts.fixed(1))


def test_threshold_never_stopping_refused() -> None:
    """A first-above rule without a count and without halting may run forever."""
    with pytest.raises(InvalidParameter, match="never stops"):
        SelectionProgram((Q3,), None, FirstAbove(5), halting=0)


def test_spec_parameters_refused_by_name() -> None:
    t = TRANSFORMERS["selection"]
    with pytest.raises(InvalidParameter, match="params.count: law must be one of"):
        t.apply([Q3], {"count": {"law": "zipf"}})
    with pytest.raises(InvalidParameter, match="params.count: eta must be > -1"):
        t.apply([Q3], {"count": {"law": "truncated_negative_binomial", "eta": -2, "gamma": "1/2"}})
    with pytest.raises(InvalidParameter, match="needs the threshold tau"):
        t.apply([Q3], {"rule": "first_above", "count": {"law": "fixed", "T": 2}})
    with pytest.raises(InvalidParameter, match="tau is a parameter of the rule 'first_above'"):
        t.apply([Q3], {"tau": 1, "count": {"law": "fixed", "T": 2}})
    with pytest.raises(InvalidParameter, match="params.count: gamma: .*float"):
        t.apply([Q3], {"count": {"law": "geometric", "gamma": 0.5}})


def test_math_reference_pgf_of_halting() -> None:
    """G_N of K = T with halting gamma equals Liu & Talwar's G of Theorems 3.4/3.5."""
    from verifier.programs.selection import effective_pgf

    g, T = R(1, 3), 4
    u = (1 - g) * Z
    lt = g * Z * (1 - u ** (T - 1)) / (1 - u) + (1 - g) ** (T - 1) * Z**T
    assert sp.simplify(effective_pgf(counts.fixed(T), g) - lt) == 0


# ---------------------------------------------------------------------------
# spec files
# ---------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "selection_programs.toml"


def test_example_spec_file_checks_as_expected(capsys: pytest.CaptureFixture[str]) -> None:
    """`verifier check --expected` on the example: every verdict as the paper (or the
    derivation in its header) says; `verifier schema --validate` accepts it."""
    from verifier import cli

    assert cli.main(["check", "--expected", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "4 hold, 1 violated, 0 undecided; 0 differ" in out
    assert cli.main(["schema", "--validate", str(EXAMPLE)]) == 0


def test_schema_describes_the_count_table() -> None:
    """The JSON Schema knows each count law's parameters: a misspelt one is invalid."""
    jsonschema = pytest.importorskip("jsonschema")
    from verifier.spec.schema import spec_schema

    doc = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    v = jsonschema.Draft202012Validator(spec_schema())
    assert not list(v.iter_errors(doc))
    doc["mechanisms"]["tnb"]["params"]["count"]["beta"] = "1/2"
    assert list(v.iter_errors(doc))
    doc["mechanisms"]["tnb"]["params"]["count"] = {"law": "zipf", "s": 2}
    assert list(v.iter_errors(doc))
