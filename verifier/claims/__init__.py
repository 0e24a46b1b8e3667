"""The claim model and its registry (see :mod:`.model` and :mod:`.registry`).

A claim is one statement under one id, decided on registered instances, over a
parameter range, or by worst-case search (:mod:`verifier.search`); case-study packages
register claims, the command line and the tests decide them.
"""

from .coverage import STATEMENT_KINDS, STATUSES, PaperCoverage, Statement
from .model import (
    KINDS,
    Claim,
    ClaimKind,
    ClaimOutcome,
    Expected,
    SearchSpec,
    Tightness,
    check_claim_id,
    observed_tightness,
)
from .registry import ENTRY_POINT_GROUP, REGISTRY, Registry, load_casestudies, registered_claim
from .scope import SCOPE_KINDS, Scope, SearchRecord, scope_of

__all__ = [
    "Claim",
    "ClaimKind",
    "ClaimOutcome",
    "ENTRY_POINT_GROUP",
    "Expected",
    "KINDS",
    "PaperCoverage",
    "REGISTRY",
    "Registry",
    "STATEMENT_KINDS",
    "STATUSES",
    "SCOPE_KINDS",
    "Scope",
    "SearchRecord",
    "SearchSpec",
    "scope_of",
    "Tightness",
    "Statement",
    "check_claim_id",
    "observed_tightness",
    "load_casestudies",
    "registered_claim",
]
