"""The search spaces of the noise programs' claims (query vectors of neighbouring
datasets), for the claims registered in :mod:`.claims`.

:func:`svt_search` — Lyu, Su, Li 2017's Algorithm ``k`` (geometric noise, ``c = 1``)
against ε-DP.  :func:`program_search` — any program of :mod:`verifier.algorithms.noise`
(a sparse vector variant or Report-Noisy-Max) against a claimed bound, on ALL_DIFFER or
monotone neighbours: the screen is the realized loss of the program's exact law in
floats (:func:`verifier.algorithms.noise.program_mechanism`; released values outside
its window lumped into one output per tail, a post-processing), the document the same
program as a spec file (the ``sparse_vector`` or ``report_noisy_max`` transformer), which
``verifier check`` decides.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from random import Random
from typing import Any

import networkx as nx
import sympy as sp

from verifier.algorithms.noise import epsilon_for_base, lyu_svt, program_mechanism
from verifier.claims import SearchSpec
from verifier.mechanism.neighbours import pair
from verifier.search import screens
from verifier.search.certificates import (
    claim_entry,
    deterministic_mechanism,
    expr_text,
    skeleton_document,
)
from verifier.search.core import iter_unique
from verifier.search.spaces import QueryPair, QueryPairSpace

__all__ = ["svt_search", "program_search", "Variant", "MonotonePairSpace", "SVT_BASE"]

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


@functools.lru_cache(maxsize=16)
def _svt_epsilon_float(k: int) -> float:
    return float(sp.N(_svt_epsilon(k), 30))


def _svt_screen(inst: QueryPair, k: int) -> float:
    rows = _svt_rows(k, inst)
    return screens.ex_post_ratio(list(rows), [_svt_epsilon_float(k)] * len(rows[0]))


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


# ---------------------------------------------------------------------------
# any program against a claimed bound, all_differ or monotone neighbours
# ---------------------------------------------------------------------------


@dataclass
class MonotonePairSpace(QueryPairSpace):
    """Neighbouring query vectors whose answers all move the same way (monotone
    queries: every answer moves by at most 1, all up or all down): each pair of
    :class:`~verifier.search.spaces.QueryPairSpace` with its moves turned one way (the
    direction of its first move)."""

    def _monotone(self, inst: QueryPair) -> QueryPair:
        d = [b - a for a, b in zip(inst.q, inst.q2, strict=True)]
        first = next((x for x in d if x), 1)
        lo, hi = self.values
        q2 = tuple(
            min(max(a + (abs(x) if first > 0 else -abs(x)), lo), hi)
            for a, x in zip(inst.q, d, strict=True)
        )
        if q2 == inst.q:
            i = 0
            q2 = inst.q[:i] + (inst.q[i] + (1 if inst.q[i] < hi else -1),) + inst.q[i + 1 :]
        return QueryPair(inst.q, q2)

    def random(self, rng: Random) -> QueryPair:
        return self._monotone(super().random(rng))

    def extreme(self, rng: Random) -> QueryPair:
        n = rng.randint(*self.n)
        lo, hi = self.values
        q = tuple(rng.randint(lo, hi - 1) for _ in range(n))
        up = QueryPair(q, tuple(x + 1 for x in q))  # every answer moves up by 1
        return up if rng.random() < 0.5 else QueryPair(up.q2, up.q)

    def neighbour(self, inst: QueryPair, rng: Random, scale: float) -> QueryPair:
        return self._monotone(super().neighbour(inst, rng, scale))

    def shrink(self, inst: QueryPair) -> Iterable[QueryPair]:
        return list(iter_unique(self._monotone(x) for x in super().shrink(inst)))


@dataclass(frozen=True)
class Variant:
    """One program of a :func:`program_search`: its name (the screen's cache key), a
    builder of the program at a numeric ε, the claimed bound and its spec entry
    (``{"algorithm": "sparse_vector", "params": {...}}``)."""

    key: str
    build: Callable[[], Any]
    claimed: Any
    algorithm: dict[str, Any]


#: The variants of every :func:`program_search` by key (registered at import).
_VARIANTS: dict[str, Variant] = {}


@functools.lru_cache(maxsize=64)
def _program(key: str) -> Any:
    return _VARIANTS[key].build()


@functools.lru_cache(maxsize=8192)
def _variant_screen(key: str, style: Any, inst: QueryPair) -> float:
    """realized / claimed of one variant on ``inst`` (floats of its exact law)."""
    v = _VARIANTS[key]
    pm = program_mechanism(
        _program(key), pair("D", "D'"), answers={"D": inst.q, "D'": inst.q2}, style=style
    ).mechanism
    rows = (
        [float(pm.p("D", o)) for o in pm.outputs],
        [float(pm.p("D'", o)) for o in pm.outputs],
    )
    e = float(sp.N(v.claimed, 30))
    return screens.ex_post_ratio(list(rows), [e] * len(rows[0]))


def _program_screen(inst: QueryPair, keys: tuple[str, ...], style: str) -> float:
    return max(_variant_screen(k, style, inst) for k in keys)


def _program_document(
    inst: QueryPair, claim_id: str, keys: tuple[str, ...], style: str
) -> dict[str, Any]:
    """The spec of the variant with the largest screened ratio on ``inst``."""
    v = _VARIANTS[max(keys, key=lambda k: _variant_screen(k, style, inst))]
    statement = f"{v.key} is ({v.claimed})-DP on q = {inst.q} ~ q' = {inst.q2} ({style})"
    doc = skeleton_document(statement)
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["S"] = {
        "algorithm": v.algorithm["algorithm"],
        "inputs": ["q"],
        "params": {**v.algorithm["params"], "style": style},
    }
    doc["claims"].append(
        claim_entry(
            claim_id, "S", "pure_dp", "refuted", epsilon=expr_text(v.claimed), statement=statement
        )
    )
    return doc


def program_search(
    claim_id: str,
    variants: list[Variant],
    notes: str,
    *,
    style: str = "all_differ",
    space: QueryPairSpace | None = None,
    instances: int = 300,
) -> SearchSpec:
    """Each of ``variants`` (a program at a numeric ε) against its claimed bound on
    neighbouring query vectors of ``space`` (default: length 1-3, answers in -1..2,
    ``style`` neighbours); an instance screens as its worst variant."""
    for v in variants:
        _VARIANTS[v.key] = v
    if space is None:
        space = (MonotonePairSpace if style == "monotone" else QueryPairSpace)(n=(1, 3))
    keys = tuple(v.key for v in variants)
    return SearchSpec(
        space=space,
        screen=functools.partial(_program_screen, keys=keys, style=style),
        document=functools.partial(_program_document, claim_id=claim_id, keys=keys, style=style),
        default_instances=2000,
        casestudies_instances=instances,
        exact_best=False,
        notes=notes,
    )
