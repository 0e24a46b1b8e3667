"""Accounting for finite mechanisms, exactly: the privacy loss distribution of each
ordered neighbouring pair, composition on it, and the privacy curve δ(ε) and its inverse
(:mod:`verifier.accounting.pld`), its exact piecewise profile, and the trade-off
curve of f-DP with the check that a mechanism is f-DP; guarantees stated as curves,
decided over the whole curve: (ξ, ρ)-zCDP for every Rényi order and μ-GDP
(:mod:`verifier.accounting.curves`)."""

from .curves import check_gdp, check_zcdp, gdp_mu
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
    "check_zcdp",
    "check_gdp",
    "gdp_mu",
    "MAX_ATOMS",
]
