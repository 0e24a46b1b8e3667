"""Float screening: the output distributions of the built-in algorithms in floating
point, and realized/claimed ratios.

These are *screening* evaluators only — a fast filter that decides which instances
deserve an exact check.  They are independent implementations of the closed forms
(Ghazi et al. 2025, §3–§4; Liu & Talwar 2019, §3): series over ``k`` are summed term by term (all terms non-negative, so
no cancellation) and truncated once the geometric weight drops below ``1e-18``;
the tests compare them with the exact transformers.  Nothing here decides a verdict.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from mpmath.libmp import dps_to_prec

from ..arithmetic.precision import real_context
from .core import TOLERANCE

__all__ = [
    "Rows",
    "alg1",
    "alg2",
    "alg3_geometric",
    "alg3_exponential",
    "random_stopping",
    "best_of",
    "ex_post_ratio",
    "rdp_sum_ratio",
    "log_ratio",
]

#: ``(labels, [distribution at D, distribution at D'])``; labels are the exact
#: transformers' output labels (``"⊥"``, ``(o, i)``, ``("≥", o, i)``).
Rows = tuple[list[object], list[list[float]]]
BOTTOM = "⊥"


@functools.lru_cache(maxsize=256)
def _prior(pp: float, extra: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``k = 0..K-1`` and the geometric weights ``(1-p') p'^k``, truncated where the
    remaining mass is below ``1e-18``."""
    K = int(math.ceil(math.log(1e-18) / math.log(pp))) + 2 + extra
    K = min(max(K, 8), 200_000)
    k = np.arange(K, dtype=float)
    return k, (1.0 - pp) * pp**k


def _pad(d: Sequence[float], n: int) -> list[float]:
    return list(d) + [0.0] * (n - len(d))


def _above(d: Sequence[Any]) -> list[Any]:
    out = [0 * d[0]] * len(d)
    acc = 0 * d[0]
    for r in range(len(d) - 1, -1, -1):
        out[r] = acc
        acc += d[r]
    return out


# ---------------------------------------------------------------------------
# Ghazi et al. 2025
# ---------------------------------------------------------------------------


def alg3_geometric(
    mechs: Sequence[tuple[Sequence[float], Sequence[float]]], xs: Sequence[float], pp: float
) -> Rows:
    """Algorithm 3 with ``Geom_{p'}`` prior (Ghazi et al. 2025, Algorithm 3 and the proof of Theorem 11):
    ``A_D(o, i) = Q_i(o) E_k[x_i^k Π_{j≠i} (1 - x_j^k Q_j(U))]``, ``A(⊥) =
    E_k[Π_j (1 - x_j^k)]``; outputs of mechanism ``j`` are ``0..m_j-1``."""
    d = len(mechs)
    n = max(len(p) for p, _ in mechs)
    k, w = _prior(pp)
    xk = [x**k for x in xs]
    labels: list[object] = [BOTTOM] + [
        (o, i + 1) for o in range(n) for i in range(d) if o < len(mechs[i][0])
    ]
    bottom = float(np.sum(w * np.prod([1.0 - v for v in xk], axis=0)))
    rows: list[list[float]] = []
    for t in (0, 1):
        Q = [_pad(m[t], n) for m in mechs]
        A = [_above(q) for q in Q]
        row = [bottom]
        for lab in labels[1:]:
            o, i1 = cast(tuple[int, int], lab)
            i = i1 - 1
            prod = w * xk[i]
            for j in range(d):
                if j != i:
                    qj = A[j][o] + (Q[j][o] if j > i else 0.0)
                    if qj:
                        prod = prod * (1.0 - xk[j] * qj)
            row.append(Q[i][o] * float(np.sum(prod)))
        rows.append(row)
    return labels, rows


_BITS_40_DIGITS = dps_to_prec(40)


def _clean(v: Any) -> float:
    """A 40-digit value as a float, with the cancellation noise of an exact zero
    (an output impossible at this dataset) set to 0."""
    f = float(v)
    return 0.0 if abs(f) < 1e-32 else f


def alg3_exponential(
    mechs: Sequence[tuple[Sequence[float], Sequence[float]]], eps: Sequence[float], ep: float
) -> Rows:
    """Algorithm 3 with ``Exp_{ε'}`` prior by the subset expansion (Ghazi et al. 2025, proof of Theorem 11):
    ``E[e^{-cX}] = ε'/(ε'+c)``.  The alternating sum is evaluated with 40 digits
    (mpmath): in double precision its cancellation can turn a small probability
    into a negative one."""
    d = len(mechs)
    n = max(len(p) for p, _ in mechs)
    with real_context(_BITS_40_DIGITS) as ctx:
        one = ctx.mpf(1)
        E = [ctx.mpf(e) for e in eps]
        epm = ctx.mpf(ep)

        def mom(c: object) -> object:
            return epm / (epm + c)

        labels: list[object] = [BOTTOM] + [
            (o, i + 1) for o in range(n) for i in range(d) if o < len(mechs[i][0])
        ]
        bottom = ctx.mpf(0)
        for r in range(d + 1):
            for T in itertools.combinations(range(d), r):
                bottom += (-1) ** r * mom(ctx.fsum(E[j] for j in T))
        rows: list[list[float]] = []
        for t in (0, 1):
            Q = [[ctx.mpf(x) for x in _pad(m[t], n)] for m in mechs]
            A = [_above(q) for q in Q]
            row = [_clean(bottom)]
            for lab in labels[1:]:
                o, i1 = cast(tuple[int, int], lab)
                i = i1 - 1
                others = [j for j in range(d) if j != i]
                qs = {j: A[j][o] + (Q[j][o] if j > i else 0) for j in others}
                total = ctx.mpf(0)
                for r in range(len(others) + 1):
                    for T in itertools.combinations(others, r):
                        coef = (-one) ** r * ctx.fprod(qs[j] for j in T)
                        if coef:
                            total += coef * mom(E[i] + ctx.fsum(E[j] for j in T))
                row.append(_clean(Q[i][o] * total))
            rows.append(row)
    return labels, rows


def alg2(
    mechs: Sequence[tuple[Sequence[float], Sequence[float]]],
    xs: Sequence[float],
    pp: float,
    tau: int,
) -> Rows:
    """Algorithm 2 (threshold rank ``tau``; Ghazi et al. 2025, Algorithm 2)."""
    d = len(mechs)
    n = max(len(p) for p, _ in mechs)
    k, w = _prior(pp)
    xk = [x**k for x in xs]
    labels: list[object] = [BOTTOM] + [
        (o, i + 1) for o in range(tau, n) for i in range(d) if o < len(mechs[i][0])
    ]
    rows: list[list[float]] = []
    for t in (0, 1):
        Q = [_pad(m[t], n) for m in mechs]
        s = [sum(q[tau:]) for q in Q]
        facs = [1.0 - xk[j] * s[j] for j in range(d)]
        row = [float(np.sum(w * np.prod(facs, axis=0)))]
        for lab in labels[1:]:
            o, i1 = cast(tuple[int, int], lab)
            i = i1 - 1
            prod = w * xk[i]
            for j in range(i):
                prod = prod * facs[j]
            row.append(Q[i][o] * float(np.sum(prod)))
        rows.append(row)
    return labels, rows


def alg1(rows_f: Sequence[tuple[int, int]], xs: Sequence[float], pp: float) -> Rows:
    """Algorithm 1 (ex-post AboveThreshold; Ghazi et al. 2025, eq. (2)) on a table
    ``rows_f[i] = (f_i(D), f_i(D'))``, with the tail ``o >= o*_i`` lumped into
    ``("≥", o*_i, i)`` as the exact transformer does."""
    d = len(rows_f)
    top = max(max(abs(a), abs(b)) for a, b in rows_f)
    k, w = _prior(pp, extra=2 * top + 4)
    o_star = [max(0, max(rows_f[i])) for i in range(d)]
    labels: list[object] = [BOTTOM]
    for i in range(d):
        labels += [(o, i + 1) for o in range(o_star[i])] + [("≥", o_star[i], i + 1)]
    out: list[list[float]] = []
    for t in (0, 1):
        f = [r[t] for r in rows_f]
        G = [np.where(k - f[j] >= 1, 1.0 - xs[j] ** np.maximum(k - f[j], 0), 0.0) for j in range(d)]
        # prefix[i] = G_0 ... G_{i-1}, multiplied in that order (as np.prod reduces)
        prefix = [np.ones_like(k)]
        for j in range(d):
            prefix.append(G[j] if j == 0 else prefix[-1] * G[j])
        row = [float(np.sum(w * prefix[d]))]
        for i in range(d):
            before = prefix[i]
            # every o at once: row o of y is o + k - f_i (elementwise as one o at a time)
            os_ = np.arange(o_star[i] + 1, dtype=float)[:, None]
            y = os_ + k - f[i]
            g = np.where(y >= 0, xs[i] ** np.maximum(y, 0), 0.0)
            sums = np.sum(w * g * before, axis=1)
            lead = 1.0 - xs[i]
            row += [
                (1.0 if o == o_star[i] else lead) * float(sums[o]) for o in range(o_star[i] + 1)
            ]
        out.append(row)
    return labels, out


# ---------------------------------------------------------------------------
# Liu & Talwar 2019
# ---------------------------------------------------------------------------


def random_stopping(p: Sequence[float], q: Sequence[float], gamma: float) -> Rows:
    """Random stopping (Liu & Talwar 2019, Theorem 3.2):
    ``Pr[o] = γ p / ((p0(1-γ) + γ)(p1(1-γ) + γ))``; candidate ``o`` has score ``o``."""
    labels: list[object] = list(range(len(p)))
    rows = []
    for d in (p, q):
        above = _above(d)
        rows.append(
            [
                gamma * x / ((a * (1 - gamma) + gamma) * ((a + x) * (1 - gamma) + gamma))
                for x, a in zip(d, above, strict=True)
            ]
        )
    return labels, rows


def best_of(mechs: Sequence[tuple[Sequence[float], Sequence[float]]]) -> Rows:
    """Best of independent runs, released output, ties to the later run
    (Liu & Talwar 2019 §3; :func:`verifier.algorithms.best_of`)."""
    n = max(len(p) for p, _ in mechs)
    labels: list[object] = list(range(n))
    rows = []
    for t in (0, 1):
        Q = [_pad(m[t], n) for m in mechs]
        cum = [list(itertools.accumulate(q)) for q in Q]  # P_j(<= o)
        row = [0.0] * n
        for i, qi in enumerate(Q):
            for o in range(n):
                if qi[o] == 0:
                    continue
                term = qi[o]
                for j in range(len(Q)):
                    if j < i:
                        term *= cum[j][o]
                    elif j > i:
                        term *= cum[j][o - 1] if o > 0 else 0.0
                row[o] += term
        rows.append(row)
    return labels, rows


# ---------------------------------------------------------------------------
# ratios
# ---------------------------------------------------------------------------


def log_ratio(p: float, q: float) -> float:
    if p <= 0:
        return -math.inf
    if q <= 0:
        return math.inf
    return math.log(p / q)


def ex_post_ratio(
    rows: Sequence[Sequence[float]],
    bounds: Sequence[float],
    pairs: Sequence[tuple[int, int]] = ((0, 1), (1, 0)),
) -> float:
    """``max_{o, (D,D')} log(P_D(o)/P_D'(o)) / ε̃(o)`` — the realized/claimed ratio of
    a pure or ex-post DP claim (``inf`` for an infinite loss, or a positive loss where
    ``ε̃(o) = 0``)."""
    worst = 0.0
    for o, b in enumerate(bounds):
        for i, j in pairs:
            loss = log_ratio(rows[i][o], rows[j][o])
            if loss == -math.inf:
                continue
            if loss == math.inf:
                return math.inf
            if b <= 0:
                if loss > TOLERANCE:
                    return math.inf
                continue
            worst = max(worst, loss / b)
    return worst


def rdp_sum_ratio(
    rows: Sequence[Sequence[float]],
    bounds: Sequence[float],
    alpha: float,
    pairs: Sequence[tuple[int, int]] = ((0, 1), (1, 0)),
) -> float:
    """The ex-post RDP sum ``Σ_o P_D(o)^α (e^{ε̃(o)} P_D'(o))^{1-α}`` (Ghazi et al.
    2025, Def 6; claimed ``<= 1``), maximised over the ordered pairs."""
    worst = 0.0
    for i, j in pairs:
        s = 0.0
        for o, b in enumerate(bounds):
            p, q = rows[i][o], rows[j][o]
            if p <= 0:
                continue
            if q <= 0:
                return math.inf
            s += math.exp(alpha * math.log(p) + (1 - alpha) * (b + math.log(q)))
        worst = max(worst, s)
    return worst
