"""verifier: exact privacy verification for differential-privacy claims.

Describe a mechanism as exact finite distributions on a graph of neighbouring
datasets, compute exact output probabilities of algorithms built on it, and check
claims (pure, approximate, Rényi and ex-post DP) with exact or certified arithmetic:
every verdict is *holds*, *violated* or *undecided*, never a float compared with a
tolerance.
"""

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

__version__ = "0.1.0"

__all__ = [
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
