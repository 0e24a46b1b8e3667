"""The claim model: construction checks, statements, claims over a parameter range."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.errors import InvalidParameter, SpecError, UnboundSymbol
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair, path
from verifier.spec import Spec, SpecClaim, loads_spec, precision_for

R = sp.Rational
# On the path 0 - 1 - 2, P_i(o) proportional to 2^{-|i-o|} (see test_read): eps = log(16/7).
GEO = FiniteMechanism(
    path(2),
    {
        0: {0: R(4, 7), 1: R(2, 7), 2: R(1, 7)},
        1: {0: R(1, 4), 1: R(1, 2), 2: R(1, 4)},
        2: {0: R(1, 7), 1: R(2, 7), 2: R(4, 7)},
    },
    name="geo",
)


def test_claim_over_a_parameter_range():
    # RR with a free parameter t is t-DP for every t (an identity), and not (t/2)-DP for
    # any t > 0: the range claim fails on (0, log 2].
    text = """
[symbols]
t = { nonnegative = true }
[mechanisms.rr]
graph = { kind = "pair" }
outputs = [0, 1]
distributions.D = { "1" = "exp(t)/(1 + exp(t))", "0" = "1/(1 + exp(t))" }
distributions."D'" = { "1" = "1/(1 + exp(t))", "0" = "exp(t)/(1 + exp(t))" }
[[claims]]
id = "all-t"
mechanism = "rr"
kind = "pure_dp"
epsilon = "t"
over = { symbol = "t", lo = "0", hi = "log(2)" }
[[claims]]
id = "half-t"
mechanism = "rr"
kind = "ex_post"
epsilon_tilde = "t/2"
over = { symbol = "t", lo = "0", hi = "log(2)" }
"""
    spec = loads_spec(text)
    assert spec.mechanisms["rr"].free_symbols == {spec.symbols["t"]}
    res = dict((c.id, r) for c, r in spec.run())
    assert res["all-t"].verdict is Verdict.HOLDS
    assert res["half-t"].verdict is Verdict.VIOLATED
    assert any(f.failing for f in res["half-t"].violations())


@pytest.mark.parametrize(
    ("kind", "params", "statement"),
    [
        ("pure_dp", {"epsilon": sp.log(3)}, "geo is log(3)-DP"),
        ("ex_post", {"epsilon_tilde": 1}, "geo is ex-post eps~-DP"),
        ("approx_dp", {"epsilon": 1, "delta": R(1, 10)}, "geo is (1, 1/10)-DP"),
        ("ex_post_approx", {"epsilon_tilde": 1, "delta": 0}, "geo is ex-post (eps~, 0)-DP"),
        ("rdp", {"alpha": 2, "epsilon": 1}, "geo is (2, 1)-RDP"),
        ("ex_post_rdp", {"epsilon_tilde": 1, "alpha": 3}, "geo is ex-post (3, eps~)-RDP"),
        (
            "lemma7",
            {"epsilon_tilde": 1, "alpha": 3, "delta": R(1, 2)},
            "Lemma 7 on geo (alpha = 3, delta = 1/2)",
        ),
    ],
)
def test_every_kind_states_itself_in_one_line(kind, params, statement):
    claim = SpecClaim(id="c", kind=kind, mechanism=GEO, **params)
    assert claim.describe() == statement
    assert claim.run().title == f"c: {statement}"
    grouped = dataclasses.replace(claim, distance=2)
    assert grouped.describe() == statement + " for datasets at distance 2"
    assert len(grouped.pair_list() or []) == 2  # 0 -> 2 and 2 -> 0
    one = dataclasses.replace(claim, pairs=[(0, 1)])
    assert one.describe() == statement + " on 1 given pair(s)"


def test_claims_built_in_python_are_checked():
    t = sp.Symbol("t", positive=True)
    with pytest.raises(SpecError, match=r"unknown claim kind 'dp' \(kinds: pure_dp, ex_post"):
        SpecClaim(id="c", kind="dp", mechanism=GEO, epsilon=1)
    with pytest.raises(SpecError, match="a approx_dp claim needs 'delta'"):
        SpecClaim(id="c", kind="approx_dp", mechanism=GEO, epsilon=1)
    with pytest.raises(
        SpecError, match=r"a rdp claim takes no 'delta' \(it takes alpha, epsilon\)"
    ):
        SpecClaim(id="c", kind="rdp", mechanism=GEO, alpha=2, epsilon=1, delta=0)
    with pytest.raises(InvalidParameter, match="epsilon must be > 0"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=0)
    with pytest.raises(InvalidParameter, match="epsilon must be >= 0"):
        SpecClaim(id="c", kind="rdp", mechanism=GEO, alpha=2, epsilon=-1)
    with pytest.raises(InvalidParameter, match=r"Lemma 7 \(ii\) needs delta > 0"):
        SpecClaim(id="c", kind="lemma7", mechanism=GEO, epsilon_tilde=1, alpha=2, delta=0)
    with pytest.raises(InvalidParameter, match="epsilon_tilde for output 2 must be >= 0"):
        SpecClaim(id="c", kind="ex_post", mechanism=GEO, epsilon_tilde=lambda o: 1 - o)
    with pytest.raises(InvalidParameter, match="epsilon_tilde gives no bound for output"):
        SpecClaim(id="c", kind="ex_post", mechanism=GEO, epsilon_tilde={0: 1})
    with pytest.raises(
        SpecError, match="supported for approx_dp, ex_post, f_dp, pure_dp claims only, not rdp"
    ):
        SpecClaim(id="c", kind="rdp", mechanism=GEO, alpha=2, epsilon=t, over=(t, 0, 1))
    with pytest.raises(UnboundSymbol, match="or decide the claim for every value of one symbol"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=t)
    with pytest.raises(SpecError, match="give either 'pairs' or 'distance'"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=1, pairs=[(0, 1)], distance=1)
    with pytest.raises(InvalidParameter, match="names a dataset the mechanism lacks"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=1, pairs=[(0, 5)])
    with pytest.raises(InvalidParameter, match="distance must be a positive integer"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=1, distance=0)
    with pytest.raises(SpecError, match="expected must be 'holds' or 'refuted'"):
        SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=1, expected="yes")
    with pytest.raises(SpecError, match="a pure_dp claim needs a mechanism, got str"):
        SpecClaim(id="c", kind="pure_dp", mechanism="geo", epsilon=1)


def test_epsilon_tilde_becomes_a_table_over_every_output():
    m = FiniteMechanism(pair(), {"D": {"a": 1}, "D'": {"b": 1}}, ["a", "b"], name="m")
    claim = SpecClaim(id="c", kind="ex_post", mechanism=m, epsilon_tilde=lambda o: R(len(o), 2))
    assert claim.epsilon_tilde == {"a": R(1, 2), "b": R(1, 2)}
    assert claim.mechanism_name == "m"
    assert claim.parameter_values() == [R(1, 2), R(1, 2)]


def test_precision_and_spec_lookup():
    assert precision_for(64).max_bits == 64
    with pytest.raises(InvalidParameter, match="at least 16"):
        precision_for(8)
    spec = Spec(claims=[SpecClaim(id="c", kind="pure_dp", mechanism=GEO, epsilon=1)])
    assert spec.claim("c").epsilon == 1
    with pytest.raises(SpecError, match="<string>: no claim with id 'd'"):
        spec.claim("d")
