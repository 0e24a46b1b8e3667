"""Liu & Talwar 2019, "Private Selection from Private Candidates" — exact output
distributions of the selection algorithms and of the naive selectors.

Every function here is a *transformer*: a base mechanism ``Q`` (a
:class:`~verifier.mechanism.model.FiniteMechanism` whose outputs are scored candidates)
and parameters in, the exact output mechanism out, computed from a closed form
(never by simulation).

Candidates, scores and ties.  The score of a candidate is given by ``score``
(default :func:`value_of`: the last component of a tuple ``(..., q)`` — Liu &
Talwar's ``(x, q)`` and Talwar's ``(o, v)`` — or the output itself when it is a
number).  Candidates are totally ordered by ``(score, position in Q's output
order)`` (a fixed total order breaks ties; the theorems' proofs assume all
scores distinct "by breaking ties with the total order").  ``⊥`` (:data:`BOTTOM`)
is below every candidate.  For a candidate ``o`` at dataset ``D`` write
``p = Q(o)``, ``p0 = Q(ranked above o)``, ``p1 = p0 + p``, and ``F = 1 - p0``,
``F⁻ = 1 - p1`` — each computed as its own sum, never as a complement.

Algorithms (closed forms derived from Liu & Talwar 2019, §3 and App. B):

* :func:`uniform_selection` — the private-selection oracle ``Q(D)``: a uniform
  index ``i ∈ [K]``, ``m ~ M_i(D)``, output ``((i, m), q_i(m))`` (Liu & Talwar 2019,
  §3).
* :func:`thresholding` — Theorem 3.1 ("Algorithm thresholding"):
  ``Pr[o] = Q(o) (1 - r^T)/(1 - r)`` for ``q ≥ τ``, ``r = (1 - p_τ)(1 - γ)``,
  ``Pr[⊥] = (1 - p_τ) γ (1 - r^T)/(1 - r) + r^T``.
* :func:`random_stopping` — Theorem 3.2 ("Algorithm maxRand", Talwar's
  ``A_LT,γ``): ``Pr[o] = γ p / ((p0(1-γ) + γ)(p1(1-γ) + γ))``.
* :func:`random_stopping_hard` — Theorems 3.4/3.5 (stop after ``T`` draws):
  ``Pr[o] = Σ_{j<T} (1-γ)^{j-1} γ (F^j - F⁻^j) + (1-γ)^{T-1} (F^T - F⁻^T)``.
* :func:`decreasing_thresholds` — App. B.2.
* :func:`percentile_release` / :func:`distribution_percentile` — App. B.3.

The selectors above but :func:`decreasing_thresholds` and :func:`distribution_percentile`
are presets of selection programs (:mod:`verifier.programs.selection`; ``docs/programs.md``),
equal to them in law (``tests/test_programs_selection.py``); their closed forms here are
the second exact method.

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> R = sp.Rational
>>> Q = FiniteMechanism(pair(), {"D": {0: R(1, 2), 1: R(1, 2)}, "D'": {0: R(2, 3), 1: R(1, 3)}})
>>> A = random_stopping(Q, R(1, 2))
>>> A.p("D", 1), A.p("D", 0)    # 1: p0 = 0, p1 = 1/2;  0: p0 = 1/2, p1 = 1
(2/3, 1/3)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Sign,
    Verdict,
    decide_le,
    decide_sign,
    exact,
    to_mpq,
)
from ..errors import InvalidMechanism, InvalidParameter
from ..mechanism.compose import same_neighbour_graph
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .registry import Param, choice, exact_number, positive_int, probability, transformer
from .scores import numeric_score

__all__ = [
    "BOTTOM",
    "Score",
    "value_of",
    "first_of",
    "SCORES",
    "Ranking",
    "ranking",
    "Tails",
    "tails",
    "upper_quantile",
    "uniform_selection",
    "thresholding",
    "thresholding_expected_iterations",
    "score_mass",
    "random_stopping",
    "random_stopping_expected_calls",
    "random_stopping_hard",
    "random_stopping_hard_expected_calls",
    "decreasing_thresholds",
    "percentile_release",
    "distribution_percentile",
]

#: The "no output" symbol ``⊥`` of the thresholding algorithms; below every candidate.
BOTTOM = "⊥"

#: A score function: output -> exact rational score.
Score = Callable[[Output], Any]

R = sp.Rational


def _rational(v: Any, o: Output) -> sp.Rational:
    """The exact score ``v`` of ``o`` (the one rule: :func:`~.scores.numeric_score`)."""
    f = numeric_score(
        v,
        o,
        "the score parameter says where it is: 'last' component of an array output "
        "(the default; write [label, score]), 'first' component, or the output 'self'",
    )
    return R(f.numerator, f.denominator)


def value_of(o: Output) -> sp.Rational:
    """The score of ``o``: the last component of a tuple ``(..., q)`` (Liu & Talwar's
    ``(x, q)``, Talwar's ``(o, v)``), or ``o`` itself when it is a number.

    >>> value_of(("r", 1)), value_of(((2, "m"), sp.Rational(1, 2))), value_of(3)
    (1, 1/2, 3)
    """
    return _rational(o[-1] if isinstance(o, tuple) else o, o)


def first_of(o: Output) -> sp.Rational:
    """The score of ``o``: the first component of a tuple ``(q, ...)``, or ``o``."""
    return _rational(o[0] if isinstance(o, tuple) else o, o)


#: Named score functions (for spec files and the transformer registry).
SCORES: dict[str, Score] = {"last": value_of, "first": first_of, "self": lambda o: _rational(o, o)}


@dataclass(frozen=True)
class Ranking:
    """Outputs of a mechanism in increasing candidate order, with their scores."""

    order: tuple[Output, ...]
    scores: dict[Output, sp.Rational]

    def position(self) -> dict[Output, int]:
        return {o: i for i, o in enumerate(self.order)}


def ranking(Q: FiniteMechanism, score: Score | None = None) -> Ranking:
    """Candidates of ``Q`` ordered by ``(score, position in Q's output order)``."""
    sc = score or value_of
    if BOTTOM in Q.outputs:
        raise InvalidMechanism(f"the base mechanism {Q.name!r} already has the output {BOTTOM}")
    scores = {o: sc(o) for o in Q.outputs}
    order = sorted(Q.outputs, key=lambda o: (scores[o], Q.order_index(o)))
    return Ranking(tuple(order), scores)


@dataclass(frozen=True)
class Tails:
    """At one dataset, for each candidate ``o`` (Liu & Talwar 2019, proof of Thm 3.2):
    ``p = Q(o)``, ``above = p0 = Q(ranked above o)``, ``below = F⁻ = Q(ranked below
    o)``; each a sum of its own terms (no complements)."""

    p: dict[Output, sp.Expr]
    above: dict[Output, sp.Expr]
    below: dict[Output, sp.Expr]

    def at_least(self, o: Output) -> sp.Expr:
        """``p1 = p0 + p``."""
        return self.above[o] + self.p[o]

    def at_most(self, o: Output) -> sp.Expr:
        """``F = F⁻ + p = 1 - p0``."""
        return self.below[o] + self.p[o]


def tails(Q: FiniteMechanism, d: Dataset, rk: Ranking) -> Tails:
    """The probabilities ``p``, ``p0`` and ``F⁻`` of every candidate at ``d``."""
    ps = [Q.p(d, o) for o in rk.order]
    n = len(ps)
    below: dict[Output, sp.Expr] = {}
    acc = sp.Integer(0)
    for i in range(n):
        below[rk.order[i]] = acc
        acc = acc + ps[i]
    above: dict[Output, sp.Expr] = {}
    acc = sp.Integer(0)
    for i in range(n - 1, -1, -1):
        above[rk.order[i]] = acc
        acc = acc + ps[i]
    return Tails(dict(zip(rk.order, ps, strict=True)), above, below)


def upper_quantile(
    Q: FiniteMechanism,
    d: Dataset,
    beta: Any,
    score: Score | None = None,
    *,
    strict: bool = False,
    precision: Precision = DEFAULT_PRECISION,
) -> sp.Rational:
    """``sup{z : Pr[score(Q(d)) ≥ z] ≥ β}`` (``> β`` when ``strict``).

    With ``β = 1/2`` this is Talwar's ``Median(M(d))`` (Talwar 2025, §2); with
    ``β = 1/K`` the ``(1 - 1/K)`` quantile ``q_{1-1/K}`` of Theorems 11–14; with
    ``strict=True`` it is Liu & Talwar's ``Q^{(p)}(D)`` (Theorem 3.3).  For a finite
    distribution the supremum is the largest score ``z`` of the support with
    ``Pr[score ≥ z] ≥ β``.
    """
    b = exact(beta)
    rk = ranking(Q, score)
    mass: dict[sp.Rational, sp.Expr] = {}
    for o in rk.order:
        pr = Q.p(d, o)
        if pr != 0:
            z = rk.scores[o]
            mass[z] = mass.get(z, sp.Integer(0)) + pr
    acc = sp.Integer(0)
    for z in sorted(mass, reverse=True):
        acc = acc + mass[z]  # Pr[score >= z]
        c = decide_le(acc, b, precision) if strict else decide_le(b, acc, precision)
        if c.verdict is Verdict.UNDECIDED:
            raise InvalidParameter(f"could not decide Pr[score >= {z}] against {b} at {d!r}")
        if (c.verdict is Verdict.VIOLATED) if strict else (c.verdict is Verdict.HOLDS):
            return z
    raise InvalidParameter(
        f"no score z of {Q.name!r} at {d!r} has Pr[score >= z] {'>' if strict else '>='} {b}"
    )


def _check_gamma(gamma: Any, *, allow_zero: bool = False) -> sp.Expr:
    g = exact(gamma)
    if g.free_symbols:
        return g
    lo = decide_sign(g).sign
    hi = decide_sign(1 - g).sign
    if lo is Sign.NEGATIVE or hi is Sign.NEGATIVE or (lo is Sign.ZERO and not allow_zero):
        rng = "[0, 1]" if allow_zero else "(0, 1]"
        raise InvalidParameter(f"the stopping probability gamma must lie in {rng}, got {g}")
    if Sign.UNDECIDED in (lo, hi):
        raise InvalidParameter(f"could not decide that gamma = {g} lies in [0, 1]")
    return g


def _check_T(T: Any, what: str = "T") -> int:
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise InvalidParameter(f"{what} must be a positive integer, got {T!r}")
    return T


def _new(
    Q: FiniteMechanism,
    dists: dict[Dataset, dict[Output, sp.Expr]],
    outputs: Sequence[Output],
    name: str,
) -> FiniteMechanism:
    return FiniteMechanism(Q.graph, dists, outputs, values=Q.values, name=name, validate=False)


def _by_rank(
    Q: FiniteMechanism,
    score: Score | None,
    law: Callable[[Tails, Output], sp.Expr],
    name: str,
) -> FiniteMechanism:
    """The selector whose output at ``d`` is the candidate ``o`` (one ``Q(d)`` gives a
    positive probability) with probability ``law(tails(Q, d, ...), o)``; outputs in
    candidate order."""
    rk = ranking(Q, score)
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in Q.datasets:
        tl = tails(Q, d, rk)
        dists[d] = {o: law(tl, o) for o in rk.order if tl.p[o] != 0}
    return _new(Q, dists, rk.order, name)


# ---------------------------------------------------------------------------
# the selection oracle
# ---------------------------------------------------------------------------


def uniform_selection(
    mechs: Sequence[FiniteMechanism],
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """The private-selection oracle (Liu & Talwar 2019, §3): draw ``i`` uniformly from
    ``{0, ..., K-1}``, then ``m ~ M_i(D)``; output ``((i, m), q_i(m))``.

    Outputs are ordered by ``(q_i(m), i, position of m in M_i's order)`` — scores
    first, ties broken by the index and then by ``M_i``'s own order.  If
    every ``M_i`` is ε-DP so is the oracle (a mixture of ε-DP distributions).

    >>> from verifier.mechanism.instances import randomized_response
    >>> Q = uniform_selection([randomized_response(sp.log(3))] * 2)
    >>> Q.outputs[-1], Q.p("D", ((1, 1), 1))
    (((1, 1), 1), 3/8)
    """
    if not mechs:
        raise InvalidParameter("uniform_selection needs at least one mechanism")
    graph = same_neighbour_graph(list(mechs))
    sc = score or value_of
    K = len(mechs)
    keyed: list[tuple[Any, Output]] = []
    for i, m in enumerate(mechs):
        for o in m.outputs:
            s = sc(o)
            keyed.append(((s, i, m.order_index(o)), ((i, o), s)))
    keyed.sort(key=lambda t: t[0])
    outputs = [o for _, o in keyed]
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in graph.nodes:
        row: dict[Output, sp.Expr] = {}
        for i, m in enumerate(mechs):
            for o in m.outputs:
                pr = m.prob(d, o)
                if pr != 0:
                    row[((i, o), sc(o))] = pr / K
        dists[d] = row
    values: dict[sp.Symbol, sp.Expr] = {}
    for m in mechs:
        values.update(m.values)
    return FiniteMechanism(
        graph,
        dists,
        outputs,
        values=values,
        name=name or f"Uniform[{', '.join(m.name for m in mechs)}]",
        validate=False,
    )


# ---------------------------------------------------------------------------
# Theorem 3.1: thresholding
# ---------------------------------------------------------------------------


def _geometric_sum(r: sp.Expr, T: int | None) -> sp.Expr:
    """``Σ_{j=1}^{T} r^{j-1} = (1 - r^T)/(1 - r)`` (``1/(1-r)`` when ``T`` is None)."""
    if r == 1:
        if T is None:
            raise InvalidParameter("the algorithm does not terminate (r = 1 with T = infinity)")
        return sp.Integer(T)
    if T is None:
        return 1 / (1 - r)
    return (1 - r**T) / (1 - r)


def thresholding(
    Q: FiniteMechanism,
    tau: Any,
    gamma: Any,
    T: int | None,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, Theorem 3.1 ("Algorithm thresholding"), exactly.

    For ``j = 1..T``: draw ``(x, q) ~ Q(D)``; if ``q ≥ τ`` output it and halt; else
    halt with ``⊥`` with probability ``γ``.  After ``T`` rounds output ``⊥``
    (``T = None``: no cap).

    With ``p_τ = Q(q ≥ τ)`` and ``r = (1 - p_τ)(1 - γ)`` (round ``j`` is reached with
    probability ``r^{j-1}``):

    * ``Pr[(x, q)] = Q(x, q) (1 - r^T)/(1 - r)`` for ``q ≥ τ`` (Thm 3.1 (a));
    * ``Pr[⊥] = (1 - p_τ) γ (1 - r^T)/(1 - r) + r^T`` — halting in some round, or
      failing all ``T`` rounds; its own closed form, not ``1 - Σ``.

    ``1 - p_τ`` is computed as ``Q(q < τ)``.  Outputs: ``⊥`` then the candidates
    with ``q ≥ τ`` in candidate order.
    """
    g = _check_gamma(gamma, allow_zero=True)
    if T is not None:
        _check_T(T)
    t = exact(tau)
    rk = ranking(Q, score)
    passing = [o for o in rk.order if _ge(rk.scores[o], t)]
    failing = [o for o in rk.order if not _ge(rk.scores[o], t)]
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in Q.datasets:
        below = sp.Add(*[Q.p(d, o) for o in failing])  # 1 - p_τ
        r = below * (1 - g)
        if r == 1 and T is None:
            raise InvalidParameter(
                f"thresholding never halts at {d!r}: no candidate reaches tau and gamma = 0"
            )
        S = _geometric_sum(r, T)
        row: dict[Output, sp.Expr] = {BOTTOM: below * g * S + (0 if T is None else r**T)}
        for o in passing:
            pr = Q.p(d, o)
            if pr != 0:
                row[o] = pr * S
        dists[d] = row
    return _new(Q, dists, [BOTTOM, *passing], name or f"Thresholding[{Q.name}]")


def _ge(a: sp.Rational, b: sp.Expr) -> bool:
    c = decide_le(b, a)
    if c.verdict is Verdict.UNDECIDED:
        raise InvalidParameter(f"could not compare the score {a} with the threshold {b}")
    return c.verdict is Verdict.HOLDS


def thresholding_expected_iterations(
    Q: FiniteMechanism,
    d: Dataset,
    tau: Any,
    gamma: Any,
    T: int | None,
    score: Score | None = None,
) -> sp.Expr:
    """Exact ``E[T̃]`` of thresholding at ``d``: ``Σ_{j=1}^T r^{j-1} = (1 - r^T)/(1 - r)``
    (Liu & Talwar 2019, Theorem 3.1 (d) bounds it by ``1/(p_τ(1-γ) + γ) = 1/(1-r)``)."""
    g = _check_gamma(gamma, allow_zero=True)
    below = score_mass(Q, d, tau, at_least=False, score=score)
    return _geometric_sum(below * (1 - g), T)


def score_mass(
    Q: FiniteMechanism,
    d: Dataset,
    tau: Any,
    *,
    at_least: bool = True,
    score: Score | None = None,
) -> sp.Expr:
    """``p_τ = Q_d(q ≥ τ)`` (Liu & Talwar 2019, §3.1), or with ``at_least=False``
    ``Q_d(q < τ)`` — each summed on its own, never as the other's complement."""
    t = exact(tau)
    rk = ranking(Q, score)
    return sp.Add(*[Q.p(d, o) for o in rk.order if _ge(rk.scores[o], t) is at_least])


# ---------------------------------------------------------------------------
# Theorem 3.2: random stopping (A_LT,γ); Theorems 3.4/3.5: hard stopping
# ---------------------------------------------------------------------------


def random_stopping(
    Q: FiniteMechanism,
    gamma: Any,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, Theorem 3.2 ("Algorithm maxRand"; Talwar 2025's
    ``A_LT,γ``), exactly.

    ``S ← ∅``; repeat: draw ``(x, q) ~ Q(D)``, add it to ``S``, and with probability
    ``γ`` halt and output the best candidate of ``S``.  The number of draws is
    geometric on ``{1, 2, ...}`` with mean ``1/γ``, and (proof of Theorem 3.2)

        ``Pr[o] = γ p / ((p0 (1-γ) + γ) (p1 (1-γ) + γ))``.

    Outputs: the candidates of ``Q`` in candidate order.
    """
    g = _check_gamma(gamma)

    def law(tl: Tails, o: Output) -> sp.Expr:
        p, p0 = tl.p[o], tl.above[o]
        if g.is_Rational and p.is_Rational and p0.is_Rational:
            # the same value in GMP rationals (a sympy Rational per operation costs more)
            G, P, P0 = to_mpq(g), to_mpq(p), to_mpq(p0)
            return exact(G * P / ((P0 * (1 - G) + G) * ((P0 + P) * (1 - G) + G)))
        return g * p / ((p0 * (1 - g) + g) * ((p0 + p) * (1 - g) + g))

    return _by_rank(Q, score, law, name or f"RandomStopping[{Q.name}]")


def random_stopping_expected_calls(gamma: Any) -> sp.Expr:
    """``E[T̃] = 1/γ`` (Liu & Talwar 2019, §3.2; Talwar 2025, Theorem 12's run time)."""
    return 1 / _check_gamma(gamma)


def random_stopping_hard(
    Q: FiniteMechanism,
    gamma: Any,
    T: int,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, Theorems 3.4/3.5: random stopping that also stops after
    ``T`` draws at the latest, exactly.

    With ``F = Q(ranked ≤ o)`` and ``F⁻ = Q(ranked < o)``, the best of ``j`` draws is
    ``o`` with probability ``F^j - F⁻^j``, so

        ``Pr[o] = Σ_{j=1}^{T-1} (1-γ)^{j-1} γ (F^j - F⁻^j) + (1-γ)^{T-1} (F^T - F⁻^T)``
        ``      = G(F) - G(F⁻)``,
        ``G(x) = γx (1 - ((1-γ)x)^{T-1}) / (1 - (1-γ)x) + (1-γ)^{T-1} x^T``.
    """
    g = _check_gamma(gamma)
    _check_T(T)

    def G(x: sp.Expr) -> sp.Expr:
        tail = (1 - g) ** (T - 1) * x**T
        if T == 1:
            return tail
        u = (1 - g) * x
        if u == 1:
            head = g * x * (T - 1)
        else:
            head = g * x * (1 - u ** (T - 1)) / (1 - u)
        return head + tail

    def law(tl: Tails, o: Output) -> sp.Expr:
        return G(tl.at_most(o)) - G(tl.below[o])

    return _by_rank(Q, score, law, name or f"RandomStopping[{Q.name}, T={T}]")


def random_stopping_hard_expected_calls(gamma: Any, T: int) -> sp.Expr:
    """``E[T̃] = Σ_{j=1}^{T} (1-γ)^{j-1} = (1 - (1-γ)^T)/γ`` for hard stopping."""
    g = _check_gamma(gamma)
    _check_T(T)
    return (1 - (1 - g) ** T) / g


# ---------------------------------------------------------------------------
# Appendix B: naive selectors
# ---------------------------------------------------------------------------


def decreasing_thresholds(
    Q: FiniteMechanism,
    thresholds: Sequence[Any],
    gamma: Any,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, App. B.2: thresholding that lowers the threshold instead of
    halting, exactly.

    Thresholds ``τ_0 > τ_1 > ... > τ_R``.  At level ``ℓ < R`` each draw with score
    ``≥ τ_ℓ`` is output; otherwise, with probability ``γ``, the algorithm moves to
    level ``ℓ + 1``.  At the last level it draws until a candidate passes ``τ_R``
    (B.2 takes ``τ_R`` at or below every score).  With ``P_ℓ = Q(q ≥ τ_ℓ)`` and
    ``den_ℓ = 1 - (1 - P_ℓ)(1 - γ) = P_ℓ + (1 - P_ℓ)γ``, level ``ℓ`` ends with
    candidate ``o`` w.p. ``Q(o)[q ≥ τ_ℓ]/den_ℓ`` and moves on w.p.
    ``μ_ℓ = (1 - P_ℓ)γ/den_ℓ``, so

        ``Pr[o] = Σ_{ℓ<R} (Π_{m<ℓ} μ_m) Q(o)[q ≥ τ_ℓ]/den_ℓ + (Π_{m<R} μ_m) Q(o)[q ≥ τ_R]/P_R``.

    For ``Q = Bernoulli(p)`` and ``R`` decrements to ``τ_R = 0`` this gives B.2's
    ``Pr[output 0] = (1-p) γ^R ((1-p)/(p(1-γ) + γ))^R``.
    """
    g = _check_gamma(gamma)
    taus = [exact(t) for t in thresholds]
    if not taus:
        raise InvalidParameter("decreasing_thresholds needs at least one threshold")
    for a, b in zip(taus, taus[1:], strict=False):
        if decide_le(a, b).verdict is not Verdict.VIOLATED:
            raise InvalidParameter(f"thresholds must decrease strictly, got {a} then {b}")
    rk = ranking(Q, score)
    passes = [[o for o in rk.order if _ge(rk.scores[o], t)] for t in taus]
    fails = [[o for o in rk.order if not _ge(rk.scores[o], t)] for t in taus]
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in Q.datasets:
        row: dict[Output, sp.Expr] = {}
        reach = sp.Integer(1)
        for lvl, _t in enumerate(taus):
            P = sp.Add(*[Q.p(d, o) for o in passes[lvl]])
            below = sp.Add(*[Q.p(d, o) for o in fails[lvl]])
            last = lvl == len(taus) - 1
            if last:
                if P == 0:
                    raise InvalidParameter(
                        f"no candidate passes the last threshold at {d!r}: the algorithm "
                        f"never halts"
                    )
                den = P
            else:
                den = P + below * g
            for o in passes[lvl]:
                pr = Q.p(d, o)
                if pr != 0:
                    row[o] = row.get(o, sp.Integer(0)) + reach * pr / den
            if not last:
                reach = reach * below * g / den
        dists[d] = row
    return _new(Q, dists, rk.order, name or f"DecreasingThresholds[{Q.name}]")


def percentile_release(
    Q: FiniteMechanism,
    n: int,
    k: int,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, App. B.3: draw ``n`` candidates from ``Q(D)`` and release the
    ``k``-th highest (``k = (n+1)/2``: the sample median), exactly.

    With ``a = p0`` (ranked above ``o``), ``p = Q(o)`` and ``b = F⁻`` (ranked below), the
    ``k``-th highest is ``o`` iff ``A < k ≤ A + E`` for the multinomial counts ``A``
    (above) and ``E`` (equal to ``o``):

        ``Pr[o] = Σ_{α<k} Σ_{e ≥ k-α} n!/(α! e! (n-α-e)!) a^α p^e b^{n-α-e}``.
    """
    _check_T(n, "n")
    _check_T(k, "k")
    if k > n:
        raise InvalidParameter(f"k = {k} exceeds the number of samples n = {n}")

    def law(tl: Tails, o: Output) -> sp.Expr:
        p, a, b = tl.p[o], tl.above[o], tl.below[o]
        terms = []
        for al in range(k):
            for e in range(k - al, n - al + 1):
                c = math.factorial(n) // (
                    math.factorial(al) * math.factorial(e) * math.factorial(n - al - e)
                )
                terms.append(c * a**al * p**e * b ** (n - al - e))
        return sp.Add(*terms)

    return _by_rank(Q, score, law, name or f"Percentile[{Q.name}, {k} of {n}]")


def distribution_percentile(
    Q: FiniteMechanism,
    beta: Any = None,
    score: Score | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """Liu & Talwar 2019, App. B.3 (the limit ``n → ∞``): release deterministically
    the candidate at the upper ``β``-quantile of ``Q(D)`` — the highest candidate ``o``
    with ``Q(ranked ≥ o) ≥ β`` (default ``β = 1/2``: the median candidate)."""
    b = R(1, 2) if beta is None else exact(beta)
    rk = ranking(Q, score)
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for d in Q.datasets:
        acc = sp.Integer(0)
        chosen = None
        for o in reversed(rk.order):
            acc = acc + Q.p(d, o)
            if decide_le(b, acc).verdict is Verdict.HOLDS:
                chosen = o
                break
        if chosen is None:  # pragma: no cover - acc reaches 1 >= beta
            raise InvalidParameter(f"no quantile at {d!r}")
        dists[d] = {chosen: sp.Integer(1)}
    return _new(Q, dists, rk.order, name or f"Quantile[{Q.name}, {b}]")


# ---------------------------------------------------------------------------
# transformer registry entries (spec files, CLI)
# ---------------------------------------------------------------------------

SCORE_PARAM = Param(
    "score",
    choice(*SCORES),
    "how to read an output's score: 'last' component of a tuple (default), 'first', "
    "or the output 'self'",
    "last",
)


def _optional_T(raw: Any, values: Mapping[str, sp.Expr]) -> int | None:
    if raw is None:
        return None
    return positive_int(raw, values)


def _thresholds(raw: Any, values: Mapping[str, sp.Expr]) -> list[sp.Expr]:
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InvalidParameter(f"must be a non-empty list of numbers, got {raw!r}")
    return [exact_number(x, values) for x in raw]


def scored_transformer(
    name: str,
    source: str,
    params: Sequence[Param],
    run: Callable[..., FiniteMechanism],
    summary: str,
    *,
    every_input: bool = False,
) -> None:
    """Register the transformer ``name`` as ``run(Q, p_1, ..., p_k, score)``: ``Q`` its
    one input mechanism (the list of its inputs with ``every_input``), then the values
    of ``params`` in order, then the score reader :data:`SCORE_PARAM` (appended to
    ``params``) names.  The transformer reports ``run``'s module as its own."""
    names = [p.name for p in params]

    def build(inputs: list[FiniteMechanism], values: dict[str, Any]) -> FiniteMechanism:
        given = inputs if every_input else inputs[0]
        return run(given, *[values[n] for n in names], SCORES[values["score"]])

    build.__module__ = run.__module__
    transformer(
        name,
        source=source,
        params=[*params, SCORE_PARAM],
        inputs=(1, None) if every_input else (1, 1),
        summary=summary,
    )(build)


_TAU = Param("tau", exact_number, "score threshold")
_GAMMA_HALT = Param("gamma", probability, "halting probability per failed round")
_T_CAP = Param("T", _optional_T, "maximum number of rounds (omit: no cap)", None)
_GAMMA_STOP = Param("gamma", probability, "stopping probability per draw")
_T_DRAWS = Param("T", positive_int, "maximum number of draws")
_THRESHOLD_LIST = Param("thresholds", _thresholds, "strictly decreasing list of thresholds")
_GAMMA_LOWER = Param("gamma", probability, "probability of lowering the threshold per failure")
_N_SAMPLES = Param("n", positive_int, "number of samples")
_K_TH = Param("k", positive_int, "release the k-th highest sample")

#: The transformers of one input mechanism: name -> (algorithm, its parameters between
#: the input and the score, source, summary).
_SCORED: dict[str, tuple[Callable[..., FiniteMechanism], list[Param], str, str]] = {
    "lt_thresholding": (
        thresholding,
        [_TAU, _GAMMA_HALT, _T_CAP],
        "Liu & Talwar 2019, Theorem 3.1 (Algorithm thresholding)",
        "Draw until a candidate scores >= tau; halt with ⊥ w.p. gamma per failure.",
    ),
    "lt_random_stopping": (
        random_stopping,
        [_GAMMA_STOP],
        "Liu & Talwar 2019, Theorem 3.2 (Algorithm maxRand); Talwar 2025's A_LT",
        "Best of a geometric (mean 1/gamma) number of draws.",
    ),
    "lt_random_stopping_hard": (
        random_stopping_hard,
        [_GAMMA_STOP, _T_DRAWS],
        "Liu & Talwar 2019, Theorems 3.4/3.5 (hard stopping)",
        "Random stopping capped at T draws.",
    ),
    "lt_decreasing_thresholds": (
        decreasing_thresholds,
        [_THRESHOLD_LIST, _GAMMA_LOWER],
        "Liu & Talwar 2019, App. B.2",
        "Thresholding that lowers the threshold instead of halting.",
    ),
    "lt_percentile_release": (
        percentile_release,
        [_N_SAMPLES, _K_TH],
        "Liu & Talwar 2019, App. B.3",
        "The k-th highest of n samples (k = (n+1)/2: the sample median).",
    ),
}
scored_transformer(
    "lt_uniform_selection",
    "Liu & Talwar 2019, §3 (the private-selection oracle Q(D))",
    [],
    uniform_selection,
    "Uniform index i, then m ~ M_i(D); output ((i, m), q_i(m)).",
    every_input=True,
)
for _name, (_run, _params, _source, _summary) in _SCORED.items():
    scored_transformer(_name, _source, _params, _run, _summary)
