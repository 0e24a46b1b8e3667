"""The claim model: one namespace of ids, kinds, aliases, and the deciders under one id."""

from __future__ import annotations

import warnings

import pytest
import sympy as sp

from verifier.arithmetic import Verdict, decide_le
from verifier.claims import KINDS, Claim, Registry, SearchSpec, check_claim_id, load_casestudies
from verifier.errors import InvalidParameter, UnknownClaim
from verifier.results import CheckResult
from verifier.search import get_searchable, searchable_claims

REGISTRY = load_casestudies()

#: Old ids (before one namespace) and the ids that replaced them.
RENAMED = {
    "ghazi2025.thm8.random": "ghazi2025.thm8",
    "ghazi2025.thm9.monotone": "ghazi2025.thm9",
    "ghazi2025.thm11.without_factor2": "ghazi2025.thm11.no_factor2",
    "liu_talwar2019.thm32.three_eps": "liu_talwar2019.thm32",
    "liu_talwar2019.thm32.3eps": "liu_talwar2019.thm32",
    "liu_talwar2019.thm32.2eps": "liu_talwar2019.thm32.two_eps",
    "liu_talwar2019.best_of_k.Keps": "liu_talwar2019.B1.best_of_k_Keps",
    "liu_talwar2019.best_of_k.eps": "liu_talwar2019.B1.best_of_k_eps",
    "noise_programs.lyu_alg1.all_differ": "lyu2017.alg1",
    "noise_programs.lyu_alg5.no_query_noise": "lyu2017.alg5",
    "noise_programs.lyu_alg6.no_cutoff": "lyu2017.alg6",
    "noise_programs.gap_svt.flawed": "ding2019.gap_svt.monotone_scale_general",
    "noise_programs.noisy_max.value": "ding2018.noisy_max_value",
}


def _check(ok: bool = True) -> CheckResult:
    return CheckResult("t", Verdict.HOLDS if ok else Verdict.VIOLATED)


def test_every_searchable_claim_is_a_registered_claim_with_one_statement():
    searchable = searchable_claims()
    assert len(searchable) >= 16
    for c in searchable:
        assert REGISTRY.get(c.id) is c
        assert c.search is not None


def test_theorems_registered_for_both_deciders_are_one_claim():
    for cid in (
        "ghazi2025.thm8",
        "ghazi2025.thm9",
        "ghazi2025.thm9.non_monotone",
        "ghazi2025.thm10",
        "ghazi2025.thm11",
        "ghazi2025.thm11.no_factor2",
        "ghazi2025.thm13",
        "ghazi2025.thm16",
        "ghazi2025.thm16.no_filter",
        "liu_talwar2019.thm32",
        "liu_talwar2019.thm32.two_eps",
        "liu_talwar2019.B1.best_of_k_Keps",
        "liu_talwar2019.B1.best_of_k_eps",
        "lyu2017.alg1",
        "lyu2017.alg5",
        "lyu2017.alg6",
    ):
        c = REGISTRY.get(cid)
        assert c.deciders == ("instances", "search"), cid
        assert get_searchable(cid) is c


@pytest.mark.parametrize("old,new", sorted(RENAMED.items()))
def test_renamed_ids_resolve_with_a_deprecation_warning(old, new):
    with pytest.warns(FutureWarning, match=f"claim id '{old}' is deprecated; use '{new}'"):
        assert REGISTRY.get(old).id == new
    assert old not in REGISTRY.claims


def test_search_by_old_id_resolves_to_the_same_claim():
    with pytest.warns(FutureWarning):
        assert get_searchable("liu_talwar2019.thm32.2eps").id == "liu_talwar2019.thm32.two_eps"


def test_ids_kinds_and_expectations_are_consistent():
    for c in REGISTRY.claims.values():
        assert check_claim_id(c.id) == c.id
        assert c.kind in KINDS
        if c.expected == "refuted":
            assert c.kind in ("finding", "negative-control"), c.id
        if c.kind == "negative-control":
            assert c.expected == "refuted"
    kinds = {c.kind for c in REGISTRY.claims.values()}
    assert kinds == set(KINDS)


def test_ids_of_a_paper_share_their_first_component():
    for c in REGISTRY.claims.values():
        assert c.id.split(".")[0] == c.paper
    assert REGISTRY.get("lyu2017.alg1").casestudy == "noise_programs"
    assert {c.id for c in REGISTRY.select(["lyu2017"])} <= {
        c.id for c in REGISTRY.select(["noise_programs"])
    }


def test_claim_validation_names_the_problem():
    with pytest.raises(InvalidParameter, match="negative control is expected refuted"):
        Claim("demo.x", "s", "t", "holds", check=_check, kind="negative-control")
    with pytest.raises(InvalidParameter, match="kind must be one of"):
        Claim("demo.x", "s", "t", "holds", check=_check, kind="lemma")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="no way to be decided"):
        Claim("demo.x", "s", "t", "holds")
    with pytest.raises(InvalidParameter, match="expected must be"):
        Claim("demo.x", "s", "t", "maybe", check=_check)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="default_instances"):
        SearchSpec(space=None, screen=float, document=dict, default_instances=0)
    reg = Registry()
    with pytest.raises(InvalidParameter, match="paper.label"):
        reg.add(Claim("Theorem 11", "s", "t", "holds", check=_check))


def test_registry_rejects_duplicates_and_alias_clashes():
    reg = Registry()
    reg.add(Claim("demo.a", "s", "t", "holds", check=_check))
    with pytest.raises(InvalidParameter, match="registered twice"):
        reg.add(Claim("demo.a", "s", "t", "holds", check=_check))
    with pytest.raises(InvalidParameter, match="clashes"):
        reg.alias("demo.a", "demo.b")


def test_select_by_decider_and_unknown_names():
    reg = Registry()
    reg.add(Claim("demo.a", "s", "t", "holds", check=_check))
    reg.add(
        Claim(
            "demo.b",
            "s",
            "t",
            "holds",
            search=SearchSpec(space=None, screen=float, document=dict),
        )
    )
    assert [c.id for c in reg.select(["demo"], decider="instances")] == ["demo.a"]
    assert [c.id for c in reg.select(None, decider="search")] == ["demo.b"]
    with pytest.raises(UnknownClaim, match="can be decided by instances"):
        reg.select(["demo.b"], decider="instances")
    with pytest.raises(InvalidParameter, match="verifier search demo.b"):
        reg.get("demo.b").run()


def test_a_crashing_check_is_reported_not_raised():
    def boom() -> CheckResult:
        raise RuntimeError("bug in a claim")

    out = Claim("demo.crash", "s", "t", "holds", check=boom).run()
    assert not out.matches and out.error is not None and "bug in a claim" in out.error


def test_outcome_matches_expected_refuted_and_slack_text():
    c = Claim(
        "demo.le",
        "s",
        "1/2 <= 1/3",
        "refuted",
        kind="negative-control",
        check=lambda: CheckResult(
            "1/2 <= 1/3", decide_le(sp.Rational(1, 2), sp.Rational(1, 3)).verdict
        ),
    )
    out = c.run()
    assert out.matches and out.verdict is Verdict.VIOLATED
    d = out.to_dict()
    assert d["kind"] == "negative-control" and d["verdict"] == "violated"


def test_no_warning_for_canonical_ids():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for cid in RENAMED.values():
            REGISTRY.get(cid)
