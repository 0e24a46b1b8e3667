"""The searches of the noise programs' theorems (:mod:`casestudies.noise_programs.search`):
the monotone space yields monotone neighbours, each variant's screen agrees with the
exact realized loss, a document is decided exactly by the spec reader and refutes a
claim below the realized loss, and the approached family of Alg. 1's ramp pairs."""

from __future__ import annotations

from random import Random

import pytest
import sympy as sp

from casestudies.noise_programs import search
from casestudies.noise_programs.claims import _eps
from verifier.algorithms.noise import (
    lyu_svt,
    program_mechanism,
    program_realized_epsilon,
    ramp_pair,
    realized_epsilon_curve,
)
from verifier.claims import load_casestudies
from verifier.claims.tighten import tightened
from verifier.mechanism.neighbours import pair
from verifier.search.core import load_document
from verifier.search.spaces import QueryPair

R = sp.Rational


def test_monotone_space_moves_every_answer_one_way():
    space = search.MonotonePairSpace(n=(1, 3))
    rng = Random(5)
    insts = [space.random(rng) for _ in range(300)] + [space.extreme(rng) for _ in range(300)]
    insts += [space.neighbour(x, rng, 1.0) for x in insts]
    for x in insts:
        d = [b - a for a, b in zip(x.q, x.q2, strict=True)]
        assert any(d) and all(abs(v) <= 1 for v in d)
        assert all(v >= 0 for v in d) or all(v <= 0 for v in d)


def _variant(factor):
    e = _eps(lambda x: lyu_svt(4, x, 1))
    return search.Variant(
        f"test_lyu4_{factor}",
        lambda: lyu_svt(4, e, 1),
        factor * e,
        {
            "algorithm": "sparse_vector",
            "params": {"variant": "lyu4", "c": 1, "epsilon": str(e)},
        },
    )


def test_screen_matches_the_exact_realized_loss_and_documents_decide_it():
    # Lyu et al.'s Alg. 4 (c = 1): not eps-DP, (7/4) eps-DP (Table 1)
    inst = QueryPair((0, 0, 1), (1, 1, 0))
    e = _eps(lambda x: lyu_svt(4, x, 1))
    pm = program_mechanism(lyu_svt(4, e, 1), pair("D", "D'"), answers={"D": inst.q, "D'": inst.q2})
    realized = program_realized_epsilon(pm).value
    for factor in (1, R(7, 4)):
        spec = search.program_search(f"test.lyu4.{factor}", [_variant(factor)], "test")
        assert abs(spec.screen(inst) - float(realized / (factor * e))) < 1e-9
        (claim,) = load_document(spec.document(inst)).claims
        want = "violated" if realized > factor * e else "holds"
        assert claim.run().verdict.value == want
    assert realized > e  # the pair refutes eps-DP: the document above is violated


def test_the_ramp_family_approaches_eps():
    eps = _eps(lambda x: lyu_svt(1, x, 1))
    pts = realized_epsilon_curve(lambda m: lyu_svt(1, eps, 1), ramp_pair, (2, 6, 10))
    ratios = [float(p.value / eps) for p in pts]
    assert ratios == sorted(ratios) and 0.99 < ratios[-1] < 1


@pytest.mark.parametrize(
    "claim_id",
    [
        "lyu2017.alg1",
        "lyu2017.alg1.ramp_limit",
        "lyu2017.alg3.growth_exact",
        "lyu2017.alg4.corrected_bound",
        "dwork_roth2014.noisy_max",
        "ding2018.noisy_max_value.growth_exact",
    ],
)
def test_tightened_statements_are_refuted(claim_id):
    out = load_casestudies().get(claim_id).run()
    assert out.tightness().status in ("attained", "approached")
    assert tightened(out).verdict.value == "violated"
