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
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from ..arithmetic.expressions import number
from ..errors import InvalidMechanism
from ..mechanism.model import FiniteMechanism

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
