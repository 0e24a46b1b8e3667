"""Lyu, Su, Li 2017: the search space of the sparse vector algorithms (query vectors
of neighbouring datasets), for the claims registered in :mod:`.claims`."""

from __future__ import annotations

import functools
from typing import Any

import networkx as nx
import sympy as sp

from verifier.algorithms.noise import epsilon_for_base, lyu_svt, program_mechanism
from verifier.claims import SearchSpec
from verifier.neighbours import pair
from verifier.search import screens
from verifier.search.certificates import (
    claim_entry,
    deterministic_mechanism,
    expr_text,
    skeleton_document,
)
from verifier.search.spaces import QueryPair, QueryPairSpace

__all__ = ["svt_search", "SVT_BASE"]

LYU = "Lyu, Su, Li 2017"


# ---------------------------------------------------------------------------
# sparse vector programs (Lyu, Su, Li 2017)
# ---------------------------------------------------------------------------

#: ``W = e^{-u} = 4/5`` (``u`` the programs' common noise unit): exact rationals.
SVT_BASE = sp.Rational(4, 5)


@functools.lru_cache(maxsize=16)
def _svt_epsilon(k: int) -> sp.Expr:
    return epsilon_for_base(lambda e: lyu_svt(k, e), SVT_BASE)


@functools.lru_cache(maxsize=4096)
def _svt_rows(k: int, inst: QueryPair) -> tuple[list[float], list[float]]:
    g: nx.Graph = pair("D", "D'")
    pm = program_mechanism(
        lyu_svt(k, _svt_epsilon(k)), g, answers={"D": inst.q, "D'": inst.q2}
    ).mechanism
    return (
        [float(pm.p("D", o)) for o in pm.outputs],
        [float(pm.p("D'", o)) for o in pm.outputs],
    )


def _svt_screen(inst: QueryPair, k: int) -> float:
    rows = _svt_rows(k, inst)
    e = float(sp.N(_svt_epsilon(k), 30))
    return screens.ex_post_ratio(list(rows), [e] * len(rows[0]))


def _svt_document(inst: QueryPair, claim_id: str, k: int) -> dict[str, Any]:
    eps = _svt_epsilon(k)
    cutoff = "c = 1" if k in (1, 2, 3, 4) else "no cutoff"
    statement = f"Lyu et al.'s Algorithm {k} ({cutoff}, geometric noise) is eps-DP, eps = {eps}"
    doc = skeleton_document(f"Lyu, Su, Li 2017: {statement}")
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["S"] = {
        "algorithm": "sparse_vector",
        "inputs": ["q"],
        "params": {"variant": f"lyu{k}", "epsilon": expr_text(eps), "noise": "geometric"},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "S",
            "pure_dp",
            "refuted",
            epsilon=expr_text(eps),
            statement=statement + " on the query answers q (all_differ neighbours)",
            source=f"{LYU}, Algorithm {k}",
        )
    )
    return doc


def svt_search(claim_id: str, k: int, notes: str) -> SearchSpec:
    """Lyu et al.'s Algorithm ``k`` on neighbouring query vectors (all_differ) against
    ``ε``-DP."""
    return SearchSpec(
        space=QueryPairSpace(n=(1, 4)),
        screen=functools.partial(_svt_screen, k=k),
        document=functools.partial(_svt_document, claim_id=claim_id, k=k),
        default_instances=5000,
        notes=notes,
    )
