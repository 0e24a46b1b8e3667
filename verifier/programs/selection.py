"""Selection programs: the mechanism written as a program, its exact law derived.

A :class:`SelectionProgram` composes

* **candidates** — finite mechanisms (:class:`~verifier.mechanism.model.FiniteMechanism`)
  whose outputs carry a score (``score``: the ``"last"`` component of a tuple, the
  ``"first"`` one, or the output ``"self"``; what counts as a score:
  :func:`verifier.mechanism.scores.numeric_score`).  With several candidates, round
  ``j`` runs the ``j``-th (``pick="in_turn"``) or one drawn uniformly
  (``pick="uniform"``: Liu & Talwar 2019, §3's oracle ``Q(D)``, outputs
  ``((i, m), q_i(m))``);
* a **count** ``K`` of rounds — a :class:`~verifier.programs.counts.Count` given by its
  probability generating function ``G`` — or none (``count=None``: rounds until halting);
* a **halting probability** ``γ`` per round (after a draw that did not end the program,
  it halts with probability ``γ``);
* a **rule** — :class:`Best` (best score, with a tie rule), :class:`FirstAbove`
  (release the first draw scoring at least ``τ``, ``⊥`` if none), :class:`KthBest`
  (the ``k``-th best draw, ``⊥`` when fewer than ``k`` were made), :class:`TopK` (the
  ``k`` best draws, best first);
* a **release** — the selected ``"output"``, its round ``"index"`` (0-based), the
  ``"count"`` of draws made, or (:class:`FirstAbove`) whether the threshold was
  ``"crossing"``-ed.

:func:`selection_mechanism` derives the exact output distribution.  The program::

    draw K ~ count;  S ← []
    for j = 1, 2, ..., K:            (j = 1, 2, ... without a count)
        x_j ~ candidate of round j;  S ← S + [x_j]
        FirstAbove: if score(x_j) ≥ τ: release x_j and stop
        with probability γ: stop
    release rule(S)  (⊥ if S is empty / no crossing / fewer than k draws)

has, with ``H ~ Geometric(γ)`` the round at which halting strikes, ``N = min(K, H)``
draws; its generating function is (sum the geometric series of halting per ``K = k``)::

    G_N(z) = (γz + (1-z) G((1-γ)z)) / (1 - (1-γ)z)      (G_N = G when γ = 0)

— Liu & Talwar 2019, "Private selection from private candidates", Theorems 3.4/3.5
(``K = T``) and Theorem 3.2 (no count: ``G_N(z) = γz/(1-(1-γ)z)``).  For independent,
identically distributed draws (one candidate, or ``pick="uniform"``) with
``F(o) = Q(ranked ≤ o)``, ``F⁻(o) = Q(ranked < o)``, ``p0(o) = Q(ranked > o)``, each a
sum of its own terms:

* best, ties by the candidates' total order (Liu & Talwar 2019, §3.2: ties broken "with
  the total order"): ``Pr[o] = G_N(F(o)) - G_N(F⁻(o))``, ``Pr[⊥] = G_N(0)`` (Papernot &
  Steinke 2022, "Hyperparameter tuning with Rényi differential privacy", ICLR, §2:
  the best of ``K`` draws is at most ``o`` with probability ``G(F(o))``);
* best, ties between equal scores to the latest or earliest round: the best score
  level ``s`` is drawn as above with ``A = Q(score ≤ s)``, ``B = Q(score < s)``, and the
  output within it in proportion to ``Q``: ``Pr[o] = Q(o) (G_N(A) - G_N(B)) / Q(score = s)``
  (Liu & Talwar 2019, §3's best of ``K`` with ties to a round: the round-``i`` winner
  needs earlier draws ``≤ s`` and later ones ``< s``, and ``Σ_i A^{i-1} B^{n-i} =
  (A^n - B^n)/(A - B)``);
* ``k``-th best: fewer than ``k`` draws rank above ``o`` with probability
  ``H(o) = Σ_{a<k} p0^a/a! · G_N^{(a)}(F)`` (``E[C(N, a) x^a y^{N-a}] = x^a G_N^{(a)}(y)/a!``),
  so ``Pr[o] = H(o) - H(o⁻)`` — Liu & Talwar 2019, App. B.3 for ``K = n``; the top ``k``
  likewise from the derivatives ``G_N^{(j)}``, ``j ≤ k`` (see ``_iid_topk``);
* first above ``τ`` (Liu & Talwar 2019, Theorem 3.1 for ``K = T``): with
  ``p_τ = Q(q ≥ τ)``, ``r = (1-p_τ)(1-γ)`` and ``S = Σ_{j≥1} P(K ≥ j) r^{j-1} =
  (1 - G(r))/(1 - r)`` (``E[K]`` when ``r = 1``, ``1/(1-r)`` without a count),
  ``Pr[x] = Q(x) S`` for ``q(x) ≥ τ`` and ``Pr[⊥] = (1-p_τ) γ S + G(r)``, each from its
  own closed form.

Candidates run in turn, and releases of the index or the count, are enumerated over the
finitely many rounds (the count must have finite support, :attr:`Count.most`).

What is exact: every probability is an exact sympy expression.  Rational parameters
and probabilities with the fixed, uniform, geometric, binomial and finite counts give
rationals; the truncated negative binomial with rational ``η`` gives algebraic numbers;
Poisson and logarithmic counts give ``exp``/``log`` of rationals, whose comparisons are
certified by enclosures.  What is refused: a program that may never stop (no count and
``γ = 0``; or a first-above rule where no draw passes, ``γ = 0`` and no count), the index
or count of an unbounded number of rounds (infinitely many outputs), candidates in turn
with more rounds than candidates, and combinations listed in :func:`selection_mechanism`.

>>> import sympy as sp
>>> from verifier.mechanism.neighbours import pair
>>> from verifier.programs.counts import poisson
>>> R = sp.Rational
>>> Q = FiniteMechanism(pair(), {"D": {0: R(1, 4), 1: R(3, 4)}, "D'": {0: R(3, 4), 1: R(1, 4)}})
>>> A = selection_mechanism(SelectionProgram((Q,), poisson(2), score="self"))
>>> A.outputs, A.p("D", 1)
(('⊥', 0, 1), 1 - exp(-3/2))
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic.exact import Sign, Verdict, approx, decide_le, decide_sign, exact, is_exactly_zero
from ..errors import InvalidMechanism, InvalidParameter, VerifierError
from ..mechanism.compose import same_neighbour_graph
from ..mechanism.model import Dataset, FiniteMechanism, Output
from ..mechanism.scores import numeric_score
from .counts import MAX_ROUNDS, Count, Z

__all__ = [
    "BOTTOM",
    "SCORE_READERS",
    "TIES",
    "RELEASES",
    "PICKS",
    "Best",
    "FirstAbove",
    "KthBest",
    "TopK",
    "Rule",
    "SelectionProgram",
    "effective_pgf",
    "selection_mechanism",
    "laws_equal",
    "simulate",
]

#: The "nothing selected" output; below every candidate (the ``⊥`` of Liu & Talwar 2019).
BOTTOM = "⊥"

#: Where the score sits in an output.
SCORE_READERS = ("last", "first", "self")
#: Tie rules of :class:`Best`.
TIES = ("order", "latest", "earliest")
#: What a program releases.
RELEASES = ("output", "index", "count", "crossing")
#: How several candidates are run.
PICKS = ("in_turn", "uniform")


def _rational(s: Fraction) -> sp.Rational:
    return sp.Rational(s.numerator, s.denominator)


def read_score(o: Output, where: str) -> Fraction:
    """The score of ``o`` read as ``where`` says (``"last"``, ``"first"`` or ``"self"``).

    ``"first"`` follows first components into nested tuples (``best_of``'s rule).

    >>> read_score(("a", "1/2"), "last"), read_score(((3, "x"), "y"), "first")
    (Fraction(1, 2), Fraction(3, 1))
    """
    value: Any = o
    if where == "last":
        value = o[-1] if isinstance(o, tuple) and o else o
    elif where == "first":
        while isinstance(value, tuple) and value:
            value = value[0]
    elif where != "self":
        raise InvalidParameter(f"score must be one of {', '.join(SCORE_READERS)}, got {where!r}")
    return numeric_score(
        value,
        o,
        f"the program reads the score from the {where!r} "
        + ("component of a tuple" if where != "self" else "output itself"),
    )


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Best:
    """Release the best draw.  ``ties``: ``"order"`` — candidates totally ordered by
    ``(score, position in the output order)`` (Liu & Talwar 2019, §3.2); ``"latest"`` /
    ``"earliest"`` — among equal scores the later / earlier round wins (``best_of``)."""

    ties: str = "order"

    def __post_init__(self) -> None:
        if self.ties not in TIES:
            raise InvalidParameter(f"ties must be one of {', '.join(TIES)}, got {self.ties!r}")


@dataclass(frozen=True)
class FirstAbove:
    """Release the first draw scoring at least ``tau`` (Liu & Talwar 2019, Theorem 3.1)."""

    tau: Any

    def __post_init__(self) -> None:
        try:
            t = exact(self.tau)
        except VerifierError as err:
            raise InvalidParameter(f"tau: {err}") from None
        if t.free_symbols:
            raise InvalidParameter(f"tau must be a number, got {t}")
        object.__setattr__(self, "tau", t)


@dataclass(frozen=True)
class KthBest:
    """Release the ``k``-th best draw in the candidates' total order (Liu & Talwar 2019,
    App. B.3), ``⊥`` when fewer than ``k`` draws were made."""

    k: int

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InvalidParameter(f"k must be a positive integer, got {self.k!r}")


@dataclass(frozen=True)
class TopK:
    """Release the ``k`` best draws, best first, as a tuple in the candidates' total
    order (``⊥`` when fewer than ``k`` draws were made)."""

    k: int

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InvalidParameter(f"k must be a positive integer, got {self.k!r}")


Rule = Best | FirstAbove | KthBest | TopK

#: Tuples of more outputs than this are refused by the top-k rule.
MAX_TOPK_OUTPUTS = 200_000


# ---------------------------------------------------------------------------
# the program
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SelectionProgram:
    """A selection program (see the module docstring).

    Parameters
    ----------
    candidates : sequence of FiniteMechanism
        On one neighbour graph.
    count : Count or None
        The number of rounds ``K``; ``None``: rounds until halting (``halting > 0``).
    rule : Best, FirstAbove, KthBest or TopK
    halting : number
        ``γ ∈ [0, 1]``, the halting probability after each draw that did not end the
        program.
    release : {"output", "index", "count", "crossing"}
    pick : {"in_turn", "uniform"}
        With several candidates: round ``j`` runs the ``j``-th, or a uniform one.
    score : {"last", "first", "self"}
        Where an output's score sits.
    """

    candidates: Sequence[FiniteMechanism]
    count: Count | None
    rule: Rule = field(default_factory=Best)
    halting: Any = 0
    release: str = "output"
    pick: str = "in_turn"
    score: str = "last"

    def __post_init__(self) -> None:
        cands = tuple(self.candidates)
        if not cands:
            raise InvalidParameter("candidates: a selection program needs at least one")
        for m in cands:
            if not isinstance(m, FiniteMechanism):
                raise InvalidParameter(
                    f"candidates must be FiniteMechanism, got {type(m).__name__}"
                )
            if BOTTOM in m.outputs:
                raise InvalidMechanism(f"candidate {m.name!r} already has the output {BOTTOM}")
        same_neighbour_graph(list(cands))
        object.__setattr__(self, "candidates", cands)
        if self.count is not None and not isinstance(self.count, Count):
            raise InvalidParameter(f"count must be a Count or None, got {self.count!r}")
        if not isinstance(self.rule, (Best, FirstAbove, KthBest, TopK)):
            raise InvalidParameter(
                f"rule must be Best, FirstAbove, KthBest or TopK, got {self.rule!r}"
            )
        try:
            h = exact(self.halting)
        except VerifierError as err:
            raise InvalidParameter(f"halting: {err}") from None
        lo, hi = decide_sign(h).sign, decide_sign(1 - h).sign
        if h.free_symbols or Sign.UNDECIDED in (lo, hi):
            raise InvalidParameter(f"halting must be a number in [0, 1], got {h}")
        if Sign.NEGATIVE in (lo, hi):
            raise InvalidParameter(f"halting must lie in [0, 1], got {h}")
        object.__setattr__(self, "halting", h)
        if self.count is None and lo is Sign.ZERO:
            raise InvalidParameter(
                "the program never stops: without a count (K) the halting probability must be > 0"
            )
        if self.release not in RELEASES:
            raise InvalidParameter(
                f"release must be one of {', '.join(RELEASES)}, got {self.release!r}"
            )
        if self.release == "crossing" and not isinstance(self.rule, FirstAbove):
            raise InvalidParameter("release 'crossing' needs the rule FirstAbove (a threshold)")
        if self.pick not in PICKS:
            raise InvalidParameter(f"pick must be one of {', '.join(PICKS)}, got {self.pick!r}")
        if self.score not in SCORE_READERS:
            raise InvalidParameter(
                f"score must be one of {', '.join(SCORE_READERS)}, got {self.score!r}"
            )
        if len(cands) > 1 and self.pick == "in_turn":
            most = self.rounds
            if most is None or most > len(cands):
                raise InvalidParameter(
                    f"candidates run in turn: the count allows "
                    f"{'unboundedly many' if most is None else most} rounds but there are "
                    f"{len(cands)} candidates (give a count with at most that many rounds, "
                    f"or pick = 'uniform')"
                )

    @property
    def rounds(self) -> int | None:
        """The largest number of draws (``None``: unbounded)."""
        if self.count is None:
            return None if self.halting != 1 else 1
        if self.halting == 1:
            return min(1, self.count.most) if self.count.most is not None else 1
        return self.count.most

    @property
    def iid(self) -> bool:
        """Whether the draws are independent and identically distributed."""
        return len(self.candidates) == 1 or self.pick == "uniform"


def effective_pgf(count: Count | None, halting: Any) -> sp.Expr:
    """``G_N(z)`` of the number of draws ``N = min(K, H)``, ``H ~ Geometric(γ)``
    (halting): ``(γz + (1-z) G((1-γ)z)) / (1 - (1-γ)z)`` (Liu & Talwar 2019, Theorems
    3.4/3.5 for ``K = T``; ``γz/(1-(1-γ)z)`` without a count, Theorem 3.2).

    >>> from verifier.programs.counts import fixed
    >>> sp.factor(effective_pgf(fixed(2), sp.Rational(1, 2)))   # N = 1 or 2, each 1/2
    z*(z + 1)/2
    """
    h = exact(halting)
    if count is None:
        return h * Z / (1 - (1 - h) * Z)
    if h == 0:
        return count.pgf
    return (h * Z + (1 - Z) * count.pgf.xreplace({Z: (1 - h) * Z})) / (1 - (1 - h) * Z)


# ---------------------------------------------------------------------------
# the candidates as one draw
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Draws:
    """The runs of a program: per round its mechanism; the ranked outputs; scores."""

    runs: tuple[FiniteMechanism, ...]  # one per round (in turn), or the one iid draw
    order: tuple[Output, ...]  # all candidate outputs, increasing (score, position)
    scores: dict[Output, Fraction]
    reader: Callable[[Output], Fraction]


def _mixture(p: SelectionProgram) -> FiniteMechanism:
    """Liu & Talwar 2019, §3's oracle: a uniform index ``i``, ``m ~ M_i(D)``; output
    ``((i, m), q_i(m))``, ordered by ``(q_i(m), i, position of m)``."""
    cands = p.candidates
    k = len(cands)
    label: dict[tuple[int, Output], Output] = {}
    keyed = []
    for i, m in enumerate(cands):
        for o in m.outputs:
            s = read_score(o, p.score)
            label[(i, o)] = ((i, o), _rational(s))
            keyed.append(((s, i, m.order_index(o)), label[(i, o)]))
    keyed.sort(key=lambda t: t[0])
    dists = {
        d: {
            label[(i, o)]: m.prob(d, o) / k
            for i, m in enumerate(cands)
            for o in m.outputs
            if m.prob(d, o) != 0
        }
        for d in cands[0].datasets
    }
    values: dict[sp.Symbol, sp.Expr] = {}
    for m in cands:
        values.update(m.values)
    return FiniteMechanism(
        cands[0].graph,
        dists,
        [o for _, o in keyed],
        values=values,
        name=f"Uniform[{', '.join(m.name for m in cands)}]",
        validate=False,
    )


def _draws(p: SelectionProgram) -> _Draws:
    if len(p.candidates) > 1 and p.pick == "uniform":
        mech = _mixture(p)

        def reader(o: Output) -> Fraction:
            return read_score(o, "last")

        runs: tuple[FiniteMechanism, ...] = (mech,)
    else:
        runs = tuple(p.candidates)

        def reader(o: Output) -> Fraction:
            return read_score(o, p.score)

    first: dict[Output, int] = {}
    for m in runs:
        for o in m.outputs:
            first.setdefault(o, len(first))
    scores = {o: reader(o) for o in first}
    order = tuple(sorted(first, key=lambda o: (scores[o], first[o])))
    return _Draws(runs, order, scores, reader)


# ---------------------------------------------------------------------------
# the exact law
# ---------------------------------------------------------------------------

#: ``(number of draws or None, winning round or None, output) -> probability``.
_Rich = dict[tuple[int | None, int | None, Output], sp.Expr]


def _add(row: dict[Any, sp.Expr], key: Any, value: sp.Expr) -> None:
    if value != 0:
        row[key] = row[key] + value if key in row else value


def _suffix(ps: list[sp.Expr]) -> list[sp.Expr]:
    """``[Σ_{j>i} ps[j] for i]``, each a sum of its own terms."""
    out = [sp.Integer(0)] * len(ps)
    acc = sp.Integer(0)
    for i in range(len(ps) - 1, -1, -1):
        out[i] = acc
        acc = acc + ps[i]
    return out


def _at(G: sp.Expr, x: sp.Expr) -> sp.Expr:
    return G.xreplace({Z: x})


def _passes(s: Fraction, tau: sp.Expr) -> bool:
    c = decide_le(tau, _rational(s))
    if c.verdict is Verdict.UNDECIDED:
        raise InvalidParameter(f"could not compare the score {s} with the threshold {tau}")
    return c.verdict is Verdict.HOLDS


def _iid_best(p: SelectionProgram, dr: _Draws, d: Dataset, GN: sp.Expr) -> dict[Output, sp.Expr]:
    Q = dr.runs[0]
    ps = [Q.p(d, o) for o in dr.order]
    row: dict[Output, sp.Expr] = {}
    _add(row, BOTTOM, _at(GN, sp.Integer(0)))
    assert isinstance(p.rule, Best)
    if p.rule.ties == "order":
        below = sp.Integer(0)
        above = _suffix(ps)
        for i, o in enumerate(dr.order):
            if ps[i] != 0:
                F = sp.Integer(1) if above[i] == 0 else below + ps[i]
                row[o] = _at(GN, F) - _at(GN, below)
            below = below + ps[i]
        return row
    # ties to a round: the best score level, then the output in proportion to Q
    levels: dict[Fraction, list[int]] = {}
    for i, o in enumerate(dr.order):
        levels.setdefault(dr.scores[o], []).append(i)
    B = sp.Integer(0)
    keys = sorted(levels)
    for n, s in enumerate(keys):
        L = sp.Add(*[ps[i] for i in levels[s]])
        higher = sp.Add(*[ps[i] for t in keys[n + 1 :] for i in levels[t]])
        A = sp.Integer(1) if higher == 0 else B + L
        if L != 0:
            pick = (_at(GN, A) - _at(GN, B)) / L
            for i in levels[s]:
                if ps[i] != 0:
                    row[dr.order[i]] = ps[i] * pick
        B = B + L
    return row


def _iid_kth(p: SelectionProgram, dr: _Draws, d: Dataset, GN: sp.Expr) -> dict[Output, sp.Expr]:
    assert isinstance(p.rule, KthBest)
    k = p.rule.k
    derivs = [GN]
    for _ in range(1, k):
        derivs.append(sp.diff(derivs[-1], Z))

    def H(x: sp.Expr, y: sp.Expr) -> sp.Expr:
        return sp.Add(*[x**a / math.factorial(a) * _at(derivs[a], y) for a in range(k)])

    Q = dr.runs[0]
    ps = [Q.p(d, o) for o in dr.order]
    row: dict[Output, sp.Expr] = {}
    _add(
        row, BOTTOM, sp.Add(*[_at(derivs[a], sp.Integer(0)) / math.factorial(a) for a in range(k)])
    )
    below = sp.Integer(0)
    aboves = _suffix(ps)
    for i, o in enumerate(dr.order):
        above = aboves[i]
        if ps[i] != 0:
            F = sp.Integer(1) if above == 0 else below + ps[i]
            row[o] = H(above, F) - H(above + ps[i], below)
        below = below + ps[i]
    return row


def _multisets(n: int, k: int) -> list[tuple[int, ...]]:
    """Positions ``0..n-1`` taken ``k`` at a time with repetition, each tuple
    decreasing (best first)."""
    return [tuple(reversed(c)) for c in itertools.combinations_with_replacement(range(n), k)]


def _iid_topk(p: SelectionProgram, dr: _Draws, d: Dataset, GN: sp.Expr) -> dict[Output, sp.Expr]:
    """The ``k`` best of ``N`` draws.  For the tuple with distinct outputs
    ``v_1 > ... > v_m`` of multiplicities ``c_i`` (``k' = k - c_m``), given ``N = n``:
    exactly ``c_i`` draws equal ``v_i`` (``i < m``), at least ``c_m`` equal ``v_m`` and the
    rest below ``v_m``.  Summed over ``n`` with ``E[n!/(n-j)! y^{n-j}] = G_N^{(j)}(y)``
    and Taylor's formula ``Σ_{e≥0} q^e/e! G^{(k'+e)}(F⁻) = G^{(k')}(F)``:

        ``Pr = Π_{i<m} q_i^{c_i}/c_i! · (G_N^{(k')}(F(v_m)) - Σ_{e<c_m} q_m^e/e! G_N^{(k'+e)}(F⁻(v_m)))``

    (Liu & Talwar 2019, App. B.3's order statistics, with a random count as in
    Papernot & Steinke 2022, §2)."""
    assert isinstance(p.rule, TopK)
    k = p.rule.k
    derivs = [GN]
    for _ in range(k):
        derivs.append(sp.diff(derivs[-1], Z))
    Q = dr.runs[0]
    ps = [Q.p(d, o) for o in dr.order]
    aboves = _suffix(ps)
    belows: list[sp.Expr] = []
    acc = sp.Integer(0)
    for q in ps:
        belows.append(acc)
        acc = acc + q
    row: dict[Output, sp.Expr] = {}
    _add(
        row, BOTTOM, sp.Add(*[_at(derivs[a], sp.Integer(0)) / math.factorial(a) for a in range(k)])
    )
    support = [i for i, q in enumerate(ps) if q != 0]
    for combo in _multisets(len(support), k):
        pos = [support[i] for i in combo]
        mult = Counter(pos)
        low = pos[-1]
        cm = mult[low]
        kp = k - cm
        prod = sp.Integer(1)
        for i, c in mult.items():
            if i != low:
                prod = prod * ps[i] ** c / math.factorial(c)
        F = sp.Integer(1) if aboves[low] == 0 else belows[low] + ps[low]
        inner = _at(derivs[kp], F) - sp.Add(
            *[
                ps[low] ** e / math.factorial(e) * _at(derivs[kp + e], belows[low])
                for e in range(cm)
            ]
        )
        _add(row, tuple(dr.order[i] for i in pos), prod * inner)
    return row


def _iid_threshold(
    p: SelectionProgram, dr: _Draws, d: Dataset, passing: list[Output], failing: list[Output]
) -> dict[Output, sp.Expr]:
    assert isinstance(p.rule, FirstAbove)
    Q = dr.runs[0]
    h = p.halting
    fail = sp.Add(*[Q.p(d, o) for o in failing])  # 1 - p_τ, its own sum
    r = fail * (1 - h)
    if p.count is None:
        if r == 1:
            raise InvalidParameter(
                f"the program never stops at {d!r}: no candidate reaches tau and halting = 0"
            )
        S, exhausted = 1 / (1 - r), sp.Integer(0)
    elif r == 1:
        S, exhausted = p.count.mean, sp.Integer(1)
    else:
        Gr = p.count.at(r)
        S, exhausted = (1 - Gr) / (1 - r), Gr
    row: dict[Output, sp.Expr] = {}
    _add(row, BOTTOM, fail * h * S + exhausted)
    for o in passing:
        _add(row, o, Q.p(d, o) * S)
    return row


def _rounds_law(p: SelectionProgram) -> list[sp.Expr]:
    """``P(N = n)`` for ``n = 0..rounds`` (``N = min(K, H)``, finite support)."""
    most = p.rounds
    if most is None:
        raise InvalidParameter(
            f"release {p.release!r}: the number of rounds is unbounded under "
            f"{p.count or 'halting alone'}, so the law has infinitely many outputs; give a "
            f"count with finite support (fixed, uniform, binomial, finite)"
        )
    if most > MAX_ROUNDS:
        raise InvalidParameter(f"{most} rounds exceed the limit of {MAX_ROUNDS}")
    h = p.halting
    if p.count is None:  # halting = 1: one draw
        return [sp.Integer(0), sp.Integer(1)]
    c = p.count
    law = [c.pmf(0)]
    if h == 1 and c.most is None:  # one draw unless K = 0: P(K >= 1) = 1 - G(0)
        return [law[0], sp.Integer(1) if c.least >= 1 else 1 - c.at(0)]
    assert c.most is not None
    tails = _tails(c, c.most)
    for n in range(1, most + 1):
        stop_here = c.pmf(n) if n == c.most else c.pmf(n) + h * tails[n + 1]
        law.append((1 - h) ** (n - 1) * stop_here)
    return law


def _cumulative(
    m: FiniteMechanism, d: Dataset, key: Callable[[Output], Any], keys: Sequence[Any]
) -> tuple[dict[Any, sp.Expr], dict[Any, sp.Expr]]:
    """``(M(key ≤ k), M(key < k))`` for every ``k`` of ``keys`` (increasing): prefix sums
    of ``m``'s own terms, exactly 1 where every outcome is counted."""
    pts = sorted(((key(o), m.p(d, o)) for o in m.outputs if m.p(d, o) != 0), key=lambda t: t[0])
    le: dict[Any, sp.Expr] = {}
    lt: dict[Any, sp.Expr] = {}
    acc, taken, i = sp.Integer(0), 0, 0
    for k in keys:
        lt[k] = sp.Integer(1) if taken == len(pts) else acc
        while i < len(pts) and pts[i][0] <= k:
            acc = acc + pts[i][1]
            taken += 1
            i += 1
        le[k] = sp.Integer(1) if taken == len(pts) else acc
    return le, lt


def _finite_best(p: SelectionProgram, dr: _Draws, d: Dataset) -> _Rich:
    """The best of runs ``0..N-1``: the round-``i`` winner with output ``o`` of key ``k``
    needs the earlier runs below ``k`` and the later ones below or at ``k`` (strictness
    by the tie rule) — ``best_of``'s product formula (Liu & Talwar 2019, §3), summed over
    ``N = n`` with ``W_i = Σ_{n>i} P(N=n) Π_{i<j<n} b_j = P(N=i+1) + b_{i+1} W_{i+1}``."""
    assert isinstance(p.rule, Best)
    law = _rounds_law(p)
    most = len(law) - 1
    runs = dr.runs if len(dr.runs) > 1 else dr.runs * max(most, 1)
    runs = runs[: max(most, 1)]
    ties = p.rule.ties
    pos = {o: i for i, o in enumerate(dr.order)}
    if ties == "order":
        key: Callable[[Output], Any] = pos.__getitem__
    else:
        key = dr.scores.__getitem__
    earlier_strict = ties != "latest"
    later_strict = ties == "latest"
    keys = sorted({key(o) for o in dr.order})
    cache: dict[int, tuple[dict[Any, sp.Expr], dict[Any, sp.Expr]]] = {}
    cums = []
    for m in runs:
        if id(m) not in cache:
            cache[id(m)] = _cumulative(m, d, key, keys)
        cums.append(cache[id(m)])
    by_key: dict[Any, list[tuple[int, Output, sp.Expr]]] = {}
    for i, m in enumerate(runs):
        for o in m.outputs:
            po = m.p(d, o)
            if po != 0:
                by_key.setdefault(key(o), []).append((i, o, po))
    rich: _Rich = {}
    _add(rich, (None, None, BOTTOM), law[0])
    n_runs = len(runs)
    for k, winners in by_key.items():
        a = [c[1][k] if earlier_strict else c[0][k] for c in cums]
        b = [c[1][k] if later_strict else c[0][k] for c in cums]
        W = [sp.Integer(0)] * n_runs
        W[n_runs - 1] = law[n_runs] if n_runs < len(law) else sp.Integer(0)
        for i in range(n_runs - 2, -1, -1):
            W[i] = law[i + 1] + b[i + 1] * W[i + 1]
        A = [sp.Integer(1)] * n_runs
        for i in range(1, n_runs):
            A[i] = A[i - 1] * a[i - 1]
        for i, o, po in winners:
            _add(rich, (None, i, o), po * A[i] * W[i])
    return rich


def _finite_threshold(p: SelectionProgram, dr: _Draws, d: Dataset) -> _Rich:
    assert isinstance(p.rule, FirstAbove)
    tau = p.rule.tau
    most = p.rounds
    if most is None or p.count is None:
        raise InvalidParameter(
            f"release {p.release!r}: the number of rounds is unbounded, so the law has "
            f"infinitely many outputs; give a count with finite support"
        )
    c, h = p.count, p.halting
    runs = dr.runs if len(dr.runs) > 1 else dr.runs * max(most, 1)
    passes = {o: _passes(dr.scores[o], tau) for o in dr.order}
    pmf = [c.pmf(j) for j in range(most + 1)]
    tails = _tails(c, most)
    rich: _Rich = {}
    reach = sp.Integer(1)  # Π_{i<j} (1 - p_τ,i)(1 - γ)
    for j in range(most + 1):
        _add(rich, (j, None, BOTTOM), pmf[j] * reach)
        if j == most or reach == 0:
            break
        m = runs[j]
        fail = sp.Add(*[m.p(d, o) for o in m.outputs if not passes[o]])
        for o in m.outputs:
            if passes[o]:
                _add(rich, (j + 1, j, o), tails[j + 1] * reach * m.p(d, o))
        _add(rich, (j + 1, None, BOTTOM), tails[j + 1] * reach * fail * h)
        reach = reach * fail * (1 - h)
    return rich


def _tails(c: Count, most: int) -> list[sp.Expr]:
    """``P(K >= j)`` for ``j = 0..most``, each a sum of its own terms; for a count
    without finite support only ``most <= 1`` occurs (halting 1), where
    ``P(K >= 1) = 1 - G(0)`` (or 1 when ``K >= 1`` always)."""
    if c.most is None:
        one = sp.Integer(1) if c.least >= 1 else 1 - c.at(0)
        return [sp.Integer(1), one][: most + 1]
    out = [sp.Integer(0)] * (most + 1)
    acc = sp.Integer(0)
    for j in range(c.most, -1, -1):
        acc = acc + c.pmf(j)
        if j <= most:
            out[j] = sp.Integer(1) if j <= c.least else acc
    return out


def _project(rich: _Rich, release: str) -> dict[Output, sp.Expr]:
    row: dict[Output, sp.Expr] = {}
    for (n, i, o), pr in rich.items():
        if release == "output":
            _add(row, o, pr)
        elif release == "index":
            _add(row, BOTTOM if i is None else i, pr)
        elif release == "count":
            _add(row, n, pr)
        else:
            _add(row, o != BOTTOM, pr)
    return row


def selection_mechanism(program: SelectionProgram, name: str | None = None) -> FiniteMechanism:
    """The exact output distribution of ``program`` (see the module docstring for the
    formulas and what is refused).

    Refused by name: the index or count of an unbounded number of rounds; the index of
    the ``k``-th best; a first-above rule that may never stop at some dataset.
    """
    p = program
    dr = _draws(p)
    rule = p.rule
    datasets = p.candidates[0].datasets
    rows: dict[Dataset, dict[Output, sp.Expr]] = {}
    passing: list[Output] = []
    if isinstance(rule, FirstAbove):
        passing = [o for o in dr.order if _passes(dr.scores[o], rule.tau)]
        failing = [o for o in dr.order if o not in set(passing)]
    finite_path = not p.iid or p.release in ("index", "count")
    if isinstance(rule, (KthBest, TopK)) and p.release == "index":
        raise InvalidParameter(
            f"release 'index' of the {'k-th best draw' if isinstance(rule, KthBest) else 'top k'} "
            f"is not supported"
        )
    if isinstance(rule, (KthBest, TopK)) and not p.iid:
        raise InvalidParameter(
            "the k-th best and top-k rules need identically distributed draws (one candidate, "
            "or pick = 'uniform')"
        )
    if isinstance(rule, TopK) and p.release == "output":
        n = len(dr.order)
        size = math.comb(n + rule.k - 1, rule.k)
        if size > MAX_TOPK_OUTPUTS:
            raise InvalidParameter(
                f"the top {rule.k} of {n} outputs are {size} tuples (limit {MAX_TOPK_OUTPUTS})"
            )
    for d in datasets:
        if isinstance(rule, (Best, KthBest, TopK)):
            if p.release == "count":
                law = _rounds_law(p)
                rows[d] = {n: q for n, q in enumerate(law) if q != 0}
            elif finite_path:
                rows[d] = _project(_finite_best(p, dr, d), p.release)
            elif isinstance(rule, Best):
                rows[d] = _iid_best(p, dr, d, effective_pgf(p.count, p.halting))
            elif isinstance(rule, KthBest):
                rows[d] = _iid_kth(p, dr, d, effective_pgf(p.count, p.halting))
            else:
                rows[d] = _iid_topk(p, dr, d, effective_pgf(p.count, p.halting))
        else:
            if finite_path:
                rows[d] = _project(_finite_threshold(p, dr, d), p.release)
            else:
                row = _iid_threshold(p, dr, d, passing, failing)
                rows[d] = _project({(0, None, o): q for o, q in row.items()}, p.release)
    outputs = _outputs(p, dr, rows, passing)
    values: dict[sp.Symbol, sp.Expr] = {}
    for m in p.candidates:
        values.update(m.values)
    label = name or f"Selection[{', '.join(m.name for m in p.candidates)}]"
    return FiniteMechanism(
        p.candidates[0].graph, rows, outputs, values=values, name=label, validate=False
    )


def _outputs(
    p: SelectionProgram,
    dr: _Draws,
    rows: dict[Dataset, dict[Output, sp.Expr]],
    passing: list[Output],
) -> list[Output]:
    seen: set[Hashable] = set()
    for row in rows.values():
        seen.update(row)
    # ⊥ is an output of every first-above program (Liu & Talwar 2019, Theorem 3.1), and
    # of the others where it has positive probability
    bottom: list[Output] = [BOTTOM] if BOTTOM in seen or isinstance(p.rule, FirstAbove) else []
    if p.release == "output":
        if isinstance(p.rule, TopK):
            tuples: list[Output] = [
                tuple(dr.order[i] for i in c) for c in _multisets(len(dr.order), p.rule.k)
            ]
            return bottom + tuples
        body = passing if isinstance(p.rule, FirstAbove) else list(dr.order)
        return bottom + list(body)
    if p.release == "crossing":
        return [False, True]
    most = p.rounds
    assert most is not None
    if p.release == "index":
        return bottom + list(range(most))
    return [n for n in range(most + 1) if n in seen]


# ---------------------------------------------------------------------------
# equality in law, and the program run as written (a seeded simulation)
# ---------------------------------------------------------------------------


def laws_equal(a: FiniteMechanism, b: FiniteMechanism) -> Verdict:
    """Whether ``a`` and ``b`` have the same datasets, the same output order and
    exactly equal probabilities: ``HOLDS`` when every difference is proved zero,
    ``VIOLATED`` when one is proved nonzero (or the shapes differ), else ``UNDECIDED``.
    """
    if set(a.datasets) != set(b.datasets) or tuple(a.outputs) != tuple(b.outputs):
        return Verdict.VIOLATED
    verdict = Verdict.HOLDS
    for d in a.datasets:
        for o in a.outputs:
            diff = a.p(d, o) - b.p(d, o)
            z = is_exactly_zero(diff)
            if z is True:
                continue
            s = decide_sign(diff).sign
            if s in (Sign.POSITIVE, Sign.NEGATIVE) or z is False:
                return Verdict.VIOLATED
            verdict = Verdict.UNDECIDED
    return verdict


def _sampler(weights: list[float], rng: random.Random) -> Callable[[], int]:
    total = math.fsum(weights)
    cum = []
    acc = 0.0
    for w in weights:
        acc += w / total
        cum.append(acc)

    def draw() -> int:
        u = rng.random()
        lo, hi = 0, len(cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] < u:
                lo = mid + 1
            else:
                hi = mid
        return lo

    return draw


def _count_sampler(c: Count | None, rng: random.Random) -> Callable[[], int | None]:
    if c is None:
        return lambda: None
    ks: list[int] = []
    ws: list[float] = []
    mass = 0.0
    k = c.least
    while (c.most is None or k <= c.most) and (c.most is not None or mass < 1 - 1e-13):
        w = approx(c.pmf(k))
        ks.append(k)
        ws.append(w)
        mass += w
        k += 1
        if k - c.least > 10**6:  # pragma: no cover - a guard
            break
    draw = _sampler(ws, rng)
    return lambda: ks[draw()]


def simulate(program: SelectionProgram, dataset: Dataset, n: int, seed: int) -> Counter[Output]:
    """Run ``program`` ``n`` times at ``dataset`` as written (the loop of the module
    docstring, with float sampling and a seeded ``random.Random``) and count the
    releases — an independent check of :func:`selection_mechanism`, never a decision."""
    p = program
    rng = random.Random(seed)
    dr = _draws(p)
    pos = {o: i for i, o in enumerate(dr.order)}
    uniform = len(p.candidates) > 1 and p.pick == "uniform"
    samplers = []
    for i, m in enumerate(p.candidates):
        outs = [o for o in m.outputs if m.p(dataset, o) != 0]
        draw = _sampler([approx(m.p(dataset, o)) for o in outs], rng)
        if uniform:  # Liu & Talwar 2019, §3: the label ((i, m), q_i(m))
            outs = [((i, o), _rational(read_score(o, p.score))) for o in outs]
        samplers.append((outs, draw))
    which = _sampler([1.0] * len(samplers), rng)
    count = _count_sampler(p.count, rng)
    h = approx(p.halting)
    rule = p.rule
    out: Counter[Output] = Counter()
    for _ in range(n):
        K = count()
        best: tuple[Any, int, Output] | None = None
        drawn: list[Output] = []
        result: tuple[int | None, Output] | None = None
        j = 0
        while K is None or j < K:
            if uniform:
                outs, draw = samplers[which()]
            else:
                outs, draw = samplers[0] if len(samplers) == 1 else samplers[j]
            o = outs[draw()]
            if isinstance(rule, FirstAbove):
                if _passes(dr.scores[o], rule.tau):
                    result = (j, o)
                    j += 1
                    break
            elif isinstance(rule, (KthBest, TopK)):
                drawn.append(o)
            else:
                if rule.ties == "order":
                    k: Any = pos[o]
                    wins = best is None or k > best[0]
                else:
                    k = dr.scores[o]
                    wins = best is None or k > best[0] or (k == best[0] and rule.ties == "latest")
                if wins:
                    best = (k, j, o)
            j += 1
            if rng.random() < h:
                break
        if isinstance(rule, Best) and best is not None:
            result = (best[1], best[2])
        if isinstance(rule, KthBest) and len(drawn) >= rule.k:
            result = (None, sorted(drawn, key=pos.__getitem__, reverse=True)[rule.k - 1])
        if isinstance(rule, TopK) and len(drawn) >= rule.k:
            result = (None, tuple(sorted(drawn, key=pos.__getitem__, reverse=True)[: rule.k]))
        if p.release == "output":
            out[BOTTOM if result is None else result[1]] += 1
        elif p.release == "index":
            out[BOTTOM if result is None else result[0]] += 1
        elif p.release == "count":
            out[j] += 1
        else:
            out[result is not None] += 1
    return out
