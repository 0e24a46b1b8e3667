"""Liu & Talwar 2019: the search spaces of Theorem 3.2 (random stopping) and of the
best-of-K selector (§3, App. B.1), for the claims registered in :mod:`.claims`."""

from __future__ import annotations

import functools
import math
from typing import Any

from verifier.claims import SearchSpec
from verifier.search import screens
from verifier.search.certificates import (
    add_base_mechanisms,
    claim_entry,
    float_rows,
    frac_text,
    log_text,
    skeleton_document,
)
from verifier.search.spaces import GAMMAS, PairMech, Selection, SelectionSpace

__all__ = ["random_stopping_search", "best_of_k_search"]

LIU_TALWAR = "Liu & Talwar 2019"


# ---------------------------------------------------------------------------
# Liu & Talwar 2019: random stopping (Theorem 3.2) and best of K
# ---------------------------------------------------------------------------


def _stopping_screen(inst: Selection, factor: int) -> float:
    pm = inst.mechs[0]
    _, rows = screens.random_stopping(
        [float(x) for x in pm.p], [float(x) for x in pm.q], float(inst.param)
    )
    e = factor * math.log(pm.a)
    return screens.ex_post_ratio(rows, [e] * pm.m)


def _stopping_document(inst: Selection, claim_id: str, factor: int) -> dict[str, Any]:
    pm = inst.mechs[0]
    statement = f"random stopping (gamma = {inst.param}) on an eps-DP Q is {factor} eps-DP"
    doc = skeleton_document(f"Liu & Talwar 2019, Theorem 3.2: {statement}")
    (name,) = add_base_mechanisms(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "lt_random_stopping",
        "inputs": [name],
        "params": {"gamma": frac_text(inst.param)},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "pure_dp",
            "refuted",
            epsilon=log_text(pm.a, factor),
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem 3.2",
        )
    )
    return doc


def random_stopping_search(claim_id: str, factor: int, notes: str) -> SearchSpec:
    """Random stopping (Theorem 3.2's Algorithm maxRand) on an ``ε``-DP ``Q`` against
    ``factor·ε``-DP."""
    return SearchSpec(
        space=SelectionSpace(d=(1, 1), m=(2, 5), params=GAMMAS),
        screen=functools.partial(_stopping_screen, factor=factor),
        document=functools.partial(_stopping_document, claim_id=claim_id, factor=factor),
        default_instances=20000,
        notes=notes,
    )


def _best_screen(inst: Selection, per_run: bool) -> float:
    _, rows = screens.best_of(float_rows(inst.mechs))
    a = max(pm.a for pm in inst.mechs)
    e = math.log(a) * (len(inst.mechs) if per_run else 1)
    return screens.ex_post_ratio(rows, [e] * len(rows[0]))


def _best_document(inst: Selection, claim_id: str, per_run: bool) -> dict[str, Any]:
    K = len(inst.mechs)
    a = max(pm.a for pm in inst.mechs)
    mult = K if per_run else 1
    statement = f"the best of K = {K} independent runs of eps-DP mechanisms is " + (
        "K eps-DP" if per_run else "eps-DP"
    )
    doc = skeleton_document(f"Liu & Talwar 2019, best of K: {statement}")
    names = add_base_mechanisms(doc, [PairMech(a, pm.p, pm.q) for pm in inst.mechs])
    doc["mechanisms"]["B"] = {
        "algorithm": "best_of",
        "inputs": names,
        "params": {"ties": "highest_index"},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "B",
            "pure_dp",
            "refuted",
            epsilon=log_text(a, mult),
            statement=statement + " (the output is the best score; ties to the later run)",
            source=f"{LIU_TALWAR}, §3 and App. B.1",
        )
    )
    return doc


def best_of_k_search(claim_id: str, per_run: bool, notes: str) -> SearchSpec:
    """The best of ``K`` independent runs of ``ε``-DP mechanisms against ``Kε``-DP
    (``per_run``) or ``ε``-DP."""
    return SearchSpec(
        space=SelectionSpace(d=(2, 3), m=(2, 3), same_budget=True),
        screen=functools.partial(_best_screen, per_run=per_run),
        document=functools.partial(_best_document, claim_id=claim_id, per_run=per_run),
        default_instances=20000,
        notes=notes,
    )
