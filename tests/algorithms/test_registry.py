"""The transformer registry: complete after ``import verifier.algorithms``, and the
registered names are exactly the documented ones."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import verifier.algorithms as algorithms
from verifier.algorithms import TRANSFORMERS, get_transformer, registry
from verifier.errors import InvalidParameter

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (nothing imported yet) with this tree first."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=120,
    )


def _spec_format_rows() -> dict[str, str]:
    """The rows of the table "Registered now" of docs/spec-format.md: algorithm name ->
    its parameters column."""
    text = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    section = text.split("Registered now:", 1)[1].split("\n\n", 2)[1]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.*?) \|", section, flags=re.M))


def _documented_in_spec_format() -> set[str]:
    """The algorithm names of the table "Registered now" of docs/spec-format.md."""
    return set(_spec_format_rows())


def _documented_in_package_docstring() -> set[str]:
    """The transformer names of the module table of ``verifier.algorithms``."""
    doc = algorithms.__doc__ or ""
    table = doc.split("module                             transformers", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"``([a-z_0-9]+)``", table))


def test_a_fresh_import_registers_every_documented_transformer():
    r = _run("import json, verifier.algorithms as a; print(json.dumps(sorted(a.TRANSFORMERS)))")
    assert r.returncode == 0, r.stderr
    registered = set(json.loads(r.stdout))
    assert registered == _documented_in_spec_format()
    assert registered == _documented_in_package_docstring()
    assert registered == set(TRANSFORMERS)


@pytest.mark.parametrize("name", sorted(TRANSFORMERS))
def test_spec_format_documents_every_parameter_of_every_transformer(name):
    rows = _spec_format_rows()
    assert name in rows, f"docs/spec-format.md does not list the transformer {name!r}"
    missing = [p.name for p in TRANSFORMERS[name].params if f"`{p.name}`" not in rows[name]]
    assert not missing, f"docs/spec-format.md: {name} does not name its parameters {missing}"


def test_verifier_algorithms_lists_every_transformer_with_its_parameters(capsys):
    from verifier import cli

    assert cli.main(["algorithms", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    listed = {t["name"]: t for t in doc["transformers"]}
    assert set(listed) == set(TRANSFORMERS)
    for name, t in TRANSFORMERS.items():
        entry = listed[name]
        assert [p["name"] for p in entry["params"]] == [p.name for p in t.params]
        assert entry["source"] == t.source and entry["module"].startswith("verifier.algorithms")
        for p, rec in zip(t.params, entry["params"], strict=True):
            assert rec["required"] is p.required
    assert cli.main(["algorithms"]) == 0
    text = capsys.readouterr().out
    for name in TRANSFORMERS:
        assert f"\n{name}  " in text
    assert cli.main(["algorithms", "best_of"]) == 0
    assert "ties" in capsys.readouterr().out
    assert cli.main(["algorithms", "no_such"]) == 2


@pytest.mark.parametrize("module", ["talwar", "noise.svt", "noise.noisy_max", "generic"])
def test_an_algorithm_module_that_fails_to_import_fails_the_package_import(module):
    code = f"""
import importlib.abc, sys

class Broken(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "verifier.algorithms.{module}":
            raise ImportError("broken on purpose")
        return None

sys.meta_path.insert(0, Broken())
import verifier.algorithms
"""
    r = _run(code)
    assert r.returncode != 0
    assert "ImportError: broken on purpose" in r.stderr


def test_the_registry_imports_no_algorithm_module():
    tree = ast.parse(Path(registry.__file__).read_text(encoding="utf-8"))
    imported = [
        (node.level, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ]
    assert imported and all(level != 1 for level, _ in imported), imported


def test_unknown_names_list_the_registered_ones():
    with pytest.raises(InvalidParameter, match=r"unknown algorithm 'nope' \(known: best_of, "):
        get_transformer("nope")


def test_every_transformer_cites_its_source_and_summarises_itself():
    for name, t in TRANSFORMERS.items():
        assert t.name == name
        assert t.source and t.summary, name
