"""Self-tests of the samplers and statistics that the closed forms are held to."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import sympy as sp

from verifier.algorithms.noise import geometric, lyu_svt
from verifier.algorithms.noise.samplers import (
    binomial_two_sided_pvalue,
    chi_square_pvalue,
    noise_sampler,
    sparse_vector_runner,
)

from ._support import Q, eps_at


def test_geometric_sampler_matches_its_pmf():
    noise = geometric(sp.log(2))  # x = 1/2
    draw = noise_sampler(noise)
    rng = random.Random(7)
    n = 40_000
    counts = Counter(draw(rng) for _ in range(n))
    x = sp.Rational(1, 2)
    probs = {k: (1 - x) / (1 + x) * x ** abs(k) for k in range(-8, 9)}
    probs_s = {str(k): v for k, v in probs.items()}
    probs_s["rest"] = 1 - sum(probs.values())
    obs: Counter[str] = Counter()
    for k, c in counts.items():
        obs[str(k) if -8 <= k <= 8 else "rest"] += c
    assert chi_square_pvalue(obs, probs_s, n) > 1e-4


def test_binomial_pvalue_is_exact_on_a_small_case():
    # Bin(4, 1/2): P(0) = P(4) = 1/16; two-sided p-value of k = 0 is 2/16
    assert abs(binomial_two_sided_pvalue(0, 4, Fraction(1, 2)) - 0.125) < 1e-12
    assert abs(binomial_two_sided_pvalue(2, 4, Fraction(1, 2)) - 1) < 1e-12


def test_seeded_simulation_is_deterministic():
    prog = lyu_svt(1, eps_at(lambda e: lyu_svt(1, e, 1)), 1)
    run = sparse_vector_runner(prog, Q)
    a = [run(random.Random(1)) for _ in range(3)]
    b = [run(random.Random(1)) for _ in range(3)]
    assert a == b
