"""Case studies: one package per paper (or family of papers), each with its claims,
its proof-step chains, its search spaces, its figures and its derivation notes.

Every package registers its claims in :data:`verifier.claims.REGISTRY` through
:func:`claim` (``verifier casestudies`` and ``verifier search`` find them by id; so does
the test-suite) and is announced to the verifier through the entry-point group
``verifier.casestudies`` in ``pyproject.toml``.  The expected outcome of every claim
comes from the paper or from a derivation written next to it.  Case studies import
``verifier``; the engine never imports them.
"""

from verifier.claims import REGISTRY

claim = REGISTRY.claim
alias = REGISTRY.alias

__all__ = ["REGISTRY", "alias", "claim"]
