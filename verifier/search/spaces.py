"""Instance spaces for the built-in algorithms, with exact rational instances.

* :class:`PairMech` — a mechanism on the neighbouring pair ``D ~ D'`` with positive
  rational probabilities ``P`` (at ``D``) and ``P'`` (at ``D'``) that is *exactly*
  ``log(a)``-DP: every ratio ``P'(o)/P(o)`` lies in ``[1/a, a]`` (``a = e^ε``
  rational, so every probability derived from it stays rational).  Random pairs
  come from :func:`random_pair`; the extreme points that carry the worst cases of
  selection algorithms — likelihood ratios at ``e^{±ε}`` on every output but one,
  randomized-response-like pairs — from :func:`extreme_pair`.  Both go through
  :func:`project`, which maps any ratio vector in the box ``[1/a, a]^m`` to one
  with ``Σ_o P(o) r(o) = 1``, exactly.
* :class:`Selection` / :class:`SelectionSpace` — lists of such mechanisms with the
  parameters of a selection algorithm (Ghazi et al.'s ``ε'`` and threshold,
  Liu–Talwar's ``γ``, a Rényi order).
* :class:`Table` / :class:`TableSpace` — sensitivity-1 integer function tables on
  a pair (Ghazi et al. 2025, Algorithm 1).
* :class:`QueryPair` / :class:`QueryPairSpace` — neighbouring query-answer vectors
  (sparse-vector programs).

The neighbouring relation is a single pair: every per-pair privacy check of these
algorithms depends on the two datasets of the pair only, so a violation on any
graph is a violation on one of its edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random

from gmpy2 import mpq

from ..arithmetic.exact import to_fraction, to_mpq
from ..errors import InvalidParameter
from .core import InstanceSpace, instance_type, iter_unique

__all__ = [
    "PURE_BUDGETS",
    "PRIME_BUDGETS",
    "GAMMAS",
    "PairMech",
    "is_dp",
    "project",
    "random_distribution",
    "random_pair",
    "extreme_pair",
    "partner",
    "perturb_pair",
    "rebudget",
    "merge_outputs",
    "simplify_pair",
    "Selection",
    "SelectionSpace",
    "Table",
    "TableSpace",
    "QueryPair",
    "QueryPairSpace",
    "bits",
]

F = Fraction

#: Budgets ``a = e^ε`` of base mechanisms (rational, so everything stays rational).
PURE_BUDGETS: tuple[Fraction, ...] = (F(11, 10), F(5, 4), F(3, 2), F(2), F(3), F(4), F(10), F(100))
#: Budgets ``e^{ε'}`` of Ghazi et al.'s extra budget ``ε'``.
PRIME_BUDGETS: tuple[Fraction, ...] = (F(11, 10), F(5, 4), F(3, 2), F(2), F(3), F(4))
#: Stopping probabilities of Liu & Talwar's random stopping.
GAMMAS: tuple[Fraction, ...] = (F(1, 2), F(1, 4), F(1, 10), F(1, 100), F(1, 1000))

# fmt: off
SIMPLE_DENOMINATORS = (
    2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 50, 64, 100, 128, 200, 256, 500, 1000, 2000,
    5000, 10**4, 10**5, 10**6,
)
# fmt: on


def bits(x: Fraction | int) -> float:
    """Size of a rational in bits (numerator and denominator)."""
    f = Fraction(x)
    return math.log2(abs(f.numerator) + 1) + math.log2(f.denominator)


# ---------------------------------------------------------------------------
# pairs of distributions
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class PairMech:
    """A mechanism on ``D ~ D'``: ``p`` at ``D``, ``q`` at ``D'``, outputs
    ``0..m-1`` (in this order: output ``o`` has score ``o``), exactly
    ``log(a)``-DP with positive probabilities."""

    a: Fraction
    p: tuple[Fraction, ...]
    q: tuple[Fraction, ...]

    @property
    def m(self) -> int:
        return len(self.p)

    def check(self) -> None:
        """Raise unless the pair is valid (sums 1, positive, ratios in [1/a, a])."""
        if len(self.p) != len(self.q) or not self.p:
            raise InvalidParameter("a pair mechanism needs two distributions of one length")
        if sum(self.p) != 1 or sum(self.q) != 1:
            raise InvalidParameter("a distribution of a pair mechanism does not sum to 1")
        if not is_dp(self.p, self.q, self.a):
            raise InvalidParameter(f"the pair is not log({self.a})-DP")

    def ratio(self) -> Fraction:
        """The exact largest likelihood ratio ``e^{pure ε}``."""
        return max(max(x / y, y / x) for x, y in zip(self.p, self.q, strict=True))


def is_dp(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction) -> bool:
    """Exactly: positive probabilities with every ratio in ``[1/a, a]``."""
    for x, y in zip(p, q, strict=True):
        if x <= 0 or y <= 0 or x > a * y or y > a * x:
            return False
    return True


def project(p: Sequence[Fraction], r: Sequence[Fraction], a: Fraction) -> tuple[Fraction, ...]:
    """``q = p·r'`` with ``r'`` in ``[1/a, a]^m`` and ``Σ q = 1``, exactly.

    ``r`` (in the box) is moved toward ``1/a`` (if ``Σ p r > 1``) or toward ``a``
    (if ``< 1``) by the one ratio ``θ`` that makes the sum 1, so the result is an
    exactly ``log(a)``-DP partner of ``p``.

    >>> project((F(1, 2), F(1, 2)), (F(2), F(2)), F(2))
    (Fraction(1, 2), Fraction(1, 2))
    """
    # in GMP rationals (a search projects thousands of candidates), Fractions out
    A = to_mpq(a)
    lo, hi = 1 / A, A
    P = [to_mpq(x) for x in p]
    rr = [min(max(mpq(F(x)), lo), hi) for x in r]
    s = sum(pi * ri for pi, ri in zip(P, rr, strict=True))
    if s > 1:
        th = (s - 1) / (s - lo)
        rr = [ri - th * (ri - lo) for ri in rr]
    elif s < 1:
        th = (1 - s) / (hi - s)
        rr = [ri + th * (hi - ri) for ri in rr]
    return tuple(to_fraction(pi * ri) for pi, ri in zip(P, rr, strict=True))


def random_weights(xs: Sequence[float], total: int) -> tuple[Fraction, ...]:
    s = sum(xs)
    w = [max(1, round(x / s * total)) for x in xs]
    n = sum(w)
    return tuple(F(v, n) for v in w)


def random_distribution(rng: Random, m: int) -> tuple[Fraction, ...]:
    """A random positive rational distribution on ``m`` points; skewed ones (tiny
    masses, one dominant output) are common, since worst cases sit there."""
    conc = rng.choice((0.25, 0.5, 1.0, 3.0))
    xs = [max(rng.gammavariate(conc, 1.0), 1e-6) for _ in range(m)]
    return random_weights(xs, rng.choice((10, 20, 100, 1000, 10000)))


def _ratio_value(rng: Random, a: Fraction) -> Fraction:
    u = rng.random()
    if u < 0.35:
        return a
    if u < 0.7:
        return 1 / a
    e = math.log(a)
    r = F(math.exp(e * (2 * rng.random() - 1))).limit_denominator(64)
    return min(max(r, 1 / a), a)


def random_pair(rng: Random, m: int, a: Fraction) -> PairMech:
    """A random exactly ``log(a)``-DP pair on ``m`` outputs."""
    p = random_distribution(rng, m)
    if rng.random() < 0.05:
        return PairMech(a, p, p)  # a mechanism ignoring the data
    r = [_ratio_value(rng, a) for _ in range(m)]
    return PairMech(a, p, project(p, r, a))


def _extreme_partner(
    rng: Random, p: Sequence[Fraction], a: Fraction
) -> tuple[Fraction, ...] | None:
    """One try at a ``q`` with ratios ``q(o)/p(o) = a^{±1}`` (random signs) on every
    output but a random one, which absorbs the normalisation; ``None`` when that
    output's ratio falls outside ``[1/a, a]``."""
    m = len(p)
    signs = [rng.random() < 0.5 for _ in range(m)]
    free = rng.randrange(m)
    A = to_mpq(a)
    P = [to_mpq(x) for x in p]
    rest = sum(P[o] * (A if signs[o] else 1 / A) for o in range(m) if o != free)
    rf = (1 - rest) / P[free]
    if not 1 / A <= rf <= A:
        return None
    r = [A if signs[o] else 1 / A for o in range(m)]
    r[free] = rf
    return tuple(to_fraction(pi * ri) for pi, ri in zip(P, r, strict=True))


def partner(rng: Random, p: Sequence[Fraction], a: Fraction, extreme: bool) -> tuple[Fraction, ...]:
    """A distribution ``q`` with ``(p, q)`` exactly ``log(a)``-DP: random ratios
    projected onto the normalisation, or (``extreme``) ratios ``a^{±1}`` on every
    output but one, which absorbs the normalisation (projected ratios if no sign
    pattern tried works)."""
    m = len(p)
    if extreme:
        for _ in range(8):
            q = _extreme_partner(rng, p, a)
            if q is not None:
                return q
    return project(p, [_ratio_value(rng, a) for _ in range(m)], a)


def extreme_pair(rng: Random, m: int, a: Fraction) -> PairMech:
    """An extreme point: ``P'(o)/P(o) = a^{±1}`` on every output but (at most) one,
    which absorbs the normalisation; for ``m = 2`` with a balanced ``P`` this is
    randomized response."""
    for _ in range(12):
        p = random_distribution(rng, m)
        if m == 2 and rng.random() < 0.3:
            p = (a / (1 + a), 1 / (1 + a)) if rng.random() < 0.5 else (1 / (1 + a), a / (1 + a))
        q = _extreme_partner(rng, p, a)
        if q is not None:
            return PairMech(a, p, q)
    return random_pair(rng, m, a)


def _ratios(pm: PairMech, limit: int = 1000) -> list[Fraction]:
    lo, hi = 1 / pm.a, pm.a
    return [
        min(max((y / x).limit_denominator(limit), lo), hi) for x, y in zip(pm.p, pm.q, strict=True)
    ]


def perturb_pair(pm: PairMech, rng: Random, scale: float) -> PairMech:
    """A local move: reweight one output of ``P``, move one likelihood ratio (in log
    space, within ``[1/a, a]``), snap one ratio to ``a^{±1}``, or swap two outputs
    (their scores) — then project back to an exact ``log(a)``-DP pair."""
    m = pm.m
    r = _ratios(pm)
    p = list(pm.p)
    kind = rng.randrange(4) if m > 1 else rng.randrange(3)
    o = rng.randrange(m)
    if kind == 0:
        xs = [float(v) for v in p]
        xs[o] *= math.exp(scale * rng.gauss(0.0, 1.0))
        p = list(random_weights(xs, 10000))
    elif kind == 1:
        e = math.log(pm.a)
        v = math.log(float(r[o])) + scale * e * rng.gauss(0.0, 1.0)
        r[o] = F(math.exp(max(-e, min(e, v)))).limit_denominator(1000)
    elif kind == 2:
        r[o] = pm.a if rng.random() < 0.5 else 1 / pm.a
    else:
        o2 = rng.randrange(m - 1)
        o2 = o2 + 1 if o2 >= o else o2
        p[o], p[o2] = p[o2], p[o]
        r[o], r[o2] = r[o2], r[o]
    return PairMech(pm.a, tuple(p), project(p, r, pm.a))


def rebudget(pm: PairMech, a: Fraction) -> PairMech:
    """The same ``P`` with its ratios clamped into ``[1/a, a]`` and projected."""
    return PairMech(a, pm.p, project(pm.p, _ratios(pm), a))


def merge_outputs(pm: PairMech, o: int) -> PairMech:
    """Merge outputs ``o`` and ``o + 1`` (post-processing: still ``log(a)``-DP)."""
    p = (*pm.p[:o], pm.p[o] + pm.p[o + 1], *pm.p[o + 2 :])
    q = (*pm.q[:o], pm.q[o] + pm.q[o + 1], *pm.q[o + 2 :])
    return PairMech(pm.a, p, q)


def round_to(d: Sequence[Fraction], n: int) -> tuple[Fraction, ...] | None:
    w = [max(1, round(x * n)) for x in d]
    excess = sum(w) - n
    i = max(range(len(w)), key=lambda j: w[j])
    w[i] -= excess
    if w[i] < 1:
        return None
    return tuple(F(v, n) for v in w)


def simplify_pair(pm: PairMech) -> list[PairMech]:
    """Variants of ``pm`` with small denominators that are still exactly
    ``log(a)``-DP, simplest first."""
    out: list[PairMech] = []
    for n in SIMPLE_DENOMINATORS:
        if n < pm.m:
            continue
        p, q = round_to(pm.p, n), round_to(pm.q, n)
        if p is not None and q is not None and is_dp(p, q, pm.a):
            out.append(PairMech(pm.a, p, q))
        for pp, qq in ((p, pm.q), (pm.p, q)):
            if pp is not None and qq is not None and is_dp(pp, qq, pm.a):
                out.append(PairMech(pm.a, pp, qq))
        if p is not None:
            r = [
                min(max((y / x).limit_denominator(8), 1 / pm.a), pm.a)
                for x, y in zip(p, pm.q, strict=True)
            ]
            q2 = project(p, r, pm.a)
            if is_dp(p, q2, pm.a):
                out.append(PairMech(pm.a, p, q2))
    return out


def pair_bits(pm: PairMech) -> float:
    return sum(bits(x) for x in (*pm.p, *pm.q)) + bits(pm.a)


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def describe_pair(pm: PairMech) -> str:
    ps = ", ".join(_fmt(x) for x in pm.p)
    qs = ", ".join(_fmt(x) for x in pm.q)
    return f"[log({_fmt(pm.a)})-DP: D ({ps}), D' ({qs})]"


def _neighbour_in(grid: Sequence[Fraction], value: Fraction, rng: Random) -> Fraction:
    if value not in grid:
        return rng.choice(list(grid))
    i = list(grid).index(value)
    j = i + (1 if rng.random() < 0.5 else -1)
    return grid[min(max(j, 0), len(grid) - 1)]


# ---------------------------------------------------------------------------
# lists of base mechanisms with selection parameters
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class Selection:
    """Base mechanisms of a selection algorithm and its parameters.

    ``param`` is the algorithm's scalar (``e^{ε'}`` for Ghazi et al.'s geometric
    prior, ``ε'`` itself for the exponential prior, ``γ`` for random stopping;
    1 when unused); ``tau`` the rank of Algorithm 2's threshold; ``alpha`` a Rényi
    order (0 when unused).
    """

    mechs: tuple[PairMech, ...]
    param: Fraction = F(1)
    tau: int = 0
    alpha: int = 0


@dataclass
class SelectionSpace(InstanceSpace):
    """Lists of exactly DP pair mechanisms (and algorithm parameters).

    Parameters
    ----------
    d : (int, int)
        Range of the number of mechanisms.
    m : (int, int)
        Range of the number of outputs of each.
    budgets : tuple of Fraction
        The grid of ``a = e^{ε_i}``.
    params : tuple of Fraction, optional
        The grid of ``param`` (``None``: always 1).
    tau : bool
        Draw a threshold rank.
    alphas : tuple of int, optional
        The grid of Rényi orders.
    same_budget : bool
        One budget for every mechanism (best-of-K: "K ε-DP candidates").
    """

    d: tuple[int, int] = (1, 3)
    m: tuple[int, int] = (2, 3)
    budgets: tuple[Fraction, ...] = PURE_BUDGETS
    params: tuple[Fraction, ...] | None = None
    tau: bool = False
    alphas: tuple[int, ...] | None = None
    same_budget: bool = False

    def _make(self, rng: Random, extreme: bool) -> Selection:
        d = rng.randint(*self.d)
        a0 = rng.choice(self.budgets)
        mechs = []
        for _ in range(d):
            a = a0 if self.same_budget else rng.choice(self.budgets)
            m = rng.randint(*self.m)
            mechs.append(extreme_pair(rng, m, a) if extreme else random_pair(rng, m, a))
        param = rng.choice(self.params) if self.params else F(1)
        tau = rng.randrange(max(pm.m for pm in mechs)) if self.tau else 0
        alpha = rng.choice(self.alphas) if self.alphas else 0
        return Selection(tuple(mechs), param, tau, alpha)

    def random(self, rng: Random) -> Selection:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> Selection:
        return self._make(rng, True)

    def neighbour(self, inst: Selection, rng: Random, scale: float) -> Selection:
        mechs = list(inst.mechs)
        u = rng.random()
        j = rng.randrange(len(mechs))
        if u < 0.7:
            mechs[j] = perturb_pair(mechs[j], rng, scale)
        elif u < 0.8:
            if self.same_budget:
                a = _neighbour_in(self.budgets, mechs[0].a, rng)
                mechs = [rebudget(pm, a) for pm in mechs]
            else:
                mechs[j] = rebudget(mechs[j], _neighbour_in(self.budgets, mechs[j].a, rng))
        elif u < 0.9 and self.params:
            return replace(inst, param=_neighbour_in(self.params, inst.param, rng))
        elif u < 0.95 and self.tau:
            top = max(pm.m for pm in mechs)
            return replace(inst, tau=min(max(inst.tau + rng.choice((-1, 1)), 0), top - 1))
        elif len(mechs) > 1:
            k = rng.randrange(len(mechs) - 1)
            k = k + 1 if k >= j else k
            mechs[j], mechs[k] = mechs[k], mechs[j]
        else:
            mechs[j] = perturb_pair(mechs[j], rng, scale)
        return replace(inst, mechs=tuple(mechs))

    def shrink(self, inst: Selection) -> Iterable[Selection]:
        mechs = list(inst.mechs)
        out: list[Selection] = []
        if len(mechs) > self.d[0]:
            for j in range(len(mechs)):
                rest = tuple(mechs[:j] + mechs[j + 1 :])
                top = max(pm.m for pm in rest)
                out.append(replace(inst, mechs=rest, tau=min(inst.tau, top - 1)))
        for j, pm in enumerate(mechs):
            if pm.m > self.m[0]:
                for o in range(pm.m - 1):
                    new = list(mechs)
                    new[j] = merge_outputs(pm, o)
                    top = max(x.m for x in new)
                    out.append(replace(inst, mechs=tuple(new), tau=min(inst.tau, top - 1)))
        for j, pm in enumerate(mechs):
            for b in sorted(self.budgets, key=bits):
                if bits(b) < bits(pm.a) and is_dp(pm.p, pm.q, b):
                    new = list(mechs)
                    new[j] = PairMech(b, pm.p, pm.q)
                    out.append(replace(inst, mechs=tuple(new)))
        if self.params:
            for v in sorted(self.params, key=bits):
                if bits(v) < bits(inst.param):
                    out.append(replace(inst, param=v))
        for j, pm in enumerate(mechs):
            for simple in simplify_pair(pm):
                new = list(mechs)
                new[j] = simple
                out.append(replace(inst, mechs=tuple(new)))
        return list(iter_unique(out))

    def complexity(self, inst: Selection) -> tuple[float, ...]:
        return (
            float(len(inst.mechs)),
            float(sum(pm.m for pm in inst.mechs)),
            sum(pair_bits(pm) for pm in inst.mechs) + bits(inst.param),
        )

    def describe(self, inst: Selection) -> str:
        parts = [f"M{j + 1} = {describe_pair(pm)}" for j, pm in enumerate(inst.mechs)]
        extra = []
        if self.params:
            extra.append(f"param = {_fmt(inst.param)}")
        if self.tau:
            extra.append(f"tau = {inst.tau}")
        if self.alphas:
            extra.append(f"alpha = {inst.alpha}")
        return "; ".join(parts + extra)


# ---------------------------------------------------------------------------
# sensitivity-1 function tables (Ghazi et al. 2025, Algorithm 1)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class Table:
    """Integer functions ``f_i`` on the pair ``D ~ D'``: ``rows[i] = (f_i(D),
    f_i(D'))`` with ``|f_i(D) - f_i(D')| <= 1``; budgets ``a_i = e^{ε_i}`` and
    ``ep = e^{ε'}``."""

    rows: tuple[tuple[int, int], ...]
    budgets: tuple[Fraction, ...]
    ep: Fraction


@dataclass
class TableSpace(InstanceSpace):
    """Sensitivity-1 integer tables on a pair with ``d`` functions, values in
    ``values``; ``monotone`` restricts to tables with ``f_i(D) >= f_i(D')`` for every
    ``i`` (monotone w.r.t. ``D' ⪯ D``, Theorem 9's premise)."""

    d: tuple[int, int] = (1, 3)
    values: tuple[int, int] = (-1, 2)
    budgets: tuple[Fraction, ...] = PURE_BUDGETS[:6]
    eps_primes: tuple[Fraction, ...] = PRIME_BUDGETS
    monotone: bool = False

    def _row(self, rng: Random, extreme: bool) -> tuple[int, int]:
        lo, hi = self.values
        v = rng.randint(lo, hi)
        steps = (-1, 1) if extreme else (-1, 0, 1)
        w = v + rng.choice(steps)
        w = min(max(w, lo), hi)
        if self.monotone and w > v:
            v, w = w, v
        return (v, w)

    def _make(self, rng: Random, extreme: bool) -> Table:
        d = rng.randint(*self.d)
        rows = tuple(self._row(rng, extreme) for _ in range(d))
        budgets = tuple(rng.choice(self.budgets) for _ in range(d))
        return Table(rows, budgets, rng.choice(self.eps_primes))

    def random(self, rng: Random) -> Table:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> Table:
        return self._make(rng, True)

    def _valid(self, row: tuple[int, int]) -> bool:
        lo, hi = self.values
        ok = abs(row[0] - row[1]) <= 1 and lo - 1 <= min(row) and max(row) <= hi + 1
        return ok and (not self.monotone or row[0] >= row[1])

    def neighbour(self, inst: Table, rng: Random, scale: float) -> Table:
        rows, budgets = list(inst.rows), list(inst.budgets)
        i = rng.randrange(len(rows))
        u = rng.random()
        if u < 0.5:
            for _ in range(8):
                k = rng.randrange(2)
                row = list(rows[i])
                row[k] += rng.choice((-1, 1))
                if self._valid((row[0], row[1])):
                    rows[i] = (row[0], row[1])
                    break
        elif u < 0.7:
            budgets[i] = _neighbour_in(self.budgets, budgets[i], rng)
        elif u < 0.85:
            return replace(inst, ep=_neighbour_in(self.eps_primes, inst.ep, rng))
        elif len(rows) > 1:
            k = rng.randrange(len(rows) - 1)
            k = k + 1 if k >= i else k
            rows[i], rows[k] = rows[k], rows[i]
            budgets[i], budgets[k] = budgets[k], budgets[i]
        return Table(tuple(rows), tuple(budgets), inst.ep)

    def shrink(self, inst: Table) -> Iterable[Table]:
        out: list[Table] = []
        rows, budgets = list(inst.rows), list(inst.budgets)
        if len(rows) > self.d[0]:
            for i in range(len(rows)):
                out.append(
                    Table(
                        tuple(rows[:i] + rows[i + 1 :]),
                        tuple(budgets[:i] + budgets[i + 1 :]),
                        inst.ep,
                    )
                )
        for i, (v, w) in enumerate(rows):
            for shift in (-1, 1):
                if abs(v + shift) + abs(w + shift) < abs(v) + abs(w):
                    new = list(rows)
                    new[i] = (v + shift, w + shift)
                    if self._valid(new[i]):
                        out.append(Table(tuple(new), inst.budgets, inst.ep))
        for i, b in enumerate(budgets):
            for c in sorted(self.budgets, key=bits):
                if bits(c) < bits(b):
                    new_b = list(budgets)
                    new_b[i] = c
                    out.append(Table(inst.rows, tuple(new_b), inst.ep))
        for c in sorted(self.eps_primes, key=bits):
            if bits(c) < bits(inst.ep):
                out.append(Table(inst.rows, inst.budgets, c))
        return list(iter_unique(out))

    def complexity(self, inst: Table) -> tuple[float, ...]:
        return (
            float(len(inst.rows)),
            float(sum(abs(v) + abs(w) for v, w in inst.rows)),
            sum(bits(b) for b in inst.budgets) + bits(inst.ep),
        )

    def describe(self, inst: Table) -> str:
        fs = ", ".join(f"f{i + 1} = ({v}, {w})" for i, (v, w) in enumerate(inst.rows))
        bs = ", ".join(f"log({_fmt(b)})" for b in inst.budgets)
        return f"{fs} on (D, D'); eps = [{bs}], eps' = log({_fmt(inst.ep)})"


# ---------------------------------------------------------------------------
# neighbouring query-answer vectors (sparse vector programs)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class QueryPair:
    """Two query-answer vectors ``q ~ q'`` (every answer moves by at most 1, and
    some answer moves: ALL_DIFFER neighbours with sensitivity 1)."""

    q: tuple[int, ...]
    q2: tuple[int, ...]


@dataclass
class QueryPairSpace(InstanceSpace):
    """Neighbouring query vectors of length ``n`` with answers in ``values``."""

    n: tuple[int, int] = (1, 4)
    values: tuple[int, int] = (-1, 2)

    def _fix(self, q: list[int], q2: list[int], rng: Random) -> QueryPair:
        if q == q2:
            i = rng.randrange(len(q))
            q2[i] = q[i] + (1 if q[i] < self.values[1] else -1)
        return QueryPair(tuple(q), tuple(q2))

    def random(self, rng: Random) -> QueryPair:
        n = rng.randint(*self.n)
        lo, hi = self.values
        q = [rng.randint(lo, hi) if rng.random() < 0.3 else rng.randint(0, 1) for _ in range(n)]
        q2 = [min(max(x + rng.choice((-1, 0, 1)), lo), hi) for x in q]
        return self._fix(q, q2, rng)

    def extreme(self, rng: Random) -> QueryPair:
        n = rng.randint(*self.n)
        q = [rng.randint(0, 1) for _ in range(n)]
        q2 = [1 - x for x in q]  # every answer moves: the half-half patterns
        return QueryPair(tuple(q), tuple(q2))

    def neighbour(self, inst: QueryPair, rng: Random, scale: float) -> QueryPair:
        q, q2 = list(inst.q), list(inst.q2)
        lo, hi = self.values
        u = rng.random()
        if u < 0.6:
            i = rng.randrange(len(q))
            target = q if rng.random() < 0.5 else q2
            other = q2 if target is q else q
            target[i] = min(max(target[i] + rng.choice((-1, 1)), lo), hi)
            if abs(target[i] - other[i]) > 1:
                target[i] = other[i] + (1 if target[i] > other[i] else -1)
        elif u < 0.8 and len(q) < self.n[1]:
            i = rng.randrange(len(q) + 1)
            v = rng.randint(0, 1)
            q.insert(i, v)
            q2.insert(i, v + rng.choice((-1, 0, 1)))
        elif len(q) > self.n[0]:
            i = rng.randrange(len(q))
            del q[i], q2[i]
        return self._fix(q, q2, rng)

    def shrink(self, inst: QueryPair) -> Iterable[QueryPair]:
        out: list[QueryPair] = []
        n = len(inst.q)
        if n > self.n[0]:
            for i in range(n):
                q = inst.q[:i] + inst.q[i + 1 :]
                q2 = inst.q2[:i] + inst.q2[i + 1 :]
                if q != q2:
                    out.append(QueryPair(q, q2))
        for i in range(n):
            for s in (-1, 1):
                lq, lq2 = list(inst.q), list(inst.q2)
                lq[i] += s
                lq2[i] += s
                if abs(lq[i]) + abs(lq2[i]) < abs(inst.q[i]) + abs(inst.q2[i]):
                    out.append(QueryPair(tuple(lq), tuple(lq2)))
        return list(iter_unique(out))

    def complexity(self, inst: QueryPair) -> tuple[float, ...]:
        return (float(len(inst.q)), float(sum(map(abs, inst.q)) + sum(map(abs, inst.q2))))

    def describe(self, inst: QueryPair) -> str:
        return f"q = {inst.q}, q' = {inst.q2}"
