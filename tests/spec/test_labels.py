"""Labels of outputs and datasets, expression text, TOML keys and locations."""

from __future__ import annotations

import sympy as sp

from verifier.errors import InvalidMechanism
from verifier.spec import dataset_label, expression_text, output_label
from verifier.spec.labels import located, location, toml_key, toml_string


def test_labels():
    assert output_label((1, ("a", 2))) == "(1, (a, 2))"
    assert dataset_label((1, 0, 1)) == "101"
    assert dataset_label(frozenset()) == "{}"


def test_expression_text_uses_the_parser_spelling():
    x = sp.Symbol("x")
    assert expression_text(sp.exp(1) + sp.floor(x) + sp.ceiling(x)) == "e + ceil(x) + floor(x)"
    assert expression_text(sp.Min(x, 2)) == "min(2, x)"


def test_keys_and_locations():
    assert toml_key("rr") == "rr" and toml_key("a b") == '"a b"'
    assert toml_string("\x7f") == '"\\u007f"'  # DEL must be escaped in TOML
    assert location("", "mechanisms") == "mechanisms"
    assert location("mechanisms.rr.distributions", "D'") == 'mechanisms.rr.distributions."D\'"'
    assert location("claims", 3) == "claims[3]"
    err = located(InvalidMechanism("negative"), "mechanisms.m")
    assert isinstance(err, InvalidMechanism) and str(err) == "mechanisms.m: negative"
    plain = InvalidMechanism("x")
    assert located(plain, "") is plain
