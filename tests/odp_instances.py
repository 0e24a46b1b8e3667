"""Mechanisms and moves shared by the tests of :mod:`verifier.odp.guarantees` and of
Hartmann et al. 2022's theory (:mod:`casestudies.hartmann2022.theory`)."""

from __future__ import annotations

import sympy as sp

from verifier.mechanism.instances import randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.odp.guarantees import Move, ODPGuarantee, Partition

R = sp.Rational


def toy_mechanism() -> FiniteMechanism:
    """Hartmann et al.'s introduction: a coin; tails -> ⊥, heads -> RR(log 3)."""
    half = R(1, 2)
    return FiniteMechanism(
        pair(),
        {
            "D": {"⊥": half, 1: half * R(3, 4), 0: half / 4},
            "D'": {"⊥": half, 1: half / 4, 0: half * R(3, 4)},
        },
        ["⊥", 0, 1],
        name="toy",
    )


def rr_move(eps):  # type: ignore[no-untyped-def]
    """A move of the composition experiment: randomized response on (D, D') with
    the trivial partition's ``eps``-ODP guarantee."""
    rr = randomized_response(eps)
    return Move(rr, ("D", "D'"), ODPGuarantee.of(Partition.trivial(rr.outputs), eps))
