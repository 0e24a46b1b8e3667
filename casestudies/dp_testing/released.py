"""Lyu, Su, Li 2017, Alg. 3 — the sparse vector technique that releases the noisy
value it compared — decided exactly on finitely many input pairs, for any cutoff ``c``.

The mechanism as DP-Sniper (``SparseVectorTechnique3(eps, c, t)``) and StatDP
(``iSVT4``, ``N = c = 1``) run it: ``ρ ~ Lap(2/ε)`` (rate ``ε/2 = c·u``), ``ν_i ~
Lap(2c/ε)`` (rate ``u = ε/(2c)``); query ``i`` is *above* when ``q_i + ν_i >= ρ + t``
and then releases ``q_i + ν_i``, a query below releases a marker, and after the
``c``-th query above the rest are aborted.

An output is a set ``K = (k_1 < ... < k_j)`` of released positions (``j <= c``) with
their values ``v``; the positions ``B(K)`` before ``k_j`` (every position when ``j <
c``) that are not in ``K`` are below.  Given ``ρ = r`` the queries are independent,
and ``v_k >= r + t`` for every ``k ∈ K`` is ``r <= min_k v_k - t``, so the density of
``(K, v)`` on the input ``q`` is

    ``h_q(K, v) = Π_{k∈K} f(v_k - q_k) · G_{q,K}(min_k v_k - t)``,
    ``G_{q,K}(y) = ∫_{r <= y} f_ρ(r) Π_{i∈B(K)} P(q_i + ν_i < r + t) dr``

(``f`` the density of ``ν``); ``j = 0`` is the probability ``G_{q,∅}(∞)`` that no
query is above.

**The supremum over ``v ∈ R^j`` reduces to one dimension.**  The ratio of two Laplace
densities ``a_k(x) = f(x - q_k)/f(x - q'_k) = e^{u(|x - q'_k| - |x - q_k|)}`` is
monotone in ``x``: non-decreasing with limit ``A_k = e^{u(q_k - q'_k)}`` at ``+∞`` when
``q_k >= q'_k``, non-increasing otherwise.  Where ``v_{k*}`` is the smallest value
``w``, the other coordinates range independently over ``[w, ∞)``, so

    ``sup_v h_q/h_q' = max_{k*∈K} sup_w (G_{q,K}/G_{q',K})(w - t) · a_{k*}(w) ·
    Π_{k≠k*} max(a_k(w), A_k)``

with ``max(a_k(w), A_k) = A_k`` when ``q_k > q'_k`` (the value released at ``k`` far
above the others) and ``a_k(w)`` otherwise (all values equal): per ``k*`` one ratio of
two piecewise exponential densities of ``w`` times a constant, whose supremum
:func:`verifier.algorithms.noise.density_ratio.sup_log_ratio` decides exactly.  With
``c = 1`` there is one ``k*`` and no constant.

Threshold and query noise have commensurable rates (``c·u`` and ``u``), so where the
exponents of ``f_ρ`` and of the ``P(q_i + ν_i < r + t)`` factors cancel, ``G`` gains
terms ``v·e^{-kuv}``; :mod:`~verifier.algorithms.noise.density_ratio` certifies those
pieces by its Rolle-type reduction.  A position whose supremum lies at an interior
critical point is certified below the largest exact value
(:func:`~verifier.algorithms.noise.density_ratio.ratio_at_most`).

``other`` adds an independent mechanism run on the same input (DP-Sniper's
``SVT34Parallel``: Alg. 3 and Alg. 4 with independent noise): the loss of a product of
independent mechanisms on a pair is the sum of the components' losses on that pair
(the supremum of a sum of functions of separate outputs is the sum of the suprema), so
each candidate of Alg. 3 is scaled by the other's exact largest ratio on the pair.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms.noise import Laurent, LossMax
from verifier.algorithms.noise.density_ratio import (
    RatioSup,
    best_of,
    ratio_at_most,
    sup_log_ratio,
)
from verifier.algorithms.noise.distributions import laplace_density, laplace_survival
from verifier.algorithms.noise.expoly import CONTINUOUS, PW, Ring

from .suite import ExactEpsilon, Vector, piecewise_json

__all__ = [
    "Alg3",
    "patterns",
    "below",
    "joint",
    "threshold_integral",
    "factors",
    "pattern_candidates",
    "exact_released_value",
    "export_released_value",
]

Pairs = Sequence[tuple[Vector, Vector]]


@dataclass(frozen=True)
class Alg3:
    """Lyu et al.'s Alg. 3 at budget ``eps``, cutoff ``c``, threshold ``t`` (an
    integer, as are the answers): ``ρ`` of rate ``c·u``, ``ν`` of rate ``u = ε/(2c)``."""

    eps: Any
    c: int = 1
    t: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.c, int) or self.c < 1:
            raise ValueError(f"the cutoff c must be an integer of at least 1, got {self.c!r}")
        if not isinstance(self.t, int):
            raise ValueError(
                f"the threshold t must be an integer (the breakpoints of the densities), "
                f"got {self.t!r}"
            )
        eps = sp.Rational(self.eps)
        if eps <= 0:
            raise ValueError(f"the budget eps must be a positive rational, got {self.eps!r}")

    @property
    def u(self) -> Fraction:
        r = sp.Rational(self.eps) / (2 * self.c)
        return Fraction(int(r.p), int(r.q))

    @property
    def key(self) -> tuple[Fraction, int, int]:
        return self.u, self.c, self.t


def patterns(n: int, c: int) -> Iterator[tuple[int, ...]]:
    """The released position sets ``K`` (0-based, increasing) of ``1..c`` positions."""
    for j in range(1, c + 1):
        yield from itertools.combinations(range(n), j)


def below(K: tuple[int, ...], n: int, c: int) -> list[int]:
    """``B(K)``: the positions that are below when ``K`` is released — every other
    position when fewer than ``c`` are released, else those before the last of ``K``."""
    last = n if len(K) < c else K[-1]
    return [i for i in range(last) if i not in K]


@functools.cache
def _noise(u: Fraction, c: int) -> tuple[Ring, PW, PW, PW]:
    ring = CONTINUOUS.at_unit(u)
    return ring, laplace_density(ring, 1), laplace_density(ring, c), laplace_survival(ring, 1)


@functools.lru_cache(maxsize=4096)
def joint(key: tuple[Fraction, int, int], below_values: tuple[int, ...]) -> PW:
    """``r ↦ f_ρ(r) Π_{q ∈ below_values} P(q + ν < r + t)`` (``below_values`` sorted; the
    product is built on its prefixes, which the cache shares)."""
    u, c, t = key
    _, _, f_rho, surv = _noise(u, c)
    if not below_values:
        return f_rho
    return joint(key, below_values[:-1]) * (1 - surv.shifted(t - below_values[-1]))


@functools.lru_cache(maxsize=4096)
def threshold_integral(key: tuple[Fraction, int, int], below_values: tuple[int, ...]) -> PW:
    """``v ↦ G(v - t) = ∫_{r <= v - t} f_ρ(r) Π P(q + ν < r + t) dr``."""
    return joint(key, below_values).cumulative().shifted(-key[2])


def factors(alg: Alg3, q: Sequence[int], K: tuple[int, ...]) -> tuple[list[PW], PW]:
    """The factors of the density of releasing ``K`` on the answers ``q``: the query
    noise densities ``v_k ↦ f(v_k - q_k)`` (``k ∈ K``) and ``w ↦ G_{q,K}(w - t)``, taken
    at ``w = min_k v_k`` (module docstring)."""
    _, f, _, _ = _noise(alg.u, alg.c)
    below_values = tuple(sorted(q[i] for i in below(K, len(q), alg.c)))
    return [f.shifted(-q[k]) for k in K], threshold_integral(alg.key, below_values)


def _ints(v: Vector) -> tuple[int, ...]:
    out = tuple(int(x) for x in v)
    if any(x != y for x, y in zip(out, v, strict=True)):
        raise ValueError(f"Alg. 3 is decided here on integer answers, got {v}")
    return out


def _vec(v: Sequence[Any]) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def _output(K: tuple[int, ...], n: int, c: int) -> str:
    """The output pattern: ``⊥`` below, ``v`` released, ``·`` aborted."""
    B = set(below(K, n, c))
    return "".join("v" if i in K else "⊥" if i in B else "·" for i in range(n))


@dataclass(frozen=True)
class _Candidate:
    label: str
    sup: RatioSup
    f: PW
    g: PW


@functools.cache
def _reduced(
    key: tuple[Fraction, int, int],
    below_pairs: tuple[tuple[int, int], ...],
    star: tuple[int, int],
    equal: tuple[tuple[int, int], ...],
    shift: int,
) -> tuple[PW, PW, RatioSup]:
    """The one-dimensional ratio for ``k*`` (module docstring): numerator and
    denominator densities in ``w`` and their supremum.  ``below_pairs`` the answers
    ``(q_i, q'_i)`` of ``B(K)``, ``star`` those of ``k*``, ``equal`` those of the
    positions held at ``w``, ``shift`` the exponent of the constant ``Π A_k``."""
    u, c, _ = key
    _, f, _, _ = _noise(u, c)
    fa, fb = f.shifted(-star[0]), f.shifted(-star[1])
    for qa, qb in equal:
        fa, fb = fa * f.shifted(-qa), fb * f.shifted(-qb)
    fa = fa * threshold_integral(key, tuple(sorted(x for x, _ in below_pairs)))
    fb = fb * threshold_integral(key, tuple(sorted(y for _, y in below_pairs)))
    if shift:
        fa = fa * Laurent.monomial(-shift)
    return fa, fb, sup_log_ratio(fa, fb, u)


def _candidates(alg: Alg3, a: tuple[int, ...], b: tuple[int, ...]) -> list[_Candidate]:
    """Every candidate of the pair ``(a, b)``: no query above, and per released set
    ``K`` and smallest position ``k*`` the reduced one-dimensional supremum."""
    n, c = len(a), alg.c
    pa = joint(alg.key, tuple(sorted(a))).total()
    pb = joint(alg.key, tuple(sorted(b))).total()
    uu = sp.Rational(alg.u.numerator, alg.u.denominator)
    atom = RatioSup(sp.log(pa.to_sympy(uu) / pb.to_sympy(uu)), pa, pb, "no answer above")
    _, f_nu, _, _ = _noise(alg.u, c)
    out = [_Candidate("⊥" * n + " (no answer above)", atom, f_nu, f_nu)]
    for K in patterns(n, c):
        out += pattern_candidates(alg, a, b, K)
    return out


def pattern_candidates(
    alg: Alg3, a: tuple[int, ...], b: tuple[int, ...], K: tuple[int, ...]
) -> list[_Candidate]:
    """The reduced one-dimensional suprema of releasing ``K`` on the pair ``(a, b)``,
    one per smallest position ``k*`` (module docstring): their largest is the supremum
    of the ratio of the two densities of ``K``'s values over ``R^{|K|}``."""
    n, c = len(a), alg.c
    below_pairs = tuple(sorted((a[i], b[i]) for i in below(K, n, c)))
    out = []
    for star in K:
        rest = [k for k in K if k != star]
        equal = tuple(sorted((a[k], b[k]) for k in rest if a[k] < b[k]))
        far = [k for k in rest if a[k] > b[k]]
        shift = sum(a[k] - b[k] for k in far)
        fa, fb, r = _reduced(alg.key, below_pairs, (a[star], b[star]), equal, shift)
        label = _output(K, n, c)
        if len(K) > 1:
            label += f", the smallest value at query {star + 1}"
            if far:
                label += ", " + ", ".join(f"query {k + 1}'s" for k in far) + " -> +oo"
            held = [k for k in rest if k not in far]
            if held:
                label += ", " + ", ".join(f"query {k + 1}'s" for k in held) + " at it"
        out.append(_Candidate(f"{label}, {r.where}", r, fa, fb))
    return out


def _scaled(r: RatioSup, other: LossMax | None) -> RatioSup:
    if other is None:
        return r
    return RatioSup(r.value + other.value, r.p * other.p, r.q * other.q, r.where, None, r.interior)


def exact_released_value(
    eps: Any,
    pairs: Pairs,
    t: int = 1,
    c: int = 1,
    other: Sequence[tuple[str, LossMax]] | None = None,
    other_name: str = "",
) -> ExactEpsilon:
    """The exact ε of Lyu et al.'s Alg. 3 (budget ``eps``, cutoff ``c``, threshold
    ``t``) on the ordered ``pairs``: per pair the largest of the log-ratio of the
    probability that no query is above and of the reduced suprema of the densities of
    the released values (module docstring).  ``other``: per pair, the exact largest loss
    of an independent mechanism run alongside (same unit ``u``), added to every
    candidate of that pair (``other_name`` names it in the labels)."""
    alg = Alg3(sp.Rational(eps), c, t)
    u = alg.u
    if other is not None and len(other) != len(pairs):
        raise ValueError("internal: one loss of the other component per pair is needed")
    rows: list[tuple[str, LossMax | None, list[_Candidate]]] = []
    for i, (a, b) in enumerate(pairs):
        extra = None if other is None else other[i][1]
        if extra is not None and extra.value == sp.oo:
            raise ValueError(f"internal: the other component's loss is unbounded on {i}")
        rows.append((f"{_vec(a)} vs {_vec(b)}", extra, _candidates(alg, _ints(a), _ints(b))))
    for label, _, cands in rows:
        for cand in cands:
            if cand.sup.value == sp.oo:
                raise ValueError(f"internal: an unbounded loss under Laplace noise ({label})")
    # the largest exact candidate over all pairs
    flat = [
        (i, j, _scaled(cand.sup, extra))
        for i, (_, extra, cands) in enumerate(rows)
        for j, cand in enumerate(cands)
        if not cand.sup.interior
    ]
    ti, tj, top = flat[best_of([r for _, _, r in flat], u)]

    def describe(i: int, j: int) -> str:
        label, _, cands = rows[i]
        text = f"{label}, output {cands[j].label}"
        if other is not None:
            text += f"; {other_name}: output {other[i][1].output}"
        return text

    per_pair: list[tuple[str, sp.Expr]] = []
    for i, (label, extra, cands) in enumerate(rows):
        exact_ones = [(j, _scaled(cand.sup, extra)) for j, cand in enumerate(cands)]
        exact_ones = [(j, r) for j, r in exact_ones if not cands[j].sup.interior]
        bj = exact_ones[best_of([r for _, r in exact_ones], u)][0]
        best = _scaled(cands[bj].sup, extra)
        lp = Laurent.const(1) if extra is None else extra.p
        lq = Laurent.const(1) if extra is None else extra.q
        beaten = False
        for cand in cands:
            if not cand.sup.interior:
                continue
            if ratio_at_most(cand.f, cand.g, u, best.p * lq, best.q * lp):
                continue
            if not ratio_at_most(cand.f, cand.g, u, top.p * lq, top.q * lp):
                raise ValueError(f"{label}: an interior supremum above every end")
            beaten = True
        text = describe(i, bj)
        if beaten:
            text += " (an interior maximum exceeds this on the pair; below the overall value)"
        per_pair.append((text, best.value))
    method = (
        "probability that no query is above, and the supremum of the ratio of the "
        "densities of the released values (piecewise (c + c' v) e^{-kuv}, u = "
        f"{sp.Rational(u.numerator, u.denominator)}): ends and limits of every piece, interior "
        "certified by Descartes' rule and a Rolle-type reduction of the v-terms"
    )
    if c > 1:
        method += (
            "; up to c values released: the supremum over R^j reduced to one dimension "
            "(the smallest value w; each other value at w or at +oo, where its monotone "
            "Laplace ratio is largest)"
        )
    if other is not None:
        method += (
            f"; plus the exact largest loss of the independent {other_name} on the same "
            "pair (the loss of a product of independent mechanisms is the sum)"
        )
    return ExactEpsilon(top.value, tuple(per_pair), witness=describe(ti, tj), method=method)


def export_released_value(eps: Any, pairs: Pairs, t: int = 1, c: int = 1) -> dict[str, Any]:
    """The exact laws of Alg. 3 on each input of ``pairs``: the probability that no
    query is above and, per released position set, the density of the released values
    ``Π f(v_k - q_k) · G(min v)`` with ``G`` named by the answers below (listed once
    under ``threshold_integrals``, piece by piece in ``v``)."""
    alg = Alg3(sp.Rational(eps), c, t)
    u = alg.u
    uu = sp.Rational(u.numerator, u.denominator)
    integrals: dict[str, Any] = {}
    inputs: dict[str, Any] = {}
    for pair in pairs:
        for x in pair:
            if _vec(x) in inputs:
                continue
            q = _ints(x)
            p = joint(alg.key, tuple(sorted(q))).total()
            law: dict[str, Any] = {
                "no answer above": {
                    "probability": str(p.to_sympy(uu)),
                    "probability_approx": float(p.to_sympy(uu)),
                }
            }
            for K in patterns(len(q), c):
                below_values = tuple(sorted(q[i] for i in below(K, len(q), c)))
                if len(K) == 1:
                    # one value: its density piece by piece
                    h = _noise(u, c)[1].shifted(-q[K[0]]) * threshold_integral(
                        alg.key, below_values
                    )
                    law[f"released at query {K[0] + 1}"] = piecewise_json(h, uu)
                    continue
                name = "G" + _vec(below_values)
                if name not in integrals:
                    integrals[name] = piecewise_json(threshold_integral(alg.key, below_values), uu)
                released = ", ".join(str(k + 1) for k in K)
                law[f"released at queries {released}"] = {
                    "output": _output(K, len(q), c),
                    "density": " * ".join(f"f(v{k + 1} - {q[k]})" for k in K)
                    + f" * {name}(min({', '.join(f'v{k + 1}' for k in K)}))",
                }
            inputs[_vec(x)] = law
    f = f"{uu / 2}*exp(-{uu}*abs(x))"
    doc: dict[str, Any] = {
        "release": f"each query above the noisy threshold (up to {c}) as its noisy value "
        "(the queries below -1000.0, those after the last release -2000.0); threshold "
        f"noise Laplace of rate {c * uu}, query noise Laplace of rate {uu} with density "
        f"f(x) = {f}, threshold {t}; G(v) = the integral over r <= v - {t} of the threshold "
        "noise density times P(q_i + noise < r + threshold) over the queries below",
        "inputs": inputs,
        "pairs": [[_vec(a), _vec(b)] for a, b in pairs],
    }
    if integrals:
        doc["threshold_integrals"] = integrals
    return doc
