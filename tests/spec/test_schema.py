"""``verifier schema``: a JSON Schema built from the reader's tables, valid, matching
every example and every certificate, and refusing what the reader refuses by shape."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from verifier import cli
from verifier.algorithms import TRANSFORMERS
from verifier.spec import read
from verifier.spec.kinds import CLAIM_KINDS
from verifier.spec.schema import spec_schema

from ..schema_check import check_written_specs, validator
from .documents import EXAMPLES

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a dev dependency")

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILES = (
    sorted(EXAMPLES.glob("*.toml"))
    + sorted(EXAMPLES.glob("programs/*.toml"))
    + sorted((ROOT / "tests" / "plugin" / "repo" / "claims").glob("*.toml"))
)


def _doc(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(spec_schema())


def test_the_schema_follows_the_readers_tables():
    s = spec_schema()
    assert set(s["properties"]) == set(read._TOP_KEYS)
    base, derived, builtin = s["$defs"]["mechanism"]["oneOf"]
    assert set(base["properties"]) == set(read._BASE_MECH_KEYS)
    assert set(derived["properties"]) == set(read._DERIVED_MECH_KEYS)
    assert set(builtin["properties"]) == set(read._BUILTIN_MECH_KEYS)
    assert derived["properties"]["algorithm"]["enum"] == sorted(TRANSFORMERS)
    claim = s["$defs"]["claim"]
    assert claim["properties"]["kind"]["enum"] == list(CLAIM_KINDS)
    assert set(read._CLAIM_COMMON) <= set(claim["properties"])
    kinds = [v["properties"]["kind"]["const"] for v in s["$defs"]["graph"]["oneOf"]]
    assert kinds == list(read.GRAPH_KINDS)


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_every_example_validates(path):
    assert not list(validator().iter_errors(_doc(path)))


@pytest.mark.parametrize(
    ("patch", "where"),
    [
        ({"version": 2}, "version"),
        ({"extra": 1}, ""),
        ({"claims": [{"id": "c", "kind": "pure_dp", "mechanism": "rr"}]}, "claims.0"),
        (
            {"claims": [{"id": "c", "kind": "pure_dp", "mechanism": "rr", "epsilon": 0.5}]},
            "claims.0.epsilon",
        ),
        (
            {"claims": [{"id": "c", "kind": "inequality", "lhs": 1, "rhs": 2, "mechanism": "rr"}]},
            "claims.0",
        ),
        (
            {"mechanisms": {"b": {"algorithm": "best_of", "inputs": ["rr"], "params": {"kk": 2}}}},
            "mechanisms.b",
        ),
        ({"mechanisms": {"b": {"algorithm": "bset_of", "inputs": ["rr"]}}}, "mechanisms.b"),
        ({"graphs": {"g": {"kind": "path"}}}, "graphs.g"),
    ],
)
def test_shapes_the_reader_refuses_are_refused(patch, where):
    doc = _doc(EXAMPLES / "randomized_response.toml")
    doc.update(patch)
    errors = list(validator().iter_errors(doc))
    assert errors
    assert any(".".join(str(x) for x in e.absolute_path).startswith(where) for e in errors)


def test_certificates_validate(tmp_path):
    """Certificates of `check --certificates`, of a registered claim and of a search."""
    assert (
        cli.main(
            ["check", str(EXAMPLES / "best_of_k.toml"), "--certificates", str(tmp_path / "check")]
        )
        == 1
    )
    assert cli.main(
        ["casestudies", "liu_talwar2019.B1.best_of_k_eps", "--certificates", str(tmp_path / "cs")]
    ) in (0, 1)
    (tmp_path / "search").mkdir()  # search checks its --out directory before it starts
    assert (
        cli.main(
            [
                "search",
                "liu_talwar2019.thm32.two_eps",
                "--instances",
                "200",
                "--seconds",
                "0",
                "--out",
                str(tmp_path / "search" / "cert.toml"),
                "--no-checkpoint",
            ]
        )
        == 1
    )
    checked = check_written_specs(tmp_path)
    assert {p.parent.name for p in checked} == {"check", "cs", "search"}


def test_cli_prints_the_schema_and_validates_files(tmp_path, capsys):
    assert cli.main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(spec_schema()))
    assert cli.main(["schema", "--validate", *map(str, SPEC_FILES)]) == 0
    assert "valid" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[[claims]]\nid = "c"\nkind = "pure_dp"\nmechanism = "m"\nepsilon = 0.5\n')
    assert cli.main(["schema", "--validate", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    doc = json.loads(
        captured.out.split("\n{", 1)[0] if captured.out.count("{\n") > 1 else captured.out
    )
    assert "claims.0.epsilon" in captured.err
    assert doc
