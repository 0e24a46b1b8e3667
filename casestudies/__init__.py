"""Case studies: one package per paper (or family of papers), each with its claims,
its proof-step chains, its search spaces, its figures and its derivation notes.

Every package registers its claims in :data:`verifier.claims.REGISTRY` through
:func:`claim` (``verifier casestudies`` and ``verifier search`` find them by id; so does
the test-suite) and is announced to the verifier through the entry-point group
``verifier.casestudies`` in ``pyproject.toml``.  The expected outcome of every claim
comes from the paper or from a derivation written next to it.  Case studies import
``verifier``; the engine never imports them.

The names are resolved on first use (PEP 562): a subcommand that a case study
contributes (``verifier tradeoff``, ``verifier export``) is listed by ``verifier
--help`` without loading the claim registry.
"""

from __future__ import annotations

from typing import Any

__all__ = ["REGISTRY", "alias", "claim"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'casestudies' has no attribute {name!r}")
    from verifier.claims import REGISTRY

    value = {"REGISTRY": REGISTRY, "claim": REGISTRY.claim, "alias": REGISTRY.alias}[name]
    globals()[name] = value
    return value
