"""The architecture as a checked contract: the engine's import graph has no cycle and
never reaches the case studies (``lint-imports`` checks the layers in CI as well)."""

from __future__ import annotations

import itertools

import grimp
import networkx as nx
import pytest

GRAPH = grimp.build_graph("verifier", "casestudies", exclude_type_checking_imports=True)


def _imports(prefix: str) -> nx.DiGraph:
    g = nx.DiGraph()
    for m in GRAPH.modules:
        if m.startswith(prefix):
            g.add_node(m)
            for i in GRAPH.find_modules_directly_imported_by(m):
                if i.startswith(prefix):
                    g.add_edge(m, i)
    return g


def test_the_module_import_graph_of_the_engine_has_no_cycle():
    cycles = list(itertools.islice(nx.simple_cycles(_imports("verifier")), 5))
    assert cycles == []


def test_the_package_import_graph_of_the_engine_has_no_cycle():
    top = nx.DiGraph()
    for a, b in _imports("verifier").edges:
        pa, pb = ".".join(a.split(".")[:2]), ".".join(b.split(".")[:2])
        if pa != pb:
            top.add_edge(pa, pb)
    assert list(itertools.islice(nx.simple_cycles(top), 5)) == []


@pytest.mark.parametrize("module", sorted(m for m in GRAPH.modules if m.startswith("verifier")))
def test_no_engine_module_imports_a_case_study(module):
    assert not any(
        i.startswith("casestudies") for i in GRAPH.find_modules_directly_imported_by(module)
    )


def test_an_upward_import_would_be_found():
    """Control: the graph sees the imports it is asked about (the check is not vacuous)."""
    assert GRAPH.direct_import_exists(
        importer="casestudies.ghazi2025.claims", imported="verifier.claims"
    ) or GRAPH.chain_exists(importer="casestudies.ghazi2025.claims", imported="verifier.claims")
    assert GRAPH.chain_exists(importer="verifier.cli.app", imported="verifier.errors")
