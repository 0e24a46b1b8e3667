"""Exact privacy checks for finite mixtures of Laplace densities on the real line.

A mechanism that adds Laplace noise of scale ``b`` to a value drawn from a finite
distribution has, at each dataset, the density ``f(t) = Σ_k w_k e^{-|t - c_k|/b}/(2b)``.
Between two consecutive centres ``f(t) = α e^{-t/b} + β e^{t/b}``, so the ratio of two
such densities is a Möbius function of ``e^{2t/b}``, monotone on every interval; left of
every centre it is the constant ``β/β'``, right of every centre ``α/α'``.  The supremum
of the ratio over ``t ∈ ℝ`` is therefore attained at a centre or in one of the two
limits, and pure ε-DP of such mechanisms is decided exactly at finitely many points
(:func:`check_laplace_mixtures_dp`).

>>> import sympy as sp
>>> R = sp.Rational
>>> mix = {"D": [(R(1), R(0))], "D'": [(R(1), R(1))]}   # Laplace(0, 1) vs Laplace(1, 1)
>>> check_laplace_mixtures_dp(mix, 1, 1).verdict.value
'holds'
>>> check_laplace_mixtures_dp(mix, 1, R(9, 10)).verdict.value
'violated'
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import sympy as sp

from ...arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    combine_verdicts,
    decide_le,
    exact,
)
from ...checks.results import CheckResult, Finding
from ...errors import InvalidParameter

__all__ = [
    "Mixture",
    "laplace_mixture_density",
    "mixture_ratio_points",
    "check_laplace_mixtures_dp",
]

#: A finite mixture of Laplace densities: ``[(weight, centre), ...]``.
Mixture = Sequence[tuple[Any, Any]]


def laplace_mixture_density(mixture: Mixture, scale: Any, t: Any) -> sp.Expr:
    """``Σ_k w_k e^{-|t - c_k|/b}/(2b)`` at ``t`` (exact)."""
    b, x = exact(scale), exact(t)
    return sp.Add(*[exact(w) * sp.exp(-abs(x - exact(c)) / b) / (2 * b) for w, c in mixture])


def _tails(mixture: Mixture, scale: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``(α, β)`` of the two unbounded pieces: ``f(t) = β e^{t/b}`` left of every centre,
    ``α e^{-t/b}`` right of every centre."""
    alpha = sp.Add(*[exact(w) * sp.exp(exact(c) / scale) / (2 * scale) for w, c in mixture])
    beta = sp.Add(*[exact(w) * sp.exp(-exact(c) / scale) / (2 * scale) for w, c in mixture])
    return alpha, beta


def mixture_ratio_points(a: Mixture, b: Mixture, scale: Any) -> list[tuple[str, sp.Expr, sp.Expr]]:
    """The points where ``sup_t f_a(t)/f_b(t)`` is attained: ``(label, f_a, f_b)`` at
    every centre of either mixture and the two limits (module docstring)."""
    s = exact(scale)
    if not s.is_positive:
        raise InvalidParameter(f"the Laplace scale must be positive, got {s}")
    centres = sorted({exact(c) for _, c in (*a, *b)}, key=lambda v: float(v))
    out = [
        (f"t = {c}", laplace_mixture_density(a, s, c), laplace_mixture_density(b, s, c))
        for c in centres
    ]
    (al_a, be_a), (al_b, be_b) = _tails(a, s), _tails(b, s)
    out.append(("t -> -oo", be_a, be_b))
    out.append(("t -> +oo", al_a, al_b))
    return out


def check_laplace_mixtures_dp(
    mixtures: Mapping[Hashable, Mixture],
    scale: Any,
    eps: Any,
    *,
    pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
    precision: Precision = DEFAULT_PRECISION,
    title: str | None = None,
) -> CheckResult:
    """ε-DP of the continuous mechanism with density ``mixtures[d]`` (Laplace scale
    ``scale``) at dataset ``d``: ``f_d(t) <= e^ε f_d'(t)`` for every real ``t`` and
    every ordered pair (default: every ordered pair of keys)."""
    e = exact(eps)
    keys = list(mixtures)
    prs = list(pairs) if pairs is not None else [(x, y) for x in keys for y in keys if x != y]
    findings = []
    for d, d2 in prs:
        for label, fa, fb in mixture_ratio_points(mixtures[d], mixtures[d2], scale):
            c = decide_le(fa, sp.exp(e) * fb, precision)
            findings.append(
                Finding(
                    c.verdict, label, (d, d2), fa, sp.exp(e) * fb, fa, sp.exp(e) * fb, tight=c.tight
                )
            )
    return CheckResult(
        title or f"Laplace mixtures are {e}-DP",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="density",
        notes=["the supremum over t is attained at a centre or in a limit (module docstring)"],
    )
