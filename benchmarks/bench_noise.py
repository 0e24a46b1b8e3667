"""Noise-program benchmarks, printed as ratios measured in one run (machines are
noisy; no absolute thresholds, no assertions).

1. Exact rational path versus symbolic path: the same laws evaluated at a rational
   ``W = e^{-u}`` with Fractions, and as rational functions of ``W`` (valid for every
   ε) — the price of the symbolic closed forms.
2. Prefix sharing: all answer sequences of a program by one depth-first search
   sharing partial products, versus one product per sequence.
3. Scale in the number of queries: Lyu et al.'s Algorithm 1 (c = 1; n + 1 outputs)
   and Algorithm 6 (no cutoff; 2^n outputs) as n doubles / grows by 2.
4. Laplace versus geometric noise for the same program (integrals with ``1/(kU)``
   coefficients versus sums at a rational point).
5. Point releases: the exact infinite-tail certificate of GapSVT versus the finite
   window alone.
6. Checks on growing neighbour graphs: ALL_DIFFER on {0,1}^k.

Run: python benchmarks/bench_noise.py
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import sympy as sp

from verifier.algorithms.noise import (
    check_program_dp,
    epsilon_for_base,
    gap_svt,
    lyu_svt,
    program_mechanism,
    query_graph,
    ramp_pair,
)
from verifier.algorithms.noise import svt as nz
from verifier.algorithms.noise.interpreter import program_context
from verifier.checks.privacy import check_pure_dp

R = sp.Rational
BASE = R(4, 5)


def _time(fn: Callable[[], object], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _eps(build: Callable[[sp.Expr], object]) -> sp.Expr:
    return epsilon_for_base(build, BASE)  # type: ignore[arg-type]


def bench_exact_vs_symbolic() -> tuple[float, float]:
    eps = _eps(lambda e: lyu_svt(1, e, 2))
    prog = lyu_svt(1, eps, 2)
    g = query_graph([(0, 1, 1, 0), (1, 0, 0, 1)])
    t_exact = _time(lambda: program_mechanism(prog, g), 3)
    t_sym = _time(lambda: program_mechanism(prog, g, symbolic=True), 1)
    return t_exact, t_sym


def bench_prefix_sharing() -> tuple[float, float]:
    prog = lyu_svt(6, _eps(lambda e: lyu_svt(6, e)))
    q = (0, 1, 0, 1, 1, 0, 0)
    ctx = program_context(prog)
    t_dfs = _time(lambda: nz._sv_bits_all(ctx, prog, q), 3)
    t_each = _time(
        lambda: {a: nz._sv_probability(ctx, prog, q, a) for a in nz._sv_answers(prog, len(q))}, 1
    )
    return t_dfs, t_each


def bench_scale_queries() -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    eps1 = _eps(lambda e: lyu_svt(1, e, 1))
    alg1 = []
    for n in (4, 8, 16, 32):
        a, b = ramp_pair(n - 1)
        g = query_graph([a, b])
        alg1.append((n, _time(lambda g=g: program_mechanism(lyu_svt(1, eps1, 1), g), 2)))
    eps6 = _eps(lambda e: lyu_svt(6, e))
    alg6 = []
    for n in (4, 6, 8, 10):
        g = query_graph([(0,) * (n // 2) + (1,) * (n // 2)])
        alg6.append((n, _time(lambda g=g: program_mechanism(lyu_svt(6, eps6), g), 1)))
    return alg1, alg6


def bench_laplace_vs_geometric() -> tuple[float, float]:
    g = query_graph([(0, 1, 1), (1, 0, 0)])
    geo = lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 2)), 2)
    lap = lyu_svt(1, sp.Integer(1), 2, noise="laplace")
    return _time(lambda: program_mechanism(geo, g), 3), _time(lambda: program_mechanism(lap, g), 1)


def bench_tails() -> tuple[float, float]:
    prog = gap_svt(_eps(lambda e: gap_svt(e, 1)), 1)
    pm = program_mechanism(prog, query_graph(list(ramp_pair(3))))
    t_window = _time(lambda: check_pure_dp(pm.mechanism, epsilon=prog.claimed), 2)
    t_full = _time(lambda: check_program_dp(pm, prog.claimed), 2)
    return t_window, t_full


def bench_graphs() -> list[tuple[int, int, float]]:
    prog = lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 2)), 2)
    out = []
    for k in (2, 3, 4):
        g = query_graph(list(itertools.product((0, 1), repeat=k)))
        t = _time(lambda g=g: check_program_dp(program_mechanism(prog, g), prog.claimed), 1)
        out.append((k, g.number_of_edges(), t))
    return out


def main() -> None:
    te, ts = bench_exact_vs_symbolic()
    print(f"1. symbolic / exact-rational laws (Alg. 1, c=2, 4 queries): {ts / te:.1f}x")
    td, tp = bench_prefix_sharing()
    print(f"2. one product per sequence / prefix sharing (Alg. 6, 7 queries): {tp / td:.1f}x")
    alg1, alg6 = bench_scale_queries()
    steps = ", ".join(
        f"n={n}->{m}: {t2 / t1:.1f}x" for (n, t1), (m, t2) in zip(alg1, alg1[1:], strict=False)
    )
    print(f"3a. Alg. 1 (c=1, n+1 outputs) per doubling of n: {steps}")
    steps = ", ".join(
        f"n={n}->{m}: {t2 / t1:.1f}x" for (n, t1), (m, t2) in zip(alg6, alg6[1:], strict=False)
    )
    print(f"3b. Alg. 6 (2^n outputs) per two more queries: {steps}")
    tg, tl = bench_laplace_vs_geometric()
    print(f"4. Laplace (symbolic integrals) / geometric (rational point): {tl / tg:.1f}x")
    tw, tf = bench_tails()
    print(f"5. GapSVT check with exact infinite tails / finite window only: {tf / tw:.1f}x")
    rows = bench_graphs()
    steps = ", ".join(
        f"k={k}->{k2} ({e}->{e2} edges): {t2 / t1:.1f}x"
        for (k, e, t1), (k2, e2, t2) in zip(rows, rows[1:], strict=False)
    )
    print(f"6. Alg. 1 DP check on ALL_DIFFER {{0,1}}^k: {steps}")


if __name__ == "__main__":
    main()
