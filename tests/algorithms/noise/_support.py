"""Helpers shared by the tests of the noise programs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp

from verifier.algorithms.noise import (
    ProgramMechanism,
    SparseVector,
    epsilon_for_base,
    program_mechanism,
    query_graph,
)
from verifier.algorithms.noise.interpreter import Program
from verifier.algorithms.noise.samplers import (
    chi_square_pvalue,
    noisy_max_runner,
    sample_counts,
    sparse_vector_runner,
)

R = sp.Rational
ALPHA = 1e-4  # significance level of every goodness-of-fit test (fixed seeds)
Q = (0, 1, 2, -1)
BASE = R(4, 5)


def eps_at(build: Callable[[sp.Expr], Program], w: sp.Expr = BASE) -> sp.Expr:
    """The privacy parameter at which ``build(ε)`` has ``W = w`` (exact rationals)."""
    return epsilon_for_base(build, w)


def law_of(prog: Program, q: Sequence[int]) -> tuple[ProgramMechanism, dict[Any, sp.Expr]]:
    """The program on the single query vector ``q``, and its output law there."""
    q = tuple(q)
    pm = program_mechanism(prog, query_graph([q]))
    return pm, pm.mechanism.distribution(q)


def runner(prog: Program, q: Sequence[int]) -> Any:
    """The simulation of ``prog`` on ``q``."""
    if isinstance(prog, SparseVector):
        return sparse_vector_runner(prog, q)
    return noisy_max_runner(prog, q)  # type: ignore[arg-type]


def assert_closed_form_matches_simulation(prog: Program, name: str) -> None:
    """Chi-square test of the exact law at ``Q`` against 20 000 seeded runs."""
    pm, law = law_of(prog, Q)
    n = 20_000
    counts = sample_counts(runner(prog, Q), n, seed=11, classify=pm.classify)
    assert chi_square_pvalue(counts, law, n) > ALPHA, name


def lap_cdf(rate: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    return mpmath.mpf(1) / 2 * mpmath.exp(rate * t) if t < 0 else 1 - mpmath.exp(-rate * t) / 2


def lap_pdf(rate: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    return rate / 2 * mpmath.exp(-rate * abs(t))


def quad(f: Callable[[mpmath.mpf], mpmath.mpf], breaks: Sequence[Any]) -> mpmath.mpf:
    pts = [-mpmath.inf, *sorted(set(breaks)), mpmath.inf]
    return mpmath.quad(f, pts)


def close(closed: sp.Expr, numeric: mpmath.mpf) -> bool:
    return abs(mpmath.mpf(sp.N(closed, 40)) - numeric) < mpmath.mpf(10) ** -25
