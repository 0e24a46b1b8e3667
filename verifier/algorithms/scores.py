"""Scores of outputs (re-exported from :mod:`verifier.mechanism.scores`, where the one
rule for what counts as a score lives, below both the transformers and the selection
programs of :mod:`verifier.programs`).

>>> numeric_score("-1/2", "-1/2")
Fraction(-1, 2)
"""

from __future__ import annotations

from ..mechanism.scores import SCORE_HELP, numeric_score

__all__ = ["numeric_score", "SCORE_HELP"]
