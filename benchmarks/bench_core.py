"""Core benchmarks, printed as ratios measured in one run (machines are noisy; no
absolute thresholds).

1. Lumping: checking group privacy of a distance-only mechanism on the explicit cube
   {0,1}^n versus its quotient by distance (n + 1 classes).
2. Exact versus certified path: the same pure-DP check with rational bounds
   (decided by rational arithmetic) and with transcendental bounds (decided by
   interval enclosures).

Run: python benchmarks/bench_core.py
"""

from __future__ import annotations

import time

import sympy as sp

from verifier.checks.privacy import check_pure_dp
from verifier.mechanism.instances import random_mechanism
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import hamming_cube, lumped_hamming_cube, pair

R = sp.Rational


def _distance_mechanism(graph, n, dist_of):
    x = R(1, 3)
    dists = {}
    for d in graph.nodes:
        k = dist_of(d)
        p = x**k / (1 + x**k)
        dists[d] = {0: p, 1: 1 - p}
    return FiniteMechanism(graph, dists, [0, 1])


def bench_lumping(n: int = 9) -> float:
    t0 = time.perf_counter()
    explicit = _distance_mechanism(hamming_cube(n), n, sum)
    r1 = check_pure_dp(explicit, epsilon=sp.log(3))
    t1 = time.perf_counter()
    lumped = _distance_mechanism(lumped_hamming_cube(n), n, lambda k: k)
    r2 = check_pure_dp(lumped, epsilon=sp.log(3))
    t2 = time.perf_counter()
    assert r1.verdict == r2.verdict
    ratio = (t1 - t0) / (t2 - t1)
    print(f"lumping, n={n}: explicit {t1 - t0:.3f}s / lumped {t2 - t1:.4f}s = {ratio:.0f}x")
    return ratio


def bench_exact_vs_certified(count: int = 30) -> float:
    mechs = [random_mechanism(pair(), 6, seed=s) for s in range(count)]
    t0 = time.perf_counter()
    for m in mechs:
        check_pure_dp(m, epsilon=sp.log(R(7, 2)))
    t1 = time.perf_counter()
    for m in mechs:
        check_pure_dp(m, epsilon=R(5, 4))
    t2 = time.perf_counter()
    ratio = (t2 - t1) / (t1 - t0)
    print(
        f"certified/exact, {count} mechanisms: certified {t2 - t1:.3f}s / exact "
        f"{t1 - t0:.3f}s = {ratio:.1f}x"
    )
    return ratio


if __name__ == "__main__":
    bench_lumping()
    bench_exact_vs_certified()
