"""Accounting for finite mechanisms, exactly: the privacy loss distribution of each
ordered neighbouring pair, composition on it, and the privacy curve δ(ε) and its inverse
(:mod:`verifier.accounting.pld`)."""

from .pld import MAX_ATOMS, Accountant, LossAtom, PrivacyLoss, epsilon_of

__all__ = ["Accountant", "PrivacyLoss", "LossAtom", "epsilon_of", "MAX_ATOMS"]
