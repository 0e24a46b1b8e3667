"""Benchmarks of Ghazi et al. 2025's exact transformers, printed as ratios measured in
one run (machines are noisy; no absolute thresholds).

1. Polynomial versus subset expansion (Algorithm 3): budgets on a common grid merge
   exponents, ``O(Σ m_j)`` terms instead of ``2^(d-1)``.
2. Copies as binomial powers versus the same copies listed as separate mechanisms.
3. Rational data (budgets ``m·log 2``, k-ary randomized response with ratio ``2^m``)
   versus transcendental data (budgets ``m/10``): the same structure, decided by
   rational arithmetic versus certified enclosures.
4. Scale: tens of mechanisms, tens of outputs, exact Theorem 11 check.
5. Certified path: Theorem 12 with ``T_i`` up to ``6·10^12`` copies, and the certified
   enclosures of Algorithm 3 versus its exact polynomial path on one instance.

Run: python benchmarks/bench_ghazi.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy as sp

from casestudies.ghazi2025.theory import theorem11_bound, theorem12_copies, theorem12_failure
from verifier.algorithms.ghazi import hyperparameter_tuning, hyperparameter_tuning_enclosures
from verifier.checks.privacy import check_ex_post
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational


def kary_rr(k: int, ratio: Any, name: str = "RR") -> FiniteMechanism:
    """k-ary randomized response on a pair, ``log(ratio)``-DP: output 0 favoured at D,
    output k-1 at D'."""
    D = {o: (ratio if o == 0 else 1) / (ratio + k - 1) for o in range(k)}
    Dp = {o: (ratio if o == k - 1 else 1) / (ratio + k - 1) for o in range(k)}
    return FiniteMechanism(pair(), {"D": D, "D'": Dp}, list(range(k)), name=name)


def timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def instance(d: int, k: int, rational: bool) -> tuple[list[FiniteMechanism], list[Any], Any]:
    ms, eps = [], []
    for s in range(d):
        m = s % 4 + 1
        if rational:
            ms.append(kary_rr(k, R(2) ** m))
            eps.append(m * sp.log(2))
        else:
            ms.append(kary_rr(k, sp.exp(R(m, 10))))
            eps.append(R(m, 10))
    return ms, eps, (sp.log(R(101, 100)) if rational else R(1, 100))


def bench_polynomial_vs_subsets(d: int = 11) -> float:
    ms, eps, ep = instance(d, 3, rational=True)
    t_poly, a = timed(lambda: hyperparameter_tuning(ms, eps, ep))
    t_sub, b = timed(lambda: hyperparameter_tuning(ms, eps, ep, method="subsets"))
    assert all(a.p(x, o) == b.p(x, o) for x in a.datasets for o in a.outputs)
    ratio = t_sub / t_poly
    print(f"1. d={d}: subsets {t_sub:.2f}s / polynomial {t_poly:.3f}s = {ratio:.0f}x")
    return ratio


def bench_copies(T: int = 5) -> float:
    ms, eps, ep = instance(2, 3, rational=True)
    t_pow, a = timed(lambda: hyperparameter_tuning(ms, eps, ep, copies=[T, T]))
    flat = [ms[0]] * T + [ms[1]] * T
    t_flat, _ = timed(lambda: hyperparameter_tuning(flat, [eps[0]] * T + [eps[1]] * T, ep))
    ratio = t_flat / t_pow
    print(f"2. {T}+{T} copies: listed {t_flat:.2f}s / powers {t_pow:.3f}s = {ratio:.1f}x")
    return ratio


def _check11(ms: list[FiniteMechanism], eps: list[Any], ep: Any) -> Any:
    return check_ex_post(hyperparameter_tuning(ms, eps, ep), epsilon_tilde=theorem11_bound(eps, ep))


def bench_rational_vs_transcendental(d: int = 6) -> float:
    times = []
    for rational in (True, False):
        ms, eps, ep = instance(d, 3, rational)
        t0 = time.perf_counter()
        _check11(ms, eps, ep)
        times.append(time.perf_counter() - t0)
    ratio = times[1] / times[0]
    print(
        f"3. d={d}: transcendental budgets {times[1]:.2f}s / rational {times[0]:.3f}s "
        f"= {ratio:.0f}x"
    )
    return ratio


def bench_scale(ds: tuple[int, ...] = (10, 20, 30), k: int = 10) -> None:
    for d in ds:
        ms, eps, ep = instance(d, k, rational=True)
        t0 = time.perf_counter()
        A = hyperparameter_tuning(ms, eps, ep)
        t1 = time.perf_counter()
        r = check_ex_post(A, epsilon_tilde=theorem11_bound(eps, ep))
        t2 = time.perf_counter()
        print(
            f"4. d={d}, {k} outputs each ({len(A.outputs)} outputs): build {t1 - t0:.2f}s, "
            f"Theorem 11 check {t2 - t1:.2f}s -> {r.verdict.value}"
        )


def bench_certified() -> float:
    alpha, beta, ep = R(1, 100), R(1, 1000), R(1, 10)
    ms, eps = [kary_rr(3, R(6, 5)), kary_rr(2, R(5, 4))], [R(1, 5), R(3, 10)]
    copies = [theorem12_copies(alpha, beta, e, ep) for e in eps]
    t, s = timed(lambda: theorem12_failure(ms, eps, ep, copies, "D", 0))
    print(
        f"5a. Theorem 12 failure with copies {copies}: {s.enclosure} in {t:.2f}s ({s.terms} terms)"
    )
    ms, eps, ep = instance(6, 3, rational=True)
    t_exact, _ = timed(lambda: hyperparameter_tuning(ms, eps, ep, copies=[3] * 6))
    t_cert, _ = timed(lambda: hyperparameter_tuning_enclosures(ms, eps, ep, copies=[3] * 6))
    ratio = t_cert / t_exact
    print(
        f"5b. 6 mechanisms x 3 copies: certified {t_cert:.2f}s / exact {t_exact:.3f}s = {ratio:.1f}x"
    )
    return ratio


if __name__ == "__main__":
    bench_polynomial_vs_subsets()
    bench_copies()
    bench_rational_vs_transcendental()
    bench_scale()
    bench_certified()
