"""Propose-test-release as ODP (:mod:`verifier.odp.ptr`, Hartmann et al. 2022):
distance to instability, the PTR function and the Dwork-Lei cascade, exact values by
hand and against a seeded simulation."""

from __future__ import annotations

import pytest
import sympy as sp

from casestudies.hartmann2022.theory import lemma10_guarantee
from verifier.errors import InvalidMechanism
from verifier.mechanism.neighbours import path
from verifier.odp.ptr import BOTTOM, distance_to_instability, ptr_cascade, ptr_delta0, ptr_function

R = sp.Rational


def test_ptr_function_and_cascade():
    G = path(4)
    h = {0: 0, 1: 1, 2: 5, 3: 6, 4: 7}  # unstable at 1 and 2 (a jump of 4)
    assert distance_to_instability(G, h, 1) == {0: 1, 1: 0, 2: 0, 3: 1, 4: 2}
    f = ptr_function(G, h, eps=sp.log(2), threshold=2, value_range=(0, 8))
    for d in G.nodes:
        assert sum(f.distribution(d).values()) == 1
    # P(⊥) at distance A: P(Z < t - A) = 1 - P(Z >= t - A); x = 1/2: P(Z >= 2) = 1/6
    assert f.p(1, BOTTOM) == 1 - R(1, 6)
    assert f.p(4, BOTTOM) == R(1, 3)  # A = 2: P(Z < 0) = P(Z >= 1) = (1/2)/(3/2)
    assert ptr_delta0(sp.log(2), 2) == R(1, 6)
    M = ptr_cascade(f, f)
    assert M.p(4, BOTTOM) == R(1, 9)
    g = lemma10_guarantee(M, sp.log(2), 2)
    assert g.delta == 3 * R(1, 6)
    with pytest.raises(InvalidMechanism, match="integer"):
        distance_to_instability(G, {0: 0}, 1)


def test_ptr_closed_forms_match_a_simulation():
    """The PTR function and the Dwork-Lei cascade, sampled as programs (test noise,
    threshold, clamped release) against their closed forms."""
    import random
    from collections import Counter

    from verifier.algorithms.noise.samplers import chi_square_pvalue

    G = path(6)
    h1 = {x: (x if x <= 2 else x + 5) for x in G.nodes}
    h2 = {x: (x if x <= 4 else x + 5) for x in G.nodes}
    eps, t, lo, hi = sp.log(2), 3, 0, 12
    f1 = ptr_function(G, h1, eps=eps, threshold=t, value_range=(lo, hi))
    f2 = ptr_function(G, h2, eps=eps, threshold=t, value_range=(lo, hi))
    M = ptr_cascade(f1, f2)
    A1, A2 = distance_to_instability(G, h1, 1), distance_to_instability(G, h2, 1)

    def geo(rng):  # type: ignore[no-untyped-def]
        # two-sided geometric with x = 1/2 as a difference of geometric variables
        def g() -> int:
            k = 0
            while rng.random() < 0.5:
                k += 1
            return k

        return g() - g()

    def run_f(rng, A, h, d):  # type: ignore[no-untyped-def]
        if A[d] is not None and A[d] + geo(rng) < t:
            return BOTTOM
        return min(hi, max(lo, h[d] + geo(rng)))

    n = 20_000
    for d in (1, 3, 5):
        rng = random.Random(100 + d)
        counts: Counter = Counter()
        for _ in range(n):
            o = run_f(rng, A1, h1, d)
            counts[o if o != BOTTOM else run_f(rng, A2, h2, d)] += 1
        assert chi_square_pvalue(counts, M.distribution(d), n) > 1e-4
