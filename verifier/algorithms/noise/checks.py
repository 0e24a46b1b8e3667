"""Privacy of noise programs on their whole output set, and their realized loss.

The finite outputs of a :class:`~.interpreter.ProgramMechanism` are checked by
:func:`verifier.checks.privacy.check_pure_dp`; every infinite tail of a point release is
checked pointwise by its exact supremum (:func:`~.tails.tail_sup`).  The realized
loss against the size of the standard counterexample inputs (Lyu, Su, Li 2017, §3;
Ding et al. 2018) is :func:`realized_epsilon_curve`.

>>> import sympy as sp
>>> from verifier.algorithms.noise.interpreter import program_mechanism, prog_claim
>>> from verifier.algorithms.noise.queries import query_graph
>>> from verifier.algorithms.noise.svt import lyu_svt
>>> prog = lyu_svt(1, sp.log(2) * 8, c=1)
>>> pm = program_mechanism(prog, query_graph([(0, 1), (1, 0)], style="all_differ"))
>>> check_program_dp(pm, prog_claim(prog)).verdict.value
'holds'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ...arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Verdict,
    combine_verdicts,
    decide_le,
    exact,
)
from ...checks.privacy import check_pure_dp, realized_ex_post_epsilon
from ...checks.results import CheckResult, Finding, conjunction
from ...errors import InvalidParameter
from .expoly import Laurent
from .interpreter import Program, ProgramMechanism, program_mechanism
from .queries import Vector, query_graph
from .tails import TailSup, tail_sup

__all__ = [
    "LossMax",
    "max_log_ratio",
    "check_program_dp",
    "RealizedMax",
    "program_realized_epsilon",
    "CurvePoint",
    "realized_epsilon_curve",
]


@dataclass(frozen=True)
class LossMax:
    """The largest privacy loss ``log(P(o)/Q(o)) + b(o)·u`` over a finite output set
    (:func:`max_log_ratio`): its closed form (``oo`` when some output is possible
    under ``P`` only), the output attaining it and the two probabilities there."""

    value: sp.Expr
    output: Hashable
    p: Laurent
    q: Laurent


def max_log_ratio(
    P: Mapping[Hashable, Laurent],
    Q: Mapping[Hashable, Laurent],
    u: Fraction,
    bonus: Mapping[Hashable, int] | None = None,
) -> LossMax:
    """``max_o log(P(o)/Q(o)) + b(o)·u`` exactly, for probabilities that are
    :class:`~.expoly.Laurent` polynomials in ``W = e^{-u}`` (``u`` rational).

    ``bonus`` adds ``b(o)·u`` to the loss of output ``o`` (the exact supremum of the
    density ratio of values released with independent Laplace noise of rate ``m·u``:
    ``m·|q_i - q'_i|`` each; it multiplies ``P(o)`` by ``W^{-b(o)}``).  The maximum is
    exact: every ratio is enclosed (:meth:`Laurent.enclosure`); the outputs whose
    upper bound reaches the best lower bound are compared exactly by the sign of
    ``P_1 Q_2 - P_2 Q_1`` (:meth:`Laurent.sign`: zero only when the polynomial is
    identically zero, since ``e^{-u}`` is transcendental, Lindemann 1882).

    Examples
    --------
    >>> W = Laurent.monomial(1)
    >>> P = {"a": W, "b": 1 - W}
    >>> Q = {"a": W * W, "b": 1 - W * W}
    >>> r = max_log_ratio(P, Q, Fraction(1, 10))
    >>> r.output, r.value
    ('a', 1/10)
    """
    b = bonus or {}
    cands: list[tuple[Fraction, Fraction, Hashable, Laurent, Laurent]] = []
    for o, p in P.items():
        if p.is_zero:
            continue
        q = Q.get(o, Laurent({}))
        if q.is_zero:
            return LossMax(sp.oo, o, p, q)
        if p.sign(u) < 0 or q.sign(u) < 0:
            raise InvalidParameter(f"output {o!r}: a negative probability")
        p = p * Laurent.monomial(-b.get(o, 0))
        bits = 96
        while True:
            pl, ph = p.enclosure(u, bits)
            ql, qh = q.enclosure(u, bits)
            if pl > 0 and ql > 0:
                break
            bits *= 2
        cands.append((pl / qh, ph / ql, o, p, q))
    if not cands:
        raise InvalidParameter("no output has positive probability")
    best_lo = max(c[0] for c in cands)
    close = sorted((c for c in cands if c[1] >= best_lo), key=lambda c: c[0], reverse=True)
    _, _, o, p, q = close[0]
    for _, _, o2, p2, q2 in close[1:]:
        if (p2 * q - p * q2).sign(u) > 0:
            o, p, q = o2, p2, q2
    value = sp.log(
        p.to_sympy(sp.Rational(u.numerator, u.denominator))
        / q.to_sympy(sp.Rational(u.numerator, u.denominator))
    )
    return LossMax(value, o, p * Laurent.monomial(b.get(o, 0)), q)


def _tail_findings(
    pm: ProgramMechanism,
    eps: sp.Expr | None,
    pairs: Sequence[tuple[Hashable, Hashable]],
    precision: Precision,
) -> list[tuple[Finding, TailSup]]:
    out = []
    for t in pm.tails:
        for d, d2 in pairs:
            P, Q = t.pieces[d], t.pieces[d2]
            if P.is_zero:
                continue
            ts = tail_sup(P, Q, t.start, t.direction, pm.unit, precision)
            realized = sp.oo if ts.value is sp.oo else sp.log(ts.value)
            if eps is None:
                verdict, tight, rhs = Verdict.HOLDS, False, sp.oo
            else:
                rhs = sp.exp(eps)
                if ts.value is sp.oo:
                    verdict, tight = Verdict.VIOLATED, False
                else:
                    c = decide_le(ts.value, rhs, precision)
                    verdict, tight = c.verdict, c.tight
            where = f"sup over the tail from {t.start} ({'up' if t.direction > 0 else 'down'})"
            if ts.at is None:
                where += "; the limit, not attained"
            else:
                where += f"; attained at {ts.at}"
            out.append(
                (
                    Finding(
                        verdict,
                        t.label + " (pointwise)",
                        (d, d2),
                        realized,
                        eps if eps is not None else sp.oo,
                        ts.value,
                        rhs,
                        tight=tight,
                        note=where,
                    ),
                    ts,
                )
            )
    return out


def check_program_dp(
    pm: ProgramMechanism,
    eps: Any,
    *,
    pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
    over: Any = None,
    precision: Precision = DEFAULT_PRECISION,
    title: str | None = None,
) -> CheckResult:
    """ε-DP of a program on its whole (possibly infinite) output set.

    The finite outputs are checked by :func:`verifier.checks.privacy.check_pure_dp`; every
    infinite tail of a point release is checked pointwise by the exact tail supremum
    (:func:`~.tails.tail_sup`).

    Parameters
    ----------
    pm : ProgramMechanism
        From :func:`~.interpreter.program_mechanism`.
    eps : exact number
        The claimed ε (a symbol only together with ``over``, finite outputs only).
    pairs : iterable of (dataset, dataset), optional
        Ordered pairs to check (default: both directions of every edge).
    over : (symbol, lo, hi), optional
        Decide the claim for every value of the symbol in ``[lo, hi]``.

    Returns
    -------
    CheckResult
        A conjunction: the finite outputs, then the tails (per tail and pair: the
        exact supremum of the probability ratio, where it is attained or that it is a
        limit).
    """
    e = exact(eps)
    prs = list(pairs) if pairs is not None else list(pm.mechanism.ordered_pairs())
    parts = [check_pure_dp(pm.mechanism, epsilon=e, pairs=prs, over=over, precision=precision)]
    if pm.tails:
        if over is not None:
            raise InvalidParameter("tails of point releases are decided at a numeric epsilon")
        fs = [f for f, _ in _tail_findings(pm, e, prs, precision)]
        parts.append(
            CheckResult(
                "infinite tails, pointwise",
                combine_verdicts(f.verdict for f in fs),
                fs,
                quantity="realized eps(o)",
            )
        )
    return conjunction(title or f"{pm.program.name} is ({e})-DP", parts)


@dataclass(frozen=True)
class RealizedMax:
    """The realized privacy loss ``max_o max_{(D,D')} log(P_D(o)/P_D'(o))`` with the
    output and pair attaining it (``oo`` when some output is impossible at ``D'``)."""

    value: sp.Expr
    output: str
    pair: tuple[Hashable, Hashable]
    attained: bool = True


def program_realized_epsilon(
    pm: ProgramMechanism,
    pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> RealizedMax:
    """The exact realized ε of the program over its whole output set.

    Finite outputs by :func:`verifier.checks.privacy.realized_ex_post_epsilon`, infinite
    tails by their exact supremum.

    Returns
    -------
    RealizedMax
        ``max_o max_{(D,D')} log(P_D(o)/P_D'(o))`` (``oo`` if some output is possible
        only on one side), the output (a tail label ending in ``(pointwise)`` when the
        maximum lies on a tail) and the ordered pair attaining it.
    """
    prs = list(pairs) if pairs is not None else list(pm.mechanism.ordered_pairs())
    tail_labels = {t.label for t in pm.tails}
    table = realized_ex_post_epsilon(pm.mechanism, prs, precision)
    cands: list[RealizedMax] = [
        RealizedMax(r.value, str(r.output), r.pair)
        for r in table.rows
        if str(r.output) not in tail_labels
    ]
    for f, ts in _tail_findings(pm, None, prs, precision):
        cands.append(RealizedMax(f.realized, str(f.output), f.pair, ts.at is not None))  # type: ignore[arg-type]
    if not cands:
        raise InvalidParameter("no possible output")
    inf = [c for c in cands if c.value is sp.oo]
    if inf:
        return inf[0]
    best = cands[0]
    for c in cands[1:]:
        if decide_le(c.value, best.value, precision).verdict is Verdict.VIOLATED:
            best = c
    return best


@dataclass(frozen=True)
class CurvePoint:
    """Realized ε of a program on the counterexample pair of size ``m``."""

    m: int
    value: sp.Expr
    output: str
    pair: tuple[Hashable, Hashable]

    @property
    def approx(self) -> float:
        if self.value is sp.oo:
            return float("inf")
        return float(sp.N(self.value, 20))


def realized_epsilon_curve(
    build: Callable[[int], Program],
    pair: Callable[[int], tuple[Vector, Vector]],
    ms: Iterable[int],
    *,
    both_directions: bool = True,
) -> list[CurvePoint]:
    """Exact realized ε against the size ``m`` of the standard counterexample inputs.

    For each ``m``: build the program (it may depend on ``m``), evaluate it exactly on
    the two vectors ``pair(m)`` (one ALL_DIFFER edge, its sensitivity validated) and
    take the largest realized loss over all outputs (both directions).

    Parameters
    ----------
    build : callable ``m -> program``
    pair : callable ``m -> (q, q')``
        E.g. :func:`~.queries.half_half` (``0^m 1^m`` vs ``1^m 0^m``) or
        :func:`~.queries.ramp_pair`.
    ms : iterable of int

    Returns
    -------
    list of CurvePoint
        ``(m, exact realized ε, output, pair)``.

    Examples
    --------
    >>> from verifier.algorithms.noise.interpreter import epsilon_for_base
    >>> from verifier.algorithms.noise.queries import ramp_pair
    >>> from verifier.algorithms.noise.svt import lyu_svt
    >>> eps = epsilon_for_base(lambda e: lyu_svt(3, e, 1), sp.Rational(4, 5))
    >>> [sp.simplify(p.value / eps) for p in
    ...  realized_epsilon_curve(lambda m: lyu_svt(3, eps, 1), ramp_pair, [1, 2, 3])]
    [1, 3/2, 2]
    """
    out = []
    for m in ms:
        a, b = pair(m)
        prog = build(m)
        g = query_graph([a, b], style="all_differ")
        pm = program_mechanism(prog, g)
        prs = [(a, b), (b, a)] if both_directions else [(a, b)]
        r = program_realized_epsilon(pm, prs)
        out.append(CurvePoint(m, r.value, r.output, r.pair))
    return out
