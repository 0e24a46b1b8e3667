"""Writing spec files: dump -> load round trips re-verify to the same verdict;
certificates of violations re-check to *violated*."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.errors import InvalidParameter, SpecError
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import add_remove, pair
from verifier.spec import (
    SpecClaim,
    certificate,
    counterexample_finding,
    dataset_label,
    document_text,
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
epsilon_tilde = { "(1, 1)" = "2*eps", "(0, 0)" = "2*eps", default = "1/2" }
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
    claim = SpecClaim(id="x", kind="ex_post", mechanism=m, epsilon_tilde=sp.Abs(expr))
    doc = loads_spec(spec_to_toml(m, claim))
    assert doc.claims[0].epsilon_tilde == sp.Abs(expr)


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


# Every value shape the certificates of the search write: top-level strings and
# integers, a symbol with assumptions (an inline table in [symbols]), definitions as
# sections, distributions as a table of inline rows, quoted keys ("D'", "(≥, 2, 1)"),
# unicode outputs ("⊥"), nested arrays, a derived mechanism with inline params,
# [[claims]] with per-output inline tables, a range (`over`), pairs, long strings and
# integers up to 64 bits next to exact numbers written as strings.
LONG = 'a statement with "quotes", a back\\slash, a tab\t, a new\nline, ε, ⊥, DEL \x7f; ' * 4
EVERY_SHAPE: dict[str, Any] = {
    "version": 1,
    "title": "Counterexample to claim 'x.y' of: every shape",
    "description": LONG,
    "symbols": {"eps": "1/2", "t": {"nonnegative": True}, "n": {"value": 3, "integer": True}},
    "graphs": {"g": {"kind": "pair", "datasets": ["D", "D'"]}},
    "mechanisms": {
        "M": {
            "graph": "g",
            "outputs": ["⊥", [0, 1], ["≥", 2, 1]],
            "distributions": {
                "D": {"⊥": "1/3", "(0, 1)": "1/(3 + 3*t)", "(≥, 2, 1)": "1/3 + t/(3 + 3*t)"},
                "D'": {"⊥": "1/3", "(0, 1)": "2/3", "(≥, 2, 1)": 0},
            },
        },
        "R": {
            "graph": "g",
            "outputs": [-1, 2**63 - 1],
            "distributions": {"D": {"-1": 1}, "D'": {"-1": "1/2", "9223372036854775807": "1/2"}},
        },
        "B": {"algorithm": "best_of", "inputs": ["R", "R"], "params": {"ties": "highest_index"}},
    },
    "claims": [
        {
            "id": "premise-R",
            "mechanism": "R",
            "kind": "pure_dp",
            "epsilon": "log(2)",
            "expected": "holds",
            "statement": LONG,
        },
        {
            "id": "x.y",
            "mechanism": "M",
            "kind": "ex_post",
            "epsilon_tilde": {"⊥": 0, "(0, 1)": "log(3/2)", "(≥, 2, 1)": "n*eps + t"},
            "over": {"symbol": "t", "lo": 0, "hi": "log(2)"},
            "pairs": [["D'", "D"], ["D", "D'"]],
            "max_bits": 4096,
            "expected": "refuted",
            "source": "made up",
        },
    ],
}


def test_document_text_round_trips_every_shape():
    text = document_text(EVERY_SHAPE, comment="line one\n\nline ⊥")
    assert text.startswith("# line one\n#\n# line ⊥\n\nversion = 1\n")
    assert tomllib.loads(text) == EVERY_SHAPE
    assert json.loads(document_text(EVERY_SHAPE, "json", comment="dropped")) == EVERY_SHAPE
    for fmt in ("toml", "json"):  # both texts are spec files
        spec = loads_spec(document_text(EVERY_SHAPE, fmt), fmt)
        assert [c.id for c in spec.claims] == ["premise-R", "x.y"]
    # the layout: sections for tables, definitions and distribution tables, one
    # inline row per dataset, claims in document order with their tables inline
    assert '\n[symbols]\neps = "1/2"\nt = { nonnegative = true }\n' in text
    assert "\n[mechanisms.B]\n" in text and "[mechanisms.M]" in text
    assert '\n[mechanisms.M.distributions]\nD = { "⊥" = "1/3", ' in text
    assert '\n"D\'" = { "⊥" = "1/3", "(0, 1)" = "2/3", "(≥, 2, 1)" = 0 }\n' in text
    assert 'kind = "ex_post"\nepsilon_tilde = { "⊥" = 0, ' in text
    assert "\noutputs = [-1, 9223372036854775807]\n" in text
    assert text.endswith('max_bits = 4096\nexpected = "refuted"\nsource = "made up"\n')


CERTIFICATE_TEXT = """\
# c

version = 1
title = "t"

[graphs.g]
kind = "pair"
datasets = ["D", "D'"]

[mechanisms.M1]
graph = "g"
outputs = [0, 1]

[mechanisms.M1.distributions]
D = { 0 = "1/3", 1 = "2/3" }
"D'" = { 0 = "2/3", 1 = "1/3" }

[mechanisms.A]
algorithm = "best_of"
inputs = ["M1", "M1"]

[[claims]]
id = "c"
mechanism = "A"
kind = "pure_dp"
epsilon = "log(2)"
"""


def test_document_text_matches_the_search_certificates():
    # The text of a search certificate, byte for byte (the layout is deliberate).
    doc = {
        "version": 1,
        "title": "t",
        "graphs": {"g": {"kind": "pair", "datasets": ["D", "D'"]}},
        "mechanisms": {
            "M1": {
                "graph": "g",
                "outputs": [0, 1],
                "distributions": {"D": {"0": "1/3", "1": "2/3"}, "D'": {"0": "2/3", "1": "1/3"}},
            },
            "A": {"algorithm": "best_of", "inputs": ["M1", "M1"]},
        },
        "claims": [{"id": "c", "mechanism": "A", "kind": "pure_dp", "epsilon": "log(2)"}],
    }
    assert document_text(doc, comment="c") == CERTIFICATE_TEXT
    empty = {"version": 1, "graphs": {}, "mechanisms": {}, "claims": []}
    assert document_text(empty) == "version = 1\ngraphs = {}\nmechanisms = {}\nclaims = []\n"


@pytest.mark.parametrize(
    ("doc", "fmt", "message"),
    [
        ({"version": 1.0}, "toml", r"version: cannot write float 1\.0"),
        ({"version": 1.0}, "json", r"version: cannot write float 1\.0"),
        ({"claims": [{"epsilon": None}]}, "json", r"claims\[0\]\.epsilon: cannot write NoneType"),
        ({"mechanisms": {3: {}}}, "toml", "mechanisms: the key 3 is not a string"),
        ({"claims": [{"max_bits": 2**63}]}, "toml", r"claims\[0\]\.max_bits: .* 64 bits"),
    ],
)
def test_document_text_refuses_what_a_spec_cannot_hold(doc, fmt, message):
    with pytest.raises(InvalidParameter, match=message):
        document_text(doc, fmt)


def test_document_text_formats():
    assert json.loads(document_text({"claims": [{"max_bits": 2**63}]}, "json"))
    with pytest.raises(SpecError, match="unknown spec format 'yaml'"):
        document_text({}, "yaml")
    with pytest.raises(InvalidParameter, match=r"control characters TOML forbids: \['\\x00'\]"):
        document_text({}, comment="a\x00b\nc")
    assert document_text({}, comment="a\tb\r\nc") == "# a\tb\n# c\n"
    with pytest.raises(InvalidParameter, match="a spec document is a dict, not list"):
        document_text([], "toml")  # type: ignore[arg-type]


def test_counterexample_finding_is_the_certificates_pair():
    spec = load_spec(EXAMPLES / "best_of_k.toml")
    claim = spec.claim("best-of-3-is-not-2eps-dp")
    result = claim.run()
    worst = counterexample_finding(result)
    assert worst is not None and worst.output == 0 and worst.pair == ("D'", "D")
    cert = certificate(claim, result)
    assert cert is not None and cert.pairs == [worst.pair]
    assert counterexample_finding(spec.claims[0].run()) is None  # holds
