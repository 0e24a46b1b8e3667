"""Claim kinds: every kind decides as derived by hand; the table is the only place
that knows a kind; the ``inequality`` kind."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy as sp

from verifier import cli
from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import check_ex_post_approx
from verifier.errors import InvalidParameter, SpecError, UnboundSymbol
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.spec import (
    CLAIM_KINDS,
    RANGE_KINDS,
    SpecClaim,
    certificate,
    dump_spec,
    load_spec,
    loads_spec,
    spec_to_toml,
)
from verifier.spec.kinds import DELTA, EPS_TILDE, LHS, PARAMETER_NAMES, ClaimKind

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
epsilon_tilde = {{ "1" = "eps/2", default = "eps" }}
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
epsilon_tilde = "eps"
alpha = 2
[[claims]]
id = "ex-post-rdp-fails"
mechanism = "rr"
kind = "ex_post_rdp"
epsilon_tilde = 0
alpha = 2
[[claims]]
id = "ex-post-table"
mechanism = "rr"
kind = "ex_post"
epsilon_tilde = {{ "0" = "eps", "1" = "eps" }}
[[claims]]
id = "ex-post-table-fails"
mechanism = "rr"
kind = "ex_post"
epsilon_tilde = {{ "0" = "eps", "1" = "1/3" }}
[[claims]]
id = "lemma7"
mechanism = "rr"
kind = "lemma7"
epsilon_tilde = "eps"
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
    assert RANGE_KINDS == {"pure_dp", "ex_post", "approx_dp", "f_dp"}
    assert PARAMETER_NAMES == (
        "epsilon",
        "epsilon_tilde",
        "delta",
        "alpha",
        "rho",
        "mu",
        "tradeoff",
        "lhs",
        "rhs",
    )
    # Documents list single values first, then bounds per output (as before the table).
    assert [p.name for p in CLAIM_KINDS["lemma7"].document_order] == [
        "delta",
        "alpha",
        "epsilon_tilde",
    ]
    assert [p.name for p in CLAIM_KINDS["rdp"].document_order] == ["epsilon", "alpha"]
    with pytest.raises(ValueError, match="no mechanism"):
        ClaimKind("bad", (EPS_TILDE,), str, lambda c, p: c.run(), mechanism=False)
    with pytest.raises(ValueError, match="twice"):
        ClaimKind("bad", (LHS, LHS), str, lambda c, p: c.run(), mechanism=False)


def test_a_new_kind_is_one_table_entry(monkeypatch, tmp_path):
    # A kind added to the table alone is read, checked, described, decided and written:
    # "total_variation", the hockey-stick divergence at eps = 0 bounded by delta.
    kind = ClaimKind(
        "total_variation",
        (DELTA,),
        lambda c: f"{c.mechanism_name} has total variation <= {c.delta}",
        lambda c, precision: check_ex_post_approx(
            c.mechanism,
            epsilon_tilde=0,
            delta=c.delta,
            pairs=c.pair_list(),
            precision=precision,
            title=c.id,
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


# ---------------------------------------------------------------------------
# inequality: an exact comparison of two closed-form numbers, about no mechanism
# ---------------------------------------------------------------------------

# e = 2.718281828459045...: e <= 2.718281829 holds and e <= 2.718281828 fails (by
# ~4.6e-10, beyond double-precision round-off of the difference, but exact here).
STEPS = """
[symbols]
n = 9
[[claims]]
id = "e-below"
kind = "inequality"
lhs = "exp(1)"
rhs = "2718281828/10^n + 1/10^n"
expected = "holds"
[[claims]]
id = "e-above"
kind = "inequality"
lhs = "exp(1)"
rhs = "2718281828/10^9"
expected = "refuted"
statement = "a rounded-down bound on e"
[[claims]]
id = "log8"
kind = "inequality"
lhs = "log(8)"
rhs = "3*log(2)"
"""


def test_inequality_is_decided_exactly():
    spec = loads_spec(STEPS)
    below, above, log8 = spec.claims
    assert below.mechanism is None and below.mechanism_name == ""
    assert below.rhs == R(2718281829, 10**9)  # symbol values are substituted
    assert below.describe() == "e <= 2718281829/1000000000"
    res = {c.id: r for c, r in spec.run()}
    assert res["e-below"].verdict is Verdict.HOLDS and not res["e-below"].tight
    assert res["e-above"].verdict is Verdict.VIOLATED
    assert res["log8"].verdict is Verdict.HOLDS and res["log8"].tight  # log 8 = 3 log 2
    (f,) = res["e-above"].findings
    assert (f.realized, f.claimed, f.output, f.pair) == (sp.E, R(2718281828, 10**9), None, None)
    assert f.slack == R(2718281828, 10**9) - sp.E
    assert res["e-above"].title == "e-above: e <= 679570457/250000000"
    assert certificate(above, res["e-above"]) is None  # the claim is its own certificate


def test_inequality_write_read_decide_round_trip(tmp_path):
    made = [
        SpecClaim(
            id="holds",
            kind="inequality",
            lhs=sp.exp(1),
            rhs=R(2718281828, 10**9) + R(1, 10**9),
            expected="holds",
            source="a refuted proof step",
        ),
        SpecClaim(id="violated", kind="inequality", lhs=sp.E, rhs=R(2718281828, 10**9)),
    ]
    text = spec_to_toml({}, made)
    assert '[[claims]]\nid = "holds"\nkind = "inequality"\nlhs = "e"\n' in text
    assert "mechanism" not in text.split("[[claims]]", 1)[1]
    for path in (
        dump_spec(tmp_path / "steps.toml", {}, made),
        dump_spec(tmp_path / "s.json", {}, made),
    ):
        back = load_spec(path)
        assert [(c.lhs, c.rhs) for c in back.claims] == [(c.lhs, c.rhs) for c in made]
        assert [r.verdict for _, r in back.run()] == [Verdict.HOLDS, Verdict.VIOLATED]


def test_verifier_check_decides_inequalities(tmp_path, capsys):
    path = tmp_path / "steps.toml"
    path.write_text(STEPS)
    assert cli.main(["check", str(path), "--expected"]) == 0
    assert cli.main(["check", str(path)]) == 1  # e-above is violated
    out = capsys.readouterr().out
    assert "claim e-above (inequality" in out and "VIOLATED" in out
    assert "counterexample: (aggregate)" in out
    assert cli.main(["check", str(path), "--json", "--certificates", str(tmp_path / "c")]) == 1
    doc = json.loads(capsys.readouterr().out)
    rec = {r["id"]: r for r in doc["claims"]}
    assert rec["e-above"]["verdict"] == "violated" and rec["e-above"]["certificate"] is None
    assert (
        rec["e-above"]["counterexample"]["numbers"]["must be <="]["exact"] == "679570457/250000000"
    )
    assert rec["log8"]["result"]["tight"] is True


@pytest.mark.parametrize(
    ("claim", "cls", "message"),
    [
        (
            'lhs = 2.718\nrhs = "3"',
            SpecError,
            "claims[0].lhs: expected a number written as a string",
        ),
        ('lhs = "1"', SpecError, "claims[0]: missing required key 'rhs'"),
        ('lhs = "1"\nrhs = "x"', SpecError, "claims[0].rhs: unknown name 'x'"),
        (
            'lhs = "1"\nrhs = "2"\nmechanism = "m"',
            SpecError,
            "claims[0].mechanism: unknown key in a inequality claim",
        ),
        ('lhs = "1"\nrhs = "2"\npairs = []', SpecError, "claims[0].pairs: unknown key"),
        ('lhs = "1"\nrhs = "2"\nepsilon = "1"', SpecError, "claims[0].epsilon: unknown key"),
    ],
)
def test_inequality_documents_are_checked(claim, cls, message):
    with pytest.raises(cls) as info:
        loads_spec(f'[[claims]]\nid = "c"\nkind = "inequality"\n{claim}\n')
    assert str(info.value).startswith(message), str(info.value)


def test_inequality_claims_built_in_python_are_checked():
    m = FiniteMechanism(pair(), {"D": {0: 1}, "D'": {0: 1}}, name="m")
    with pytest.raises(InvalidParameter, match="float"):
        SpecClaim(id="c", kind="inequality", lhs=2.718, rhs=3)
    with pytest.raises(SpecError, match="a inequality claim is about no mechanism"):
        SpecClaim(id="c", kind="inequality", mechanism=m, lhs=1, rhs=2)
    with pytest.raises(SpecError, match="a inequality claim takes no 'pairs'"):
        SpecClaim(id="c", kind="inequality", lhs=1, rhs=2, pairs=[("D", "D'")])
    with pytest.raises(SpecError, match="a inequality claim needs 'rhs'"):
        SpecClaim(id="c", kind="inequality", lhs=1)
    with pytest.raises(SpecError, match=r"'over' .* not inequality"):
        SpecClaim(id="c", kind="inequality", lhs=1, rhs=2, over=(sp.Symbol("t"), 0, 1))
    with pytest.raises(UnboundSymbol, match=r"symbol\(s\) t have no value; give them values"):
        SpecClaim(id="c", kind="inequality", lhs=sp.Symbol("t"), rhs=2)
    with pytest.raises(SpecError, match="a pure_dp claim needs a mechanism"):
        SpecClaim(id="c", kind="pure_dp", epsilon=1)


def test_former_key_eps_tilde_is_read_with_a_warning():
    # The spec format shares the Python API's vocabulary: `epsilon_tilde`; the former
    # key is read for one release, with a FutureWarning naming the new key.
    text = rr_with(
        """
[[claims]]
id = "old"
mechanism = "rr"
kind = "ex_post"
eps_tilde = "log(3)"
"""
    )
    with pytest.warns(FutureWarning, match=r"claims\[0\]\.eps_tilde: the key 'eps_tilde' is now"):
        spec = loads_spec(text, "toml")
    assert spec.claims[0].epsilon_tilde == sp.log(3)
    assert spec.claims[0].run().holds
    both = text + 'epsilon_tilde = "log(3)"\n'
    with pytest.raises(SpecError, match="either 'epsilon_tilde' or its former name"):
        loads_spec(both, "toml")
