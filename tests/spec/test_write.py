"""Writing spec files: dump -> load round trips re-verify to the same verdict;
certificates of violations re-check to *violated*."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy as sp

from verifier.arithmetic import Verdict
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import add_remove, pair
from verifier.spec import (
    SpecClaim,
    certificate,
    dataset_label,
    dump_spec,
    load_spec,
    loads_spec,
    spec_to_json,
    spec_to_toml,
)

from .documents import EXAMPLES, rr_with

R = sp.Rational


def _roundtrip(spec_text: str, tmp_path: Path, fmt: str = "toml") -> None:
    spec = loads_spec(spec_text)
    before = {c.id: (r.verdict, r.tight) for c, r in spec.run()}
    path = dump_spec(tmp_path / f"out.{fmt}", spec)
    again = load_spec(path)
    after = {c.id: (r.verdict, r.tight) for c, r in again.run()}
    assert after == before
    for name, m in spec.mechanisms.items():
        m2 = again.mechanisms[name]
        assert m2.outputs == m.outputs
        assert {dataset_label(d) for d in m.datasets} == set(m2.datasets)
        for d in m.datasets:
            for o in m.outputs:
                assert m2.p(dataset_label(d), o) == m.p(d, o)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_roundtrip_randomized_response(tmp_path):
    _roundtrip((EXAMPLES / "randomized_response.toml").read_text(), tmp_path)


def test_roundtrip_best_of_k_json(tmp_path):
    _roundtrip((EXAMPLES / "best_of_k.toml").read_text(), tmp_path, "json")


def test_roundtrip_tuples_sets_and_tables(tmp_path):
    text = rr_with("""
[mechanisms.two]
algorithm = "independent"
inputs = ["rr", "rr"]
[[claims]]
id = "table"
mechanism = "two"
kind = "ex_post"
eps_tilde = { "(1, 1)" = "2*eps", "(0, 0)" = "2*eps", default = "1/2" }
expected = "refuted"
source = "made up; \\"quoted\\" text, unicode ε"
[[claims]]
id = "pairs"
mechanism = "rr"
kind = "approx_dp"
epsilon = "1/4"
delta = "1/2"
pairs = [["D'", "D"]]
max_bits = 128
""")
    _roundtrip(text, tmp_path)


def test_roundtrip_python_built_mechanism(tmp_path):
    # Datasets that are frozensets and outputs that are tuples / sympy symbols values.
    eps = sp.Symbol("epsilon", positive=True)
    g = add_remove("ab")
    dist = {}
    for s in g.nodes:
        q = sp.exp(-eps * len(s))
        dist[s] = {(len(s), "n"): 1 / (1 + q), (0, "z"): q / (1 + q)}
    m = FiniteMechanism(g, dist, [(0, "z"), (0, "n"), (1, "n"), (2, "n")], values={eps: R(1, 3)})
    claim = SpecClaim(id="x", kind="pure_dp", mechanism=m, epsilon=sp.log(3), expected="holds")
    before = claim.run()
    text = spec_to_toml(m, claim)
    again = loads_spec(text)
    after = again.claims[0].run()
    assert (after.verdict, after.tight) == (before.verdict, before.tight)
    assert again.mechanisms["M"].outputs == m.outputs
    assert set(again.mechanisms["M"].datasets) == {"{}", "{a}", "{b}", "{a,b}"}
    assert json.loads(spec_to_json(m, claim))["claims"][0]["epsilon"] == "log(3)"


@pytest.mark.parametrize(
    "expr",
    [
        R(1, 3),
        -R(7, 2),
        sp.exp(R(-1, 2)),
        sp.log(2) / 3,
        sp.sqrt(2) / 2,
        sp.pi * sp.sqrt(163),
        sp.E,
        2 ** R(1, 3),
        sp.exp(1) / (1 + sp.exp(R(1, 2))) ** 3,
        sp.Integer(10) ** 30 + 1,
    ],
)
def test_expression_text_round_trips(expr):
    m = FiniteMechanism(pair(), {"D": {0: 1}, "D'": {0: 1}})
    claim = SpecClaim(id="x", kind="ex_post", mechanism=m, eps_tilde=sp.Abs(expr))
    doc = loads_spec(spec_to_toml(m, claim))
    assert doc.claims[0].eps_tilde == sp.Abs(expr)


def test_certificate_of_a_violation_reverifies(tmp_path):
    spec = load_spec(EXAMPLES / "best_of_k.toml")
    claim = spec.claim("best-of-3-is-not-2eps-dp")
    result = claim.run()
    cert = certificate(claim, result)
    assert cert is not None and cert.pairs == [("D'", "D")]
    assert certificate(spec.claims[0], spec.claims[0].run()) is None
    path = dump_spec(tmp_path / "cert.toml", {cert.mechanism_name: cert.mechanism}, cert)
    back = load_spec(path)
    assert back.claims[0].run().verdict is Verdict.VIOLATED
    assert back.claims[0].expected == "refuted"
    assert set(back.mechanisms["best3"].datasets) == {"D", "D'"}
