"""The statement model of :mod:`verifier.claims.coverage` and the registry hook."""

from __future__ import annotations

import pytest

from verifier.claims import PaperCoverage, Registry, Statement
from verifier.errors import InvalidParameter


def test_status_follows_claims_and_reason():
    assert Statement("Lemma 1", "lemma", "s", claims=("p.a",)).status == "checked"
    assert Statement("Lemma 1", "lemma", "s", claims=("p.a",), reason="r").status == "consequence"
    assert Statement("Lemma 1", "lemma", "s", reason="r").status == "out of reach"


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"label": "Lemma 1", "kind": "lemma", "summary": "s"}, "record why it is out of reach"),
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
    cov = PaperCoverage.of("p", "t", [s, Statement("Lemma 2", "lemma", "s", claims=("p.x", "p.y"))])
    assert cov.count("out of reach") == 1 and cov.count("checked") == 1
    assert cov.claim_ids() == ["p.x", "p.y"]


def test_registry_holds_one_coverage_per_paper():
    reg = Registry()
    cov = PaperCoverage.of("p", "t", [Statement("Lemma 1", "lemma", "s", reason="r")])
    assert reg.add_coverage(cov) is cov and reg.coverage == {"p": cov}
    with pytest.raises(InvalidParameter, match="registered twice"):
        reg.add_coverage(cov)
