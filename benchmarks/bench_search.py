"""Benchmarks of the counterexample search (verifier.search), printed from one run
(machines are noisy; no absolute thresholds).

1. Time to refute each false claim with the default settings, over several seeds:
   instances screened, the batch holding the first confirmed violation, shrink steps,
   the certified realized/claimed ratio of the certificate.
2. The true theorems at their default budgets: best realized/claimed ratio (screened
   and recomputed exactly on the best instance) — empirical tightness figures.
3. Why screening: instances screened per second versus exact checks per second.
4. Workers: the same search with 1 and 2 processes (same answer; wall-clock ratio).

Run: python benchmarks/bench_search.py [--quick]
"""

from __future__ import annotations

import random
import sys
import time

from verifier.search import confirm, get_searchable, search, searchable_claims

QUICK = "--quick" in sys.argv
SEEDS = range(2) if QUICK else range(5)


def refutations() -> None:
    print("1. refuting the false claims (default settings)")
    print(f"   {'claim':32} {'seed':>4} {'time':>7} {'instances':>9} {'batch':>5} "
          f"{'shrink':>6} {'ratio':>8}")  # fmt: skip
    for c in searchable_claims():
        if c.expected != "refuted":
            continue
        for seed in SEEDS:
            t0 = time.perf_counter()
            r = search(c.id, seed=seed, seconds=60)
            dt = time.perf_counter() - t0
            ratio = "-" if r.counterexample_ratio is None else f"{r.counterexample_ratio:.4g}"
            print(
                f"   {c.id:32} {seed:>4} {dt:>6.2f}s {r.instances:>9} {r.found_batch:>5} "
                f"{r.shrink_steps:>6} {ratio:>8}  {r.status}"
            )


def tightness() -> None:
    print("\n2. true theorems: best realized/claimed ratio at the default budget (seed 0)")
    for c in searchable_claims():
        if c.expected != "holds":
            continue
        budget = c.search.default_instances // (4 if QUICK else 1)
        t0 = time.perf_counter()
        r = search(c.id, seed=0, seconds=None, instances=budget)
        dt = time.perf_counter() - t0
        exact = "-" if r.best_exact_ratio is None else f"{r.best_exact_ratio:.6f}"
        print(
            f"   {c.id:32} {r.status:10} {r.instances:>6} instances {dt:6.1f}s "
            f"({r.instances / dt:7.0f}/s)  best {r.best_ratio:.6f} (exact {exact})"
        )
        print(f"   {'':32} on {r.best_description[:150]}")


def screening_vs_exact() -> None:
    print("\n3. screening versus exact checks (per instance)")
    for cid in ("ghazi2025.thm11", "liu_talwar2019.thm32", "ghazi2025.thm13"):
        c = get_searchable(cid)
        rng = random.Random(0)
        insts = [c.search.space.random(rng) for _ in range(20)]
        t0 = time.perf_counter()
        for _ in range(10):
            for i in insts:
                c.search.screen(i)
        ts = (time.perf_counter() - t0) / 200
        t0 = time.perf_counter()
        for i in insts[:5]:
            confirm(c, i)
        te = (time.perf_counter() - t0) / 5
        print(
            f"   {cid:32} screen {ts * 1e3:7.3f} ms   exact {te * 1e3:8.1f} ms   ({te / ts:6.0f}x)"
        )


def workers() -> None:
    print("\n4. workers (same answer, wall clock)")
    cid, n = "ghazi2025.thm11", (4000 if QUICK else 16000)
    t0 = time.perf_counter()
    one = search(cid, seed=0, seconds=None, instances=n)
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    two = search(cid, seed=0, seconds=None, instances=n, workers=2)
    t2 = time.perf_counter() - t0
    same = (one.best_ratio, one.instances) == (two.best_ratio, two.instances)
    print(
        f"   {cid}: 1 worker {t1:.2f}s, 2 workers {t2:.2f}s (x{t1 / t2:.2f}); same answer: {same}"
    )


if __name__ == "__main__":
    refutations()
    tightness()
    screening_vs_exact()
    workers()
