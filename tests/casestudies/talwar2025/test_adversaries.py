"""Talwar 2025, Theorems 9-10 against adaptive algorithms that query other inputs: the
lumped computation of casestudies.talwar2025.adversaries against a seeded simulation of
the algorithms on the real cube {0,1}^n (bit vectors, a hidden centre v)."""

from __future__ import annotations

import random
from math import comb

import sympy as sp

from casestudies.talwar2025.adversaries import blind_probe, neighbour_probe
from verifier.algorithms.talwar import a_max
from verifier.arithmetic.exact import Verdict, approx
from verifier.claims import load_casestudies
from verifier.constructions.lower_bounds import BAD, GOOD, theorem9_instance

R = sp.Rational


def _p_good(inst, j):  # type: ignore[no-untyped-def]
    return approx(inst.oracle.p(j, GOOD))


def _simulate(inst, kind, runs, seed):  # type: ignore[no-untyped-def]
    """Run the algorithm on the cube at d0 = 0^n with a random hidden centre v: each call
    at a point u answers GOOD with the instance's probability at class |u - v|."""
    rng = random.Random(seed)
    n = inst.distance
    good = [_p_good(inst, j) for j in range(n + 1)]
    bad = 0
    for _ in range(runs):
        v = [1] * n  # d0 = 0^n at distance n, as in the lumped instance
        d0 = [0] * n

        def call(u):  # type: ignore[no-untyped-def]
            return rng.random() < good[sum(a != b for a, b in zip(u, v, strict=True))]  # noqa: B023

        if kind == "neighbour":  # NeighbourProbe(2, 3)
            seen = [call(d0) for _ in range(2)]
            if not seen[0]:
                for _ in range(3):
                    u = list(d0)
                    u[rng.randrange(n)] ^= 1
                    seen.append(call(u))
        else:  # BlindProbe(A_max^3, 10): stop probing at the first GOOD
            seen = [call(d0) for _ in range(3)]
            for _ in range(10):
                g = call([rng.randrange(2) for _ in range(n)])
                seen.append(g)
                if g:
                    break
        bad += not any(seen)
    return bad / runs


def test_lumped_algorithms_match_a_simulation_on_the_cube():
    for alg, kind in ((neighbour_probe(2, 3), "neighbour"), (blind_probe(a_max(3), 10), "blind")):
        inst = theorem9_instance(sp.log(2), alg.expected_calls)
        A = alg.apply(inst.oracle)
        exact_bad = approx(A.p(inst.d0, BAD))
        sim = _simulate(inst, kind, 4000, seed=9)
        assert abs(sim - exact_bad) < 4 * (exact_bad * (1 - exact_bad) / 4000) ** 0.5


def test_neighbour_probe_by_hand_at_the_far_end():
    # at d0 (class n) every neighbour is in class n - 1: Pr[bad] = b_n^2 b_(n-1)^3
    alg = neighbour_probe(2, 3)
    inst = theorem9_instance(sp.log(2), alg.expected_calls)
    n = inst.distance
    A = alg.apply(inst.oracle)
    b = [inst.oracle.p(j, BAD) for j in (n - 1, n)]
    assert sp.simplify(A.p(n, BAD) - b[1] ** 2 * b[0] ** 3) == 0
    # a uniform probe: class j with probability C(n, j)/2^n
    blind = blind_probe(a_max(1), 1).apply(inst.oracle)
    u_bad = sum(R(comb(n, j), 2**n) * inst.oracle.p(j, BAD) for j in range(n + 1))
    assert sp.simplify(blind.p(0, BAD) - inst.oracle.p(0, BAD) * u_bad) == 0


def test_adaptive_claims_hold():
    reg = load_casestudies()
    for cid in ("talwar2025.thm9.adaptive", "talwar2025.thm10.adaptive"):
        assert reg.get(cid).run().verdict is Verdict.HOLDS, cid
