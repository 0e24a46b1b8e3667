"""Report-Noisy-Max with exact output laws.

Report-Noisy-Max (Dwork & Roth 2014, "The algorithmic foundations of differential
privacy", §3.3; Ding, Wang, Wang, Zhang, Kifer 2018, "Detecting violations of
differential privacy", CCS, Algorithms 5 and 7): ``ν_i ~ Lap(2Δ/ε)``, release the
argmax (ε-DP) or the noisy maximum itself (not ε-DP); ``Lap(Δ/ε)`` for monotone
queries.  Noise is Laplace or two-sided geometric with the same rate
(:mod:`.distributions`), or one-sided exponential (Ding et al. 2018, Algorithms 6
and 8); argmax ties go to the lowest index.  :func:`argmax_laws` gives the exact
argmax law on given query vectors, :func:`max_density` the density of the noisy
maximum under continuous noise (its privacy loss: :mod:`.density_ratio`).

>>> import sympy as sp
>>> from verifier.algorithms.noise.queries import query_graph
>>> from verifier.algorithms.noise.interpreter import program_mechanism
>>> law = program_mechanism(report_noisy_max(2 * sp.log(2)), query_graph([(0, 0)])).mechanism
>>> law.p((0, 0), "argmax=0"), law.p((0, 0), "argmax=1")   # P(tie) = 5/27 goes to index 0
(16/27, 11/27)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sympy as sp

from ...arithmetic.exact import exact
from ...errors import InvalidParameter
from ...mechanism.model import FiniteMechanism
from ..registry import Param, boolean, choice, transformer
from .distributions import Noise, noise_family
from .expoly import PW
from .interpreter import (
    PROGRAM_PARAMS,
    Context,
    Laws,
    answers_of,
    bucket_releases,
    point_release_outputs,
    program_context,
    program_mechanism,
)
from .queries import Vector

__all__ = ["NoisyMax", "report_noisy_max", "argmax_laws", "max_density"]


@dataclass(frozen=True)
class NoisyMax:
    """Report-Noisy-Max: ``ν_i ~ noise``; release ``argmax_i (q_i + ν_i)`` (ties to
    the lowest index) or the noisy maximum ``max_i (q_i + ν_i)`` itself (``value``;
    with Laplace noise only as ``buckets``)."""

    name: str
    noise: Noise
    release: Literal["argmax", "value"] = "argmax"
    buckets: tuple[int, ...] | None = None
    claimed: sp.Expr | None = None
    monotone: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        if self.noise.kind == "none":
            raise InvalidParameter("Report-Noisy-Max needs noise")
        if self.release not in ("argmax", "value"):
            raise InvalidParameter(f"unknown release {self.release!r}")
        if self.release == "value" and self.noise.continuous and self.buckets is None:
            raise InvalidParameter(
                f"the noisy maximum under {self.noise.kind} noise has a density: use "
                "geometric noise, give integer buckets, or take its density "
                "(max_density) and the supremum of a density ratio (.density_ratio)"
            )

    def noises(self) -> list[Noise]:
        """Every noise the program draws: one per query, all alike."""
        return [self.noise]

    @property
    def outer_noise(self) -> Noise:
        """The noise of the maximum: given its value the other answers are independent."""
        return self.noise

    def laws(self, ctx: Context, vectors: list[Vector]) -> Laws:
        """The exact output law on each of ``vectors`` (:func:`_rnm_laws`)."""
        return _rnm_laws(ctx, self, vectors)


def report_noisy_max(
    eps: Any,
    *,
    noise: str = "geometric",
    release: Literal["argmax", "value"] = "argmax",
    monotone: bool = False,
    buckets: Sequence[int] | None = None,
) -> NoisyMax:
    """Report-Noisy-Max with ν_i ~ Lap(2/ε) (rate ε/2), or Lap(1/ε) for monotone
    queries (Dwork & Roth 2014, Claim 3.9); ``release="value"`` is Ding et al. 2018's
    flawed Algorithm 7 (the noisy maximum itself), claimed ε-DP."""
    e = exact(eps)
    rate = e if monotone else e / 2
    tag = "monotone, " if monotone else ""
    what = "argmax" if release == "argmax" else "noisy max value"
    return NoisyMax(
        f"Report-Noisy-Max ({tag}{what})", noise_family(noise, rate), release,
        buckets=None if buckets is None else tuple(buckets), claimed=e, monotone=monotone,
        source="Dwork & Roth 2014 §3.3; Ding et al. 2018 (CCS) Algs. 5 (argmax) and 7 (value)",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Report-Noisy-Max: exact probabilities
# ---------------------------------------------------------------------------


def _rnm_argmax(ctx: Context, prog: NoisyMax, q: Vector) -> dict[int, Any]:
    """``P(argmax = i) = Σ_t P(q_i+ν_i = t) Π_{j<i} P(q_j+ν_j < t) Π_{j>i} P(q_j+ν_j <= t)``
    (ties to the lowest index; an integral with continuous noise)."""
    nu = prog.noise
    out = {}
    discrete = not ctx.outer.real
    for i, qi in enumerate(q):
        f = ctx.density(nu).shifted(-qi)
        for j, qj in enumerate(q):
            if j == i:
                continue
            # P(ν_j < t - q_j) = 1 - S(t - q_j);  P(ν_j <= t - q_j) = 1 - S(t - q_j + 1)
            shift = -qj + (1 if (j > i and discrete) else 0)
            f = f * (1 - ctx.survival(nu, shift))
        out[i] = f.total()
    return out


def argmax_laws(
    prog: NoisyMax, vectors: Sequence[Sequence[int]]
) -> tuple[Context, dict[tuple[int, ...], dict[int, Any]]]:
    """The exact law ``{i: P(argmax = i)}`` of ``prog`` on each integer query vector
    (:func:`_rnm_argmax`; Laplace or exponential noise with a rational unit gives
    :class:`~.expoly.Laurent` polynomials in ``W = e^{-u}``), and the context (its
    unit ``u``)."""
    if prog.release != "argmax":
        raise InvalidParameter("argmax_laws needs release='argmax'")
    ctx = program_context(prog)
    out: dict[tuple[int, ...], dict[int, Any]] = {}
    for q in vectors:
        key = tuple(_integer(x) for x in q)
        if key not in out:
            out[key] = _rnm_argmax(ctx, prog, key)
    return ctx, out


def max_density(ctx: Context, noise: Noise, q: Sequence[int]) -> PW:
    """The density of ``max_i (q_i + ν_i)`` for independent continuous noises ν_i
    (Laplace or exponential): the derivative of ``Π_i F(v - q_i)``,
    ``f(v) = Σ_i f(v - q_i) Π_{j≠i} F(v - q_j)`` (product rule; ``F = 1 - S`` the
    noise's distribution function), piecewise exponential in ``v`` with breakpoints at
    the ``q_i``."""
    if not noise.continuous:
        raise InvalidParameter(f"max_density needs continuous noise, got {noise.kind}")
    keys = [_integer(x) for x in q]
    total = PW.zero(ctx.outer)
    for i, qi in enumerate(keys):
        f = ctx.density(noise).shifted(-qi)
        for j, qj in enumerate(keys):
            if j != i:
                f = f * (1 - ctx.survival(noise, -qj))
        total = total + f
    return total


def _integer(x: Any) -> int:
    e = exact(x)
    if not e.is_Integer:
        raise InvalidParameter(f"query answers must be integers here, got {x}")
    return int(e)


def _rnm_cdf(ctx: Context, prog: NoisyMax, q: Vector) -> PW:
    """``H(v) = P(max_i (q_i + ν_i) < v) = Π_i (1 - S(v - q_i))`` as a function of v."""
    f = PW.const(ctx.outer, 1)
    for qi in q:
        f = f * (1 - ctx.survival(prog.noise, -qi))
    return f


def _rnm_laws(ctx: Context, program: NoisyMax, vectors: list[Vector]) -> Laws:
    """The argmax, the buckets of the noisy maximum (``H(hi) - H(lo)``), or its point
    law ``P(max = v) = H(v + 1) - H(v)`` with ``H(v) = P(max < v)``."""
    ring = ctx.outer
    n = len(vectors[0])
    rows: dict[Vector, dict[str, Any]] = {}
    if program.release == "argmax":
        for q in vectors:
            rows[q] = {f"argmax={i}": p for i, p in _rnm_argmax(ctx, program, q).items()}
        return Laws(rows, [f"argmax={i}" for i in range(n)])
    if program.buckets is not None:
        rels = bucket_releases(program.buckets, gap=False)
        for q in vectors:
            H = _rnm_cdf(ctx, program, q)
            row = {}
            for r in rels:
                hi = ring.one if r.hi is None else H.at(r.hi)
                lo = ring.zero if r.lo is None else H.at(r.lo)
                row[r.label("max")] = hi - lo
            rows[q] = row
        return Laws(rows, [r.label("max") for r in rels])
    funcs: dict[Vector, dict[Any, PW]] = {}
    for q in vectors:
        H = _rnm_cdf(ctx, program, q)
        funcs[q] = {0: H.shifted(1) - H}
    return point_release_outputs(vectors, funcs, "max", lambda _k: "", False)


# ---------------------------------------------------------------------------
# transformer registry entry (spec files, CLI)
# ---------------------------------------------------------------------------


#: The programs' parameters, with one-sided exponential noise of the same rate as a
#: third family (Ding et al. 2018, Algorithms 6 and 8).
_RNM_PARAMS = [
    Param(
        "noise",
        choice("geometric", "laplace", "exponential"),
        "the noise family (exponential: one-sided, Ding et al. 2018 Algs. 6 and 8)",
        "geometric",
    )
    if p.name == "noise"
    else p
    for p in PROGRAM_PARAMS
]


@transformer(
    "report_noisy_max",
    source="Dwork & Roth 2014 §3.3; Ding et al. 2018 (CCS), Algs. 5-8",
    params=[
        Param(
            "release", choice("argmax", "value"), "release the argmax or the noisy max", "argmax"
        ),
        Param("monotone", boolean, "Lap(1/eps) for monotone queries instead of Lap(2/eps)", False),
        *_RNM_PARAMS,
    ],
    inputs=(1, 1),
)
def _t_report_noisy_max(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Report-Noisy-Max on the query answers of each dataset (exact law)."""
    (base,) = inputs
    prog = report_noisy_max(
        params["epsilon"],
        noise=params["noise"],
        release=params["release"],
        monotone=params["monotone"],
        buckets=params["buckets"],
    )
    return program_mechanism(
        prog, base.graph, answers=answers_of(base), style=params["style"]
    ).mechanism
