"""Talwar 2025, :mod:`casestudies.talwar2025.theory`: Theorem 9's counting, exactly,
and the lower-bound chain of Theorem 7 on a small instance (and its failure mode)."""

from __future__ import annotations

import sympy as sp

from casestudies.talwar2025.theory import lower_bound_chain, theorem9_counting
from verifier.algorithms.talwar import a_lt
from verifier.arithmetic.exact import Verdict
from verifier.constructions.lower_bounds import theorem7_instance

R = sp.Rational


def test_theorem9_counting_is_exact():
    r = theorem9_counting(3)
    assert r.holds
    # |B_v| for Delta = 3: C(30,0)+C(30,1)+C(30,2)+C(30,3) = 1 + 30 + 435 + 4060
    assert "4526" in r.parts[0].findings[0].note


def test_chain_small_instance_and_its_failure_mode():
    alg = a_lt(R(1, 20))
    inst = theorem7_instance(1, alg.expected_calls)  # Delta = ceil(ln 80) = 5
    assert lower_bound_chain(inst, alg).holds
    r = lower_bound_chain(inst, alg, step_exponent=2)
    failed = [p.title for p in r.parts if p.verdict is Verdict.VIOLATED]
    assert r.violated and len(failed) == 1 and failed[0].startswith("exponent step")
