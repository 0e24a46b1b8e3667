"""Claim kinds: what a claim of a spec file can state, one table entry per kind.

A :class:`ClaimKind` gives a kind's parameters in order, whether its claims are about
a mechanism and whether they may be decided for every value of a free symbol
(``over``), the one-line statement of a claim and the function that decides it.  The
model (:class:`~verifier.spec.model.SpecClaim`), the reader and the writer ask
:data:`CLAIM_KINDS` and never switch on a kind's name, so adding a kind is adding one
entry (and, for a parameter no kind used before, a field of ``SpecClaim`` of the same
name).

A :class:`Parameter` says how a value is checked and whether it is given per output
(``epsilon_tilde``: one bound for every output, or a table output -> bound): the one
parameter shape that the reader and the writer treat differently from a single exact
number.

>>> CLAIM_KINDS["approx_dp"].parameter_names
('epsilon', 'delta')
>>> sorted(RANGE_KINDS)
['approx_dp', 'ex_post', 'f_dp', 'pure_dp']
>>> CLAIM_KINDS["inequality"].mechanism, CLAIM_KINDS["inequality"].parameter_names
(False, ('lhs', 'rhs'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy as sp

from ..accounting.curves import check_gdp, check_zcdp
from ..accounting.pld import check_tradeoff
from ..arithmetic.exact import DEFAULT_PRECISION, Precision, Sign, decide_le, decide_sign, exact
from ..checks.privacy import (
    check_alpha,
    check_approx_dp,
    check_delta,
    check_epsilon,
    check_ex_post,
    check_ex_post_approx,
    check_ex_post_rdp,
    check_lemma7,
    check_pure_dp,
    check_pure_off_event,
    check_rdp,
)
from ..checks.ranges import ParameterRange
from ..checks.results import CheckResult, Finding
from ..errors import InvalidParameter, SpecError
from ..mechanism.model import FiniteMechanism, Output
from .labels import expression_text, output_label

if TYPE_CHECKING:
    from .model import SpecClaim

__all__ = [
    "Parameter",
    "ClaimKind",
    "CLAIM_KINDS",
    "RANGE_KINDS",
    "BOX_KINDS",
    "PARAMETER_NAMES",
    "claim_kind",
]


# ---------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------


def nonnegative(value: sp.Expr, what: str, precision: Precision = DEFAULT_PRECISION) -> None:
    """Raise :class:`~verifier.errors.InvalidParameter` unless ``value`` may be >= 0
    (a value with free symbols is refused only when it is negative for all of them)."""
    if value is sp.oo or value.free_symbols:
        if value.is_negative:
            raise InvalidParameter(f"{what} must be >= 0, got {value}")
        return
    if decide_sign(value, precision).sign is Sign.NEGATIVE:
        raise InvalidParameter(f"{what} must be >= 0, got {value}")


@dataclass(frozen=True)
class Parameter:
    """A parameter of a claim kind.

    Parameters
    ----------
    name : str
        The key in spec documents and the attribute of
        :class:`~verifier.spec.model.SpecClaim` holding the value.
    check : callable
        ``check(value, what)`` returns the exact ``value`` checked (or raises a
        :class:`~verifier.errors.VerifierError`); ``what`` names the value in messages.
    per_output : bool
        The value is a bound per output of the mechanism: one expression for every
        output, a mapping output -> expression, or (in Python) a function of the output.
    """

    name: str
    check: Callable[[sp.Expr, str], sp.Expr]
    per_output: bool = False

    def normalise(self, value: Any, outputs: Sequence[Output]) -> Any:
        """The checked exact value; a per-output value becomes one expression or a
        dict over every output in ``outputs`` (the claim's mechanism's outputs)."""
        if not self.per_output:
            return self.check(exact(value), self.name)
        if isinstance(value, Mapping):
            missing = [o for o in outputs if o not in value]
            if missing:
                raise InvalidParameter(
                    f"{self.name} gives no bound for output(s) "
                    f"{', '.join(output_label(o) for o in missing[:5])}"
                    + (" ..." if len(missing) > 5 else "")
                )
            extra = [o for o in value if o not in set(outputs)]
            if extra:
                raise InvalidParameter(
                    f"{self.name} names output {output_label(extra[0])}, which the mechanism lacks"
                )
            return {o: self._bound(value[o], o) for o in outputs}
        if callable(value) and not isinstance(value, sp.Basic):
            return {o: self._bound(value(o), o) for o in outputs}
        return self._bound(value, None)

    def _bound(self, value: Any, o: Output | None) -> sp.Expr:
        where = self.name if o is None else f"{self.name} for output {output_label(o)}"
        return self.check(exact(value), where)

    @staticmethod
    def values(value: Any) -> list[sp.Expr]:
        """The expressions in a parameter's value (every bound of a table)."""
        if value is None:
            return []
        if isinstance(value, dict):
            return list(value.values())
        return [value]


def _positive(value: sp.Expr, what: str) -> sp.Expr:
    return check_epsilon(value, what)


def _nonnegative(value: sp.Expr, what: str) -> sp.Expr:
    nonnegative(value, what)
    return value


def _alpha(value: sp.Expr, what: str) -> sp.Expr:
    return check_alpha(value)


def _delta(value: sp.Expr, what: str) -> sp.Expr:
    return check_delta(value)


def _lemma7_delta(value: sp.Expr, what: str) -> sp.Expr:
    d = check_delta(value)
    if d == 0:
        raise InvalidParameter("Lemma 7 (ii) needs delta > 0")
    return d


def _any(value: sp.Expr, what: str) -> sp.Expr:
    return value


EPSILON = Parameter("epsilon", _positive)
EPSILON_NONNEGATIVE = Parameter("epsilon", _nonnegative)
EPS_TILDE = Parameter("epsilon_tilde", _nonnegative, per_output=True)
DELTA = Parameter("delta", _delta)
DELTA_POSITIVE = Parameter("delta", _lemma7_delta)
ALPHA = Parameter("alpha", _alpha)
#: ρ of ρ-zCDP (Bun & Steinke 2016, Def. 1.1) and μ of μ-GDP (Dong, Roth & Su 2022,
#: Def. 2.6).
RHO = Parameter("rho", _nonnegative)
MU = Parameter("mu", _nonnegative)
#: The trade-off function f of f-DP (Dong, Roth & Su 2022, Def. 2.3): an expression in
#: the type I error, the symbol of the claim's ``over`` range [0, 1].
TRADEOFF = Parameter("tradeoff", _any)
LHS = Parameter("lhs", _any)
RHS = Parameter("rhs", _any)


# ---------------------------------------------------------------------------
# kinds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimKind:
    """One kind of claim.

    Parameters
    ----------
    name : str
        The ``kind`` of a claim in spec files.
    parameters : tuple of Parameter
        The parameters a claim of this kind needs, all required, in order (the order
        of messages and of the reader).
    describe : callable
        ``describe(claim)``: the claim in one line (without its pairs or range).
    decide : callable
        ``decide(claim, precision)``: the :class:`~verifier.checks.results.CheckResult` of the
        claim, titled ``"<id>: <statement>"``.
    over : bool
        Claims may be decided for every value of one free symbol in a range.
    box : bool
        Claims may be decided for every point of a box of several free symbols
        (:mod:`verifier.checks.boxes`).
    mechanism : bool
        Claims are about a mechanism (and may restrict the checked pairs of datasets);
        a kind without one states a relation between its parameters.
    """

    name: str
    parameters: tuple[Parameter, ...]
    describe: Callable[[SpecClaim], str]
    decide: Callable[[SpecClaim, Precision], CheckResult]
    over: bool = False
    mechanism: bool = True
    box: bool = False

    def __post_init__(self) -> None:
        names = self.parameter_names
        if len(set(names)) != len(names):
            raise ValueError(f"claim kind {self.name!r} lists a parameter twice")
        if not self.mechanism and (
            self.over or self.box or any(p.per_output for p in self.parameters)
        ):
            raise ValueError(
                f"claim kind {self.name!r} is about no mechanism: it cannot have a "
                f"parameter range or a bound per output"
            )

    @property
    def parameter_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parameters)

    @property
    def document_order(self) -> tuple[Parameter, ...]:
        """The parameters in the order documents list them and they are checked:
        single values first, then bounds per output, each in the order of
        :data:`PARAMETER_NAMES`."""
        return tuple(
            sorted(self.parameters, key=lambda p: (p.per_output, PARAMETER_NAMES.index(p.name)))
        )


def _title(claim: SpecClaim) -> str:
    return f"{claim.id}: {claim.describe()}"


def _mechanism_of(claim: SpecClaim) -> FiniteMechanism:
    """The mechanism of a claim of a kind about one (SpecClaim requires it)."""
    mech = claim.mechanism
    if not isinstance(mech, FiniteMechanism):  # pragma: no cover - refused by SpecClaim
        raise SpecError(f"a {claim.kind} claim needs a mechanism")
    return mech


def _bounds(claim: SpecClaim) -> Any:
    """``epsilon_tilde`` as the checkers take it (a fresh dict, or one expression)."""
    e = claim.epsilon_tilde
    return dict(e) if isinstance(e, dict) else e


#: How a spec claim gives each privacy parameter of the shared vocabulary
#: (:mod:`verifier.checks.vocabulary`) to a checker.
_PARAMETERS: dict[str, Callable[[SpecClaim], Any]] = {
    "epsilon_tilde": _bounds,
    "epsilon": lambda c: c.epsilon,
    "delta": lambda c: c.delta,
    "alpha": lambda c: c.alpha,
    "rho": lambda c: c.rho,
    "mu": lambda c: c.mu,
    "tradeoff": lambda c: c.tradeoff,
}


def _decider(
    check: Callable[..., CheckResult], *names: str, over: bool = True, **fixed: Any
) -> Callable[[SpecClaim, Precision], CheckResult]:
    """A kind's decision: ``check`` on the claim's mechanism with the privacy
    parameters ``names`` taken from the claim (and its ``over`` domain when the kind
    may range), its pairs, precision and title, and the arguments ``fixed``."""

    def decide(c: SpecClaim, precision: Precision) -> CheckResult:
        kw = {n: _PARAMETERS[n](c) for n in names} | fixed
        if over:
            kw["over"] = c.over
        return check(
            _mechanism_of(c), pairs=c.pair_list(), precision=precision, title=_title(c), **kw
        )

    return decide


def _checked(
    name: str,
    parameters: tuple[Parameter, ...],
    describe: Callable[[SpecClaim], str],
    check: Callable[..., CheckResult],
    *,
    over: bool = False,
    box: bool = False,
    **fixed: Any,
) -> ClaimKind:
    """A kind decided by ``check`` (:func:`_decider`) with the kind's parameters, and
    with the claim's range or box when the kind may have one."""
    names = tuple(p.name for p in parameters)
    decide = _decider(check, *names, over=over or box, **fixed)
    return ClaimKind(name, parameters, describe, decide, over=over, box=box)


def _lemma7(c: SpecClaim, precision: Precision) -> CheckResult:
    result = check_lemma7(
        _mechanism_of(c),
        epsilon_tilde=_bounds(c),
        alpha=c.alpha,
        delta=c.delta,
        pairs=c.pair_list(),
        precision=precision,
    )
    result.title = _title(c)
    return result


def _f_dp(c: SpecClaim, precision: Precision) -> CheckResult:
    """``T(P_D, P_D') >= f`` on [0, 1]: ``f`` is an expression in the symbol of the
    claim's ``over`` range, which must be the type I error's whole range [0, 1]."""
    over = c.over
    if not isinstance(over, ParameterRange) or over.lo != 0 or over.hi != 1:
        raise SpecError(
            "an f_dp claim names the type I error of its trade-off function with "
            'over = { symbol = "x", lo = 0, hi = 1 }'
        )
    result = check_tradeoff(
        _mechanism_of(c), c.tradeoff, over.symbol, precision, pairs=c.pair_list()
    )
    result.title = _title(c)
    return result


def _inequality(c: SpecClaim, precision: Precision) -> CheckResult:
    """``lhs <= rhs``, decided exactly (or with certified enclosures)."""
    cmp = decide_le(c.lhs, c.rhs, precision)
    finding = Finding(cmp.verdict, None, None, cmp.lhs, cmp.rhs, cmp.lhs, cmp.rhs, tight=cmp.tight)
    return CheckResult(_title(c), cmp.verdict, [finding], quantity="lhs")


def _table(*kinds: ClaimKind) -> dict[str, ClaimKind]:
    table: dict[str, ClaimKind] = {}
    for k in kinds:
        if k.name in table:
            raise ValueError(f"claim kind {k.name!r} is defined twice")
        table[k.name] = k
    return table


#: Every claim kind, by name, in the order messages list them (the ex-post kinds and
#: Lemma 7: Ghazi et al. 2025, Defs 2, 5, 6 and Lemma 7).
CLAIM_KINDS: dict[str, ClaimKind] = _table(
    _checked(
        "pure_dp",
        (EPSILON,),
        lambda c: f"{c.mechanism_name} is {c.epsilon}-DP",
        check_pure_dp,
        over=True,
        box=True,
    ),
    _checked(
        "ex_post",
        (EPS_TILDE,),
        lambda c: f"{c.mechanism_name} is ex-post eps~-DP",
        check_ex_post,
        over=True,
        box=True,
    ),
    _checked(
        "approx_dp",
        (EPSILON, DELTA),
        lambda c: f"{c.mechanism_name} is ({c.epsilon}, {c.delta})-DP",
        check_approx_dp,
        over=True,
        box=True,
    ),
    _checked(
        "ex_post_approx",
        (EPS_TILDE, DELTA),
        lambda c: f"{c.mechanism_name} is ex-post (eps~, {c.delta})-DP",
        check_ex_post_approx,
        box=True,
    ),
    _checked(
        "pure_off_event",
        (EPSILON, DELTA),
        lambda c: f"{c.mechanism_name} is {c.epsilon}-DP off an event of mass <= {c.delta}",
        check_pure_off_event,
    ),
    _checked(
        "pure_off_event_both",
        (EPSILON, DELTA),
        lambda c: (
            f"{c.mechanism_name} is {c.epsilon}-DP off an event of mass <= {c.delta} "
            f"under both datasets"
        ),
        check_pure_off_event,
        both=True,
    ),
    _checked(
        "rdp",
        (ALPHA, EPSILON_NONNEGATIVE),
        lambda c: f"{c.mechanism_name} is ({c.alpha}, {c.epsilon})-RDP",
        check_rdp,
    ),
    _checked(
        "ex_post_rdp",
        (EPS_TILDE, ALPHA),
        lambda c: f"{c.mechanism_name} is ex-post ({c.alpha}, eps~)-RDP",
        check_ex_post_rdp,
        box=True,
    ),
    ClaimKind(
        "lemma7",
        (EPS_TILDE, ALPHA, DELTA_POSITIVE),
        lambda c: f"Lemma 7 on {c.mechanism_name} (alpha = {c.alpha}, delta = {c.delta})",
        _lemma7,
    ),
    _checked(
        "zcdp",
        (RHO,),
        lambda c: f"{c.mechanism_name} is {c.rho}-zCDP (every Renyi order)",
        check_zcdp,
    ),
    _checked(
        "gdp",
        (MU,),
        lambda c: f"{c.mechanism_name} is {c.mu}-GDP",
        check_gdp,
    ),
    ClaimKind(
        "f_dp",
        (TRADEOFF,),
        lambda c: f"{c.mechanism_name} is f-DP, f = {expression_text(c.tradeoff)}",
        _f_dp,
        over=True,
    ),
    ClaimKind(
        "inequality",
        (LHS, RHS),
        lambda c: f"{expression_text(c.lhs)} <= {expression_text(c.rhs)}",
        _inequality,
        mechanism=False,
    ),
)

#: Every parameter name, in the order of first use in :data:`CLAIM_KINDS`.
PARAMETER_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(p.name for k in CLAIM_KINDS.values() for p in k.parameters)
)

#: Kinds that may be decided for every value of a parameter (``over = {...}``).
RANGE_KINDS: frozenset[str] = frozenset(k.name for k in CLAIM_KINDS.values() if k.over)

#: Kinds that may be decided for every point of a box of parameters
#: (``over = { eps_1 = ["1/100", "3"], eps_prime = ["1/100", "1"] }``).
BOX_KINDS: frozenset[str] = frozenset(k.name for k in CLAIM_KINDS.values() if k.box)


def claim_kind(name: str) -> ClaimKind:
    """The kind called ``name``, or :class:`~verifier.errors.SpecError` listing the kinds."""
    try:
        return CLAIM_KINDS[name]
    except KeyError:
        raise SpecError(f"unknown claim kind {name!r} (kinds: {', '.join(CLAIM_KINDS)})") from None
