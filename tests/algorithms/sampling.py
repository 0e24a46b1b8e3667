"""Simulation helpers shared by the tests of the selection algorithms (Liu & Talwar
2019, Talwar 2025): draws from exact distributions, a chi-square goodness-of-fit
p-value, and a check of a closed form against a seeded sampler of the real algorithm."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable

import mpmath

from verifier.algorithms.liu_talwar import ranking
from verifier.mechanism.model import FiniteMechanism


def draw(dist: dict[Hashable, float], rng: random.Random) -> Hashable:
    u = rng.random()
    acc = 0.0
    last = None
    for o, p in dist.items():
        acc += p
        last = o
        if u < acc:
            return o
    return last


def float_dist(m: FiniteMechanism, d: Hashable) -> dict[Hashable, float]:
    return {o: float(m.p(d, o)) for o in m.outputs if m.p(d, o) != 0}


def chi2_pvalue(counts: Counter, probs: dict[Hashable, float], n: int) -> float:
    """Pearson chi-square p-value (cells with expected count < 5 are pooled)."""
    stat, df, pool_obs, pool_exp = 0.0, -1, 0.0, 0.0
    for o, p in probs.items():
        e = n * p
        if e < 5:
            pool_obs += counts.get(o, 0)
            pool_exp += e
            continue
        stat += (counts.get(o, 0) - e) ** 2 / e
        df += 1
    if pool_exp > 0:
        stat += (pool_obs - pool_exp) ** 2 / max(pool_exp, 1e-12)
        df += 1
    extra = sum(c for o, c in counts.items() if probs.get(o, 0) == 0)
    if extra:
        return 0.0  # an outcome of probability 0 was observed
    return float(mpmath.gammainc(df / 2, stat / 2, regularized=True))


def check_sampler(
    exact: FiniteMechanism,
    d: Hashable,
    sampler: Callable[[random.Random], Hashable],
    n: int = 20000,
    seed: int = 0,
    wrong: FiniteMechanism | None = None,
) -> None:
    rng = random.Random(seed)
    counts = Counter(sampler(rng) for _ in range(n))
    p_ok = chi2_pvalue(counts, float_dist(exact, d), n)
    assert p_ok > 1e-3, f"closed form disagrees with the simulation (p = {p_ok})"
    if wrong is not None:
        p_bad = chi2_pvalue(counts, float_dist(wrong, d), n)
        assert p_bad < 1e-6, f"the test cannot tell a wrong formula apart (p = {p_bad})"


def rank_key(m: FiniteMechanism) -> Callable[[Hashable], tuple]:
    rk = ranking(m)
    pos = rk.position()
    return lambda o: pos[o]
