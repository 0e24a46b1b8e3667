"""A spec-file search says plainly what it does not vary: with two outputs, random
stopping at 2ε (false: Liu & Talwar 2019's counterexample needs three candidates)
survives the search, and the output says the outputs were not varied."""

from __future__ import annotations

import json

from verifier import cli

SPEC = """
[graphs.g]
kind = "pair"
[mechanisms.rr]
graph = "g"
distribution = "randomized_response"
params = { epsilon = "1", truth = { D = "1", "D'" = "0" } }
[mechanisms.rs]
algorithm = "lt_random_stopping"
inputs = ["rr"]
params = { gamma = "1/10" }
[[claims]]
id = "two-eps"
mechanism = "rs"
kind = "pure_dp"
epsilon = "2"
"""


def test_the_output_names_what_was_not_varied(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "rs.toml"
    spec.write_text(SPEC)
    code = cli.main(["search", str(spec), "--instances", "60", "--seconds", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "searched: varies the distributions of rr" in out
    assert "not varied: the graphs, the outputs [rr: 2 (0, 1)], the parameters of rs" in out
    assert "add them to the file" in out
    assert not list(tmp_path.glob("*.search-checkpoint.json"))  # finished: removed
    assert cli.main(["search", str(spec), "--instances", "60", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "not varied" in doc["space"]
