"""Liu & Talwar 2019, App. E: the search space of Lemmas E.2 and E.3 — pairs of finite
distributions ``P``, ``Q`` that are ``(ε, δ)``-close in both directions
(``P ≡_{ε,δ} Q``, Definition E.1), with ``ε`` and ``δ`` drawn from the lemmas'
hypothesis space (``ε >= 0``, ``0 < δ < 1/10``, boundary values included).

An instance is exact: ``a = e^ε`` and ``δ`` are rationals and ``P``, ``Q`` rational
distributions with ``Σ_o (P(o) - a Q(o))^+ <= δ`` and ``Σ_o (Q(o) - a P(o))^+ <= δ``.
Instances are built by moving a random ``Q`` along the segment ``P + t (Q - P)`` to the
largest ``t`` that keeps both hockey-stick divergences at most ``δ`` (computed exactly:
both are convex and piecewise linear in ``t``), so most instances sit on the boundary
of the hypothesis, where the worst cases of a closeness statement are.  The extreme
instances have one bulk output and small outputs whose likelihood ratios lie beyond
``e^{±ε}`` on both sides — the shape of every counterexample to the sqrt case of
Lemma E.2.

The screen is a float replica of :func:`verifier.checks.privacy.event_removal` (the least
mass of a randomised event whose removal leaves the conditionals ``e^{ε'}``-close);
the document states the lemma's conclusion as a ``pure_off_event`` (or
``pure_off_event_both``) claim with the hypothesis ``P ≡_{ε,δ} Q`` as an
``ex_post_approx`` premise, so ``verifier check`` re-decides a counterexample exactly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

from verifier.claims import SearchSpec
from verifier.search.certificates import distribution_table, frac_text, skeleton_document
from verifier.search.core import InstanceSpace, instance_type, iter_unique
from verifier.search.spaces import (
    PURE_BUDGETS,
    SIMPLE_DENOMINATORS,
    PairMech,
    bits,
    extreme_pair,
    perturb_pair,
    random_distribution,
    random_pair,
    round_to,
    simplify_pair,
)

__all__ = [
    "ClosePair",
    "ClosePairSpace",
    "hockey",
    "is_close",
    "to_boundary",
    "float_event_removal",
    "Variant",
    "VARIANTS",
    "event_search",
    "OffEvent",
    "OffEventSpace",
    "offevent_search",
]

F = Fraction
SOURCE = "Liu & Talwar 2019"

#: ``a = e^ε``: ε = 0 (the boundary of the hypothesis) and a range of budgets.
BUDGETS: tuple[Fraction, ...] = (F(1), F(1), F(11, 10), F(5, 4), F(3, 2), F(2), F(4))
#: ``δ``: from tiny to the boundary ``δ < 1/10`` of Lemma E.2.
DELTAS: tuple[Fraction, ...] = (
    F(1, 10**6),
    F(1, 10**4),
    F(1, 1000),
    F(1, 200),
    F(1, 100),
    F(1, 50),
    F(1, 20),
    F(2, 25),
    F(99, 1000),
)
#: ``e^{ε' - ε}`` for the general statement of Lemma E.2 (any ``ε' > ε``).
EXTRAS: tuple[Fraction, ...] = (F(101, 100), F(11, 10), F(5, 4), F(3, 2), F(2), F(3), F(10))


@instance_type
@dataclass(frozen=True)
class ClosePair:
    """``P`` (at ``D``) and ``Q`` (at ``D'``) on outputs ``0..m-1``, exactly
    ``(log a, δ)``-close in both directions; ``b = e^{ε' - ε}`` (1 when unused)."""

    p: tuple[Fraction, ...]
    q: tuple[Fraction, ...]
    a: Fraction
    delta: Fraction
    b: Fraction = F(1)


def hockey(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction) -> Fraction:
    """``Σ_o (p(o) - a q(o))^+``, exactly."""
    return sum((max(F(0), x - a * y) for x, y in zip(p, q, strict=True)), F(0))


def is_close(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction, delta: Fraction) -> bool:
    """``P ≡_{log a, δ} Q`` (Definition E.1), exactly."""
    return hockey(p, q, a) <= delta and hockey(q, p, a) <= delta


def _largest(alpha: list[Fraction], beta: list[Fraction], delta: Fraction, tmax: Fraction) -> F:
    """The largest ``t`` in ``[0, tmax]`` with ``Σ (α_i + β_i t)^+ <= δ`` (every
    ``α_i <= 0``, so the sum is 0 at ``t = 0`` and nondecreasing)."""

    def f(t: Fraction) -> Fraction:
        return sum((max(F(0), x + y * t) for x, y in zip(alpha, beta, strict=True)), F(0))

    if f(tmax) <= delta:
        return tmax
    points = sorted({-x / y for x, y in zip(alpha, beta, strict=True) if y > 0 and -x / y < tmax})
    lo = F(0)
    for t in [*points, tmax]:
        if f(t) > delta:
            # f is linear on [lo, t]: the active terms are those positive just after lo
            mid = (lo + t) / 2
            act = [(x, y) for x, y in zip(alpha, beta, strict=True) if x + y * mid > 0]
            s0 = sum((x for x, _ in act), F(0))
            s1 = sum((y for _, y in act), F(0))
            return (delta - s0) / s1
        lo = t
    return tmax  # pragma: no cover - f(tmax) > delta was checked


def to_boundary(
    p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction, delta: Fraction
) -> tuple[Fraction, ...]:
    """``P + t (Q - P)`` for the largest ``t`` (extrapolating beyond ``Q``, while the
    distribution stays nonnegative, up to ``t = 20``) that keeps ``P ≡_{log a, δ}``."""
    tmax = F(20)
    for x, y in zip(p, q, strict=True):
        if y < x:
            tmax = min(tmax, x / (x - y))
    d = [y - x for x, y in zip(p, q, strict=True)]
    # P - a Q_t = (1 - a) P - a t d ;  Q_t - a P = (1 - a) P + t d
    t1 = _largest([(1 - a) * x for x in p], [-a * v for v in d], delta, tmax)
    t2 = _largest([(1 - a) * x for x in p], list(d), delta, tmax)
    t = min(t1, t2)
    return tuple(x + t * v for x, v in zip(p, d, strict=True))


def _renormal(xs: Sequence[float], rng: Random) -> tuple[Fraction, ...]:
    total = rng.choice((100, 1000, 10**4, 10**5))
    s = sum(xs)
    w = [max(1, round(x / s * total)) for x in xs]
    n = sum(w)
    return tuple(F(v, n) for v in w)


@dataclass
class ClosePairSpace(InstanceSpace):
    """Pairs ``P ≡_{ε,δ} Q`` (module docstring).

    Parameters
    ----------
    m : (int, int)
        Range of the number of outputs.
    budgets, deltas : tuple of Fraction
        Grids of ``a = e^ε`` and ``δ``.
    extras : tuple of Fraction, optional
        Grid of ``b = e^{ε' - ε}`` (``None``: ``b = 1``).
    """

    m: tuple[int, int] = (2, 6)
    budgets: tuple[Fraction, ...] = BUDGETS
    deltas: tuple[Fraction, ...] = DELTAS
    extras: tuple[Fraction, ...] | None = None

    def _params(self, rng: Random) -> tuple[Fraction, Fraction, Fraction]:
        b = rng.choice(self.extras) if self.extras else F(1)
        return rng.choice(self.budgets), rng.choice(self.deltas), b

    def _finish(self, p: tuple[F, ...], q: tuple[F, ...], rng: Random) -> ClosePair:
        a, delta, b = self._params(rng)
        return ClosePair(p, to_boundary(p, q, a, delta), a, delta, b)

    def random(self, rng: Random) -> ClosePair:
        m = rng.randint(*self.m)
        return self._finish(random_distribution(rng, m), random_distribution(rng, m), rng)

    def extreme(self, rng: Random) -> ClosePair:
        """One bulk output and small outputs whose likelihood ratios lie beyond
        ``e^{±ε}`` on both sides, pushed to the boundary ``δ``: either small outputs of
        mass about ``sqrt(δ)`` between which ``Q`` moves mass (up on some, down on
        others, the bulk untouched), or small outputs of any mass with ``Q/P`` beyond
        ``e^{±ε}``."""
        a, delta, b = self._params(rng)
        if rng.random() < 0.5:
            m = rng.randint(3, min(4, self.m[1]))
            small = [(0.2 + 1.3 * rng.random()) * math.sqrt(float(delta)) for _ in range(m - 1)]
            total = sum(small)
            if total >= 0.9:
                small = [x * 0.9 / total for x in small]
            p = _renormal([1.0 - sum(small), *small], rng)
            signs = [1] + [-1] + [rng.choice((1, -1)) for _ in range(m - 3)]
            rng.shuffle(signs)
            w = [rng.random() + 0.1 for _ in signs]
            up = sum(x for x, s in zip(w, signs, strict=True) if s > 0)
            down = sum(x for x, s in zip(w, signs, strict=True) if s < 0)
            move = [x / up if s > 0 else -x / down for x, s in zip(w, signs, strict=True)]
            q = (
                p[0],
                *(x + F(round(v * 1000), 1000) * x for x, v in zip(p[1:], move, strict=True)),
            )
            q = tuple(max(F(0), x) for x in q)
            q = (1 - sum(q[1:], F(0)), *q[1:])
            if q[0] > 0:
                return ClosePair(p, to_boundary(p, q, a, delta), a, delta, b)
        m = rng.randint(max(2, self.m[0]), self.m[1])
        small = [rng.random() ** 2 * rng.choice((0.05, 0.2, 0.5)) for _ in range(m - 1)]
        total = sum(small)
        if total >= 0.9:
            small = [x * 0.9 / total for x in small]
        xs = [1.0 - sum(small), *small]
        ys = [xs[0]]
        for x in small:
            f = float(a) * (1 + 2 * rng.random())
            ys.append(x * (f if rng.random() < 0.5 else 1 / f))
        ys[0] = max(1e-6, 1.0 - sum(ys[1:]))
        p, q = _renormal(xs, rng), _renormal(ys, rng)
        return ClosePair(p, to_boundary(p, q, a, delta), a, delta, b)

    def neighbour(self, inst: ClosePair, rng: Random, scale: float) -> ClosePair:
        """Reweight one output of ``P``, of ``Q``, or of both (its likelihood ratio
        kept), or move ``ε``, ``δ`` (or ``ε' - ε``) on its grid; then back to the
        boundary ``δ``."""
        u = rng.random()
        if u < 0.85:
            m = len(inst.p)
            o = rng.randrange(m)
            f = math.exp(scale * rng.gauss(0.0, 1.0))
            xs, ys = [float(v) for v in inst.p], [float(v) for v in inst.q]
            if u < 0.35 or u >= 0.7:
                xs[o] = max(xs[o], 1e-9) * f
            if u >= 0.35:
                ys[o] = max(ys[o], 1e-9) * f
            p, q = _renormal(xs, rng), _renormal(ys, rng)
            return replace(inst, p=p, q=to_boundary(p, q, inst.a, inst.delta))
        a, delta, b = inst.a, inst.delta, inst.b
        if u < 0.9:
            a = _step(self.budgets, a, rng)
        elif u < 0.97 or not self.extras:
            delta = _step(self.deltas, delta, rng)
        else:
            b = _step(self.extras, b, rng)
        return ClosePair(inst.p, to_boundary(inst.p, inst.q, a, delta), a, delta, b)

    def shrink(self, inst: ClosePair) -> Iterable[ClosePair]:
        out: list[ClosePair] = []
        m = len(inst.p)
        if m > self.m[0]:
            for o in range(m - 1):  # merging outputs keeps the pair close
                p = (*inst.p[:o], inst.p[o] + inst.p[o + 1], *inst.p[o + 2 :])
                q = (*inst.q[:o], inst.q[o] + inst.q[o + 1], *inst.q[o + 2 :])
                out.append(replace(inst, p=p, q=q))
        for n in SIMPLE_DENOMINATORS:
            if n < m:
                continue
            rp, rq = round_to(inst.p, n), round_to(inst.q, n)
            for pp, qq in ((rp, rq), (rp, inst.q), (inst.p, rq)):
                if pp is not None and qq is not None and is_close(pp, qq, inst.a, inst.delta):
                    out.append(replace(inst, p=pp, q=qq))
        for a in sorted(set(self.budgets), key=bits):
            if bits(a) < bits(inst.a) and is_close(inst.p, inst.q, a, inst.delta):
                out.append(replace(inst, a=a))
        for d in sorted(self.deltas, key=bits):
            if bits(d) < bits(inst.delta) and is_close(inst.p, inst.q, inst.a, d):
                out.append(replace(inst, delta=d))
        return list(iter_unique(out))

    def complexity(self, inst: ClosePair) -> tuple[float, ...]:
        size = sum(bits(x) for x in (*inst.p, *inst.q, inst.a, inst.delta, inst.b))
        return (float(len(inst.p)), size)

    def describe(self, inst: ClosePair) -> str:
        ps = ", ".join(str(x) for x in inst.p)
        qs = ", ".join(str(x) for x in inst.q)
        extra = f", e^(eps'-eps) = {inst.b}" if self.extras else ""
        return f"P = ({ps}), Q = ({qs}), e^eps = {inst.a}, delta = {inst.delta}{extra}"


def _step(grid: Sequence[Fraction], v: Fraction, rng: Random) -> Fraction:
    g = sorted(set(grid))
    i = g.index(v) if v in g else 0
    return g[min(max(i + rng.choice((-1, 1)), 0), len(g) - 1)]


# ---------------------------------------------------------------------------
# the float screen: a replica of verifier.checks.privacy.event_removal
# ---------------------------------------------------------------------------


def _greedy(
    window: list[tuple[float, float, float]], level: float, low: bool
) -> tuple[float, float]:
    sign = 1.0 if low else -1.0
    kp = kq = budget = 0.0
    costly = []
    for L, p, q in window:
        c = sign * (p - level * q)
        if c >= 0:
            kp, kq, budget = kp + p, kq + q, budget + c
        else:
            costly.append((L, p, q, -c))
    costly.sort(reverse=low)
    for _L, p, q, cost in costly:
        k = 1.0 if cost <= budget else budget / cost
        kp, kq, budget = kp + k * p, kq + k * q, budget - k * cost
        if k < 1:
            break
    return kp, kq


def float_event_removal(p: Sequence[float], q: Sequence[float], A: float) -> tuple[float, float]:
    """``(least P(B), least max(P(B), Q(B)))`` over randomised events ``B`` leaving
    the conditionals ``A``-close (floats; screening only)."""
    atoms = sorted((x / y, x, y) for x, y in zip(p, q, strict=True) if x > 0 and y > 0)
    best = best_both = math.inf
    for i in range(len(atoms)):
        for j in range(i, len(atoms)):
            Li, Lj = atoms[i][0], atoms[j][0]
            if Lj > A * A * Li:
                break
            w = atoms[i : j + 1]
            lo, hi = Lj / A, Li * A
            Pf, Qf = sum(x[1] for x in w), sum(x[2] for x in w)
            if Pf < lo * Qf:
                kp, kq = _greedy(w, lo, True)
            elif Pf > hi * Qf:
                kp, kq = _greedy(w, hi, False)
            else:
                kp, kq = Pf, Qf
            best = min(best, 1 - kp)
            best_both = min(best_both, max(1 - kp, 1 - kq))
    return best, best_both


# ---------------------------------------------------------------------------
# the statements searched
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """A closeness statement about ``P ≡_{ε,δ} Q``: "some randomised event ``B`` with
    mass at most ``bound`` leaves the conditionals ``e^{ε'}``-close".

    ``eps_prime(ε, δ, b)`` and ``bound(δ, b)`` give ``ε'`` and the mass bound as float
    functions (screen) and as spec text (document); ``both``: the mass under ``Q`` is
    bounded too."""

    name: str
    statement: str
    source: str
    eps_prime: Callable[[float, float, float], float]
    bound: Callable[[float, float], float]
    eps_text: Callable[[str, str, str], str]
    bound_text: Callable[[str, str], str]
    both: bool = False
    extras: bool = False


def _m(d: float) -> float:
    """``m(δ) = δ coth(sqrt(δ/2)) = δ (e^s + 1)/(e^s - 1)``, ``s = sqrt(2δ)`` (the
    corrected mass bound)."""
    return d / math.tanh(math.sqrt(d / 2))


def _m_text(d: str) -> str:
    """:func:`_m` in spec syntax."""
    return f"({d})*(exp(sqrt(2*({d}))) + 1)/(exp(sqrt(2*({d}))) - 1)"


VARIANTS: dict[str, Variant] = {
    "as_stated": Variant(
        "as_stated",
        "P ==_(eps, delta) Q, delta < 1/10, eps' > eps: an event B with P(B) <= "
        "delta/(1 - e^(eps - eps')) leaves P|B^c, Q|B^c e^eps'-close",
        f"{SOURCE}, Lemma E.2",
        lambda e, d, b: e + math.log(b),
        lambda d, b: d / (1 - 1 / b),
        lambda e, d, b: f"{e} + log({b})",
        lambda d, b: f"({d})/(1 - 1/({b}))",
        extras=True,
    ),
    "sqrt_case": Variant(
        "sqrt_case",
        "P ==_(eps, delta) Q, delta < 1/10: with eps' = eps + sqrt(2 delta) an event B with "
        "P(B) <= sqrt(delta) leaves P|B^c, Q|B^c e^eps'-close",
        f"{SOURCE}, Lemma E.2 ('In particular, setting eps' = eps + sqrt(2 delta)')",
        lambda e, d, b: e + math.sqrt(2 * d),
        lambda d, b: math.sqrt(d),
        lambda e, d, b: f"{e} + sqrt(2*({d}))",
        lambda d, b: f"sqrt({d})",
    ),
    "sqrt_case_m": Variant(
        "sqrt_case_m",
        "P ==_(eps, delta) Q, delta < 1/10: with eps' = eps + sqrt(2 delta) an event B with "
        "P(B) <= m = delta coth(sqrt(delta/2)) leaves P|B^c, Q|B^c e^eps'-close",
        f"{SOURCE}, Lemma E.2 (the sqrt case with the mass bound m)",
        lambda e, d, b: e + math.sqrt(2 * d),
        lambda d, b: _m(d),
        lambda e, d, b: f"{e} + sqrt(2*({d}))",
        lambda d, b: _m_text(d),
    ),
    "corrected": Variant(
        "corrected",
        "P ==_(eps, delta) Q, delta < 1/10, s = sqrt(2 delta), m = delta coth(s/2): an event B "
        "with P(B) <= m and Q(B) <= m leaves P|B^c, Q|B^c (eps + s + ln(1/(1-m)))-close",
        f"{SOURCE}, Lemma E.2 (corrected: both masses, the renormalisation)",
        lambda e, d, b: e + math.sqrt(2 * d) - math.log(1 - _m(d)),
        lambda d, b: _m(d),
        lambda e, d, b: f"{e} + sqrt(2*({d})) - log(1 - {_m_text(d)})",
        lambda d, b: _m_text(d),
        both=True,
    ),
}


def _screen(inst: ClosePair, variant: Variant) -> float:
    e, d, b = math.log(inst.a), float(inst.delta), float(inst.b)
    A = math.exp(variant.eps_prime(e, d, b))
    mass, both = float_event_removal([float(x) for x in inst.p], [float(x) for x in inst.q], A)
    return (both if variant.both else mass) / variant.bound(d, b)


def _log_text(a: Fraction) -> str:
    return "0" if a == 1 else f"log({a})"


def _document(inst: ClosePair, claim_id: str, variant: Variant) -> dict[str, Any]:
    doc = skeleton_document(f"{variant.source}: {variant.statement}")
    outs = list(range(len(inst.p)))
    doc["mechanisms"]["M"] = {
        "graph": "g",
        "outputs": outs,
        "distributions": {
            "D": distribution_table(inst.p, outs),
            "D'": distribution_table(inst.q, outs),
        },
    }
    d = str(inst.delta)
    doc["claims"].append(
        {
            "id": "premise-close",
            "mechanism": "M",
            "kind": "ex_post_approx",
            "epsilon_tilde": _log_text(inst.a),
            "delta": frac_text(inst.delta),
            "expected": "holds",
            "statement": "premise: P = M(D) and Q = M(D') are (eps, delta)-close both ways",
        }
    )
    doc["claims"].append(
        {
            "id": "premise-delta",
            "kind": "inequality",
            "lhs": frac_text(inst.delta),
            "rhs": "99/1000",
            "expected": "holds",
            "statement": "premise: delta < 1/10",
        }
    )
    doc["claims"].append(
        {
            "id": claim_id,
            "mechanism": "M",
            "kind": "pure_off_event_both" if variant.both else "pure_off_event",
            "epsilon": variant.eps_text(_log_text(inst.a), d, str(inst.b)),
            "delta": variant.bound_text(d, str(inst.b)),
            "pairs": [["D", "D'"]],
            "expected": "refuted",
            "statement": f"{variant.statement} (P = M(D), Q = M(D'))",
            "source": variant.source,
        }
    )
    return doc


def event_search(claim_id: str, variant: str, notes: str, instances: int = 2000) -> SearchSpec:
    """The worst-case search of a closeness statement of App. E (:data:`VARIANTS`)
    over :class:`ClosePairSpace`."""
    v = VARIANTS[variant]
    return SearchSpec(
        space=ClosePairSpace(extras=EXTRAS if v.extras else None),
        screen=functools.partial(_screen, variant=v),
        document=functools.partial(_document, claim_id=claim_id, variant=v),
        default_instances=instances,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Lemma E.3: closeness off an event
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class OffEvent:
    """``P`` and ``Q`` built from an event ``B`` (the first ``len(pB)`` outputs):
    ``P = (P(B) pB, (1 - P(B)) c.p)``, ``Q = (Q(B) qB, (1 - Q(B)) c.q)``, where the
    conditionals off ``B``, ``c``, are exactly ``log(c.a)``-DP."""

    c: PairMech
    pb: Fraction
    qb: Fraction
    pB: tuple[Fraction, ...]
    qB: tuple[Fraction, ...]

    def distributions(self) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
        p = (*(self.pb * x for x in self.pB), *((1 - self.pb) * x for x in self.c.p))
        q = (*(self.qb * x for x in self.qB), *((1 - self.qb) * x for x in self.c.q))
        return p, q


#: ``P(B)``: from tiny to large (Lemma E.3 has no bound on δ).
MASSES: tuple[Fraction, ...] = (F(1, 1000), F(1, 100), F(1, 20), F(1, 10), F(1, 4), F(1, 2))


@dataclass
class OffEventSpace(InstanceSpace):
    """Instances of Lemma E.3's hypothesis: conditionals off ``B`` exactly
    ``log(a)``-DP (random and extreme pairs of :mod:`verifier.search.spaces`), any
    distributions on ``B``; ``Q(B) <= P(B)`` when ``small_q``."""

    small_q: bool = False
    m: tuple[int, int] = (2, 4)

    def _make(self, rng: Random, extreme: bool) -> OffEvent:
        a = rng.choice(PURE_BUDGETS)
        k = rng.randint(1, 2)
        m = rng.randint(*self.m)
        c = extreme_pair(rng, m, a) if extreme else random_pair(rng, m, a)
        pb = rng.choice(MASSES)
        if self.small_q:
            qb = pb * (F(rng.randint(0, 10), 10) if not extreme else rng.choice((F(0), F(1))))
        else:
            qb = rng.choice((*MASSES, F(9, 10), F(99, 100))) if not extreme else F(99, 100)
        return OffEvent(c, pb, qb, random_distribution(rng, k), random_distribution(rng, k))

    def random(self, rng: Random) -> OffEvent:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> OffEvent:
        return self._make(rng, True)

    def neighbour(self, inst: OffEvent, rng: Random, scale: float) -> OffEvent:
        u = rng.random()
        if u < 0.6:
            return replace(inst, c=perturb_pair(inst.c, rng, scale))
        if u < 0.8:
            pb = _step(MASSES, inst.pb, rng)
            qb = min(inst.qb, pb) if self.small_q else inst.qb
            return replace(inst, pb=pb, qb=qb)
        if self.small_q:
            return replace(inst, qb=inst.pb * F(rng.randint(0, 10), 10))
        return replace(inst, qb=min(F(1), max(F(0), inst.qb + F(rng.choice((-1, 1)), 20))))

    def shrink(self, inst: OffEvent) -> Iterable[OffEvent]:
        out = [replace(inst, c=s) for s in simplify_pair(inst.c)]
        if len(inst.pB) > 1:
            out.append(replace(inst, pB=(F(1),), qB=(F(1),)))
        return list(iter_unique(out))

    def complexity(self, inst: OffEvent) -> tuple[float, ...]:
        p, q = inst.distributions()
        return (float(len(p)), sum(bits(x) for x in (*p, *q)))

    def describe(self, inst: OffEvent) -> str:
        p, q = inst.distributions()
        return (
            f"P = ({', '.join(map(str, p))}), Q = ({', '.join(map(str, q))}), B = the first "
            f"{len(inst.pB)} output(s), P(B) = {inst.pb}, Q(B) = {inst.qb}, e^eps = {inst.c.a}"
        )


def _e3_screen(inst: OffEvent) -> float:
    p, q = inst.distributions()
    a = float(inst.c.a)
    fp, fq = [float(x) for x in p], [float(x) for x in q]
    worst = max(
        sum(max(0.0, x - a * y) for x, y in zip(fp, fq, strict=True)),
        sum(max(0.0, y - a * x) for x, y in zip(fp, fq, strict=True)),
    )
    return worst / float(inst.pb)


def _e3_document(inst: OffEvent, claim_id: str, small_q: bool) -> dict[str, Any]:
    p, q = inst.distributions()
    what = "Lemma E.3" + (" with Q(B) <= P(B)" if small_q else " as printed")
    statement = (
        "P|B^c ==_(eps, 0) Q|B^c and P(B) <= delta"
        + (" and Q(B) <= P(B)" if small_q else "")
        + " give P ==_(eps, delta) Q (both directions)"
    )
    doc = skeleton_document(f"{SOURCE}, {what}: {statement}")
    outs = list(range(len(p)))
    k = len(inst.pB)
    cond = list(range(k, len(p)))
    doc["mechanisms"]["M"] = {
        "graph": "g",
        "outputs": outs,
        "distributions": {"D": distribution_table(p, outs), "D'": distribution_table(q, outs)},
    }
    doc["mechanisms"]["C"] = {
        "graph": "g",
        "outputs": cond,
        "distributions": {
            "D": distribution_table(inst.c.p, cond),
            "D'": distribution_table(inst.c.q, cond),
        },
    }
    doc["claims"].append(
        {
            "id": "premise-conditionals",
            "mechanism": "C",
            "kind": "pure_dp",
            "epsilon": f"log({inst.c.a})",
            "expected": "holds",
            "statement": f"premise: the conditionals of M off B = {{0..{k - 1}}} are eps-close "
            f"(C(D) = M(D)|B^c: M's outputs {k}..{len(p) - 1} divided by 1 - {inst.pb}, "
            f"resp. 1 - {inst.qb})",
        }
    )
    if small_q:
        doc["claims"].append(
            {
                "id": "premise-masses",
                "kind": "inequality",
                "lhs": frac_text(inst.qb),
                "rhs": frac_text(inst.pb),
                "expected": "holds",
                "statement": "premise: Q(B) <= P(B)",
            }
        )
    doc["claims"].append(
        {
            "id": claim_id,
            "mechanism": "M",
            "kind": "approx_dp",
            "epsilon": f"log({inst.c.a})",
            "delta": frac_text(inst.pb),
            "expected": "refuted",
            "statement": f"{statement}, delta = P(B) = {inst.pb}",
            "source": f"{SOURCE}, Lemma E.3",
        }
    )
    return doc


def offevent_search(claim_id: str, small_q: bool, notes: str, instances: int = 1000) -> SearchSpec:
    """Lemma E.3 (``small_q``: with ``Q(B) <= P(B)``) over :class:`OffEventSpace`."""
    return SearchSpec(
        space=OffEventSpace(small_q=small_q),
        screen=_e3_screen,
        document=functools.partial(_e3_document, claim_id=claim_id, small_q=small_q),
        default_instances=instances,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Definitions 1.1 and E.1: (eps, delta)-far over every event = the hockey-stick sum
# ---------------------------------------------------------------------------


def event_max(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction) -> Fraction:
    """``max_S (P(S) - a Q(S))`` over every event ``S`` (every subset of the outputs;
    a randomised event is a convex combination of them, so it adds nothing), by
    enumerating the ``2^m`` subsets."""
    m = len(p)
    best = F(0)
    for mask in range(1, 2**m):
        v = sum((p[i] - a * q[i] for i in range(m) if mask >> i & 1), F(0))
        best = max(best, v)
    return best


def _far_screen(inst: ClosePair) -> float:
    return float(abs(event_max(inst.p, inst.q, inst.a) - hockey(inst.p, inst.q, inst.a)))


def _far_document(inst: ClosePair, claim_id: str, source: str) -> dict[str, Any]:
    doc = skeleton_document(f"{source}: (eps, delta)-far over every event = the hockey-stick sum")
    em, hs = event_max(inst.p, inst.q, inst.a), hockey(inst.p, inst.q, inst.a)
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": f"abs({em} - ({hs}))",
            "rhs": 0,
            "expected": "refuted",
            "statement": f"max over events S of P(S) - e^eps Q(S) = sum_o (P(o) - e^eps Q(o))^+ "
            f"({describe_close(inst)})",
            "source": source,
        }
    )
    return doc


def describe_close(inst: ClosePair) -> str:
    return ClosePairSpace().describe(inst)


def far_search(claim_id: str, source: str, instances: int = 400) -> SearchSpec:
    """Definition 1.1 / E.1: ``max_S (P(S) - e^ε Q(S))`` (every event) equals the
    hockey-stick sum ``Σ_o (P(o) - e^ε Q(o))^+``, so ``(ε, δ)``-far over events is
    ``Σ (P - e^ε Q)^+ <= δ``; searched over :class:`ClosePairSpace` (pairs of
    distributions on 2-6 outputs, ``e^ε`` from 1 to 4)."""
    return SearchSpec(
        space=ClosePairSpace(),
        screen=_far_screen,
        document=functools.partial(_far_document, claim_id=claim_id, source=source),
        default_instances=instances,
        notes="pairs of distributions on 2-6 outputs, e^eps in {1 .. 4}: every event enumerated",
    )
