"""The statement model of :mod:`verifier.claims.coverage` and the registry hook."""

from __future__ import annotations

import pytest

from verifier.claims import PaperCoverage, Registry, Statement
from verifier.errors import InvalidParameter


def test_status_is_given_and_every_weaker_status_says_why():
    assert Statement("Lemma 1", "lemma", "s", claims=("p.a",), status="whole").status == "whole"
    for st in ("special case", "ingredients only", "finding"):
        assert Statement("L", "lemma", "s", claims=("p.a",), status=st, reason="r").status == st
        with pytest.raises(InvalidParameter, match="needs a reason"):
            Statement("L", "lemma", "s", claims=("p.a",), status=st)
    assert Statement("Lemma 1", "lemma", "s", reason="r").status == "out of reach"
    with pytest.raises(InvalidParameter, match="say its status"):
        Statement("Lemma 1", "lemma", "s", claims=("p.a",))
    with pytest.raises(InvalidParameter, match="lists claims"):
        Statement("L", "lemma", "s", claims=("p.a",), status="out of reach", reason="r")
    with pytest.raises(InvalidParameter, match="lists no claim"):
        Statement("L", "lemma", "s", status="whole")
    with pytest.raises(InvalidParameter, match="status must be one of"):
        Statement("L", "lemma", "s", claims=("p.a",), status="checked", reason="r")


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"label": "Lemma 1", "kind": "lemma", "summary": "s"}, "needs a reason"),
        (
            {"label": "Lemma 1", "kind": "remark", "summary": "s", "reason": "r"},
            "kind must be one of",
        ),
        ({"label": "", "kind": "lemma", "summary": "s", "reason": "r"}, "a label and"),
        ({"label": "L", "kind": "lemma", "summary": "s", "claims": ("a.b", "a.b")}, "twice"),
        ({"label": "L", "kind": "lemma", "summary": "s", "claims": ["a.b"]}, "tuple"),
    ],
)
def test_bad_statements_are_refused_with_their_reason(kwargs, message):
    with pytest.raises(InvalidParameter, match=message):
        Statement(**kwargs)


def test_paper_coverage_refuses_duplicate_labels_and_counts_statuses():
    s = Statement("Lemma 1", "lemma", "s", reason="r")
    with pytest.raises(InvalidParameter, match="listed twice: Lemma 1"):
        PaperCoverage.of("p", "t", [s, s])
    two = Statement("Lemma 2", "lemma", "s", claims=("p.x", "p.y"), status="whole")
    cov = PaperCoverage.of("p", "t", [s, two])
    assert cov.count("out of reach") == 1 and cov.count("whole") == 1
    assert cov.claim_ids() == ["p.x", "p.y"]


def test_registry_holds_one_coverage_per_paper():
    reg = Registry()
    cov = PaperCoverage.of("p", "t", [Statement("Lemma 1", "lemma", "s", reason="r")])
    assert reg.add_coverage(cov) is cov and reg.coverage == {"p": cov}
    with pytest.raises(InvalidParameter, match="registered twice"):
        reg.add_coverage(cov)
