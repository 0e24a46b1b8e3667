"""verifier: exact privacy verification for differential-privacy claims.

Describe a mechanism as exact finite distributions on a graph of neighbouring
datasets, compute exact output probabilities of algorithms built on it, and check
claims (pure, approximate, Rényi and ex-post DP) with exact or certified arithmetic:
every verdict is *holds*, *violated* or *undecided*, never a float compared with a
tolerance.
"""

import functools
import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy attributes below are, for type checkers
    from .arithmetic.exact import Precision, Verdict, decide_le, enclose, exact
    from .checks.privacy import (
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
    from .checks.results import CheckResult, Finding
    from .claims import REGISTRY, Claim, load_casestudies
    from .errors import (
        InvalidMechanism,
        InvalidParameter,
        SpecError,
        UnboundSymbol,
        UnsupportedExpression,
        VerifierError,
    )
    from .mechanism.compose import best_index, events, independent, indicator, postprocess, repeat
    from .mechanism.instances import random_mechanism, randomized_response, truncated_geometric
    from .mechanism.model import FiniteMechanism
    from .mechanism.neighbours import (
        add_remove,
        hamming_cube,
        lumped_hamming_cube,
        pair,
        pairs_at_distance,
        path,
    )

#: Public names and the module of the engine that defines each: imported on first use
#: (PEP 562), so that ``import verifier`` — and ``verifier --version`` — stays fast;
#: the engine's modules pull in sympy, mpmath and networkx.
_LAZY: dict[str, str] = {
    "Accountant": "accounting",
    "PrivacyLoss": "accounting",
    "epsilon_for_delta": "interop.exact",
    "Precision": "arithmetic.exact",
    "Verdict": "arithmetic.exact",
    "decide_le": "arithmetic.exact",
    "enclose": "arithmetic.exact",
    "exact": "arithmetic.exact",
    "REGISTRY": "claims",
    "Claim": "claims",
    "load_casestudies": "claims",
    "best_index": "mechanism.compose",
    "events": "mechanism.compose",
    "independent": "mechanism.compose",
    "indicator": "mechanism.compose",
    "postprocess": "mechanism.compose",
    "repeat": "mechanism.compose",
    "InvalidMechanism": "errors",
    "InvalidParameter": "errors",
    "SpecError": "errors",
    "UnboundSymbol": "errors",
    "UnsupportedExpression": "errors",
    "VerifierError": "errors",
    "random_mechanism": "mechanism.instances",
    "randomized_response": "mechanism.instances",
    "truncated_geometric": "mechanism.instances",
    "FiniteMechanism": "mechanism.model",
    "add_remove": "mechanism.neighbours",
    "hamming_cube": "mechanism.neighbours",
    "lumped_hamming_cube": "mechanism.neighbours",
    "pair": "mechanism.neighbours",
    "pairs_at_distance": "mechanism.neighbours",
    "path": "mechanism.neighbours",
    "check_approx_dp": "checks.privacy",
    "check_ex_post": "checks.privacy",
    "check_ex_post_approx": "checks.privacy",
    "check_ex_post_rdp": "checks.privacy",
    "check_lemma7": "checks.privacy",
    "check_pure_dp": "checks.privacy",
    "check_rdp": "checks.privacy",
    "delta": "checks.privacy",
    "pure_epsilon": "checks.privacy",
    "rdp_epsilon": "checks.privacy",
    "realized_ex_post_epsilon": "checks.privacy",
    "renyi_divergence": "checks.privacy",
    "CheckResult": "checks.results",
    "Finding": "checks.results",
}


#: Engine modules that moved into packages (old dotted path -> new one).  Importing an
#: old path still works for this release and emits a :class:`DeprecationWarning`
#: naming the new one; the old paths go in the next release.
_MOVED: dict[str, str] = {
    "verifier.executors": "verifier.runtime.executors",
    "verifier.terminal": "verifier.runtime.terminal",
    "verifier.odp_ptr": "verifier.odp.ptr",
    "verifier.neighbours": "verifier.mechanism.neighbours",
    "verifier.instances": "verifier.mechanism.instances",
    "verifier.compose": "verifier.mechanism.compose",
    "verifier.precision": "verifier.arithmetic.precision",
    "verifier.expressions": "verifier.arithmetic.expressions",
    "verifier.results": "verifier.checks.results",
    "verifier.ranges": "verifier.checks.ranges",
    "verifier.boxes": "verifier.checks.boxes",
    "verifier.certified": "verifier.checks.certified",
    "verifier.privacy": "verifier.checks.privacy",
    "verifier.laplace": "verifier.algorithms.noise.mixtures",
    "verifier.products": "verifier.algorithms.noise.products",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Import hook for :data:`_MOVED`: an old path is a thin module forwarding every
    attribute to the module at its new path (classes and functions are the same
    objects, so ``isinstance`` and pickling are unaffected)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in _MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: Any) -> types.ModuleType:
        new = _MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}: import it from there "
            "(the old path is removed in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        target = importlib.import_module(new)
        module = types.ModuleType(spec.name, target.__doc__)
        module.__getattr__ = functools.partial(getattr, target)  # type: ignore[method-assign]
        module.__dir__ = target.__dir__  # type: ignore[method-assign]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


sys.meta_path.append(_MovedModules())


def _forward(package: str, module: str) -> Any:
    """A module-level ``__getattr__`` (PEP 562) for a package whose public names live in
    its submodule ``module``: ``verifier.odp.guarantees.Move`` is ``verifier.odp.guarantees.guarantees.Move``,
    imported on first use."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__


def _lazy(package: str, table: dict[str, str]) -> Any:
    """A module-level ``__getattr__`` (PEP 562) for a package whose public names live in
    several submodules, ``table`` mapping each name to its submodule: imported on first
    use, then kept in the package."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__getattr__ = _lazy(__name__, _LAZY)


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
