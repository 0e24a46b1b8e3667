"""The package keeps the names of the former module ``verifier.spec``."""

from __future__ import annotations

import verifier.spec

# Every name imported from verifier.spec in the repository before it became a package.
OLD_NAMES = [
    "atomic_write",
    "SPEC_VERSION",
    "CLAIM_KINDS",
    "RANGE_KINDS",
    "GRAPH_KINDS",
    "Spec",
    "SpecClaim",
    "load_spec",
    "loads_spec",
    "spec_document",
    "spec_to_toml",
    "spec_to_json",
    "dump_spec",
    "certificate",
    "output_label",
    "dataset_label",
    "expression_text",
    "precision_for",
]


def test_old_names_are_exported():
    for name in OLD_NAMES:
        assert hasattr(verifier.spec, name), name
    assert set(verifier.spec.__all__) >= set(OLD_NAMES)
