"""Hartmann et al. 2022: worst-case search spaces for the lemmas and theorems that
quantify over mechanisms (Lemmas 3, 4, 6, 8, 10–14, Theorems 7 and 15, Definition 9, the
ex-post reading of ODP; :mod:`.claims`, :mod:`.iterative`, :mod:`.proof_steps` attach
them; Theorem 16's space is in :mod:`.erm`).

Every instance is a mechanism on one neighbouring pair ``D ~ D'`` with rational
probabilities and rational budgets ``a = e^ε`` (so every exact check runs in rational
arithmetic).  The document of an instance (:mod:`verifier.search.certificates`) writes
the mechanism by its two distributions and states the ODP guarantee as an
``ex_post_approx`` claim: for a finite output set the ODP condition of Def. 2 (read as
a sum over the cells) is ``Σ_o max(0, P_D(o) - e^{e(cell(o))} P_D'(o)) <= δ`` for
both ordered pairs (``docs/math/hartmann2022.md`` §1), which is exactly that claim
with ``ε̃(o) = e(cell(o))``.

**(ε, δ)-DP pairs.**  A pair ``(P, Q)`` is ``(log a, δ)``-DP iff it is a
post-processing of Kairouz et al.'s ``RR_{ε,δ}`` (Hartmann et al. Lemma 12), so
:func:`dp_pair` draws a stochastic map ``T`` (4 rows) and returns ``RR(x^0) T``,
``RR(x^1) T``: every ``(log a, δ)``-DP pair arises this way, extreme ones (``T`` with
0/1 rows, ``RR`` itself) included.

**Iterative mechanisms** (Algorithm 3): steps ``1..T``; the mechanism of step ``j``
is one of its variants, chosen by the previous outputs (adaptive when a step has
several variants); at the stopping points ``t_1 < ... < t_k = T`` a (randomized)
criterion stops with a probability that depends on the outputs so far; the output is
the sequence, partitioned by its length (§5).  Outputs are written ``"s"`` followed
by the digits of the sequence (``"s021"``).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

import sympy as sp
from gmpy2 import mpq

from verifier.algorithms.noise import epsilon_for_base, lyu_svt, program_mechanism
from verifier.arithmetic.exact import to_fraction, to_mpq
from verifier.claims import SearchSpec
from verifier.mechanism.neighbours import pair, path
from verifier.odp.ptr import (
    distance_to_instability,
    geometric_survival_at,
    ptr_cascade,
    ptr_function,
)
from verifier.search.certificates import (
    derived_outputs,
    deterministic_mechanism,
    expr_text,
    frac_text,
    log_text,
    skeleton_document,
)
from verifier.search.core import InstanceSpace, instance_type
from verifier.search.spaces import QueryPair, QueryPairSpace, random_distribution
from verifier.spec import output_label

__all__ = [
    "hockey",
    "odp_delta",
    "rr_pair",
    "dp_pair",
    "kairouz_delta",
    "OdpPair",
    "OdpPairSpace",
    "Iterative",
    "IterativeSpace",
    "iterative_law",
    "rr_optimum",
    "lemma3_search",
    "lemma4_search",
    "lemma6_search",
    "lemma12_search",
    "lemma12_map",
    "lemma11_search",
    "lemma14_search",
    "theorem15_search",
    "criteria_search",
    "Move",
    "Game",
    "GameSpace",
    "game_views",
    "theorem7_search",
]

F = Fraction
SRC = "Hartmann et al. 2022"
Dist = tuple[Fraction, ...]

#: Budgets ``a = e^ε`` (rational, so that every probability stays rational).
BUDGETS: tuple[Fraction, ...] = (F(11, 10), F(5, 4), F(3, 2), F(2), F(3), F(5))
#: The ``δ`` of ``(ε, δ)``-DP steps.
DELTAS: tuple[Fraction, ...] = (F(0), F(0), F(1, 100), F(1, 20), F(1, 10), F(1, 4))


# ---------------------------------------------------------------------------
# exact quantities
# ---------------------------------------------------------------------------


def hockey(p: Sequence[Fraction], q: Sequence[Fraction], a: Sequence[Fraction]) -> Fraction:
    """``Σ_o max(0, p_o - a_o q_o)`` (one ordered pair; ``a_o = e^{ε̃(o)}``), summed in
    GMP rationals (a search screens thousands of pairs)."""
    total = mpq(0)
    for x, y, c in zip(p, q, a, strict=True):
        t = to_mpq(x) - to_mpq(c) * to_mpq(y)
        if t > 0:
            total += t
    return to_fraction(total)


def odp_delta(p: Sequence[Fraction], q: Sequence[Fraction], a: Sequence[Fraction]) -> Fraction:
    """The smallest ``δ`` of the ODP guarantee with per-output budgets ``a`` (both
    ordered pairs): Def. 2, sum reading."""
    return max(hockey(p, q, a), hockey(q, p, a))


def rr_pair(a: Fraction, d: Fraction) -> tuple[Dist, Dist]:
    """Kairouz et al.'s ``RR_{ε,δ}`` with ``a = e^ε`` (Hartmann et al. 2022, Lemma 12):
    outputs ``0..3`` with ``P(x^0) = (δ, (1-δ) a/(1+a), (1-δ)/(1+a), 0)`` and
    ``P(x^1)`` the mirror image."""
    hi, lo = (1 - d) * a / (1 + a), (1 - d) / (1 + a)
    return (d, hi, lo, F(0)), (F(0), lo, hi, d)


def apply_map(p: Sequence[Fraction], T: Sequence[Sequence[Fraction]]) -> Dist:
    """The distribution ``p T`` (``T`` row-stochastic, one row per output of ``p``)."""
    m = len(T[0])
    return tuple(sum((p[r] * T[r][k] for r in range(len(p))), F(0)) for k in range(m))


def random_map(rng: Random, rows: int, cols: int, extreme: bool) -> tuple[Dist, ...]:
    """A random row-stochastic ``rows x cols`` matrix with rational entries (``extreme``:
    0/1 rows, a deterministic map)."""
    out = []
    for _ in range(rows):
        if extreme or rng.random() < 0.25:
            k = rng.randrange(cols)
            out.append(tuple(F(int(i == k)) for i in range(cols)))
        else:
            out.append(random_distribution(rng, cols))
    return tuple(out)


def dp_pair(rng: Random, a: Fraction, d: Fraction, m: int, extreme: bool) -> tuple[Dist, Dist]:
    """A random ``(log a, δ)``-DP pair on ``m`` outputs: ``RR_{ε,δ}`` post-processed by a
    random stochastic map (module docstring); by Lemma 12 every such pair is one."""
    P, Q = rr_pair(a, d)
    if extreme and m == 4 and rng.random() < 0.5:
        return P, Q
    T = random_map(rng, 4, m, extreme)
    return apply_map(P, T), apply_map(Q, T)


def kairouz_delta(t: int, a: Fraction, ell: int) -> Fraction:
    """Kairouz, Oh, Viswanath 2017, Theorem 3.3 (the optimal composition of ``t``
    ``ε``-DP mechanisms, ``δ = 0``, ``a = e^ε``): the composition is
    ``((t - 2ℓ) ε, δ_ℓ)``-DP with
    ``δ_ℓ = Σ_{i=0}^{ℓ-1} C(t, i) (e^{(t-i)ε} - e^{(t-2ℓ+i)ε}) / (1 + e^ε)^t``."""
    num = sum(
        (math.comb(t, i) * (a ** (t - i) - a ** (t - 2 * ell + i)) for i in range(ell)),
        F(0),
    )
    return num / (1 + a) ** t


# ---------------------------------------------------------------------------
# document helpers
# ---------------------------------------------------------------------------


def _table(labels: Sequence[str], p: Sequence[Fraction]) -> dict[str, Any]:
    return {lab: frac_text(x) for lab, x in zip(labels, p, strict=True) if x != 0}


def pair_mechanism(labels: Sequence[str], p: Sequence[Fraction], q: Sequence[Fraction]) -> dict:
    """The spec entry of a mechanism on the pair graph ``g`` (``D``, ``D'``)."""
    return {
        "graph": "g",
        "outputs": list(labels),
        "distributions": {"D": _table(labels, p), "D'": _table(labels, q)},
    }


def _log(a: Fraction) -> str | int:
    return 0 if a == 1 else log_text(a)


def odp_claim(
    claim_id: str,
    mech: str,
    labels: Sequence[str],
    a: Sequence[Fraction],
    delta: Fraction,
    expected: str,
    statement: str,
    source: str = "",
) -> dict[str, Any]:
    """``mech`` is ODP with ``e^{e(cell(o))} = a_o`` and ``δ`` (Def. 2, sum reading),
    as an ``ex_post_approx`` claim (module docstring)."""
    out: dict[str, Any] = {
        "id": claim_id,
        "mechanism": mech,
        "kind": "ex_post_approx",
        "epsilon_tilde": {lab: _log(x) for lab, x in zip(labels, a, strict=True)},
        "delta": frac_text(delta),
        "expected": expected,
        "statement": statement,
    }
    if source:
        out["source"] = source
    return out


def dp_claim(
    claim_id: str, mech: str, a: Fraction, delta: Fraction, expected: str, statement: str
) -> dict[str, Any]:
    """``mech`` is ``(log a, δ)``-DP (``approx_dp``; ``pure_dp`` when ``δ = 0``;
    ``ex_post_approx`` with ``ε̃ = 0`` when ``a = 1``, since ``ε > 0`` is required)."""
    if a == 1:
        return {
            "id": claim_id,
            "mechanism": mech,
            "kind": "ex_post_approx",
            "epsilon_tilde": 0,
            "delta": frac_text(delta),
            "expected": expected,
            "statement": statement,
        }
    if delta == 0:
        return {
            "id": claim_id,
            "mechanism": mech,
            "kind": "pure_dp",
            "epsilon": log_text(a),
            "expected": expected,
            "statement": statement,
        }
    return {
        "id": claim_id,
        "mechanism": mech,
        "kind": "approx_dp",
        "epsilon": log_text(a),
        "delta": frac_text(delta),
        "expected": expected,
        "statement": statement,
    }


def pure_ratio(p: Sequence[Fraction], q: Sequence[Fraction], a: Sequence[Fraction]) -> float:
    """realized/claimed of a pure (ex-post) claim with ``e^{ε̃(o)} = a_o``, as the exact
    decision reports it: the largest ``log(p_o/q_o)/log(a_o)`` over outputs and both
    directions (``inf`` where a probability is positive against a zero, or where a
    positive loss meets ``ε̃ = 0``)."""
    best = 0.0
    for x, y, c in zip(p, q, a, strict=True):
        for u, w in ((x, y), (y, x)):
            if u == 0:
                continue
            if w == 0:
                return math.inf
            loss = math.log(u / w)
            if loss <= 0:
                continue
            if c == 1:
                return math.inf
            best = max(best, loss / math.log(c))
    return best


def dp_ratio(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction, delta: Fraction) -> float:
    """realized/claimed of :func:`dp_claim`'s claim ``(log a, δ)``-DP."""
    if delta == 0 and a != 1:
        return pure_ratio(p, q, [a] * len(p))
    return _ratio(odp_delta(p, q, [a] * len(p)), delta)


def _ratio(realized: Fraction, claimed: Fraction) -> float:
    """realized/claimed for screening (``0/0 = 0``, ``x/0 = inf``)."""
    if realized <= 0:
        return 0.0
    if claimed <= 0:
        return math.inf
    return float(realized / claimed)


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _dist(p: Sequence[Fraction]) -> str:
    return "(" + ", ".join(_fmt(x) for x in p) + ")"


# ---------------------------------------------------------------------------
# one mechanism with a partition (Lemmas 3, 4, 6, 12)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class OdpPair:
    """A mechanism ``(p, q)`` on ``D ~ D'``, a partition of its outputs (``cells[o]``
    is the cell of output ``o``), budgets ``a[j] = e^{e(j)} >= 1`` per cell, and a
    ``δ``-slack ``extra`` in ``[0, 1)`` (Lemma 12: ``δ = δ_min + extra (1 - δ_min)``)."""

    p: Dist
    q: Dist
    cells: tuple[int, ...]
    a: tuple[Fraction, ...]
    extra: Fraction = F(0)

    def per_output(self) -> tuple[Fraction, ...]:
        return tuple(self.a[c] for c in self.cells)

    @property
    def labels(self) -> list[str]:
        return [f"o{i}" for i in range(len(self.p))]


def _realized(p: Sequence[Fraction], q: Sequence[Fraction], outs: Iterable[int]) -> Fraction:
    """The largest likelihood ratio over ``outs`` (both directions; 1 if none; a zero
    against a positive probability counts as ratio 1 here and is paid by ``δ``)."""
    best = F(1)
    for o in outs:
        x, y = p[o], q[o]
        if x > 0 and y > 0:
            best = max(best, x / y, y / x)
    return best


@dataclass
class OdpPairSpace(InstanceSpace):
    """Mechanisms on ``m`` outputs (``(ε, δ)``-DP pairs of every shape: random, with
    zeros, randomized response), random partitions into at most ``k`` cells and cell
    budgets around the realized ones (below them, so that ``δ > 0``, or at them)."""

    m: tuple[int, int] = (2, 6)
    k: int = 3

    def _make(self, rng: Random, extreme: bool) -> OdpPair:
        m = rng.randint(*self.m)
        a = rng.choice(BUDGETS)
        d = rng.choice(DELTAS)
        p, q = dp_pair(rng, a, d, m, extreme)
        k = rng.randint(1, min(self.k, m))
        cells = tuple(rng.randrange(k) for _ in range(m))
        budgets = []
        for j in range(k):
            r = _realized(p, q, [o for o in range(m) if cells[o] == j])
            u = rng.random()
            if extreme or u < 0.3:
                b = r
            elif u < 0.6:
                b = (r * F(3, 4)).limit_denominator(1000)
            else:
                b = rng.choice(BUDGETS)
            budgets.append(max(F(1), b))
        extra = F(0) if extreme else rng.choice((F(0), F(1, 10), F(1, 2)))
        return OdpPair(p, q, cells, tuple(budgets), extra)

    def random(self, rng: Random) -> OdpPair:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> OdpPair:
        return self._make(rng, True)

    def neighbour(self, inst: OdpPair, rng: Random, scale: float) -> OdpPair:
        u = rng.random()
        if u < 0.4:
            j = rng.randrange(len(inst.a))
            b = max(F(1), inst.a[j] * F(math.exp(scale * rng.gauss(0, 1))).limit_denominator(100))
            return replace(inst, a=inst.a[:j] + (b,) + inst.a[j + 1 :])
        if u < 0.7:
            o = rng.randrange(len(inst.p))
            c = rng.randrange(len(inst.a))
            return replace(inst, cells=inst.cells[:o] + (c,) + inst.cells[o + 1 :])
        return self.random(rng)

    def complexity(self, inst: OdpPair) -> tuple[float, ...]:
        return (float(len(inst.p)), float(len(inst.a)))

    def describe(self, inst: OdpPair) -> str:
        cells = ", ".join(
            "{" + ",".join(f"o{o}" for o in range(len(inst.p)) if inst.cells[o] == j) + "}"
            for j in range(len(inst.a))
        )
        return (
            f"P_D = {_dist(inst.p)}, P_D' = {_dist(inst.q)}; cells {cells} with e^e = "
            f"{_dist(inst.a)}" + (f"; extra = {_fmt(inst.extra)}" if inst.extra else "")
        )


def _one_mechanism_doc(inst: OdpPair, title: str) -> dict[str, Any]:
    doc = skeleton_document(title)
    doc["mechanisms"]["M"] = pair_mechanism(inst.labels, inst.p, inst.q)
    return doc


# -- Lemma 3: (eps, delta)-DP => (P, e = eps, delta)-ODP --------------------------


def _lemma3_values(inst: OdpPair) -> tuple[Fraction, Fraction]:
    """``(a, δ)``: the first cell's budget as the DP ``e^ε`` (at least 11/10) and the
    exact ``δ`` of the pair at that ``ε``."""
    a = max(inst.a[0], F(11, 10))
    m = len(inst.p)
    return a, odp_delta(inst.p, inst.q, [a] * m)


def _lemma3_screen(inst: OdpPair) -> float:
    a, d = _lemma3_values(inst)
    return _ratio(odp_delta(inst.p, inst.q, [a] * len(inst.p)), d)


def _lemma3_document(inst: OdpPair, claim_id: str) -> dict[str, Any]:
    a, d = _lemma3_values(inst)
    doc = _one_mechanism_doc(inst, f"{SRC}, Lemma 3 on one mechanism and partition")
    doc["claims"].append(
        dp_claim("premise-dp", "M", a, d, "holds", f"premise: M is (log {_fmt(a)}, {_fmt(d)})-DP")
    )
    doc["claims"].append(
        odp_claim(
            claim_id,
            "M",
            inst.labels,
            [a] * len(inst.p),
            d,
            "refuted",
            "Lemma 3: M is (P, e = eps, delta)-ODP for the partition " + str(inst.cells),
            f"{SRC}, Lemma 3",
        )
    )
    return doc


def lemma3_search(claim_id: str) -> SearchSpec:
    """Lemma 3 over mechanisms, partitions and ``ε`` (δ the pair's exact one)."""
    return SearchSpec(
        space=OdpPairSpace(),
        screen=_lemma3_screen,
        document=functools.partial(_lemma3_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="(eps, delta)-DP pairs on 2-6 outputs (RR_(eps,delta) post-processed by random "
        "and deterministic maps), random partitions, eps on a grid, delta the pair's exact one",
    )


# -- Lemma 4: (P, e, delta)-ODP => (max e, delta)-DP ------------------------------


def _lemma4_values(inst: OdpPair) -> tuple[Fraction, Fraction]:
    """``(max_j a_j, δ)`` with ``δ`` the exact ODP ``δ`` of the guarantee (the
    premise then holds with equality); ``max_j a_j`` at least 11/10 (``ε > 0``)."""
    d = odp_delta(inst.p, inst.q, inst.per_output())
    return max(max(inst.a), F(11, 10)), d


def _lemma4_screen(inst: OdpPair) -> float:
    top, d = _lemma4_values(inst)
    return dp_ratio(inst.p, inst.q, top, d)


def _lemma4_document(inst: OdpPair, claim_id: str) -> dict[str, Any]:
    top, d = _lemma4_values(inst)
    doc = _one_mechanism_doc(inst, f"{SRC}, Lemma 4 on one mechanism and partition")
    a = list(inst.per_output())
    if max(inst.a) < top:  # every cell budget 1: the premise at the raised budget
        a = [top] * len(a)
    doc["claims"].append(
        odp_claim("premise-odp", "M", inst.labels, a, d, "holds", "premise: M is (P, e, delta)-ODP")
    )
    doc["claims"].append(
        dp_claim(
            claim_id,
            "M",
            top,
            d,
            "refuted",
            f"Lemma 4: M is (max_j e(j), delta)-DP = (log {_fmt(top)}, {_fmt(d)})-DP",
        )
    )
    return doc


def lemma4_search(claim_id: str) -> SearchSpec:
    """Lemma 4 over mechanisms, partitions and cell budgets (δ the exact ODP one)."""
    return SearchSpec(
        space=OdpPairSpace(),
        screen=_lemma4_screen,
        document=functools.partial(_lemma4_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="(eps, delta)-DP pairs on 2-6 outputs, random partitions into <= 3 cells, cell "
        "budgets at, below and above the realized ones, delta the guarantee's exact one",
    )


# -- Lemma 6: subset DP in every cell => (P, e, sum_j delta_j)-ODP --------------------


def _lemma6_deltas(inst: OdpPair) -> list[Fraction]:
    out = []
    for j, b in enumerate(inst.a):
        outs = [o for o in range(len(inst.p)) if inst.cells[o] == j]
        p = [inst.p[o] for o in outs]
        q = [inst.q[o] for o in outs]
        out.append(odp_delta(p, q, [b] * len(outs)))
    return out


def _lemma6_screen(inst: OdpPair) -> float:
    return _ratio(odp_delta(inst.p, inst.q, inst.per_output()), sum(_lemma6_deltas(inst), F(0)))


def _lemma6_document(inst: OdpPair, claim_id: str) -> dict[str, Any]:
    deltas = _lemma6_deltas(inst)
    doc = _one_mechanism_doc(inst, f"{SRC}, Lemma 6 on one mechanism and partition")
    for j, (b, dj) in enumerate(zip(inst.a, deltas, strict=True)):
        outs = [o for o in range(len(inst.p)) if inst.cells[o] == j]
        if not outs:
            continue
        for k, (name, (x, y)) in enumerate(
            (("D -> D'", (inst.p, inst.q)), ("D' -> D", (inst.q, inst.p)))
        ):
            terms = ", ".join(f"{_fmt(x[o])} - {_fmt(b)}*{_fmt(y[o])}" for o in outs)
            lhs = " + ".join(f"max(0, {_fmt(x[o])} - {_fmt(b)}*{_fmt(y[o])})" for o in outs)
            doc["claims"].append(
                {
                    "id": f"premise-cell{j}-{k}",
                    "kind": "inequality",
                    "lhs": lhs,
                    "rhs": frac_text(dj),
                    "expected": "holds",
                    "statement": f"premise: cell {j} is (S_j, log {_fmt(b)}, {_fmt(dj)})-subset DP, "
                    f"{name} ({terms})",
                }
            )
    doc["claims"].append(
        odp_claim(
            claim_id,
            "M",
            inst.labels,
            inst.per_output(),
            sum(deltas, F(0)),
            "refuted",
            "Lemma 6: M is (P, e, sum_j delta(j))-ODP",
            f"{SRC}, Lemma 6",
        )
    )
    return doc


def lemma6_search(claim_id: str) -> SearchSpec:
    """Lemma 6 over mechanisms, partitions and cell budgets (δ(j) the exact subset-DP
    ``δ`` of each cell)."""
    return SearchSpec(
        space=OdpPairSpace(),
        screen=_lemma6_screen,
        document=functools.partial(_lemma6_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="(eps, delta)-DP pairs on 2-6 outputs, random partitions, cell budgets at, "
        "below and above the realized ones, delta(j) each cell's exact subset-DP delta",
    )


# -- Lemma 12: every (eps, delta)-DP pair is a post-processing of RR_(eps,delta) ------


def lemma12_parameters(inst: OdpPair) -> tuple[Fraction, Fraction]:
    """``(a, δ)`` for Lemma 12: ``a = e^ε`` is the first cell's budget (at least 11/10)
    and ``δ = δ_min + extra (1 - δ_min)``, ``δ_min`` the larger of the two hockey-stick
    masses at ``a`` (the two directions may differ)."""
    a = max(inst.a[0], F(11, 10))
    m = len(inst.p)
    dmin = odp_delta(inst.p, inst.q, [a] * m)
    return a, dmin + inst.extra * (1 - dmin)


def lemma12_map(
    P: Sequence[Fraction], Q: Sequence[Fraction], a: Fraction, d: Fraction
) -> list[list[Fraction]]:
    """A stochastic map ``T`` (rows: the outputs 0..3 of ``RR_{ε,δ}``) with
    ``RR(x^0) T = P`` and ``RR(x^1) T = Q``, for any ``(log a, δ)``-DP pair, ``a > 1``,
    ``δ < 1`` (Hartmann et al. 2022, Lemma 12, after Kairouz et al. 2017).

    Construction (derivation in ``NOTES.md``).  With ``A = (1-δ)a/(1+a)`` and
    ``B = (1-δ)/(1+a)``, ``RR(x^0) T = δT_0 + A T_1 + B T_2`` and ``RR(x^1) T = δT_3 +
    B T_1 + A T_2``; so it suffices to find ``P' <= P``, ``Q' <= Q`` with mass ``1 - δ``
    each and ``Q'/a <= P' <= a Q'``, and to put ``T_0 = (P - P')/δ``,
    ``T_3 = (Q - Q')/δ``, ``T_1 = (A P' - B Q')/(A² - B²)``,
    ``T_2 = (A Q' - B P')/(A² - B²)``.  Start from ``P'' = min(P, aQ)`` and
    ``Q'' = min(Q, aP)`` (ratios in ``[1/a, a]``, masses ``1 - d_P`` and ``1 - d_Q``,
    ``d_P, d_Q <= δ``); if ``d_P <= d_Q`` scale both by ``t = (1-δ)/(1-d_Q)`` (then
    ``Q'`` has mass ``1 - δ``) and lower ``P'`` toward ``Q'/a`` by the common fraction
    ``λ`` that removes the excess ``X = t(1-d_P) - (1-δ)``; ``λ <= 1`` because the
    removable mass is ``t((1-d_P) - (1-d_Q)/a) >= X`` iff ``(1-δ)/a <= 1-δ``.  The
    other case is symmetric."""
    P, Q = [F(x) for x in P], [F(x) for x in Q]
    a, d = F(a), F(d)
    Pp = [min(x, a * y) for x, y in zip(P, Q, strict=True)]
    Qp = [min(y, a * x) for x, y in zip(P, Q, strict=True)]
    dP, dQ = 1 - sum(Pp, F(0)), 1 - sum(Qp, F(0))
    swap = dP > dQ
    if swap:
        Pp, Qp, dP, dQ = Qp, Pp, dQ, dP
    t = (1 - d) / (1 - dQ)
    Pp, Qp = [t * x for x in Pp], [t * y for y in Qp]
    X = sum(Pp, F(0)) - (1 - d)
    room = sum((x - y / a for x, y in zip(Pp, Qp, strict=True)), F(0))
    lam = X / room if room else F(0)
    Pp = [x - lam * (x - y / a) for x, y in zip(Pp, Qp, strict=True)]
    if swap:
        Pp, Qp = Qp, Pp
    n = len(P)
    A, B = (1 - d) * a / (1 + a), (1 - d) / (1 + a)
    t0 = [(x - y) / d for x, y in zip(P, Pp, strict=True)] if d else [F(1, n)] * n
    t3 = [(x - y) / d for x, y in zip(Q, Qp, strict=True)] if d else [F(1, n)] * n
    k = A * A - B * B
    t1 = [(A * x - B * y) / k for x, y in zip(Pp, Qp, strict=True)]
    t2 = [(A * y - B * x) / k for x, y in zip(Pp, Qp, strict=True)]
    return [t0, t1, t2, t3]


def lemma12_violations(
    P: Sequence[Fraction], Q: Sequence[Fraction], a: Fraction, d: Fraction
) -> list[tuple[str, Fraction]]:
    """Every condition of Lemma 12's conclusion for the map of :func:`lemma12_map`,
    as ``(what, amount)`` with ``amount <= 0`` when it holds: entries ``>= 0``, rows
    summing to 1, ``RR(x^0) T = P`` and ``RR(x^1) T = Q`` (equalities as two
    inequalities)."""
    T = lemma12_map(P, Q, a, d)
    rr0, rr1 = rr_pair(a, d)
    out: list[tuple[str, Fraction]] = []
    for r, row in enumerate(T):
        s = sum(row, F(0))
        out += [(f"row {r} sums to 1 (<=)", s - 1), (f"row {r} sums to 1 (>=)", 1 - s)]
        out += [(f"T[{r}][{k}] >= 0", -x) for k, x in enumerate(row)]
    for name, rr, target in (("P", rr0, P), ("Q", rr1, Q)):
        got = apply_map(rr, T)
        for k, (g, v) in enumerate(zip(got, target, strict=True)):
            out += [
                (f"(RR T)_{k} = {name}_{k} (<=)", g - v),
                (f"(RR T)_{k} = {name}_{k} (>=)", v - g),
            ]
    return out


def _lemma12_screen(inst: OdpPair) -> float:
    a, d = lemma12_parameters(inst)
    if d >= 1:
        return 0.0
    worst = max(v for _, v in lemma12_violations(inst.p, inst.q, a, d))
    return 1.0 + float(worst)


def _lemma12_document(inst: OdpPair, claim_id: str) -> dict[str, Any]:
    a, d = lemma12_parameters(inst)
    doc = _one_mechanism_doc(inst, f"{SRC}, Lemma 12 on one (eps, delta)-DP pair")
    doc["claims"].append(
        dp_claim("premise-dp", "M", a, d, "holds", f"premise: M is (log {_fmt(a)}, {_fmt(d)})-DP")
    )
    viol = lemma12_violations(inst.p, inst.q, a, d)
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": "1 + max(" + ", ".join(frac_text_str(v) for _, v in viol) + ")",
            "rhs": 1,
            "expected": "refuted",
            "statement": "Lemma 12: the map T of the construction is stochastic and RR_(eps,delta) T "
            "reproduces both distributions (the largest violation among: "
            + "; ".join(w for w, _ in viol[:6])
            + "; ...)",
            "source": f"{SRC}, Lemma 12 (Kairouz et al. 2017)",
        }
    )
    return doc


def frac_text_str(x: Fraction) -> str:
    return str(frac_text(x))


def lemma12_search(claim_id: str) -> SearchSpec:
    """Lemma 12 over ``(ε, δ)``-DP pairs with unequal hockey-stick masses in the two
    directions and ``δ`` above both."""
    return SearchSpec(
        space=OdpPairSpace(),
        screen=_lemma12_screen,
        document=functools.partial(_lemma12_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="(eps, delta)-DP pairs on 2-6 outputs (random, with zeros, RR itself), eps on a grid, "
        "delta from the larger hockey-stick mass up to 1 (masses unequal in general)",
    )


# ---------------------------------------------------------------------------
# iterative mechanisms (Algorithm 3)
# ---------------------------------------------------------------------------

Pair = tuple[Dist, Dist]


@instance_type
@dataclass(frozen=True)
class Iterative:
    """An iterative mechanism (module docstring).

    ``a[j], d[j]``: step ``j`` is ``(log a[j], d[j])``-DP; ``steps[j]``: its variants
    (``(P, Q)`` pairs), the one used after the outputs ``y`` is
    ``steps[j][sum(y) % len(steps[j])]``; ``stops``: the stopping points (lengths);
    ``rule``: ``(prefix, probability of stopping)`` at the stopping points but the
    last (missing prefixes: probability 0); ``b[i] = e^{e(S_i)}``: the ODP budgets of
    the cells "stopped at ``stops[i]``"; ``ell[i]``: the Kairouz point used by
    Lemma 11 (0: simple composition); ``post[j]``: Lemma 14's post-processing maps of
    step ``j`` (variants chosen like the steps' own; empty: none)."""

    a: tuple[Fraction, ...]
    d: tuple[Fraction, ...]
    steps: tuple[tuple[Pair, ...], ...]
    stops: tuple[int, ...]
    rule: tuple[tuple[tuple[int, ...], Fraction], ...]
    b: tuple[Fraction, ...] = ()
    ell: tuple[int, ...] = ()
    post: tuple[tuple[tuple[Dist, ...], ...], ...] = ()

    @property
    def T(self) -> int:
        return len(self.steps)

    def mech(self, y: tuple[int, ...]) -> Pair:
        vs = self.steps[len(y)]
        return vs[sum(y) % len(vs)]

    def stop_probability(self, y: tuple[int, ...]) -> Fraction:
        if len(y) == self.T:
            return F(1)
        if len(y) not in self.stops:
            return F(0)
        return dict(self.rule).get(y, F(0))


def label(y: Sequence[int]) -> str:
    return "s" + "".join(str(v) for v in y)


def iterative_law(inst: Iterative) -> tuple[list[tuple[int, ...]], list[Fraction], list[Fraction]]:
    """The outputs (sequences, in depth-first order) and their exact probabilities at
    ``D`` and ``D'``."""
    outs: list[tuple[int, ...]] = []
    P: list[Fraction] = []
    Q: list[Fraction] = []

    def rec(y: tuple[int, ...], p: Fraction, q: Fraction) -> None:
        s = inst.stop_probability(y) if y else F(0)
        if s:
            outs.append(y)
            P.append(p * s)
            Q.append(q * s)
        if s == 1:
            return
        mp, mq = inst.mech(y)
        for v in range(len(mp)):
            rec((*y, v), p * (1 - s) * mp[v], q * (1 - s) * mq[v])

    rec((), F(1), F(1))
    return outs, P, Q


def post_processed_law(
    inst: Iterative,
) -> tuple[list[tuple[int, ...]], list[Fraction], list[Fraction]]:
    """Lemma 14: every step's output ``y_j`` replaced by ``z_j ~ f_j(y_1..y_j)`` (the
    map variant chosen by the previous outputs); lengths are kept."""
    outs, P, Q = iterative_law(inst)
    acc: dict[tuple[int, ...], list[Fraction]] = {}
    for y, p, q in zip(outs, P, Q, strict=True):
        # the law of z given y: a product over the steps
        zs: list[tuple[tuple[int, ...], Fraction]] = [((), F(1))]
        for j in range(len(y)):
            maps = inst.post[j]
            row = maps[sum(y[:j]) % len(maps)][y[j]]
            zs = [((*z, k), w * row[k]) for z, w in zs for k in range(len(row)) if row[k]]
        for z, w in zs:
            cur = acc.setdefault(z, [F(0), F(0)])
            cur[0] += p * w
            cur[1] += q * w
    keys = sorted(acc, key=lambda z: (len(z), z))
    return keys, [acc[z][0] for z in keys], [acc[z][1] for z in keys]


def _cell(inst: Iterative, y: tuple[int, ...]) -> int:
    return inst.stops.index(len(y))


def rr_optimum(
    a: Sequence[Fraction], d: Sequence[Fraction], stops: Sequence[int], b: Sequence[Fraction]
) -> Fraction:
    """Eq. (3) of Hartmann et al. 2022, Theorem 15: the largest ODP ``δ`` of the
    iterated ``RR_{ε_j,δ_j}`` over stopping criteria, as the maximum over prefix-free
    families ``S_1, ..., S_k`` (``S_i`` sequences of length ``t_i``, none a prefix of
    another) of ``Σ_i Pr[x^0 ∈ S_i] - e^{e(S_i)} Pr[x^1 ∈ S_i]``.

    The families decompose along the tree of prefixes: at a prefix ``y`` of length
    ``t_i`` (``i < k``) a family either takes ``y`` into ``S_i`` (gain ``(P(y) -
    b_i Q(y))^+``, taking it only when positive) or leaves ``y`` and chooses below it;
    at length ``t_k`` the gain is ``(P(y) - b_k Q(y))^+``.  So the maximum is the
    value of the recursion ``V(y) = max(gain_i(y), Σ_v V(yv))`` — the same recursion
    as the best deterministic stopping criterion (stop at ``y`` or continue).  By the
    symmetry of ``RR`` both directions give the same value; both are computed."""
    T = stops[-1]
    rrs = [rr_pair(a[j], d[j]) for j in range(T)]

    def value(y: tuple[int, ...], p: Fraction, q: Fraction, flip: bool) -> Fraction:
        t = len(y)
        gain = F(0)
        if t in stops:
            i = list(stops).index(t)
            x, z = (q, p) if flip else (p, q)
            gain = max(F(0), x - b[i] * z)
            if t == T:
                return gain
        if t == T:
            return F(0)
        P, Q = rrs[t]
        below = sum(
            (value((*y, v), p * P[v], q * Q[v], flip) for v in range(4) if P[v] or Q[v]), F(0)
        )
        return max(gain, below) if t in stops else below

    return max(value((), F(1), F(1), False), value((), F(1), F(1), True))


def deterministic_optimum(inst: Iterative) -> Fraction:
    """The largest ODP ``δ`` (budgets ``b``) of ``inst``'s own mechanisms over every
    deterministic stopping criterion (the recursion of :func:`rr_optimum` on
    ``inst``'s tree; Eq. (12): a randomized criterion does no better)."""

    def value(y: tuple[int, ...], p: Fraction, q: Fraction, flip: bool) -> Fraction:
        t = len(y)
        gain = F(0)
        if t in inst.stops:
            i = inst.stops.index(t)
            x, z = (q, p) if flip else (p, q)
            gain = max(F(0), x - inst.b[i] * z)
            if t == inst.T:
                return gain
        mp, mq = inst.mech(y)
        below = sum((value((*y, v), p * mp[v], q * mq[v], flip) for v in range(len(mp))), F(0))
        return max(gain, below) if t in inst.stops else below

    return max(value((), F(1), F(1), False), value((), F(1), F(1), True))


def simple_composition(inst: Iterative) -> tuple[list[Fraction], Fraction]:
    """Lemma 11 with a composition theorem per stopping point: the simple composition
    (``e(S_i) = Σ_{j <= t_i} ε_j``, ``δ'_i = Σ_{j <= t_i} δ_j``), or, where
    ``ell[i] > 0`` and the steps are homogeneous ``ε``-DP, Kairouz et al.'s optimal
    composition (``e(S_i) = (t_i - 2ℓ) ε``, ``δ'_i = δ_ℓ``); ``δ = Σ_i δ'_i``.  Returns
    ``([e^{e(S_i)}], δ)``."""
    budgets, delta = [], F(0)
    homogeneous = len(set(inst.a)) == 1 and not any(inst.d)
    for i, t in enumerate(inst.stops):
        ell = inst.ell[i] if inst.ell else 0
        if homogeneous and 0 < ell <= t // 2:
            a = inst.a[0]
            budgets.append(a ** (t - 2 * ell))
            delta += kairouz_delta(t, a, ell)
        else:
            prod = F(1)
            for j in range(t):
                prod *= inst.a[j]
            budgets.append(prod)
            delta += sum(inst.d[:t], F(0))
    return budgets, delta


@dataclass
class IterativeSpace(InstanceSpace):
    """Iterative mechanisms with ``T`` in ``steps`` steps, stopping points, adaptive
    steps (up to ``variants`` mechanisms per step), randomized stopping criteria and
    ODP budgets ``b`` (module docstring).

    ``homogeneous``: draw homogeneous pure steps sometimes (Kairouz points for
    Lemma 11); ``adaptive``: allow several variants per step (Lemma 14 needs
    non-adaptive steps); ``post``: draw Lemma 14's post-processing maps; ``rr``:
    draw the iterated ``RR_{ε,δ}`` often (the worst case of Lemma 13)."""

    steps_range: tuple[int, int] = (2, 3)
    m: tuple[int, int] = (2, 4)
    variants: int = 3
    adaptive: bool = True
    homogeneous: bool = True
    post: bool = False
    rr: bool = True

    def _make(self, rng: Random, extreme: bool) -> Iterative:
        T = rng.randint(*self.steps_range)
        homog = self.homogeneous and rng.random() < 0.3
        a0 = rng.choice(BUDGETS)
        a = tuple(a0 if homog else rng.choice(BUDGETS) for _ in range(T))
        d = tuple(F(0) if homog else rng.choice(DELTAS) for _ in range(T))
        use_rr = self.rr and (extreme or rng.random() < 0.3)
        steps = []
        for j in range(T):
            if use_rr:
                steps.append((rr_pair(a[j], d[j]),))
                continue
            n = rng.randint(1, self.variants) if self.adaptive else 1
            m = rng.randint(*self.m)
            steps.append(tuple(dp_pair(rng, a[j], d[j], m, extreme) for _ in range(n)))
        inner = [t for t in range(1, T) if rng.random() < 0.6]
        stops = (*inner, T)
        rule = []
        for t in inner:
            for y in _prefixes(steps, t):
                u = rng.random()
                s = F(1) if u < 0.35 else F(0) if u < 0.6 else F(rng.randint(1, 11), 12)
                if extreme:
                    s = F(int(u < 0.5))
                if s:
                    rule.append((y, s))
        b = []
        for t in stops:
            prod = F(1)
            for j in range(t):
                prod *= a[j]
            c = rng.random()
            b.append(
                prod
                if c < 0.3
                else max(F(1), (prod * F(rng.randint(3, 10), 10)).limit_denominator(50))
            )
        ell = tuple(rng.randint(0, t // 2) for t in stops)
        post: tuple[tuple[tuple[Dist, ...], ...], ...] = ()
        if self.post:
            post = tuple(
                tuple(
                    random_map(rng, len(steps[j][0][0]), rng.randint(1, 3), extreme)
                    for _ in range(rng.randint(1, 2))
                )
                for j in range(T)
            )
        return Iterative(a, d, tuple(steps), stops, tuple(rule), tuple(b), ell, post)

    def random(self, rng: Random) -> Iterative:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> Iterative:
        return self._make(rng, True)

    def neighbour(self, inst: Iterative, rng: Random, scale: float) -> Iterative:
        u = rng.random()
        if u < 0.3 and inst.rule:
            k = rng.randrange(len(inst.rule))
            y, s = inst.rule[k]
            s2 = F(int(s < F(1, 2))) if rng.random() < 0.5 else F(rng.randint(0, 12), 12)
            return replace(inst, rule=inst.rule[:k] + ((y, s2),) + inst.rule[k + 1 :])
        if u < 0.6 and inst.b:
            i = rng.randrange(len(inst.b))
            b = max(F(1), inst.b[i] * F(math.exp(scale * rng.gauss(0, 1))).limit_denominator(100))
            return replace(inst, b=inst.b[:i] + (b,) + inst.b[i + 1 :])
        return self.random(rng)

    def complexity(self, inst: Iterative) -> tuple[float, ...]:
        return (float(inst.T), float(sum(len(v) for v in inst.steps)))

    def describe(self, inst: Iterative) -> str:
        steps = []
        for j, vs in enumerate(inst.steps):
            vv = " | ".join(f"D {_dist(p)}, D' {_dist(q)}" for p, q in vs)
            steps.append(f"step {j + 1} (log {_fmt(inst.a[j])}, {_fmt(inst.d[j])})-DP: {vv}")
        rule = ", ".join(f"{label(y)}: {_fmt(s)}" for y, s in inst.rule) or "none"
        out = "; ".join(steps) + f"; stops {list(inst.stops)}; stop probabilities {rule}"
        if inst.b:
            out += f"; e^e(S_i) = {_dist(inst.b)}"
        return out


def _prefixes(steps: Sequence[Sequence[Pair]], t: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for j in range(t):
        nxt = []
        for y in out:
            vs = steps[j]
            p, _ = vs[sum(y) % len(vs)]
            nxt += [(*y, v) for v in range(len(p))]
        out = nxt
    return out


def _iter_doc(
    inst: Iterative,
    title: str,
    premises: bool = True,
    law: tuple[list[tuple[int, ...]], list[Fraction], list[Fraction]] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """The document with the iterative mechanism ``M`` (its law written out), and
    one premise per step variant: it is ``(ε_j, δ_j)``-DP."""
    outs, P, Q = law if law is not None else iterative_law(inst)
    labels = [label(y) for y in outs]
    doc = skeleton_document(title)
    doc["mechanisms"]["M"] = pair_mechanism(labels, P, Q)
    if premises:
        for j, vs in enumerate(inst.steps):
            for v, (p, q) in enumerate(vs):
                name = f"step{j + 1}_{v}"
                doc["mechanisms"][name] = pair_mechanism([f"y{k}" for k in range(len(p))], p, q)
                doc["claims"].append(
                    dp_claim(
                        f"premise-{name}",
                        name,
                        inst.a[j],
                        inst.d[j],
                        "holds",
                        f"premise: the step-{j + 1} mechanism {v} is (log {_fmt(inst.a[j])}, "
                        f"{_fmt(inst.d[j])})-DP",
                    )
                )
    return doc, labels


# -- Lemma 11 ------------------------------------------------------------------------


def _lemma11_screen(inst: Iterative) -> float:
    budgets, delta = simple_composition(inst)
    outs, P, Q = iterative_law(inst)
    a = [budgets[_cell(inst, y)] for y in outs]
    return _ratio(odp_delta(P, Q, a), delta)


def _lemma11_document(inst: Iterative, claim_id: str) -> dict[str, Any]:
    budgets, delta = simple_composition(inst)
    doc, labels = _iter_doc(inst, f"{SRC}, Lemma 11 on an iterative mechanism")
    outs, _, _ = iterative_law(inst)
    doc["claims"].append(
        odp_claim(
            claim_id,
            "M",
            labels,
            [budgets[_cell(inst, y)] for y in outs],
            delta,
            "refuted",
            "Lemma 11: M is (P, e, delta)-ODP, e(S_i) and delta'_i from the composition theorem "
            "(simple, or Kairouz et al.'s optimal one for homogeneous steps), delta = sum_i "
            "delta'_i",
            f"{SRC}, Lemma 11",
        )
    )
    return doc


def lemma11_search(claim_id: str) -> SearchSpec:
    """Lemma 11 over iterative mechanisms (2–3 steps, adaptive, randomized criteria)
    with the simple composition theorem and, for homogeneous pure steps, Kairouz et
    al.'s optimal one."""
    return SearchSpec(
        space=IterativeSpace(),
        screen=_lemma11_screen,
        document=functools.partial(_lemma11_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="iterative mechanisms: 2-3 steps of (eps_j, delta_j)-DP pairs (RR_(eps,delta) "
        "post-processed; up to 3 adaptive variants per step), random stopping points, "
        "randomized and deterministic criteria; composition: simple, or Kairouz et al.'s "
        "optimal one for homogeneous eps-DP steps",
    )


# -- Lemma 14 ------------------------------------------------------------------------


def _lemma14_values(inst: Iterative) -> tuple[list[Fraction], Fraction]:
    """The premise's guarantee: the cell budgets of the simple composition and ``M``'s
    exact ODP ``δ`` at them (the premise holds with equality)."""
    budgets, _ = simple_composition(replace(inst, ell=()))
    outs, P, Q = iterative_law(inst)
    return budgets, odp_delta(P, Q, [budgets[_cell(inst, y)] for y in outs])


def _lemma14_screen(inst: Iterative) -> float:
    budgets, delta = _lemma14_values(inst)
    outs, P, Q = post_processed_law(inst)
    a = [budgets[inst.stops.index(len(z))] for z in outs]
    return _ratio(odp_delta(P, Q, a), delta)


def _lemma14_document(inst: Iterative, claim_id: str) -> dict[str, Any]:
    budgets, delta = _lemma14_values(inst)
    doc, labels = _iter_doc(inst, f"{SRC}, Lemma 14 on an iterative mechanism", premises=False)
    outs, _, _ = iterative_law(inst)
    doc["claims"].append(
        odp_claim(
            "premise-odp",
            "M",
            labels,
            [budgets[_cell(inst, y)] for y in outs],
            delta,
            "holds",
            "premise: the iterative mechanism M is (P, e, delta)-ODP",
        )
    )
    zs, P2, Q2 = post_processed_law(inst)
    zl = [label(z) for z in zs]
    doc["mechanisms"]["N"] = pair_mechanism(zl, P2, Q2)
    doc["claims"].append(
        odp_claim(
            claim_id,
            "N",
            zl,
            [budgets[inst.stops.index(len(z))] for z in zs],
            delta,
            "refuted",
            "Lemma 14: N (every step of M post-processed by a randomized function of the outputs "
            "so far) is (P, e, delta)-ODP",
            f"{SRC}, Lemma 14",
        )
    )
    return doc


def lemma14_search(claim_id: str) -> SearchSpec:
    """Lemma 14 over non-adaptive iterative mechanisms and random post-processing maps."""
    return SearchSpec(
        space=IterativeSpace(adaptive=False, post=True, homogeneous=False),
        screen=_lemma14_screen,
        document=functools.partial(_lemma14_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="non-adaptive iterative mechanisms (2-3 steps, randomized criteria) with random "
        "and deterministic post-processing maps per step (chosen by the previous outputs); "
        "the guarantee is M's exact ODP delta at the simple-composition budgets",
    )


# -- Lemma 13 / Theorem 15 / Eq. (12) -------------------------------------------------


def _t15_screen(inst: Iterative, bound: Callable[[Iterative], Fraction]) -> float:
    outs, P, Q = iterative_law(inst)
    a = [inst.b[_cell(inst, y)] for y in outs]
    return _ratio(odp_delta(P, Q, a), bound(inst))


def rr_bound(inst: Iterative) -> Fraction:
    """Eq. (3) at ``inst``'s parameters."""
    return rr_optimum(inst.a, inst.d, inst.stops, inst.b)


def _t15_document(
    inst: Iterative, claim_id: str, bound: Callable[[Iterative], Fraction], what: str
) -> dict[str, Any]:
    doc, labels = _iter_doc(inst, f"{SRC}, {what} on an iterative mechanism")
    outs, _, _ = iterative_law(inst)
    doc["claims"].append(
        odp_claim(
            claim_id,
            "M",
            labels,
            [inst.b[_cell(inst, y)] for y in outs],
            bound(inst),
            "refuted",
            f"{what}: M is (P, e, delta)-ODP with delta the bound",
            f"{SRC}, {what}",
        )
    )
    return doc


def theorem15_search(claim_id: str, what: str, rr: bool = True) -> SearchSpec:
    """Theorem 15 / Lemma 13: every ``(ε_j, δ_j)``-DP iterative mechanism with any
    (randomized, adaptive) criteria has ODP ``δ`` at most Eq. (3) (the iterated
    ``RR``'s optimum)."""
    return SearchSpec(
        space=IterativeSpace(rr=rr),
        screen=functools.partial(_t15_screen, bound=rr_bound),
        document=functools.partial(_t15_document, claim_id=claim_id, bound=rr_bound, what=what),
        default_instances=2000,
        casestudies_instances=160,
        notes="iterative mechanisms of (eps_j, delta_j)-DP steps (2-3 steps, adaptive, the "
        "iterated RR itself among them), random stopping points, randomized criteria, ODP "
        "budgets e^e(S_i) on a grid; bound: Eq. (3) at the same parameters",
    )


def criteria_search(claim_id: str) -> SearchSpec:
    """Eq. (12): for a fixed iterative mechanism a randomized criterion's ODP ``δ`` is at
    most the best deterministic criterion's."""
    return SearchSpec(
        space=IterativeSpace(),
        screen=functools.partial(_t15_screen, bound=deterministic_optimum),
        document=functools.partial(
            _t15_document,
            claim_id=claim_id,
            bound=deterministic_optimum,
            what="Theorem 15's proof, Eq. (12)",
        ),
        default_instances=2000,
        casestudies_instances=160,
        notes="iterative mechanisms (2-3 steps, adaptive) with randomized criteria; bound: the "
        "largest ODP delta of the same steps over every deterministic criterion",
    )


def brute_force_optimum(inst: Iterative) -> Fraction:
    """The largest ODP ``δ`` of ``inst``'s steps over *every* deterministic criterion,
    by enumeration (small instances only; cross-checks :func:`deterministic_optimum`)."""
    inner = [t for t in inst.stops[:-1]]
    prefixes = [y for t in inner for y in _prefixes(inst.steps, t)]
    best = F(0)
    for bits_ in itertools.product((0, 1), repeat=len(prefixes)):
        rule = tuple((y, F(s)) for y, s in zip(prefixes, bits_, strict=True) if s)
        cand = replace(inst, rule=rule)
        outs, P, Q = iterative_law(cand)
        best = max(best, odp_delta(P, Q, [inst.b[_cell(inst, y)] for y in outs]))
    return best


# ---------------------------------------------------------------------------
# the composition experiment (Algorithm 1, Theorem 7)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class Move:
    """One move of a deterministic adversary of Algorithm 1: the mechanism ``(p, q)``
    (``p`` at ``D^0``, ``q`` at ``D^1``), its ODP guarantee (``cells[o]``, cell budgets
    ``b[j] = e^{e(j)}``, ``δ``) and, per output, the next move (``None``: stop)."""

    p: Dist
    q: Dist
    cells: tuple[int, ...]
    b: tuple[Fraction, ...]
    d: Fraction
    children: tuple[Move | None, ...]


@instance_type
@dataclass(frozen=True)
class Game:
    """A budget ``(ε_g, δ_g)`` (``A = e^{ε_g}``) and the first move of a deterministic
    adversary (a finite tree of moves; every move fits the budget left, Lemma 4)."""

    A: Fraction
    dg: Fraction
    root: Move


GAME_BUDGETS: tuple[Fraction, ...] = (F(2), F(3), F(4), F(6), F(9), F(16))
GAME_DELTAS: tuple[Fraction, ...] = (F(0), F(0), F(1, 50), F(1, 10), F(1, 4))


def _make_move(rng: Random, A: Fraction, dr: Fraction, depth: int, extreme: bool) -> Move | None:
    """A random legal move with budget ``(log A, dr)`` left (``None`` if none is
    worth playing)."""
    if A <= 1 and dr == 0:
        return None
    m = rng.randint(2, 4)
    fits = [a for a in BUDGETS if a <= A]
    a = A if (extreme or not fits or rng.random() < 0.4) else rng.choice(fits)
    if a <= 1:
        a = F(1)
    di = F(0) if dr == 0 else rng.choice((F(0), dr, dr / 2))
    if a == 1:
        if di == 0:
            return None
        p, q = dp_pair(rng, F(11, 10), di, m, extreme)
        p, q = p, p  # a data-independent move (0-DP) spending delta only
    else:
        p, q = dp_pair(rng, a, di, m, extreme)
    k = rng.randint(1, m)
    cells = tuple(rng.randrange(k) for _ in range(m))
    b = []
    for j in range(k):
        r = _realized(p, q, [o for o in range(m) if cells[o] == j])
        b.append(
            min(a, r)
            if (extreme or rng.random() < 0.6)
            else rng.choice([x for x in (F(1), a) if x <= a])
        )
    need = odp_delta(p, q, [b[c] for c in cells])
    if need > dr:  # the guarantee must fit: fall back to the DP guarantee (Lemma 3)
        b = [a] * k
        need = odp_delta(p, q, [a] * m)
    children: list[Move | None] = []
    for o in range(m):
        if depth <= 1 or rng.random() < 0.25:
            children.append(None)
        else:
            children.append(_make_move(rng, A / b[cells[o]], dr - need, depth - 1, extreme))
    return Move(p, q, cells, tuple(b), need, tuple(children))


@dataclass
class GameSpace(InstanceSpace):
    """Deterministic adversaries of Algorithm 1 with up to ``depth`` rounds: every move
    is an ``(ε, δ)``-DP pair (random, extreme, randomized response), with an ODP
    guarantee on a random partition (cell budgets at the realized ones or at the DP
    ``ε``, ``δ`` the exact one it needs) that fits the budget left."""

    depth: tuple[int, int] = (2, 3)

    def _make(self, rng: Random, extreme: bool) -> Game:
        for _ in range(20):
            A = rng.choice(GAME_BUDGETS)
            dg = rng.choice(GAME_DELTAS)
            root = _make_move(rng, A, dg, rng.randint(*self.depth), extreme)
            if root is not None:
                return Game(A, dg, root)
        return Game(F(4), F(0), _make_move(Random(0), F(4), F(0), 2, True))  # type: ignore[arg-type]

    def random(self, rng: Random) -> Game:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> Game:
        return self._make(rng, True)

    def complexity(self, inst: Game) -> tuple[float, ...]:
        return (float(len(game_views(inst)[0])),)

    def describe(self, inst: Game) -> str:
        def mv(x: Move | None) -> str:
            if x is None:
                return "stop"
            kids = ", ".join(mv(c) for c in x.children)
            return (
                f"[D {_dist(x.p)}, D' {_dist(x.q)}; cells {list(x.cells)}, e^e {_dist(x.b)}, "
                f"delta {_fmt(x.d)}; then ({kids})]"
            )

        return f"budget (log {_fmt(inst.A)}, {_fmt(inst.dg)}): {mv(inst.root)}"


def game_views(
    g: Game, root: Move | None = None
) -> tuple[list[tuple[int, ...]], list[Fraction], list[Fraction]]:
    """The views of the game (output sequences) and their exact probabilities under
    ``b = 0`` and ``b = 1`` (Hartmann et al. 2022, Alg. 1 unfolded)."""
    outs: list[tuple[int, ...]] = []
    P: list[Fraction] = []
    Q: list[Fraction] = []

    def rec(mv: Move | None, y: tuple[int, ...], p: Fraction, q: Fraction) -> None:
        if mv is None:
            if p or q:
                outs.append(y)
                P.append(p)
                Q.append(q)
            return
        for o in range(len(mv.p)):
            rec(mv.children[o], (*y, o), p * mv.p[o], q * mv.q[o])

    rec(g.root if root is None else root, (), F(1), F(1))
    return outs, P, Q


def _game_moves(g: Game) -> list[tuple[tuple[int, ...], Move, Fraction, Fraction]]:
    """Every move with its position and the budget ``(A, δ)`` left when it is played."""
    out = []

    def rec(mv: Move | None, y: tuple[int, ...], A: Fraction, dr: Fraction) -> None:
        if mv is None:
            return
        out.append((y, mv, A, dr))
        for o in range(len(mv.p)):
            rec(mv.children[o], (*y, o), A / mv.b[mv.cells[o]], dr - mv.d)

    rec(g.root, (), g.A, g.dg)
    return out


def _theorem7_screen(g: Game) -> float:
    _, P, Q = game_views(g)
    return dp_ratio(P, Q, g.A, g.dg)


def _continuation(g: Game) -> tuple[int, Move, Fraction, Fraction]:
    """The first output whose continuation is the closest to its budget (the game
    after it, with ``(A / e^{e(S_j)}, δ_g - δ_1)``)."""
    best: tuple[float, int] | None = None
    r = g.root
    for o, child in enumerate(r.children):
        if child is None:
            continue
        _, P, Q = game_views(g, child)
        A, d = g.A / r.b[r.cells[o]], g.dg - r.d
        ratio = dp_ratio(P, Q, A, d)
        if best is None or ratio > best[0]:
            best = (ratio, o)
    o = 0 if best is None else best[1]
    return o, r.children[o] or r, g.A / r.b[r.cells[o]], g.dg - r.d


def _continuation_screen(g: Game) -> float:
    o, child, A, d = _continuation(g)
    if g.root.children[o] is None:
        return 0.0
    _, P, Q = game_views(g, child)
    return dp_ratio(P, Q, A, d)


def _game_document(g: Game, claim_id: str, continuation: bool) -> dict[str, Any]:
    doc = skeleton_document(f"{SRC}, Theorem 7 (Algorithm 1) against a finite adversary")
    for y, mv, A, dr in _game_moves(g):
        name = "move_" + ("".join(map(str, y)) or "root")
        labels = [f"o{o}" for o in range(len(mv.p))]
        doc["mechanisms"][name] = pair_mechanism(labels, mv.p, mv.q)
        doc["claims"].append(
            odp_claim(
                f"premise-{name}",
                name,
                labels,
                [mv.b[c] for c in mv.cells],
                mv.d,
                "holds",
                f"premise: the move after {list(y)} keeps its ODP claim",
            )
        )
        doc["claims"].append(
            {
                "id": f"premise-{name}-fits",
                "kind": "inequality",
                "lhs": f"max({', '.join(frac_text_str(b) for b in mv.b)})",
                "rhs": frac_text(A),
                "expected": "holds",
                "statement": f"premise: the move after {list(y)} fits the budget left (Lemma 4: "
                f"max_j e^e(j) <= {_fmt(A)})",
            }
        )
        doc["claims"].append(
            {
                "id": f"premise-{name}-fits-delta",
                "kind": "inequality",
                "lhs": frac_text(mv.d),
                "rhs": frac_text(dr),
                "expected": "holds",
                "statement": f"premise: the move after {list(y)} fits the delta left, {_fmt(dr)}",
            }
        )
    if continuation:
        o, child, A, d = _continuation(g)
        outs, P, Q = game_views(g, child)
        what = f"the game after the first output o{o}, budget (log {_fmt(A)}, {_fmt(d)})"
    else:
        outs, P, Q = game_views(g)
        A, d = g.A, g.dg
        what = f"the views, budget (log {_fmt(A)}, {_fmt(d)})"
    labels = ["v" + "".join(map(str, y)) for y in outs]
    doc["mechanisms"]["V"] = pair_mechanism(labels, P, Q)
    doc["claims"].append(
        dp_claim(claim_id, "V", A, d, "refuted", f"Theorem 7: {what} are (eps_g, delta_g)-close")
    )
    return doc


def theorem7_search(claim_id: str, continuation: bool = False) -> SearchSpec:
    """Theorem 7 against finite adaptive adversaries (or, ``continuation``, the step of
    its induction: the game after the first output with the budget that output left)."""
    return SearchSpec(
        space=GameSpace(),
        screen=_continuation_screen if continuation else _theorem7_screen,
        document=functools.partial(_game_document, claim_id=claim_id, continuation=continuation),
        default_instances=2000,
        casestudies_instances=160,
        notes="deterministic adaptive adversaries of Algorithm 1 with 2-3 rounds: (eps, delta)-DP "
        "moves on 2-4 outputs (random, extreme, RR) with ODP guarantees on random partitions "
        "that fit the budget left (cell budgets at the realized ones or the DP eps, the exact "
        "delta they need); budgets e^eps_g in {2, ..., 16}, delta_g in {0, 1/50, 1/10, 1/4}",
    )


# ---------------------------------------------------------------------------
# ex-post DP = ODP with singleton cells (§3)
# ---------------------------------------------------------------------------


def _positive(inst: OdpPair) -> OdpPair:
    """The pair mixed half-and-half with the uniform distribution (every probability
    positive, every ratio finite; still a pair of distributions)."""
    m = len(inst.p)
    return replace(
        inst,
        p=tuple((x + F(1, m)) / 2 for x in inst.p),
        q=tuple((y + F(1, m)) / 2 for y in inst.q),
    )


def _singleton_budgets(inst: OdpPair) -> tuple[Fraction, ...]:
    """``e^{ε̃(o)}``: each output's realized ratio, shaved by ``1 - extra`` toward 1
    when ``extra > 0`` (then the bound may fail)."""
    out = []
    for x, y in zip(inst.p, inst.q, strict=True):
        r = max(x / y, y / x)
        out.append(max(F(1), r - inst.extra * (r - 1)))
    return tuple(out)


def _singleton_direction(inst: OdpPair) -> bool:
    """``True``: ex-post DP => singleton ODP; ``False``: the converse."""
    return len(inst.cells) % 2 == 0


def _singleton_screen(inst: OdpPair) -> float:
    inst = _positive(inst)
    a = _singleton_budgets(inst)
    odp = odp_delta(inst.p, inst.q, a)  # singleton ODP with delta = 0 holds iff this is 0
    if _singleton_direction(inst):  # the target is singleton ODP with delta = 0
        return _ratio(odp, F(0))
    return pure_ratio(inst.p, inst.q, a)  # the target is ex-post DP


def _singleton_document(inst: OdpPair, claim_id: str) -> dict[str, Any]:
    inst = _positive(inst)
    a = _singleton_budgets(inst)
    doc = _one_mechanism_doc(inst, f"{SRC}, §3: ex-post DP is ODP with singleton cells")
    ex_post = {
        "mechanism": "M",
        "kind": "ex_post",
        "epsilon_tilde": {lab: _log(x) for lab, x in zip(inst.labels, a, strict=True)},
    }
    odp = odp_claim("x", "M", inst.labels, a, F(0), "", "")
    odp = {k: odp[k] for k in ("mechanism", "kind", "epsilon_tilde", "delta")}
    first, second = (ex_post, odp) if _singleton_direction(inst) else (odp, ex_post)
    doc["claims"].append(
        {"id": "premise", **first, "expected": "holds", "statement": "premise: one reading holds"}
    )
    doc["claims"].append(
        {
            "id": claim_id,
            **second,
            "expected": "refuted",
            "statement": "ex-post DP with eps~(o) and (singletons, e({o}) = eps~(o), 0)-ODP agree",
            "source": f"{SRC}, §3 / Ghazi et al. 2025, Def 2",
        }
    )
    return doc


def singleton_search(claim_id: str) -> SearchSpec:
    """Ex-post ``ε̃``-DP and ODP with singleton cells ``e({o}) = ε̃(o)``, ``δ = 0``
    agree (both directions, alternating by instance)."""
    return SearchSpec(
        space=OdpPairSpace(),
        screen=_singleton_screen,
        document=functools.partial(_singleton_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="(eps, delta)-DP pairs on 2-6 outputs mixed with the uniform distribution, eps~(o) the "
        "realized loss or shaved below it; each instance checks one direction of the equivalence",
    )


# ---------------------------------------------------------------------------
# the sparse vector technique (Lemma 8)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class SvtPair:
    """Neighbouring query-answer vectors (every answer moves by at most 1), the
    cutoff ``c`` of Lyu et al.'s Algorithm 1 and its noise (``"geometric"`` or
    ``"laplace"``)."""

    q: tuple[int, ...]
    q2: tuple[int, ...]
    c: int
    noise: str = "geometric"


@dataclass
class SvtSpace(InstanceSpace):
    """Query vectors of length 1–4 with answers in ``[-1, 2]`` (ALL_DIFFER
    neighbours) and cutoffs ``c ∈ {1, 2, 3}``."""

    def __post_init__(self) -> None:
        self.inner = QueryPairSpace(n=(1, 4))

    def _wrap(self, qp: Any, rng: Random) -> SvtPair:
        noise = "laplace" if rng.random() < 0.2 else "geometric"
        return SvtPair(qp.q, qp.q2, rng.choice((1, 2, 2, 3)), noise)

    def random(self, rng: Random) -> SvtPair:
        return self._wrap(self.inner.random(rng), rng)

    def extreme(self, rng: Random) -> SvtPair:
        return self._wrap(self.inner.extreme(rng), rng)

    def neighbour(self, inst: SvtPair, rng: Random, scale: float) -> SvtPair:
        qp = self.inner.neighbour(QueryPair(inst.q, inst.q2), rng, scale)
        return SvtPair(qp.q, qp.q2, inst.c, inst.noise)

    def complexity(self, inst: SvtPair) -> tuple[float, ...]:
        return (float(len(inst.q)), float(inst.c))

    def describe(self, inst: SvtPair) -> str:
        return f"q = {inst.q}, q' = {inst.q2}, c = {inst.c}, {inst.noise} noise"


#: ``W = e^{-u} = 4/5`` for the programs' noise unit: exact rationals.
SVT_BASE = Fraction(4, 5)


@functools.lru_cache(maxsize=8)
def svt_epsilon(c: int, noise: str = "geometric") -> Any:
    """``ε = L log(5/4)``: the programs' noise unit has ``e^{-u} = 4/5``."""
    return epsilon_for_base(lambda e: lyu_svt(1, e, c, noise=noise), sp.Rational(4, 5))


@functools.lru_cache(maxsize=4096)
def svt_law(inst: SvtPair) -> tuple[list[Any], list[float], list[float]]:
    """Lyu et al.'s Algorithm 1 (``ε_1 = ε/2``) on the pair, computed exactly
    (:mod:`verifier.algorithms.noise`) and returned in floats for screening."""
    eps = svt_epsilon(inst.c, inst.noise)
    pm = program_mechanism(
        lyu_svt(1, eps, inst.c, noise=inst.noise),
        pair("D", "D'"),
        answers={"D": inst.q, "D'": inst.q2},
    ).mechanism
    outs = list(pm.outputs)
    P = [float(sp.N(pm.p("D", o), 30)) for o in outs]
    Q = [float(sp.N(pm.p("D'", o), 30)) for o in outs]
    return outs, P, Q


def _fraction(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


def lemma8_budgets(inst: SvtPair, outs: Sequence[Any]) -> list[Any]:
    """Lemma 8's ``e(S_ℓ) = ε_1 + ℓ ε_2/c`` per output (``ε_1 = ε_2 = ε/2``)."""
    eps = svt_epsilon(inst.c, inst.noise)
    return [eps / 2 + str(o).count("⊤") * (eps / 2) / inst.c for o in outs]


def _lemma8_screen(inst: SvtPair) -> float:
    """The largest realized loss over the claimed ``e(cell)`` (ex-post per output,
    ``δ = 0``)."""
    outs, P, Q = svt_law(inst)
    e = [float(x) for x in lemma8_budgets(inst, outs)]
    best = 0.0
    for p, q, c in zip(P, Q, e, strict=True):
        if p <= 0 and q <= 0:
            continue
        if p <= 0 or q <= 0:
            return math.inf
        best = max(best, abs(math.log(p / q)) / c)
    return best


def _lemma8_document(inst: SvtPair, claim_id: str) -> dict[str, Any]:
    eps = svt_epsilon(inst.c, inst.noise)
    doc = skeleton_document(f"{SRC}, Lemma 8: the sparse vector technique is ODP")
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["S"] = {
        "algorithm": "sparse_vector",
        "inputs": ["q"],
        "params": {"variant": "lyu1", "c": inst.c, "epsilon": expr_text(eps), "noise": inst.noise},
    }
    outs = derived_outputs(doc, "S")
    e = lemma8_budgets(inst, outs)
    doc["claims"].append(
        {
            "id": claim_id,
            "mechanism": "S",
            "kind": "ex_post",
            "epsilon_tilde": {output_label(o): expr_text(x) for o, x in zip(outs, e, strict=True)},
            "expected": "refuted",
            "statement": f"Lemma 8: Lyu et al.'s Algorithm 1 (c = {inst.c}, eps = {eps}, {inst.noise} noise) is ODP with "
            "cells 'l tops' and e(l) = eps_1 + l eps_2/c, delta = 0",
            "source": f"{SRC}, Lemma 8",
        }
    )
    return doc


def lemma8_search(claim_id: str) -> SearchSpec:
    return SearchSpec(
        space=SvtSpace(),
        screen=_lemma8_screen,
        document=functools.partial(_lemma8_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=80,
        notes="neighbouring query vectors of length 1-4 (answers in [-1, 2], every answer moves by "
        "at most 1; the half-half patterns among the extreme points), cutoff c in {1, 2, 3}; "
        "Lyu et al.'s Algorithm 1 with geometric or Laplace noise, eps = L log(5/4)",
    )


# ---------------------------------------------------------------------------
# Propose-Test-Release (Definition 9, Lemma 10)
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class PtrInst:
    """Two integer statistics ``h1, h2`` on the path ``0..L`` (steps of 0 or 1, and
    jumps where they are unstable), the test threshold ``t`` and ``e^ε = a``."""

    h1: tuple[int, ...]
    h2: tuple[int, ...]
    t: int
    a: Fraction


def _statistic(rng: Random, L: int) -> tuple[int, ...]:
    h = [rng.randint(0, 3)]
    for _ in range(L):
        h.append(h[-1] + (rng.randint(2, 7) if rng.random() < 0.2 else rng.randint(0, 1)))
    return tuple(h)


@dataclass
class PtrSpace(InstanceSpace):
    """Paths of 4–9 datasets, two statistics with random unstable places, thresholds
    ``t ∈ {1, ..., 4}``, ``e^ε ∈ {3/2, 2, 3}``."""

    def random(self, rng: Random) -> PtrInst:
        L = rng.randint(3, 8)
        return PtrInst(
            _statistic(rng, L),
            _statistic(rng, L),
            rng.randint(1, 4),
            rng.choice((F(3, 2), F(2), F(3))),
        )

    def neighbour(self, inst: PtrInst, rng: Random, scale: float) -> PtrInst:
        if rng.random() < 0.5:
            return replace(inst, t=min(4, max(1, inst.t + rng.choice((-1, 1)))))
        return self.random(rng)

    def complexity(self, inst: PtrInst) -> tuple[float, ...]:
        return (float(len(inst.h1)),)

    def describe(self, inst: PtrInst) -> str:
        return f"h1 = {inst.h1}, h2 = {inst.h2}, t = {inst.t}, e^eps = {inst.a}"


@functools.lru_cache(maxsize=512)
def ptr_mechanisms(inst: PtrInst) -> tuple[Any, Any, Any]:
    """``(f1, f2, cascade)`` on the path (:mod:`verifier.odp.ptr`)."""
    L = len(inst.h1) - 1
    g = path(L)
    lo = min(*inst.h1, *inst.h2) - 2
    hi = max(*inst.h1, *inst.h2) + 2
    eps = sp.log(sp.Rational(inst.a.numerator, inst.a.denominator))
    f1 = ptr_function(
        g, dict(enumerate(inst.h1)), eps=eps, threshold=inst.t, value_range=(lo, hi), name="f1"
    )
    f2 = ptr_function(
        g, dict(enumerate(inst.h2)), eps=eps, threshold=inst.t, value_range=(lo, hi), name="f2"
    )
    return f1, f2, ptr_cascade(f1, f2)


def ptr_delta0(inst: PtrInst) -> Fraction:
    """``δ0 = P[Z >= t]`` for two-sided geometric ``Z`` of rate ``ε``: ``W^t/(1 + W)``,
    ``W = 1/a``."""
    return geometric_survival_at(1 / inst.a, inst.t)


def _mech_odp_delta(mech: Any, a_of: Callable[[Any], Fraction]) -> Fraction:
    best = F(0)
    for d, d2 in mech.ordered_pairs():
        p = [_fraction(mech.p(d, o)) for o in mech.outputs]
        q = [_fraction(mech.p(d2, o)) for o in mech.outputs]
        best = max(best, hockey(p, q, [a_of(o) for o in mech.outputs]))
    return best


def _ptr_budgets(inst: PtrInst, cascade: bool) -> tuple[Callable[[Any], Fraction], Fraction]:
    """Per-output ``e^{e(cell)}`` and ``δ``: a PTR function ``({⊥}: ε, R: 2ε, δ0)``; the
    cascade ``({⊥}: 2ε, R: 3ε, (1 + e^ε) δ0)`` (Lemma 10)."""
    a = inst.a
    if cascade:
        return (lambda o: a**2 if o == "⊥" else a**3), (1 + a) * ptr_delta0(inst)
    return (lambda o: a if o == "⊥" else a**2), ptr_delta0(inst)


def _ptr_rows(inst: PtrInst, h: tuple[int, ...]) -> list[list[Fraction]]:
    """Per dataset of the path, the probabilities of ``(⊥, lo, ..., hi)`` of the PTR
    function of :func:`ptr_mechanisms` (Hartmann et al. 2022, Def. 9; the closed forms
    of :func:`verifier.odp.ptr.ptr_function` with ``s = 1``) in rationals: ``e^ε = a``
    is rational, and so is every probability."""
    L = len(h) - 1
    lo = min(*inst.h1, *inst.h2) - 2
    hi = max(*inst.h1, *inst.h2) + 2
    A = distance_to_instability(path(L), dict(enumerate(h)), 1)
    r = 1 / inst.a
    rows = []
    for d in range(L + 1):
        a = A[d]
        passes = F(1) if a is None else geometric_survival_at(r, inst.t - a)
        row = [F(0) if a is None else geometric_survival_at(r, a + 1 - inst.t)]
        for v in range(lo, hi + 1):
            x = v - h[d]
            if v == lo:
                p = 1 - geometric_survival_at(r, x + 1)
            elif v == hi:
                p = geometric_survival_at(r, x)
            else:
                p = (1 - r) / (1 + r) * r ** abs(x)
            row.append(passes * p)
        rows.append(row)
    return rows


@functools.lru_cache(maxsize=512)
def ptr_laws(inst: PtrInst) -> tuple[list[list[Fraction]], ...]:
    """``(f1, f2, cascade)`` of :func:`ptr_mechanisms` as rows of rationals per dataset
    (outputs ``⊥, lo, ..., hi``): the cascade releases ``f1(D)`` unless it is ⊥, then
    ``f2(D)`` (Dwork & Lei; :func:`verifier.odp.ptr.ptr_cascade`)."""
    f1, f2 = _ptr_rows(inst, inst.h1), _ptr_rows(inst, inst.h2)
    cascade = [
        [b1[0] * b2[0], *(x + b1[0] * y for x, y in zip(b1[1:], b2[1:], strict=True))]
        for b1, b2 in zip(f1, f2, strict=True)
    ]
    return f1, f2, cascade


def _rows_odp_delta(rows: list[list[Fraction]], a: list[Fraction]) -> Fraction:
    """:func:`_mech_odp_delta` of a mechanism on a path given by its rows: both
    directions of every edge ``(d, d + 1)``."""
    return max(
        max(hockey(rows[d], rows[d + 1], a), hockey(rows[d + 1], rows[d], a))
        for d in range(len(rows) - 1)
    )


def _ptr_screen(inst: PtrInst, cascade: bool) -> float:
    f1, f2, M = ptr_laws(inst)
    a_of, d = _ptr_budgets(inst, cascade)
    a = [a_of("⊥"), *(a_of(0) for _ in f1[0][1:])]
    mechs = [M] if cascade else [f1, f2]
    return max(_ratio(_rows_odp_delta(m, a), d) for m in mechs)


def _ptr_entry(mech: Any) -> dict[str, Any]:
    labels = [output_label(o) for o in mech.outputs]
    return {
        "graph": "path",
        "outputs": labels,
        "distributions": {
            str(d): {
                lab: frac_text(_fraction(mech.p(d, o)))
                for lab, o in zip(labels, mech.outputs, strict=True)
                if mech.p(d, o) != 0
            }
            for d in mech.datasets
        },
    }


def _ptr_document(inst: PtrInst, claim_id: str, cascade: bool) -> dict[str, Any]:
    f1, f2, M = ptr_mechanisms(inst)
    doc = skeleton_document(
        f"{SRC}, " + ("Lemma 10: the PTR cascade" if cascade else "Def. 9: a PTR function")
    )
    doc["graphs"]["path"] = {"kind": "path", "n": len(inst.h1) - 1}
    for name, m in (("f1", f1), ("f2", f2), ("M", M)):
        doc["mechanisms"][name] = _ptr_entry(m)
    one, _ = _ptr_budgets(inst, False)
    two, d2 = _ptr_budgets(inst, True)
    d1 = ptr_delta0(inst)

    def claim_(
        cid: str,
        mech: str,
        m: Any,
        a_of: Callable[[Any], Fraction],
        d: Fraction,
        expected: str,
        what: str,
    ) -> dict[str, Any]:
        return {
            "id": cid,
            "mechanism": mech,
            "kind": "ex_post_approx",
            "epsilon_tilde": {output_label(o): _log(a_of(o)) for o in m.outputs},
            "delta": frac_text(d),
            "expected": expected,
            "statement": what,
        }

    if cascade:
        for name, m in (("f1", f1), ("f2", f2)):
            doc["claims"].append(
                claim_(
                    f"premise-{name}",
                    name,
                    m,
                    one,
                    d1,
                    "holds",
                    f"premise: {name} is ({{bot}}: eps, R: 2 eps, delta0)-ODP",
                )
            )
        doc["claims"].append(
            claim_(
                claim_id,
                "M",
                M,
                two,
                d2,
                "refuted",
                "Lemma 10: the cascade is ({bot}: 2 eps, R: 3 eps, (1 + e^eps) delta0)-ODP",
            )
        )
    else:
        worst = max((f1, f2), key=lambda m: _ratio(_mech_odp_delta(m, one), d1))
        name = "f1" if worst is f1 else "f2"
        doc["claims"].append(
            claim_(
                claim_id,
                name,
                worst,
                one,
                d1,
                "refuted",
                "a PTR function is ({bot}: eps, R: 2 eps, delta0 = P[Z >= t])-ODP",
            )
        )
    return doc


def ptr_search(claim_id: str, cascade: bool) -> SearchSpec:
    return SearchSpec(
        space=PtrSpace(),
        screen=functools.partial(_ptr_screen, cascade=cascade),
        document=functools.partial(_ptr_document, claim_id=claim_id, cascade=cascade),
        default_instances=2000,
        casestudies_instances=80,
        notes="PTR functions on paths of 4-9 datasets: integer statistics with steps 0/1 and random "
        "jumps of 2-7 (the unstable places), thresholds 1-4, e^eps in {3/2, 2, 3}, geometric test "
        "and release noise; every edge of the path, both directions"
        + ("; the Dwork-Lei cascade of two such functions" if cascade else ""),
    )
