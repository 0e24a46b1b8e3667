"""A dataset with no neighbour, or a graph in pieces, is never compared: it must be
declared, or the spec is bad input (a forgotten edge would make claims hold vacuously)."""

from __future__ import annotations

import pytest

from verifier import cli
from verifier.errors import InvalidMechanism
from verifier.spec import loads_spec

HEAD = """
version = 1
[graphs.g]
kind = "edges"
datasets = ["0", "1", "2"]
edges = {edges}
{extra}
[mechanisms.m]
graph = "g"
outputs = ["a", "b"]
distributions."0" = {{ a = "1/2", b = "1/2" }}
distributions."1" = {{ a = "1/2", b = "1/2" }}
distributions."2" = {{ a = "1", b = "0" }}
[[claims]]
id = "c"
mechanism = "m"
kind = "pure_dp"
epsilon = "1"
"""


def spec(edges='[["0", "1"]]', extra=""):
    return HEAD.format(edges=edges, extra=extra)


def test_an_unconnected_dataset_is_bad_input_naming_it_and_the_fix(tmp_path, capsys):
    f = tmp_path / "s.toml"
    f.write_text(spec())
    assert cli.main(["check", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "dataset '2' has no neighbour" in err and 'isolated = ["2"]' in err


def test_a_declared_isolated_dataset_is_accepted_and_checked_nowhere():
    s = loads_spec(spec(extra='isolated = ["2"]'), "toml")
    [(c, r)] = s.run()
    assert r.verdict.value == "holds"
    # "2" is far from every other dataset (P(b) = 0): only its declaration lets it pass
    assert all("2" not in f.pair for f in r.all_findings())


def test_a_declaration_must_be_true():
    with pytest.raises(InvalidMechanism, match="declared isolated but has neighbours"):
        loads_spec(spec(edges='[["0", "1"], ["1", "2"]]', extra='isolated = ["2"]'), "toml")
    with pytest.raises(InvalidMechanism, match="unknown dataset"):
        loads_spec(spec(extra='isolated = ["2", "9"]'), "toml")


def test_pieces_must_be_declared_with_their_number():
    four = (
        spec()
        .replace('["0", "1", "2"]', '["0", "1", "2", "3"]')
        .replace(
            'distributions."2"', 'distributions."3" = { a = "1/2", b = "1/2" }\ndistributions."2"'
        )
    )
    two_pieces = four.replace('edges = [["0", "1"]]', 'edges = [["0", "1"], ["2", "3"]]')
    with pytest.raises(InvalidMechanism, match="falls into 2 pieces"):
        loads_spec(two_pieces, "toml")
    ok = two_pieces.replace('[["0", "1"], ["2", "3"]]', '[["0", "1"], ["2", "3"]]\ncomponents = 2')
    assert loads_spec(ok, "toml").run()[0][1].verdict.value == "violated"
    wrong = ok.replace("components = 2", "components = 3")
    with pytest.raises(InvalidMechanism, match="has 2 connected components"):
        loads_spec(wrong, "toml")


def test_the_writer_declares_what_it_writes():
    import networkx as nx
    import sympy as sp

    from verifier.mechanism.model import FiniteMechanism
    from verifier.spec import SpecClaim, spec_to_toml

    g = nx.Graph()
    g.add_nodes_from(["a", "b", "c", "d", "e"])
    g.add_edges_from([("a", "b"), ("c", "d")])
    half = {0: sp.Rational(1, 2), 1: sp.Rational(1, 2)}
    m = FiniteMechanism(g, {d: half for d in "abcde"}, name="m")
    text = spec_to_toml(m, SpecClaim(id="c", kind="pure_dp", mechanism=m, epsilon=sp.log(2)))
    assert 'isolated = ["e"]' in text and "components = 2" in text
    assert loads_spec(text, "toml").run()[0][1].verdict.value == "holds"
