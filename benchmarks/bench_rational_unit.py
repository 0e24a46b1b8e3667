"""Laplace noise programs at a rational unit: Laurent closed forms versus the
rational-function field, measured in one run and printed as ratios (machines are
noisy; no absolute thresholds, no assertions).

At ``ε = 1/10`` the common unit ``u`` of the noise rates is rational and
``W = e^{-u}`` is transcendental: the laws cannot be evaluated at a rational point.
Before, they were computed in the field ``Q(W, U)`` (every operation a rational
function with gcds); now ``U = u`` is substituted at the start and every coefficient
is a Laurent polynomial in ``W`` with integer numerators over one denominator
(:class:`verifier.algorithms.noise.Laurent`, ``answer_sequence_laws(...,
symbolic=False)``).  Each row first checks that both paths give the same closed
forms on a small instance, then times the laws of the answer sequence on one input
vector of the DP-Sniper instance (10 queries).  The last row is end to end: the
exact ε of Algorithm 4 on DP-Sniper's 16 pairs, by the finite mechanism of the field
path and the realized loss over sympy closed forms
(:func:`~verifier.algorithms.noise.program_realized_epsilon`) versus the Laurent laws
and :func:`~verifier.algorithms.noise.max_log_ratio` (the same exact value, checked).

Run: python benchmarks/bench_rational_unit.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from verifier.algorithms.noise import (
    answer_sequence_laws,
    lyu_svt,
    numerical_svt,
    program_mechanism,
    program_realized_epsilon,
    query_graph,
    to_sympy,
)
from verifier.algorithms.noise.svt import SparseVector
from verifier.arithmetic.exact import Verdict, decide_eq

R = sp.Rational
EPS = R(1, 10)


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _same(prog: SparseVector, q: tuple[int, ...]) -> None:
    fc, fast = answer_sequence_laws(prog, [q])
    sc, slow = answer_sequence_laws(prog, [q], symbolic=True)
    key = tuple(Fraction(x) for x in q)
    for answers, p in fast[key].items():
        diff = to_sympy(p, fc.u) - to_sympy(slow[key][answers], sc.u)
        if sp.N(diff, 50) != 0 and sp.simplify(diff) != 0:
            raise AssertionError(f"{prog.name}: the two paths differ at {answers}")


ROWS: list[tuple[str, SparseVector, tuple[int, ...]]] = [
    (
        "SVT1 c=1 t=1/2, 10 queries",
        lyu_svt(1, EPS, 1, noise="laplace", threshold=R(1, 2)),
        (2,) * 5 + (0,) * 5,
    ),
    ("SVT4 c=1 t=1, 10 queries", lyu_svt(4, EPS, 1, noise="laplace", threshold=1), (1,) * 10),
    (
        "NumericalSVT c=2 t=1, 10 queries",
        numerical_svt(EPS, 2, noise="laplace", threshold=1),
        (2,) * 5 + (0,) * 5,
    ),
    ("SVT6 t=1, 10 queries", lyu_svt(6, EPS, noise="laplace", threshold=1), (2,) * 5 + (0,) * 5),
]


def main() -> None:
    print(f"{'program':36s} {'field Q(W,U)':>14s} {'Laurent':>10s} {'speed-up':>9s}")
    for name, prog, q in ROWS:
        _same(prog, q[:3])
        slow = _time(lambda prog=prog, q=q: answer_sequence_laws(prog, [q], symbolic=True))
        fast = _time(lambda prog=prog, q=q: answer_sequence_laws(prog, [q]))
        print(f"{name:36s} {slow:13.2f}s {fast:9.3f}s {slow / fast:8.1f}x", flush=True)
    slow, fast = _end_to_end()
    name = "SVT4 exact eps on 16 pairs, end to end"
    print(f"{name:36s} {slow:13.2f}s {fast:9.3f}s {slow / fast:8.1f}x", flush=True)


def _end_to_end() -> tuple[float, float]:
    from casestudies.dp_testing.svt import DPSNIPER_PAIRS, exact_on_pairs

    prog = lyu_svt(4, EPS, 1, noise="laplace", threshold=1)
    pairs = [(tuple(map(int, a)), tuple(map(int, b))) for a, b in DPSNIPER_PAIRS]
    out: dict[str, sp.Expr] = {}

    def field() -> None:
        g = query_graph(list(dict.fromkeys(v for pr in pairs for v in pr)), edges=pairs)
        pm = program_mechanism(prog, g, symbolic=True)
        out["field"] = program_realized_epsilon(pm, pairs).value

    def laurent() -> None:
        out["laurent"] = exact_on_pairs(prog, DPSNIPER_PAIRS).value

    slow, fast = _time(field), _time(laurent)
    if decide_eq(out["field"], out["laurent"]) is not Verdict.HOLDS:
        raise AssertionError("the two paths give different exact epsilons")
    return slow, fast


if __name__ == "__main__":
    main()
