"""The privacy parameters every checker and query shares, by one name each.

========================  ==========================================================
``epsilon``               a pure or approximate DP budget ε, or a Rényi ε
``epsilon_tilde``         an ex-post bound ε̃(o): a constant, a mapping or a function
                          of the output
``delta``                 the δ of approximate DP
``alpha``                 a Rényi order α > 1
``xi``, ``rho``           the ξ and ρ of (ξ, ρ)-zCDP (Bun & Steinke 2016, Def. 1.1)
``mu``                    the μ of μ-GDP (Dong, Roth & Su 2022, Def. 2.6)
========================  ==========================================================

They are keyword-only, in this order, after the mechanism (``check_approx_dp(m,
epsilon=..., delta=...)``); exact numbers may be given as strings of the spec grammar
(``epsilon="log(3)"``).  :func:`privacy_parameters` declares them on a function and
keeps the former calling style working for one release (parameters by position after
the mechanism, or under the former names ``eps``, ``eps_tilde``, ``delta_claim``,
``delta_``), with a :class:`DeprecationWarning` naming the new form.

The checkers' other keyword options are shared too, each declared once in a
:class:`~typing.TypedDict` and taken as ``**options`` (PEP 692):

========================  ==========================================================
:class:`QueryOptions`     ``pairs``, ``precision``: a query for the least parameter
                          (:func:`~verifier.checks.privacy.delta`)
:class:`PointOptions`     those and ``title``: a checker at a point
                          (:func:`~verifier.checks.privacy.check_rdp`)
:class:`CheckOptions`     those and ``over``, ``budget``: a checker over a parameter
                          domain (:func:`~verifier.checks.privacy.check_pure_dp`)
========================  ==========================================================

A checker reads them with :func:`fill_options`, which gives each its default
(:data:`OPTION_DEFAULTS`) and refuses any other keyword as Python does.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict, TypeVar

from ..arithmetic.exact import DEFAULT_PRECISION, Precision
from ..arithmetic.expressions import number
from ..errors import InvalidMechanism
from ..mechanism.model import Dataset, FiniteMechanism
from .boxes import BoxBudget

#: The shared names, in their order.
VOCABULARY: tuple[str, ...] = ("epsilon_tilde", "epsilon", "delta", "alpha", "xi", "rho", "mu")
#: Former names (before 0.2) and the name each became.
FORMER_NAMES: dict[str, str] = {
    "eps": "epsilon",
    "eps_tilde": "epsilon_tilde",
    "delta_claim": "delta",
    "delta_": "delta",
}

F = TypeVar("F", bound=Callable[..., Any])
G = TypeVar("G")


class QueryOptions(TypedDict, total=False):
    """The options of a query for the least privacy parameter of a mechanism
    (:func:`~verifier.checks.privacy.delta`, :func:`~verifier.checks.privacy.rdp_epsilon`,
    :func:`~verifier.interop.exact.epsilon_for_delta`, :func:`~verifier.accounting.curves.gdp_mu`).

    Attributes
    ----------
    pairs : iterable of (dataset, dataset) or None
        The ordered pairs to maximise over; default (``None``) every ordered
        neighbouring pair.
    precision : Precision
        Working precision of the certified comparisons; default
        :data:`~verifier.arithmetic.exact.DEFAULT_PRECISION`.

    Examples
    --------
    >>> sorted(QueryOptions.__optional_keys__)
    ['pairs', 'precision']
    """

    pairs: Iterable[tuple[Dataset, Dataset]] | None
    precision: Precision


class PointOptions(QueryOptions, total=False):
    """The options of a checker at a point (no parameter domain):
    :class:`QueryOptions` and the result's ``title``.

    Attributes
    ----------
    title : str or None
        The result's title; default (``None``) one naming the claim.

    Examples
    --------
    >>> list(PointOptions.__annotations__)
    ['pairs', 'precision', 'title']
    """

    title: str | None


class CheckOptions(PointOptions, total=False):
    """The options of a checker that also decides a claim over a parameter domain:
    :class:`PointOptions`, ``over`` and ``budget``.

    Attributes
    ----------
    over : tuple, mapping or None
        A parameter domain, ``(symbol, lo, hi)`` or ``{symbol: (lo, hi), ...}``;
        default (``None``) none: the claim at a point.
    budget : BoxBudget or None
        Limits of the subdivision over a box; default (``None``) the box decision's
        own.

    Examples
    --------
    >>> list(CheckOptions.__annotations__)
    ['pairs', 'precision', 'title', 'over', 'budget']
    """

    over: Any
    budget: BoxBudget | None


#: The default of every option of :class:`CheckOptions` (and so of its parts).
OPTION_DEFAULTS: dict[str, Any] = {
    "pairs": None,
    "precision": DEFAULT_PRECISION,
    "title": None,
    "over": None,
    "budget": None,
}


def fill_options(group: Callable[..., G], function: str, given: Mapping[str, Any]) -> G:
    """A checker's ``**options`` (``given``) with every option of ``group`` (one of
    :class:`QueryOptions`, :class:`PointOptions`, :class:`CheckOptions`) that it lacks
    set to its default; any other keyword is refused with the :class:`TypeError`
    Python raises for an unexpected keyword argument of ``function``.

    >>> o = fill_options(PointOptions, "check_rdp", {"title": "RR"})
    >>> o["pairs"], o["precision"] is DEFAULT_PRECISION, o["title"]
    (None, True, 'RR')
    >>> fill_options(PointOptions, "check_rdp", {"over": (1, 2, 3)})
    Traceback (most recent call last):
    ...
    TypeError: check_rdp() got an unexpected keyword argument 'over'
    """
    keys: dict[str, Any] = getattr(group, "__annotations__", {})
    for name in given:
        if name not in keys:
            raise TypeError(f"{function}() got an unexpected keyword argument {name!r}")
    return group(**{name: given.get(name, OPTION_DEFAULTS[name]) for name in keys})


def not_a_mechanism(function: str, value: Any) -> InvalidMechanism:
    """The error for a checker given something other than a
    :class:`~verifier.mechanism.model.FiniteMechanism`, naming what converts it: a
    ``dp_accounting`` event, an OpenDP measurement, or anything else.

    >>> print(not_a_mechanism("check_pure_dp", {"D": {}}))
    check_pure_dp takes a FiniteMechanism (verifier.FiniteMechanism: a neighbour graph and one exact distribution per dataset), got dict
    """
    kind = type(value)
    where = f"{kind.__module__}.{kind.__qualname__}"
    if where.startswith("dp_accounting"):
        return InvalidMechanism(
            f"{function} takes a FiniteMechanism, got the dp_accounting event "
            f"{kind.__qualname__}: convert it with "
            "verifier.interop.accounting.from_dp_event(event), exact for "
            "RandomizedResponseDpEvent, DiscreteLaplaceDpEvent, RepeatAndSelectDpEvent "
            "(geometric or Poisson count) and their compositions (docs/interop.md)"
        )
    if where.startswith("opendp"):
        return InvalidMechanism(
            f"{function} takes a FiniteMechanism, got the OpenDP object "
            f"{kind.__qualname__}: OpenDP's randomized response, integer Laplace and "
            "bounded geometric measurements are checked exactly by "
            "verifier.interop.opendp_maps (check_randomized_response, "
            "check_integer_laplace, check_bounded_geometric; docs/interop.md)"
        )
    return InvalidMechanism(
        f"{function} takes a FiniteMechanism (verifier.FiniteMechanism: a neighbour graph "
        f"and one exact distribution per dataset), got {kind.__qualname__}"
    )


def privacy_parameters(*former_positional: str) -> Callable[[F], F]:
    """Declare a checker whose privacy parameters are keyword-only in
    :data:`VOCABULARY`; ``former_positional`` names, in order, the parameters that
    followed the positional ones before 0.2 (accepted by position for one release,
    with a :class:`DeprecationWarning`).

    >>> @privacy_parameters("epsilon")
    ... def check(x, *, epsilon):
    ...     return x, epsilon
    >>> check("m", epsilon=1), check("m", epsilon="log(3)")
    (('m', 1), ('m', log(3)))
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     check("m", 2), check("m", eps=3), str(w[0].message)
    (('m', 2), ('m', 3), 'check: pass epsilon=... by keyword (positional privacy parameters are removed in the next release)')
    """

    def wrap(f: F) -> F:
        sig = inspect.signature(f)
        positional = [
            p.name
            for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        for name in sig.parameters:
            if name in FORMER_NAMES:
                raise TypeError(f"{f.__name__}: parameter {name!r} is a former name")
        for name in VOCABULARY:
            p = sig.parameters.get(name)
            if p is not None and p.kind is not p.KEYWORD_ONLY:
                raise TypeError(f"{f.__name__}: {name} must be keyword-only")

        first = positional[0] if positional else None

        @functools.wraps(f)
        def inner(*args: Any, **kwargs: Any) -> Any:
            mech = args[0] if args else kwargs.get(first or "", None)
            if first in ("mech", "mechanism") and not isinstance(mech, FiniteMechanism):
                raise not_a_mechanism(f.__name__, mech)
            if len(args) > len(positional):
                extra = args[len(positional) :]
                if len(extra) > len(former_positional):
                    raise TypeError(
                        f"{f.__name__}() takes {len(positional)} positional argument(s); "
                        f"pass {', '.join(n + '=...' for n in former_positional)} by keyword"
                    )
                names = former_positional[: len(extra)]
                warnings.warn(
                    f"{f.__name__}: pass {', '.join(n + '=...' for n in names)} by keyword "
                    "(positional privacy parameters are removed in the next release)",
                    DeprecationWarning,
                    stacklevel=2,
                )
                for name, value in zip(names, extra, strict=True):
                    if name in kwargs:
                        raise TypeError(f"{f.__name__}() got multiple values for {name!r}")
                    kwargs[name] = value
                args = args[: len(positional)]
            for old in [k for k in kwargs if k in FORMER_NAMES and k not in sig.parameters]:
                new = FORMER_NAMES[old]
                if new not in sig.parameters:
                    continue
                warnings.warn(
                    f"{f.__name__}: {old}= is now {new}= (the former name is removed in "
                    "the next release)",
                    DeprecationWarning,
                    stacklevel=2,
                )
                if new in kwargs:
                    raise TypeError(f"{f.__name__}() got both {old}= and {new}=")
                kwargs[new] = kwargs.pop(old)
            for name in VOCABULARY:
                if isinstance(kwargs.get(name), str):
                    kwargs[name] = number(kwargs[name], what=name)
            return f(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap
