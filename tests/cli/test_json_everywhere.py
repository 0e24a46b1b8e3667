"""Every subcommand that prints a table or a listing also prints JSON (``--json``)."""

from __future__ import annotations

import argparse

import pytest

from verifier.cli.app import all_commands, build_parser


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_every_subcommand_has_json(name):
    options = {s for a in _subparsers()[name]._actions for s in a.option_strings}
    assert "--json" in options, f"verifier {name} has no --json"
