"""Registered claims over boxes of parameters: enough of them, each with a box of at
least two parameters, and a few small ones decided here (the whole set is a benchmark
figure: benchmarks/bench_boxes.py)."""

from __future__ import annotations

import pytest

from verifier.arithmetic.exact import Verdict
from verifier.claims import load_casestudies

REGISTRY = load_casestudies()
BOXES = REGISTRY.select(decider="box")


def test_at_least_twelve_box_claims_over_two_or_more_parameters():
    assert len(BOXES) >= 12
    for c in BOXES:
        assert c.domain is not None and c.domain.dimension >= 2, c.id
        assert c.deciders == ("box",)
    ids = {c.id for c in BOXES}
    for required in (
        "ghazi2025.lemma7.box_i",
        "ghazi2025.lemma7.box_ii",
        "ghazi2025.thm8.box",
        "ghazi2025.thm10.box",
        "ghazi2025.thm11.box",
        "liu_talwar2019.thm32.box",
        "liu_talwar2019.B1.best_of_k.box",
        "talwar2025.prop4.box",
        "talwar2025.prop5.box",
        "talwar2025.prop6.box",
        "talwar2025.thm7.box",
        "hartmann2022.theorem7.box",
    ):
        assert required in ids
    assert sum(c.kind == "negative-control" for c in BOXES) >= 3


@pytest.mark.parametrize(
    "cid",
    [
        "ghazi2025.thm11.box",
        "ghazi2025.lemma7.box_i",
        "liu_talwar2019.B1.best_of_k.box",
        "hartmann2022.theorem7.box",
        "talwar2025.thm7.box",
    ],
)
def test_small_boxes_hold_everywhere(cid):
    out = REGISTRY.get(cid).run()
    assert out.error is None, out.error
    assert out.verdict is Verdict.HOLDS and out.matches
    assert out.undecided_fraction == 0
    d = out.to_dict()
    assert d["domain"] == out.claim.domain.as_dict() and d["undecided_fraction"] == 0.0


def test_theorem11_bottom_is_attained_on_the_whole_box():
    out = REGISTRY.get("ghazi2025.thm11.box").run()
    bottom = [f for f in out.result.all_findings() if f.output == "⊥"]
    assert bottom and all(f.tight and f.region.identically_equal for f in bottom)


@pytest.mark.parametrize(
    "cid", ["ghazi2025.thm11.no_factor2.box", "liu_talwar2019.thm32.two_eps.box"]
)
def test_negative_controls_fail_on_sub_boxes_with_an_exact_point(cid):
    from verifier.arithmetic.exact import decide_le

    out = REGISTRY.get(cid).run()
    assert out.verdict is Verdict.VIOLATED and out.matches
    und, bad = out.box_fractions()
    assert und == 0 and bad > 0
    bad_findings = [f for f in out.result.all_findings() if f.verdict is Verdict.VIOLATED]
    assert bad_findings
    for f in bad_findings:
        r = f.region
        assert r.failing and r.witness is not None
        pt = {s: v for s, v in r.witness.items()}
        lhs, rhs = r.box.bind(f.lhs).xreplace(pt), r.box.bind(f.rhs).xreplace(pt)
        assert decide_le(lhs, rhs).verdict is Verdict.VIOLATED
