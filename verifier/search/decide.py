"""Decide a claim with every decider it has: its instances (or box), then its search.

``verifier casestudies`` decides each claim on its registered instances or over its
box (:meth:`verifier.claims.Claim.run`) and, when the claim also has an instance space
(``Claim.search``), runs the worst-case search with the space's casestudies budget
(:attr:`verifier.claims.SearchSpec.casestudies_instances`, default its
``default_instances``) and a fixed seed, so the verdict and its scope are reproducible
byte for byte.  A counterexample found by the search refutes the claim whatever its
instances say (its certificate is kept); a search that finds nothing makes the scope of
a claim decided only on instances ``search``: evidence over the space, not a proof.

>>> from verifier.claims import load_casestudies
>>> reg = load_casestudies()
>>> o = decide(reg.get("liu_talwar2019.B1.best_of_k_eps"), search_instances=60)
>>> o.verdict.value, o.search.violated, o.scope.kind
('violated', True, 'instances')
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Generator, Iterable
from typing import Any

from ..arithmetic.exact import Verdict
from ..claims.model import Claim, ClaimOutcome
from ..claims.registry import outcome_stream, registered_claim
from ..claims.scope import SearchRecord
from ..errors import VerifierError
from ..runtime.executors import Runner

__all__ = ["SEARCH_SEED", "decide", "decide_registered_claim", "outcomes"]

#: The seed of the searches ``verifier casestudies`` runs.
SEARCH_SEED = 0


def _budget(claim: Claim, search_instances: int | None) -> int:
    spec = claim.search
    assert spec is not None
    if search_instances is not None:
        return search_instances
    if spec.casestudies_instances is not None:  # 0: no search in `verifier casestudies`
        return spec.casestudies_instances
    return spec.default_instances


def run_search(claim: Claim, instances: int, seed: int = SEARCH_SEED) -> SearchRecord:
    """The worst-case search of ``claim`` with ``instances`` screened instances (no time
    limit: the result depends on the claim, seed and budget only)."""
    from .engine import search

    assert claim.search is not None
    t0 = time.perf_counter()
    r = search(claim, instances=instances, seconds=None, seed=seed, checkpoint_every=1e9)
    best = r.best_exact_ratio if r.best_exact_ratio is not None else r.best_ratio
    return SearchRecord(
        instances=r.instances,
        seed=seed,
        space=claim.search.notes or "the claim's instance space",
        violated=r.violated,
        best_ratio=None
        if r.counterexample_ratio is None and best is None
        else (r.counterexample_ratio if r.violated else best),
        counterexample=r.counterexample_description if r.violated else "",
        certificate=(r.certificate_text or "") if r.violated else "",
        status=r.status,
        seconds=time.perf_counter() - t0,
    )


def decide(
    claim: Claim, *, search: bool = True, search_instances: int | None = None
) -> ClaimOutcome:
    """Decide ``claim`` on its instances (or box) and, when it has a search space and
    ``search`` is true, by the worst-case search (``search_instances``: the budget; 0
    skips the search)."""
    if claim.check is not None:
        out = claim.run()
    else:
        out = ClaimOutcome(claim, None, 0.0)
    if not (search and claim.search is not None):
        return out
    n = _budget(claim, search_instances)
    if n <= 0:
        if claim.check is None:
            out.error = f"claim {claim.id} has no instances and its search was skipped"
        return out
    t0 = time.perf_counter()
    try:
        out.search = run_search(claim, n)
    except Exception as err:  # a crashing search is reported, never hidden
        detail = str(err) if isinstance(err, VerifierError) else traceback.format_exc()
        out.error = f"search: {detail}"
    out.seconds += time.perf_counter() - t0
    return out


def decide_registered_claim(
    claim_id: str,
    search: bool = True,
    search_instances: int | None = None,
    record: bool = False,
    outline: bool = False,
) -> tuple[Any, float, str | None, SearchRecord | None, dict[str, Any]]:
    """:func:`decide` for a registered claim, as a worker process runs it: the result,
    seconds, error, search record and presentation (the table cells, the scope and,
    with ``record``, the JSON record:
    :meth:`~verifier.claims.model.ClaimOutcome.presentation`), without the claim
    object.  With ``outline``, a result that is not violated comes as its
    :meth:`~verifier.checks.results.CheckResult.outline` (a violated one stays whole:
    its certificate is written from it)."""
    o = decide(registered_claim(claim_id), search=search, search_instances=search_instances)
    shown = o.presentation(record=record)
    result = o.result
    if outline and result is not None and result.verdict is not Verdict.VIOLATED:
        result = result.outline()
    return result, o.seconds, o.error, o.search, shown


def outcomes(
    claims: Iterable[Claim],
    *,
    runner: Runner | None = None,
    search: bool = True,
    search_instances: int | None = None,
    record: bool = False,
    outline: bool = False,
) -> Generator[ClaimOutcome, None, None]:
    """:func:`decide` for each claim, as a stream in the order of ``claims``: serially,
    or with a ``runner`` the claims about points decided by id on the workers while a
    box claim is decided here with its pieces on the workers
    (:func:`verifier.checks.boxes.sub_boxes_on`).  A worker also renders its outcome's
    table cells, scope and, with ``record``, its JSON record
    (:meth:`~verifier.claims.model.ClaimOutcome.presentation`); with ``outline`` it
    sends a result that is not violated as its outline (:func:`decide_registered_claim`:
    for a caller that shows what was rendered, not every finding)."""
    return outcome_stream(
        claims,
        runner,
        lambda c: decide(c, search=search, search_instances=search_instances),
        decide_registered_claim,
        lambda c: (c.id, search, search_instances, record, outline),
    )
