"""Registered claims, one module per paper.

Each module registers its theorems as claims in :data:`verifier.claims.REGISTRY`
(``verifier casestudies`` runs them; so does the test-suite).  The expected outcome
of every claim comes from the paper or from a derivation written next to it.
"""

from verifier.claims import REGISTRY

claim = REGISTRY.claim

__all__ = ["REGISTRY", "claim"]
