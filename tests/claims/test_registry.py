"""The claim registry (:mod:`verifier.claims.registry`): one namespace of ids, kinds
and aliases over every case study, the deciders under one id, duplicates and alias
clashes, and selection by decider."""

from __future__ import annotations

import warnings

import pytest

from verifier.claims import KINDS, Claim, Registry, SearchSpec, check_claim_id, load_casestudies
from verifier.errors import InvalidParameter, UnknownClaim
from verifier.search import get_searchable, searchable_claims

from .helpers import check_result

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


def test_registry_rejects_duplicates_and_alias_clashes():
    reg = Registry()
    reg.add(Claim("demo.a", "s", "t", "holds", check=check_result))
    with pytest.raises(InvalidParameter, match="registered twice"):
        reg.add(Claim("demo.a", "s", "t", "holds", check=check_result))
    with pytest.raises(InvalidParameter, match="clashes"):
        reg.alias("demo.a", "demo.b")


def test_select_by_decider_and_unknown_names():
    reg = Registry()
    reg.add(Claim("demo.a", "s", "t", "holds", check=check_result))
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


def test_exact_ids_select_the_claim_alone():
    reg = Registry()
    for cid in ("demo.a", "demo.a.box", "demo.a.step.one", "demo.ab"):
        reg.add(Claim(cid, "s", "t", "holds", check=check_result))
    reg.alias("old.a", "demo.a")
    # a claim id selects the claims registered under it too, unless exact
    assert [c.id for c in reg.select(["demo.a"])] == ["demo.a", "demo.a.box", "demo.a.step.one"]
    assert [c.id for c in reg.select(["demo.a"], exact=True)] == ["demo.a"]
    assert [c.id for c in reg.select(["demo.a.box", "demo.a"], exact=True)] == [
        "demo.a.box",
        "demo.a",
    ]
    with pytest.warns(FutureWarning, match="deprecated"):
        assert [c.id for c in reg.select(["old.a"], exact=True)] == ["demo.a"]
    # a case study, a prefix or an unknown name is not a claim id: each says which
    for name, why in (
        ("demo", "case study or paper"),
        ("demo.a.step", "prefix of claim ids"),
        ("demo.zz", "no registered claim id"),
    ):
        with pytest.raises(UnknownClaim, match=why):
            reg.select([name], exact=True)
    # a registered claim that the decider asked for cannot decide
    reg.add(
        Claim(
            "demo.s",
            "s",
            "t",
            "holds",
            search=SearchSpec(space=None, screen=float, document=dict),
        )
    )
    with pytest.raises(UnknownClaim, match="'demo.s' cannot be decided by instances .*search"):
        reg.select(["demo.s"], decider="instances", exact=True)


def test_no_warning_for_canonical_ids():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for cid in RENAMED.values():
            REGISTRY.get(cid)
