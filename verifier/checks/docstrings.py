"""The checkers' shared docstring entries, written once: :data:`CHECKS` holds the
parameter and exception entries of the checkers (:mod:`verifier.checks.privacy`,
:mod:`verifier.accounting.curves`, :mod:`verifier.interop.exact`) and :func:`fill_doc`
fills a docstring's ``%(name)s`` lines with them (:func:`verifier.runtime.docstrings.filler`).

>>> print(CHECKS["precision"])
precision : Precision
    Working precision of the certified comparisons.
>>> import inspect
>>> from verifier.checks.privacy import check_approx_dp
>>> "%(" in check_approx_dp.__doc__, CHECKS["budget"] in inspect.getdoc(check_approx_dp)
(False, True)
"""

from __future__ import annotations

from ..runtime.docstrings import filler
from .vocabulary import CheckOptions, PointOptions, QueryOptions

__all__ = ["CHECKS", "fill_doc"]

_PAIRS = "pairs : iterable of (dataset, dataset), optional\n    The ordered pairs to {}; default every ordered neighbouring pair."
_UNBOUND = "verifier.errors.UnboundSymbol\n    {}"

#: The checkers' shared entries: parameters, then the exceptions (``raises_*``).
CHECKS: dict[str, str] = {
    "pairs": _PAIRS.format("check"),
    "pairs_max": _PAIRS.format("maximise over"),
    "precision": "precision : Precision\n    Working precision of the certified comparisons.",
    "title": "title : str, optional\n    The result's title.",
    "over": "over : optional\n    A parameter domain, ``(symbol, lo, hi)`` or ``{symbol: (lo, hi), ...}``: the\n"
    "    claim is decided for every point of it.",
    "budget": "budget : BoxBudget, optional\n    Limits of the subdivision over a box.",
    "epsilon_tilde": "epsilon_tilde : callable, mapping or number\n    The ex-post bound ε̃(o) (keyword-only).",
    "delta": "delta : sympy.Expr, int, fractions.Fraction or str\n    The claimed δ in ``[0, 1]``.",
    "alpha": "alpha : sympy.Expr, int, fractions.Fraction or str\n    The order α > 1.",
    "raises_mech": "verifier.errors.InvalidMechanism\n    ``mech`` is not a :class:`FiniteMechanism`.",
    "raises_unbound": _UNBOUND.format("A probability has a symbol without a value."),
    "raises_unbound_over": _UNBOUND.format(
        "A symbol has no value and is not ranged over by ``over``."
    ),
}


def _options(group: type, pairs: str = "pairs") -> str:
    """The entries of an option group of :mod:`verifier.checks.vocabulary`, in its
    order (``pairs`` names the entry of the ``pairs`` option)."""
    return "\n".join(CHECKS[pairs if k == "pairs" else k] for k in group.__annotations__)


# a checker over a domain, a checker at a point, a query for the least parameter
CHECKS["check_options"] = _options(CheckOptions)
CHECKS["point_options"] = _options(PointOptions)
CHECKS["query_options"] = _options(QueryOptions, pairs="pairs_max")

#: Fills a docstring's ``%(name)s`` lines from :data:`CHECKS`.
fill_doc = filler(**CHECKS)
