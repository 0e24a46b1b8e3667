"""Benchmarks of the Liu–Talwar / Talwar code, printed as ratios measured in one run
(machines are noisy; no absolute thresholds).

1. Lumping: Theorem 7's extension and its 2ε-DP verification on the explicit cube
   ``{0,1}^n`` versus its quotient by distance (``n + 1`` classes).
2. Scale of the lumped lower-bound chains: Theorem 7 on ``{0,1}^60`` (61 classes)
   versus Theorem 9 on ``{0,1}^600`` (601 classes).
3. The trade-off: the certified interval evaluation of a hard instance
   (:func:`casestudies.talwar2025.tradeoff.hard_instance_profile`) versus the exact FiniteMechanism
   route (extension + algorithm + ``pure_epsilon``) on the same instance; and the
   default grids of both panels of Figure 1 (the CLI budget is one minute).
4. Precision: the same panel at ``γ = 1e-30`` versus ``γ = 1e-300``.

Run: python benchmarks/bench_tradeoff.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy as sp

from casestudies.talwar2025.theory import lower_bound_chain
from casestudies.talwar2025.tradeoff import hard_instance_profile, tradeoff
from verifier.algorithms.talwar import a_lt
from verifier.checks.privacy import pure_epsilon
from verifier.constructions.extension import extend, extend_on_lumped_cube
from verifier.constructions.lower_bounds import (
    BAD,
    GOOD,
    theorem7_instance,
    theorem9_instance,
)
from verifier.mechanism.neighbours import hamming_cube

R = sp.Rational


def timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def bench_lumping(n: int = 10) -> float:
    eps = sp.log(2)
    q = R(1, 2**n)
    outs = [BAD, GOOD]

    def explicit() -> Any:
        zero, one = (0,) * n, (1,) * n
        partial = {zero: {GOOD: q, BAD: 1 - q}, one: {GOOD: 1 - q, BAD: q}}
        return extend(hamming_cube(n), partial, eps, outputs=outs).verification.verdict

    def lumped() -> Any:
        partial = {0: {GOOD: q, BAD: 1 - q}, n: {GOOD: 1 - q, BAD: q}}
        return extend_on_lumped_cube(n, partial, eps, outputs=outs).verification.verdict

    t1, v1 = timed(explicit)
    t2, v2 = timed(lumped)
    assert v1 == v2
    ratio = t1 / t2
    print(f"1. extension + 2eps check, n={n}: explicit {t1:.2f}s / lumped {t2:.3f}s = {ratio:.0f}x")
    return ratio


def bench_chains() -> float:
    alg7, alg9 = a_lt(R(1, 100)), a_lt(R(1, 50))
    t7, r7 = timed(lambda: lower_bound_chain(theorem7_instance(R(1, 10), 100), alg7))
    t9, r9 = timed(lambda: lower_bound_chain(theorem9_instance(R(1, 10), 50), alg9))
    assert r7.holds and r9.holds
    ratio = t9 / t7
    print(
        f"2. lumped chains: Thm 9 on {{0,1}}^600 (601 classes) {t9:.2f}s / Thm 7 on "
        f"{{0,1}}^60 (61 classes) {t7:.2f}s = {ratio:.1f}x for 9.9x the classes"
    )
    return ratio


def bench_tradeoff() -> float:
    alg = a_lt(R(1, 10**6))
    eps = 1
    T = alg.expected_calls

    def exact_route() -> Any:
        inst = theorem7_instance(eps, T)
        A = alg.apply(inst.oracle)
        return pure_epsilon(A).value / pure_epsilon(inst.mechanism).value

    te, _ = timed(exact_route)
    ti, _ = timed(lambda: hard_instance_profile("repetition", alg, eps, T))
    r1 = te / ti
    print(
        f"3a. one hard instance: exact route {te:.2f}s / certified intervals {ti:.4f}s = {r1:.0f}x"
    )
    tr, rep = timed(lambda: tradeoff("repetition"))
    tm, meta = timed(lambda: tradeoff("metaselection"))
    assert rep.check().holds and meta.check().holds
    n = len(rep.points) + len(meta.points)
    print(
        f"3b. default grids (gamma 1e-2 .. 1e-40): repetition {tr:.2f}s + metaselection "
        f"{tm:.2f}s for {n} points = {(tr + tm) / 60:.3f} of the one-minute CLI budget"
    )
    return r1


def bench_precision() -> float:
    t30, _ = timed(lambda: tradeoff("repetition", [R(1, 10**30)]))
    t300, p = timed(lambda: tradeoff("repetition", [R(1, 10**300)]))
    assert p.check().holds
    ratio = t300 / t30
    print(f"4. gamma = 1e-300 {t300:.2f}s / gamma = 1e-30 {t30:.2f}s = {ratio:.1f}x")
    return ratio


if __name__ == "__main__":
    bench_lumping()
    bench_chains()
    bench_tradeoff()
    bench_precision()
