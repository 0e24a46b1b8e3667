"""Certificates (:mod:`verifier.search.certificates`): written by the spec writer."""

from __future__ import annotations

from verifier.search.certificates import to_toml
from verifier.spec import document_text


def test_toml_writer_round_trip():
    doc = {
        "version": 1,
        "graphs": {"g": {"kind": "pair", "datasets": ["D", "D'"]}},
        "mechanisms": {
            "M": {
                "graph": "g",
                "outputs": [0, [1, "a"]],
                "distributions": {"D": {"0": "1/2", "(1, a)": "1/2"}, "D'": {"0": 1}},
            }
        },
        "claims": [{"id": "c", "mechanism": "M", "kind": "pure_dp", "epsilon": "log(2)"}],
    }
    text = to_toml(doc, "a\ncomment")
    assert "[mechanisms.M.distributions]" in text
    assert text == document_text(doc, comment="a\ncomment")
