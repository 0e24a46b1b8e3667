"""Worst-case searches of the suite's Report-Noisy-Max and sparse vector theorems over
neighbouring query-answer vectors (beyond the tools' own input pairs).

"Mechanism M is ε-DP" ranges over every pair of neighbouring inputs: for the
Report-Noisy-Max argmax (ReportNoisyMax1/2, StatDP's ``noisy_max_v1a/v2a``) and the
sparse vector programs with finite outputs (SparseVectorTechnique1/2, NumericalSVT,
StatDP's ``SVT``) no finite set of pairs decides every real pair, so the claims are
searched: :class:`AnswerPairSpace` draws integer answer vectors of the tools' lengths in
a range (DP-Sniper's input domain ``[-10, 10]``; StatDP has none, the space takes
``[-40, 40]``) whose answers move by at most 1 (ALL_DIFFER, sensitivity 1), random,
extreme (the tools' patterns translated and spread; every answer moving; the far-apart
pairs where the argmax's loss approaches its bound) and by local moves.

Screening is in floats only: the output probabilities are integrals over one noise (the
noisy maximum's value, the threshold noise ρ) of products of Laplace or exponential
densities and distribution functions, computed by composite 16-point Gauss–Legendre
quadrature split at every kink (:func:`_nodes`).  A candidate is decided exactly: its
document is a spec file naming the program rather than spelling its law — the answers
``q``, ``q'`` as a deterministic mechanism and the derived mechanism
``report_noisy_max`` or ``sparse_vector`` on them, whose exact law the reader computes
(:func:`verifier.algorithms.noise.argmax_laws`,
:func:`~verifier.algorithms.noise.answer_sequence_laws`: closed forms in ``W = e^{-u}``
with hundreds of terms on these ranges, beyond what a probability written as text may
hold, ``verifier.arithmetic.expressions``) — and the claim, which ``verifier check`` decides
(NumericalSVT: its answer sequence alone, ``answers_only``, with a per-output bound
``ε − η Σ_{i ⊤} |q_i − q'_i|``, the supremum of its released values' independent
Laplace ratio taken off — an ``ex_post`` claim equivalent to ε-DP; its screen is that
claim's realized/claimed, ``loss / (ε − η Σ ...)``, which reaches 1 exactly when the
realized ε, :func:`svt_epsilon`, reaches ε).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

import numpy as np
import sympy as sp

from verifier.algorithms.noise import (
    BOT,
    TOP,
    SparseVector,
)
from verifier.claims import SearchSpec
from verifier.search.certificates import (
    claim_entry,
    derived_outputs,
    deterministic_mechanism,
    expr_text,
    skeleton_document,
)
from verifier.search.core import InstanceSpace, iter_unique
from verifier.search.spaces import QueryPair

__all__ = [
    "AnswerPairSpace",
    "argmax_screen",
    "svt_screen",
    "noisy_max_search",
    "svt_search",
]

_GL_X, _GL_W = np.polynomial.legendre.leggauss(16)


def _nodes(breaks: Iterable[float], fast: float, slow: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of composite 16-point Gauss–Legendre quadrature on the real
    line for an integrand that is a sum of exponentials ``e^{λx}`` with ``|λ| <= fast``
    between its kinks ``breaks`` and decays at least like ``e^{-slow |x|}`` beyond them.
    Panels between the kinks are no wider than ``8/fast`` (``λ w <= 8``: the 16-point
    rule's error is below ``1e-16`` of the panel's integral); on each tail the panels
    grow by half from ``8/fast`` to ``8/slow`` (a fast component has decayed by the time
    the panel outgrows it) up to ``60/slow`` beyond the last kink (the tail left out is
    below ``e^-60`` of the integrand's scale)."""
    b = sorted(set(breaks))
    h, wide, reach = 8.0 / fast, 8.0 / slow, 60.0 / slow
    edges: list[float] = []
    for lo, hi in zip(b[:-1], b[1:], strict=True):
        k = max(1, math.ceil((hi - lo) / h))
        edges.extend(np.linspace(lo, hi, k + 1)[:-1].tolist())
    offsets, w = [0.0], h
    while offsets[-1] < reach:
        offsets.append(offsets[-1] + w)
        w = min(1.5 * w, wide)
    left = [b[0] - o for o in reversed(offsets[1:])]
    cuts = np.array(left + edges + [b[-1] + o for o in offsets])
    mid, half = (cuts[:-1] + cuts[1:]) / 2, (cuts[1:] - cuts[:-1]) / 2
    nodes = (mid[:, None] + half[:, None] * _GL_X).ravel()
    weights = (half[:, None] * _GL_W).ravel()
    return nodes, weights


def _laplace_cdf(rate: float, x: np.ndarray) -> np.ndarray:
    """``P(ν < x)`` for ``ν ~ Laplace(rate)`` (density ``rate/2 e^{-rate|x|}``)."""
    e = 0.5 * np.exp(-rate * np.abs(x))
    return np.where(x >= 0, 1.0 - e, e)


def _laplace_sf(rate: float, x: np.ndarray) -> np.ndarray:
    """``P(ν >= x)``, computed without cancellation in the right tail."""
    e = 0.5 * np.exp(-rate * np.abs(x))
    return np.where(x >= 0, e, 1.0 - e)


def _laplace_pdf(rate: float, x: np.ndarray) -> np.ndarray:
    return 0.5 * rate * np.exp(-rate * np.abs(x))


def _exponential_cdf(rate: float, x: np.ndarray) -> np.ndarray:
    return np.where(x >= 0, -np.expm1(-rate * np.maximum(x, 0.0)), 0.0)


def _exponential_pdf(rate: float, x: np.ndarray) -> np.ndarray:
    return np.where(x >= 0, rate * np.exp(-rate * np.maximum(x, 0.0)), 0.0)


def _except_one(factors: np.ndarray) -> np.ndarray:
    """Row ``i``: the product of every row of ``factors`` but row ``i``."""
    n = factors.shape[0]
    ones = np.ones_like(factors[:1])
    prefix = np.cumprod(np.vstack([ones, factors[:-1]]), axis=0)
    suffix = np.cumprod(np.vstack([ones, factors[::-1][:-1]]), axis=0)[::-1]
    return np.asarray(prefix * suffix)[:n]


def _losses(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per output, the larger loss of both orders: ``max(log p/q, log q/p)``
    (screening floats; ``inf`` where one probability is 0 and the other not)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        lp, lq = np.log(p), np.log(q)
    a = np.where((p > 0) & (q > 0), lp - lq, np.where(p > 0, np.inf, -np.inf))
    return np.asarray(np.maximum(a, -a))


def _loss(p: np.ndarray, q: np.ndarray) -> float:
    """The largest loss over the outputs and both orders (screening floats)."""
    return float(_losses(p, q).max())


# ---------------------------------------------------------------------------
# Report-Noisy-Max: the argmax
# ---------------------------------------------------------------------------


def argmax_probabilities(noise: str, rate: float, q: Sequence[float]) -> np.ndarray:
    """``P(argmax_i (q_i + ν_i) = i)`` for i.i.d. Laplace or exponential noise of
    ``rate``: ``∫ f(t - q_i) Π_{j≠i} F(t - q_j) dt`` by quadrature (floats)."""
    qa = np.asarray(q, dtype=float)
    n = len(qa)
    t, w = _nodes(qa, n * rate, rate)
    x = t[None, :] - qa[:, None]
    if noise == "laplace":
        cdf, pdf = _laplace_cdf(rate, x), _laplace_pdf(rate, x)
    else:
        cdf, pdf = _exponential_cdf(rate, x), _exponential_pdf(rate, x)
    return np.asarray((pdf * _except_one(cdf)) @ w)


def argmax_screen(inst: QueryPair, noise: str, eps: Any) -> float:
    """realized / claimed of Report-Noisy-Max (scale ``2/ε``, the argmax) on ``inst``."""
    e = float(eps)
    p = argmax_probabilities(noise, e / 2, inst.q)
    q = argmax_probabilities(noise, e / 2, inst.q2)
    return _loss(p, q) / e


def argmax_document(
    inst: QueryPair, claim_id: str, noise: str, eps: Any, claimed: Any = None
) -> dict[str, Any]:
    """Report-Noisy-Max on ``inst`` and the claim ``claimed``-DP (default ``eps``, the
    statement's own): the answers ``q``, ``q'`` as a deterministic mechanism and the
    argmax as the derived mechanism ``report_noisy_max`` (its exact law computed by
    the reader, :func:`verifier.algorithms.noise.argmax_laws`)."""
    claimed = eps if claimed is None else claimed
    statement = (
        f"Report-Noisy-Max ({noise} noise of scale 2/eps, eps = {eps}, the argmax) is "
        f"{claimed}-DP on q = {inst.q} ~ q' = {inst.q2}"
    )
    doc = skeleton_document(statement)
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["M"] = {
        "algorithm": "report_noisy_max",
        "inputs": ["q"],
        "params": {"epsilon": expr_text(eps), "noise": noise},
    }
    doc["claims"].append(
        claim_entry(
            claim_id, "M", "pure_dp", "refuted", epsilon=expr_text(claimed), statement=statement
        )
    )
    return doc


# ---------------------------------------------------------------------------
# sparse vector programs with finite outputs (cutoff c, optional fresh releases)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rates:
    rho: float
    nu: float
    fresh: float | None
    threshold: float
    cutoff: int


def _rates(prog: SparseVector) -> _Rates:
    fresh = prog.value_noise.rate if prog.release == "fresh" else None
    if prog.threshold_noise.kind != "laplace" or prog.query_noise.kind != "laplace":
        raise ValueError("the quadrature screen is for Laplace threshold and query noise")
    if prog.cutoff not in (1, 2) or (prog.resample_noise is not None and prog.cutoff != 1):
        # with the cutoff 1 the program stops at the first ⊤: a threshold redrawn after
        # it is never used (Lyu et al.'s Alg. 2 is then Alg. 1)
        raise ValueError("the quadrature screen is for cutoffs 1 and 2 without resampling")
    return _Rates(
        float(prog.threshold_noise.rate),  # type: ignore[arg-type]
        float(prog.query_noise.rate),  # type: ignore[arg-type]
        None if fresh is None else float(fresh),
        float(prog.threshold),
        prog.cutoff,
    )


def svt_probabilities(r: _Rates, q: Sequence[float]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The law of the answer sequence of a sparse vector program (Laplace ρ of rate
    ``r.rho``, Laplace ν of rate ``r.nu``, threshold ``T``, cutoff 1 or 2): per output
    the positions of its ⊤ answers (the sequence stops at the ``c``-th), its probability
    ``∫ f_ρ(x) Π_i P(answer_i | ρ = x) dx`` by quadrature (floats)."""
    qa = np.asarray(q, dtype=float)
    n = len(qa)
    x, w = _nodes([0.0, *(qa - r.threshold)], r.rho + n * r.nu, min(r.rho, r.nu))
    arg = r.threshold + x[None, :] - qa[:, None]
    top = _laplace_sf(r.nu, arg)  # P(⊤_i | ρ = x) = P(ν_i >= T + x - q_i)
    bot = _laplace_cdf(r.nu, arg)
    ones = np.ones_like(x)[None, :]
    before = np.cumprod(np.vstack([ones, bot]), axis=0)  # row k: Π_{l<k} P(⊥_l)
    f = _laplace_pdf(r.rho, x)
    outputs: list[tuple[int, ...]] = [()]
    rows = [before[n]]
    for i in range(n):
        acc = before[i] * top[i]  # ⊥ before i, ⊤ at i
        if r.cutoff == 1:
            outputs.append((i,))
            rows.append(acc)
            continue
        for j in range(i + 1, n):  # the second ⊤ at j ends the sequence
            outputs.append((i, j))
            rows.append(acc * top[j])
            acc = acc * bot[j]
        outputs.append((i,))  # one ⊤ only: every later answer ⊥
        rows.append(acc)
    return outputs, np.asarray(np.vstack(rows) * f) @ w


def _svt_losses(inst: QueryPair, prog: SparseVector) -> tuple[np.ndarray, np.ndarray]:
    """Per answer sequence: its loss (both orders) and, with fresh releases, the
    supremum ``η Σ_{i ⊤} |q_i − q'_i|`` of its released values' independent Laplace
    density ratio (0 without)."""
    r = _rates(prog)
    outs, p = svt_probabilities(r, inst.q)
    _, q = svt_probabilities(r, inst.q2)
    bonus = np.zeros(len(outs))
    if r.fresh is not None:
        d = [abs(a - b) for a, b in zip(inst.q, inst.q2, strict=True)]
        bonus = np.array([r.fresh * sum(d[i] for i in o) for o in outs])
    return _losses(p, q), bonus


def svt_epsilon(inst: QueryPair, prog: SparseVector) -> float:
    """The program's realized ε on ``inst`` (both orders): the largest loss over the
    answer sequences plus, with fresh releases, ``η Σ_{i ⊤} |q_i − q'_i|``."""
    loss, bonus = _svt_losses(inst, prog)
    return float((loss + bonus).max())


def svt_screen(inst: QueryPair, prog: SparseVector, eps: Any) -> float:
    """realized / claimed of the claim :func:`svt_document` decides on ``inst``: the
    largest loss over the answer sequences over ``ε`` (``ε``-DP); with fresh releases
    over the per-output bound ``ε − η Σ_{i ⊤} |q_i − q'_i|`` (the ``ex_post`` claim
    equivalent to ``ε``-DP: the ratio reaches 1 exactly when :func:`svt_epsilon`
    reaches ``ε``)."""
    loss, bonus = _svt_losses(inst, prog)
    room = float(eps) - bonus
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(room > 0, loss / np.where(room > 0, room, 1.0), np.inf)
    ratio = np.where(loss > 0, ratio, 0.0)
    return float(ratio.max())


def sparse_vector_params(prog: SparseVector, variant: str, eps: Any) -> dict[str, Any]:
    """The parameters of the ``sparse_vector`` transformer for ``prog`` (Lyu et al.'s
    Algorithm ``variant`` or NumericalSVT at ``eps``, Laplace noise), keeping its answer
    sequence only (``answers_only``) when it releases values."""
    if prog.release not in ("bit", "fresh"):
        raise ValueError("the searches decide answer sequences: bit or fresh releases only")
    params: dict[str, Any] = {
        "variant": variant,
        "epsilon": expr_text(eps),
        "noise": "laplace",
        "threshold": expr_text(prog.threshold),
    }
    if prog.cutoff not in (None, 1):
        params["c"] = prog.cutoff
    if prog.release != "bit":
        params["answers_only"] = True
    return params


def svt_document(
    inst: QueryPair,
    claim_id: str,
    prog: SparseVector,
    variant: str,
    eps: Any,
    what: str,
    claimed: Any = None,
) -> dict[str, Any]:
    """The sparse vector program on ``inst`` (the derived mechanism ``sparse_vector``,
    ``variant`` at ``eps``: its answer sequence, computed exactly by the reader) and the
    claim ``claimed``-DP (default ``eps``), or with fresh releases the equivalent
    per-output bound ``claimed − η Σ_{i ⊤} |q_i − q'_i|``."""
    claimed = eps if claimed is None else claimed
    statement = f"{what} (eps = {eps}) is {claimed}-DP on q = {inst.q} ~ q' = {inst.q2}"
    doc = skeleton_document(statement)
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["M"] = {
        "algorithm": "sparse_vector",
        "inputs": ["q"],
        "params": sparse_vector_params(prog, variant, eps),
    }
    if prog.release != "fresh":
        claim = claim_entry(
            claim_id, "M", "pure_dp", "refuted", epsilon=expr_text(claimed), statement=statement
        )
    else:
        eta = exact_rate(prog)
        bound = {}
        for o in derived_outputs(doc, "M"):
            label = str(o)
            moved = sum(abs(inst.q[i] - inst.q2[i]) for i, s in enumerate(label) if s == TOP)
            bound[label] = expr_text(sp.sympify(claimed) - eta * moved)
        claim = claim_entry(
            claim_id,
            "M",
            "ex_post",
            "refuted",
            epsilon_tilde=bound,
            statement=statement + f": the answer sequences ({BOT} below, {TOP} above) "
            "within eps minus the supremum eta |q_i - q'_i| of each released value's "
            "independent Laplace density ratio",
        )
    doc["claims"].append(claim)
    return doc


def exact_rate(prog: SparseVector) -> sp.Expr:
    """The exact rate of the fresh releases' Laplace noise."""
    return sp.sympify(prog.value_noise.rate)


# ---------------------------------------------------------------------------
# the space
# ---------------------------------------------------------------------------


@dataclass
class AnswerPairSpace(InstanceSpace):
    """Integer answer vectors ``q ~ q'`` of the given lengths with answers in
    ``[lo, hi]`` and ``|q_i - q'_i| <= 1`` (some answer moves): ALL_DIFFER neighbours
    with sensitivity 1 (StatDP's and DP-Sniper's component-wise neighbourhood)."""

    lengths: tuple[int, ...] = (5,)
    lo: int = -10
    hi: int = 10

    def _clip(self, x: int) -> int:
        return min(max(x, self.lo), self.hi)

    def _pair(self, q: list[int], d: list[int], rng: Random) -> QueryPair:
        q = [self._clip(x) for x in q]
        q2 = [self._clip(x + s) for x, s in zip(q, d, strict=True)]
        if q == q2:
            i = rng.randrange(len(q))
            q2[i] = q[i] + (1 if q[i] < self.hi else -1)
        return QueryPair(tuple(q), tuple(q2))

    def random(self, rng: Random) -> QueryPair:
        n = rng.choice(self.lengths)
        if rng.random() < 0.5:
            q = [rng.randint(0, 2) for _ in range(n)]
        else:
            q = [rng.randint(self.lo, self.hi) for _ in range(n)]
        d = [rng.choice((-1, 0, 1)) for _ in range(n)]
        return self._pair(q, d, rng)

    def extreme(self, rng: Random) -> QueryPair:
        n = rng.choice(self.lengths)
        kind = rng.randrange(4)
        base = rng.randint(self.lo + 1, self.hi - 1)
        if kind == 0:  # the tools' patterns, translated: 1^n against each of them
            half = n // 2
            patterns = [
                [0] + [1] * (n - 1),
                [2] + [1] * (n - 1),
                [2] + [0] * (n - 1),
                [0] + [2] * (n - 1),
                [2] * half + [0] * (n - half),
                [2] * n,
                [0] * n,
            ]
            other = rng.choice(patterns)
            q, q2 = [base] * n, [base - 1 + x for x in other]
            if rng.random() < 0.5:
                q, q2 = q2, q
            return self._pair(q, [b - a for a, b in zip(q, q2, strict=True)], rng)
        if kind == 1:  # far apart: one answer low, the rest high, moving apart
            k = rng.randint(1, n - 1)
            a, b = sorted(rng.randint(self.lo + 1, self.hi - 1) for _ in range(2))
            q = [a] * k + [b] * (n - k)
            rng.shuffle(q)
            d = [-1 if x == a else 1 for x in q]
            if rng.random() < 0.5:
                d = [-x for x in d]
            return self._pair(q, d, rng)
        if kind == 2:  # a ramp: m answers one way, the rest the other (Lyu et al.)
            m = rng.randint(1, n - 1)
            q = [base] * m + [base + 1] * (n - m)
            d = [1] * m + [-1] * (n - m)
            return self._pair(q, d, rng)
        q = [rng.randint(self.lo, self.hi) for _ in range(n)]
        d = [rng.choice((-1, 1)) for _ in range(n)]  # every answer moves
        return self._pair(q, d, rng)

    def neighbour(self, inst: QueryPair, rng: Random, scale: float) -> QueryPair:
        q = list(inst.q)
        d = [b - a for a, b in zip(inst.q, inst.q2, strict=True)]
        u = rng.random()
        i = rng.randrange(len(q))
        if u < 0.4:
            step = max(1, round(scale * rng.choice((1, 2, 3))))
            q[i] += rng.choice((-step, step))
        elif u < 0.7:
            d[i] = rng.choice([s for s in (-1, 0, 1) if s != d[i]])
        elif u < 0.85:
            shift = rng.choice((-1, 1)) * max(1, round(scale * 2))
            q = [x + shift for x in q]
        else:
            j = rng.randrange(len(q))
            q[i], q[j] = q[j], q[i]
            d[i], d[j] = d[j], d[i]
        return self._pair(q, d, rng)

    def shrink(self, inst: QueryPair) -> Iterable[QueryPair]:
        out = []
        for s in (-1, 1):
            q = tuple(x + s for x in inst.q)
            q2 = tuple(x + s for x in inst.q2)
            if all(self.lo <= x <= self.hi for x in q + q2) and sum(map(abs, q + q2)) < sum(
                map(abs, inst.q + inst.q2)
            ):
                out.append(QueryPair(q, q2))
        return list(iter_unique(out))

    def complexity(self, inst: QueryPair) -> tuple[float, ...]:
        return (float(len(inst.q)), float(sum(map(abs, inst.q)) + sum(map(abs, inst.q2))))

    def describe(self, inst: QueryPair) -> str:
        return f"q = {inst.q}, q' = {inst.q2}"


#: Instances the searches screen in ``verifier casestudies`` (a few seconds each).
CASESTUDIES_INSTANCES = 1000


def noisy_max_search(
    claim_id: str, noise: str, eps: Any, space: AnswerPairSpace, notes: str
) -> SearchSpec:
    """Report-Noisy-Max (``noise``, scale ``2/eps``, the argmax) against ``eps``-DP."""
    return SearchSpec(
        space=space,
        screen=functools.partial(argmax_screen, noise=noise, eps=eps),
        document=functools.partial(argmax_document, claim_id=claim_id, noise=noise, eps=eps),
        default_instances=4000,
        casestudies_instances=CASESTUDIES_INSTANCES,
        exact_best=False,
        notes=notes,
    )


def svt_search(
    claim_id: str,
    build: Callable[[], SparseVector],
    variant: str,
    eps: Any,
    space: AnswerPairSpace,
    what: str,
    notes: str,
) -> SearchSpec:
    """The sparse vector program ``build()`` (the ``sparse_vector`` transformer's
    ``variant`` at ``eps``) against ``eps``-DP."""
    prog = build()
    return SearchSpec(
        space=space,
        screen=functools.partial(svt_screen, prog=prog, eps=eps),
        document=functools.partial(
            svt_document, claim_id=claim_id, prog=prog, variant=variant, eps=eps, what=what
        ),
        default_instances=4000,
        casestudies_instances=CASESTUDIES_INSTANCES,
        exact_best=False,
        notes=notes,
    )
