"""Claim kinds: every kind decides as derived by hand; the table is the only place
that knows a kind."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from verifier.arithmetic import Verdict
from verifier.errors import SpecError
from verifier.privacy import check_ex_post_approx
from verifier.spec import (
    CLAIM_KINDS,
    RANGE_KINDS,
    SpecClaim,
    dump_spec,
    load_spec,
    loads_spec,
)
from verifier.spec.kinds import DELTA, PARAMETER_NAMES, ClaimKind

from .documents import rr_with, verdicts

R = sp.Rational


def test_every_claim_kind_with_hand_derived_verdicts():
    # With eps = 1/2, p = e^{1/2}/(1+e^{1/2}):
    # * approx_dp at eps/2: delta = (e^eps - e^{eps/2})/(1+e^eps) on D -> D' (output 1; the
    #   other terms are negative) = exp(1/4)(exp(1/4)-1)/(1+exp(1/2)) ~ 0.13769: tight; 1/10 fails.
    # * ex_post_approx with eps~(1) = eps/2 and eps~(0) = eps: the same delta (output 0 adds
    #   max(0, p - e^eps (1-p)) = 0).
    # * rdp, alpha = 2: D_2 = log(p e^eps + (1-p) e^-eps) = log((e + e^{-1/2})/(1 + e^{1/2}))
    #   ~ 0.22734 <= 1/4 (holds), > 1/5 (violated).
    # * ex_post_rdp, alpha = 2: sum_o P^2 / (e^{eps~} Q) = e^{-eps~} (e + e^{-1/2})/(1 + e^{1/2});
    #   eps~ = eps: ~0.7614 <= 1 holds; eps~ = 0: ~1.2553 > 1 violated.
    # * lemma7: RR is ex-post eps-DP, so both implications hold.
    delta = "exp(1/4)*(exp(1/4) - 1)/(1 + exp(1/2))"
    text = rr_with(f"""
[[claims]]
id = "approx-tight"
mechanism = "rr"
kind = "approx_dp"
epsilon = "eps/2"
delta = "{delta}"
[[claims]]
id = "approx-too-small"
mechanism = "rr"
kind = "approx_dp"
epsilon = "eps/2"
delta = "1/10"
[[claims]]
id = "ex-post-approx"
mechanism = "rr"
kind = "ex_post_approx"
eps_tilde = {{ "1" = "eps/2", default = "eps" }}
delta = "{delta}"
[[claims]]
id = "rdp-holds"
mechanism = "rr"
kind = "rdp"
alpha = 2
epsilon = "1/4"
[[claims]]
id = "rdp-fails"
mechanism = "rr"
kind = "rdp"
alpha = "2"
epsilon = "1/5"
[[claims]]
id = "ex-post-rdp-holds"
mechanism = "rr"
kind = "ex_post_rdp"
eps_tilde = "eps"
alpha = 2
[[claims]]
id = "ex-post-rdp-fails"
mechanism = "rr"
kind = "ex_post_rdp"
eps_tilde = 0
alpha = 2
[[claims]]
id = "ex-post-table"
mechanism = "rr"
kind = "ex_post"
eps_tilde = {{ "0" = "eps", "1" = "eps" }}
[[claims]]
id = "ex-post-table-fails"
mechanism = "rr"
kind = "ex_post"
eps_tilde = {{ "0" = "eps", "1" = "1/3" }}
[[claims]]
id = "lemma7"
mechanism = "rr"
kind = "lemma7"
eps_tilde = "eps"
alpha = 3
delta = "1/100"
""")
    v = verdicts(text)
    assert v["approx-tight"] == (Verdict.HOLDS, True)
    assert v["approx-too-small"][0] is Verdict.VIOLATED
    assert v["ex-post-approx"] == (Verdict.HOLDS, True)
    assert v["rdp-holds"][0] is Verdict.HOLDS and v["rdp-fails"][0] is Verdict.VIOLATED
    assert v["ex-post-rdp-holds"][0] is Verdict.HOLDS
    assert v["ex-post-rdp-fails"][0] is Verdict.VIOLATED
    assert v["ex-post-table"] == (Verdict.HOLDS, True)
    assert v["ex-post-table-fails"][0] is Verdict.VIOLATED  # output 1 has loss 1/2 > 1/3
    assert v["lemma7"][0] is Verdict.HOLDS


# ---------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------


def test_the_table_is_consistent():
    fields = {f.name for f in dataclasses.fields(SpecClaim)}
    for name, kind in CLAIM_KINDS.items():
        assert kind.name == name
        assert set(kind.parameter_names) <= fields  # every parameter has its field
        assert sorted(kind.document_order, key=id) == sorted(kind.parameters, key=id)
    assert RANGE_KINDS == {"pure_dp", "ex_post"}
    assert PARAMETER_NAMES == ("epsilon", "eps_tilde", "delta", "alpha")
    # Documents list single values first, then bounds per output (as before the table).
    assert [p.name for p in CLAIM_KINDS["lemma7"].document_order] == [
        "delta",
        "alpha",
        "eps_tilde",
    ]
    assert [p.name for p in CLAIM_KINDS["rdp"].document_order] == ["epsilon", "alpha"]
    with pytest.raises(ValueError, match="twice"):
        ClaimKind("bad", (DELTA, DELTA), str, lambda c, p: c.run())


def test_a_new_kind_is_one_table_entry(monkeypatch, tmp_path):
    # A kind added to the table alone is read, checked, described, decided and written:
    # "total_variation", the hockey-stick divergence at eps = 0 bounded by delta.
    kind = ClaimKind(
        "total_variation",
        (DELTA,),
        lambda c: f"{c.mechanism_name} has total variation <= {c.delta}",
        lambda c, precision: check_ex_post_approx(
            c.mechanism, 0, c.delta, pairs=c.pair_list(), precision=precision, title=c.id
        ),
    )
    monkeypatch.setitem(CLAIM_KINDS, "total_variation", kind)
    # RR with eps = 1/2, p = e^{1/2}/(1+e^{1/2}): the total variation is 2p - 1 =
    # tanh(1/4) ~ 0.2449, so delta = 1/4 holds and delta = 1/5 fails.
    text = rr_with(
        '[[claims]]\nid = "a"\nmechanism = "rr"\nkind = "total_variation"\ndelta = "1/4"\n'
        '[[claims]]\nid = "b"\nmechanism = "rr"\nkind = "total_variation"\ndelta = "1/5"\n'
    )
    spec = loads_spec(text)
    assert spec.claims[0].describe() == "rr has total variation <= 1/4"
    assert [r.verdict for _, r in spec.run()] == [Verdict.HOLDS, Verdict.VIOLATED]
    back = load_spec(dump_spec(tmp_path / "new.toml", spec))
    assert [r.verdict for _, r in back.run()] == [Verdict.HOLDS, Verdict.VIOLATED]
    with pytest.raises(SpecError, match=r"claims\[0\]\.epsilon: unknown key in a total_variation"):
        loads_spec(text.replace('delta = "1/4"', 'delta = "1/4"\nepsilon = 1'))
    with pytest.raises(SpecError, match="a total_variation claim takes no 'epsilon'"):
        SpecClaim(
            id="x", kind="total_variation", mechanism=spec.mechanisms["rr"], delta=0, epsilon=1
        )
