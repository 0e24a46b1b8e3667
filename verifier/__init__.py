"""verifier: exact privacy verification for differential-privacy claims.

Describe a mechanism as exact finite distributions on a graph of neighbouring
datasets, compute exact output probabilities of algorithms built on it, and check
claims (pure, approximate, Rényi and ex-post DP) with exact or certified arithmetic:
every verdict is *holds*, *violated* or *undecided*, never a float compared with a
tolerance.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy attributes below are, for type checkers
    from .arithmetic import Precision, Verdict, decide_le, enclose, exact
    from .claims import REGISTRY, Claim, load_casestudies
    from .compose import best_index, events, independent, indicator, postprocess, repeat
    from .errors import (
        InvalidMechanism,
        InvalidParameter,
        SpecError,
        UnboundSymbol,
        UnsupportedExpression,
        VerifierError,
    )
    from .instances import random_mechanism, randomized_response, truncated_geometric
    from .mechanism import FiniteMechanism
    from .neighbours import (
        add_remove,
        hamming_cube,
        lumped_hamming_cube,
        pair,
        pairs_at_distance,
        path,
    )
    from .privacy import (
        check_approx_dp,
        check_ex_post,
        check_ex_post_approx,
        check_ex_post_rdp,
        check_lemma7,
        check_pure_dp,
        check_rdp,
        delta,
        pure_epsilon,
        rdp_epsilon,
        realized_ex_post_epsilon,
        renyi_divergence,
    )
    from .results import CheckResult, Finding

#: Public names and the module of the engine that defines each: imported on first use
#: (PEP 562), so that ``import verifier`` — and ``verifier --version`` — stays fast;
#: the engine's modules pull in sympy, mpmath and networkx.
_LAZY: dict[str, str] = {
    "Accountant": "accounting",
    "PrivacyLoss": "accounting",
    "epsilon_for_delta": "interop.exact",
    "Precision": "arithmetic",
    "Verdict": "arithmetic",
    "decide_le": "arithmetic",
    "enclose": "arithmetic",
    "exact": "arithmetic",
    "REGISTRY": "claims",
    "Claim": "claims",
    "load_casestudies": "claims",
    "best_index": "compose",
    "events": "compose",
    "independent": "compose",
    "indicator": "compose",
    "postprocess": "compose",
    "repeat": "compose",
    "InvalidMechanism": "errors",
    "InvalidParameter": "errors",
    "SpecError": "errors",
    "UnboundSymbol": "errors",
    "UnsupportedExpression": "errors",
    "VerifierError": "errors",
    "random_mechanism": "instances",
    "randomized_response": "instances",
    "truncated_geometric": "instances",
    "FiniteMechanism": "mechanism",
    "add_remove": "neighbours",
    "hamming_cube": "neighbours",
    "lumped_hamming_cube": "neighbours",
    "pair": "neighbours",
    "pairs_at_distance": "neighbours",
    "path": "neighbours",
    "check_approx_dp": "privacy",
    "check_ex_post": "privacy",
    "check_ex_post_approx": "privacy",
    "check_ex_post_rdp": "privacy",
    "check_lemma7": "privacy",
    "check_pure_dp": "privacy",
    "check_rdp": "privacy",
    "delta": "privacy",
    "pure_epsilon": "privacy",
    "rdp_epsilon": "privacy",
    "realized_ex_post_epsilon": "privacy",
    "renyi_divergence": "privacy",
    "CheckResult": "results",
    "Finding": "results",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'verifier' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "Accountant",
    "PrivacyLoss",
    "epsilon_for_delta",
    "CheckResult",
    "Claim",
    "FiniteMechanism",
    "Finding",
    "InvalidMechanism",
    "InvalidParameter",
    "Precision",
    "REGISTRY",
    "SpecError",
    "UnboundSymbol",
    "UnsupportedExpression",
    "Verdict",
    "VerifierError",
    "add_remove",
    "best_index",
    "check_approx_dp",
    "check_ex_post",
    "check_ex_post_approx",
    "check_ex_post_rdp",
    "check_lemma7",
    "check_pure_dp",
    "check_rdp",
    "decide_le",
    "delta",
    "enclose",
    "events",
    "exact",
    "hamming_cube",
    "independent",
    "indicator",
    "load_casestudies",
    "lumped_hamming_cube",
    "pair",
    "pairs_at_distance",
    "path",
    "postprocess",
    "pure_epsilon",
    "random_mechanism",
    "randomized_response",
    "rdp_epsilon",
    "realized_ex_post_epsilon",
    "renyi_divergence",
    "repeat",
    "truncated_geometric",
]
