"""Counterexample search with exact, re-verifiable certificates.

``verifier search CLAIM`` (and :func:`search`) looks for an instance on which a
claim fails: fast float *screening* of many instances (random ones, and the extreme
points that carry the worst cases of pure DP), local improvement toward the worst
realized/claimed ratio, and an **exact** confirmation of every candidate — the
check ``verifier check`` runs, in rational arithmetic or certified interval
arithmetic.  A confirmed counterexample is shrunk (fewer outputs and mechanisms,
smaller denominators) and written as a *certificate*: a spec file showing the base
instance, the algorithm and the claim, on which ``verifier check`` proves the
violation (exit code 1).  When nothing is found the search reports how close it
came: the largest realized/claimed ratio and the instance attaining it.

Searches are reproducible (the seed fixes the work partition; results do not depend
on the number of workers), parallel (any :class:`concurrent.futures.Executor`, or a
dask cluster: :mod:`verifier.runtime.executors`) and durable (atomic checkpoints; ``resume=``).

>>> from verifier.search import search
>>> r = search("liu_talwar2019.B1.best_of_k_eps", instances=60, seed=1, seconds=None)
>>> r.status, r.counterexample_ratio is not None and r.counterexample_ratio > 1
('violated', True)

Modules: :mod:`.core` (spaces, exact encodings, exact confirmation), :mod:`.spaces`
(instance spaces), :mod:`.screens` (float evaluators), :mod:`.certificates`,
:mod:`.engine` (the loop), :mod:`.specfile` (claims of spec files).  The claims
themselves — with their search spaces — are registered by the case-study packages
(:mod:`verifier.claims`).
"""

from __future__ import annotations

from .core import (
    Confirmation,
    InstanceSpace,
    confirm,
    decode,
    encode,
    get_searchable,
    instance_type,
    search_spec,
    searchable_claims,
)
from .engine import (
    BatchResult,
    Progress,
    SearchConfig,
    SearchResult,
    checkpoint_claim,
    read_checkpoint,
    resolve_claim,
    run_batch,
    search,
)
from .specfile import spec_searchable

__all__ = [
    "BatchResult",
    "Confirmation",
    "InstanceSpace",
    "Progress",
    "SearchConfig",
    "SearchResult",
    "checkpoint_claim",
    "confirm",
    "decode",
    "encode",
    "get_searchable",
    "instance_type",
    "read_checkpoint",
    "search_spec",
    "resolve_claim",
    "run_batch",
    "search",
    "searchable_claims",
    "spec_searchable",
]
