"""Generic transformers, built on :mod:`verifier.mechanism.compose`.

``independent``
    independent runs of the inputs on the same dataset; the output is the tuple
    of their outputs.
``repeat``
    ``n`` independent runs of one mechanism.
``best_of``
    independent runs, then the best output by its numeric score (the output itself
    when it is a number, the first component of a ``(score, ...)`` tuple), with an
    explicit tie-breaking rule — the best-of-K selector of hyperparameter tuning
    (Liu & Talwar 2019, "Private selection from private candidates", §3) — a preset of
    the selection program with candidates in turn and a fixed count
    (:mod:`verifier.programs.selection`).

>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> import sympy as sp
>>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
>>> coin = FiniteMechanism(pair(), {"D": {0: half, 1: half}, "D'": {0: third, 1: 2 * third}})
>>> best = best_of([coin, coin])
>>> best.p("D", 0), best.p("D'", 0)
(1/4, 1/9)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from gmpy2 import mpq

from ..arithmetic.exact import exact, to_mpq
from ..errors import InvalidParameter
from ..mechanism.compose import independent, repeat, same_neighbour_graph
from ..mechanism.model import FiniteMechanism, Output
from .registry import Param, choice, positive_int, transformer
from .scores import numeric_score

__all__ = ["output_score", "best_of"]


def output_score(o: Output) -> Fraction:
    """The numeric score of an output: the output itself when it is a number (an
    int, a rational, or a string such as ``"3"`` or ``"-1/2"``), or the score of the
    first component of a tuple ``(score, ...)`` (what counts as a number:
    :func:`~verifier.algorithms.scores.numeric_score`).

    >>> output_score((3, "a")), output_score("1/2"), output_score(-2)
    (Fraction(3, 1), Fraction(1, 2), Fraction(-2, 1))
    """
    value: Any = o
    while isinstance(value, tuple):
        if not value:
            raise InvalidParameter(f"output {o!r}: the empty tuple has no score")
        value = value[0]
    return numeric_score(
        value,
        o,
        "best_of reads the output itself, or the first component of an array output "
        '(write [score, label], e.g. ["3", "a"])',
    )


@transformer(
    "independent",
    source="composition of independent runs (verifier.mechanism.compose.independent)",
    inputs=(1, None),
)
def _independent(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Independent runs of the inputs on the same dataset; outputs are tuples."""
    return independent(*inputs)


@transformer(
    "repeat",
    source="composition of independent runs (verifier.mechanism.compose.repeat)",
    params=[Param("n", positive_int, "number of independent runs")],
    inputs=(1, 1),
)
def _repeat(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """n independent runs of one mechanism; outputs are n-tuples."""
    return repeat(inputs[0], params["n"])


_TIES = choice("highest_index", "lowest_index")
_REPORT = choice("output", "index")


@transformer(
    "best_of",
    source='Liu & Talwar 2019, "Private selection from private candidates", §3 (best of K)',
    params=[
        Param(
            "k",
            positive_int,
            "number of runs when a single input is given (default: one run per input)",
            None,
        ),
        Param(
            "ties",
            _TIES,
            "which run wins among equal scores: 'highest_index' (the later run) or 'lowest_index'",
            "highest_index",
        ),
        Param(
            "report",
            _REPORT,
            "'output': release the best output; 'index': release the index (0-based) "
            "of the winning run",
            "output",
        ),
    ],
)
def _best_of(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Independent runs, then the output with the highest numeric score."""
    k = params["k"]
    if k is not None:
        if len(inputs) != 1:
            raise InvalidParameter(
                f"best_of: k = {k} repeats a single input, but {len(inputs)} inputs are given"
            )
        runs = inputs * k
    else:
        runs = list(inputs)
    return best_of(runs, ties=params["ties"], report=params["report"])


def _best_of_row(
    supp: Sequence[Sequence[tuple[Output, Any, Any]]],
    later_strict: bool,
    report: str,
    zero: Any,
    total: Callable[[list[Any]], Any],
) -> dict[Any, Any]:
    """One row of :func:`best_of`: ``supp[j]`` the possible outputs of run ``j`` with
    their probabilities (sympy numbers, or GMP rationals with ``zero = mpq(0)``) and
    scores; ``total`` adds a list of probabilities."""
    row: dict[Any, Any] = {}
    for i, run in enumerate(supp):
        for o, pr, s in run:
            term = pr
            for j, other in enumerate(supp):
                if j == i:
                    continue
                strict = (j > i) == later_strict
                mass = [q for _, q, t in other if (t < s if strict else t <= s)]
                # every outcome of run j counts: its total mass, exactly 1 (the
                # inputs are validated distributions) -- not a complement.
                if len(mass) != len(other):
                    term = term * total(mass)
                if term == 0:
                    break
            if term != 0:
                key = o if report == "output" else i
                row[key] = row.get(key, zero) + term
    return row


def best_of(
    runs: Sequence[FiniteMechanism], *, ties: str = "highest_index", report: str = "output"
) -> FiniteMechanism:
    """Exact distribution of the best of independent runs (closed form, O(K·m)).

    With ``ties="highest_index"`` run ``i`` wins with output ``o`` of score ``s``
    iff every earlier run scores ``<= s`` and every later run scores ``< s``:

        ``P(winner = (i, o)) = P_i(o) · Π_{j<i} P_j(score <= s) · Π_{j>i} P_j(score < s)``

    (``lowest_index`` swaps the strict and non-strict inequalities).  This is the
    argmax of :func:`verifier.mechanism.compose.best_index` applied to
    :func:`verifier.mechanism.compose.independent`, without enumerating the ``m^K`` tuples.
    """
    graph = same_neighbour_graph(runs)
    scores: list[dict[Output, Any]] = [{o: output_score(o) for o in m.outputs} for m in runs]
    if report == "output":
        order: list[Output] = list(dict.fromkeys(o for m in runs for o in m.outputs))
        first = {o: i for i, o in enumerate(order)}
        all_scores = {o: s for sc in scores for o, s in sc.items()}
        order.sort(key=lambda o: (all_scores[o], first[o]))
        outputs: list[Output] = order
    else:
        outputs = list(range(len(runs)))
    later_strict = ties == "highest_index"
    dists: dict[Any, dict[Output, sp.Expr]] = {}
    for d in graph.nodes:
        supp = [
            [(o, m.prob(d, o), scores[j][o]) for o in m.outputs if m.prob(d, o) != 0]
            for j, m in enumerate(runs)
        ]
        if all(pr.is_Rational for run in supp for _, pr, _ in run):
            # the same sums and products in GMP rationals (a sympy number per
            # operation costs more), the row's values turned back once
            runs_q = [[(o, to_mpq(pr), sc) for o, pr, sc in run] for run in supp]
            row_q = _best_of_row(runs_q, later_strict, report, mpq(0), lambda m: sum(m, mpq(0)))
            dists[d] = {k: exact(v) for k, v in row_q.items()}
        else:
            dists[d] = _best_of_row(supp, later_strict, report, sp.Integer(0), lambda m: sp.Add(*m))
    values: dict[sp.Symbol, sp.Expr] = {}
    for m in runs:
        values.update(m.values)
    return FiniteMechanism(graph, dists, outputs, values=values, validate=False)
