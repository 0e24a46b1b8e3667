"""Helpers shared by the tests of Ghazi et al. 2025's algorithms and of its theory:
the geometric sampler of the pseudo-code and the mechanisms of the Algorithm 3 tests."""

from __future__ import annotations

import random

from verifier.mechanism.instances import random_mechanism
from verifier.mechanism.neighbours import pair


def geom(rng: random.Random, p: float) -> int:
    """Geom_p with FAILURE probability p: P(k) = (1 - p) p^k (Ghazi et al. 2025, §2)."""
    k = 0
    while rng.random() < p:
        k += 1
    return k


#: Three random mechanisms on a pair (denominator 24): Algorithm 3's inputs.
MS3 = [random_mechanism(pair(), 3, seed=s, denominator=24) for s in range(3)]
