"""Repeat and select: run a mechanism a random number ``K`` of times and release the
best output (Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential
privacy", §2), exactly, for the count distributions with a closed form:

* ``count="geometric"``: ``P(K = k) = γ (1-γ)^{k-1}`` on ``{1, 2, ...}`` with
  ``γ = 1/mean`` — the truncated negative binomial with shape 1 (Papernot & Steinke
  2022, Theorem 2 with η = 1), which is Liu & Talwar 2019's random stopping
  (Theorem 3.2; :func:`~verifier.algorithms.liu_talwar.random_stopping`);
* ``count="poisson"``: ``K ~ Poisson(mean)`` (Papernot & Steinke 2022, Theorem 6); when
  ``K = 0`` nothing ran and the output is ``⊥``
  (:data:`~verifier.algorithms.liu_talwar.BOTTOM`, below every candidate).

Both are presets of selection programs with the counts
:func:`verifier.programs.counts.geometric` and :func:`verifier.programs.counts.poisson`,
which add the other counts of Papernot & Steinke's family (truncated negative binomial of
any shape, logarithmic) with exact generating functions; the laws are equal
(``tests/test_programs_selection.py``).

Candidates are ranked as in :mod:`~verifier.algorithms.liu_talwar` (by score, ties
by position in the base mechanism's output order).  With ``G`` the probability
generating function of ``K``, the best of ``K`` runs is at most ``o`` with
probability ``G(F(o))``, ``F(o) = Q(ranked at or below o)``; for the Poisson count
``G(s) = e^{-μ(1-s)}`` and, with ``p = Q(o)`` and ``p0 = Q(ranked above o)``,

    ``Pr[o] = e^{-μ p0} (1 - e^{-μ p})``,   ``Pr[⊥] = e^{-μ}``

(each from its own closed form; ``p0`` is a sum of its own terms, not a complement).
The other shapes of Papernot & Steinke's family (logarithmic, general truncated
negative binomial) given by their mean need a ``γ`` that solves a transcendental
equation, so this transformer does not take them; given by ``(η, γ)`` as in the paper
they are exact selection programs
(:func:`verifier.programs.counts.truncated_negative_binomial`).

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> R = sp.Rational
>>> rr = FiniteMechanism(pair(), {"D": {0: R(1, 4), 1: R(3, 4)}, "D'": {0: R(3, 4), 1: R(1, 4)}})
>>> A = repeat_and_select(rr, "poisson", 2)
>>> A.outputs, A.p("D", 0)
(('⊥', 0, 1), (1 - exp(-1/2))*exp(-3/2))
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..arithmetic.exact import Sign, decide_sign, exact
from ..errors import InvalidParameter
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .liu_talwar import BOTTOM, Score, random_stopping, ranking, scored_transformer, tails
from .registry import Param, choice, exact_number

__all__ = ["COUNTS", "repeat_and_select", "count_pmf"]

#: The count distributions with an exact form.
COUNTS = ("geometric", "poisson")


def _check_mean(mean: Any) -> sp.Expr:
    m = exact(mean)
    if m.free_symbols:
        raise InvalidParameter(f"the mean number of runs must be a number, got {m}")
    s = decide_sign(m - 1).sign
    if s is Sign.NEGATIVE:
        raise InvalidParameter(f"the mean number of runs must be >= 1, got {m}")
    if s is Sign.UNDECIDED:
        raise InvalidParameter(f"could not decide that the mean number of runs {m} is >= 1")
    return m


def count_pmf(count: str, mean: Any, k: int) -> sp.Expr:
    """``P(K = k)`` for the count distribution ``count`` with the given mean.

    >>> count_pmf("geometric", 10, 1), count_pmf("poisson", 2, 0)
    (1/10, exp(-2))
    """
    m = _check_mean(mean)
    if count == "geometric":
        g = 1 / m
        return sp.Integer(0) if k < 1 else g * (1 - g) ** (k - 1)
    if count == "poisson":
        return sp.exp(-m) * m**k / sp.factorial(k)
    raise InvalidParameter(f"unknown count distribution {count!r} (known: {', '.join(COUNTS)})")


def repeat_and_select(
    Q: FiniteMechanism,
    count: str,
    mean: Any,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """The best of ``K`` independent runs of ``Q``, ``K`` drawn from ``count`` with the
    given mean (Papernot & Steinke 2022, §2), exactly.

    Parameters
    ----------
    Q : FiniteMechanism
        The base mechanism; its outputs are scored candidates.
    count : {"geometric", "poisson"}
        The distribution of the number of runs (see the module docstring).
    mean : number
        Its mean, exact and ``>= 1``.
    score : callable, optional
        How to read a candidate's score (default: the last component of a tuple, or
        the output itself).
    """
    m = _check_mean(mean)
    if count == "geometric":
        return random_stopping(Q, 1 / m, score, name or f"RepeatSelect[geometric, {m}][{Q.name}]")
    if count != "poisson":
        raise InvalidParameter(f"unknown count distribution {count!r} (known: {', '.join(COUNTS)})")
    rk = ranking(Q, score)
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in Q.datasets:
        tl = tails(Q, d, rk)
        row: dict[Output, sp.Expr] = {BOTTOM: sp.exp(-m)}
        for o in rk.order:
            p = tl.p[o]
            if p != 0:
                row[o] = sp.exp(-m * tl.above[o]) * (1 - sp.exp(-m * p))
        dists[d] = row
    return FiniteMechanism(
        Q.graph,
        dists,
        (BOTTOM, *rk.order),
        values=Q.values,
        name=name or f"RepeatSelect[poisson, {m}][{Q.name}]",
        validate=False,
    )


def _mean(raw: Any, values: Any) -> sp.Expr:
    return _check_mean(exact_number(raw, values))


scored_transformer(
    "repeat_and_select",
    "Papernot & Steinke 2022, §2 (repeat and select); Theorems 2 (geometric) and 6 (Poisson)",
    [
        Param("count", choice(*COUNTS), "distribution of the number of runs"),
        Param("mean", _mean, "mean number of runs (exact, >= 1)"),
    ],
    repeat_and_select,
    "The best of a random number of runs (geometric or Poisson count).",
)
