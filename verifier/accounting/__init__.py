"""Accounting for finite mechanisms, exactly: the privacy loss distribution of each
ordered neighbouring pair, composition on it, and the privacy curve δ(ε) and its inverse
(:mod:`verifier.accounting.pld`), its exact piecewise profile, and the trade-off
curve of f-DP with the check that a mechanism is f-DP."""

from .pld import (
    MAX_ATOMS,
    Accountant,
    LossAtom,
    PrivacyLoss,
    ProfileSegment,
    check_tradeoff,
    epsilon_of,
)

__all__ = [
    "Accountant",
    "PrivacyLoss",
    "ProfileSegment",
    "LossAtom",
    "epsilon_of",
    "check_tradeoff",
    "MAX_ATOMS",
]
