"""Privacy checkers: pure, approximate, Rényi and ex-post DP on finite mechanisms.

Definitions (Dwork & Roth 2014 for pure and approximate DP, Mironov 2017 for Rényi
DP; Ghazi et al. 2025, Defs 2, 5, 6 and Lemma 7 for the ex-post notions).  For every
ordered neighbouring pair ``(D, D')`` (both directions of every edge, or the pairs
given explicitly, e.g. pairs at distance Δ for group privacy):

* ex-ante ε-DP: ``P_D(o) <= e^ε P_D'(o)`` for every output ``o``;
* ex-post ε̃-DP (Def 2): ``P_D(o) <= e^{ε̃(o)} P_D'(o)``;
* hockey-stick divergence ``δ_{D,D'}(ε̃) = Σ_o max(0, P_D(o) - e^{ε̃(o)} P_D'(o))``;
  (ε, δ)-DP and ex-post (ε̃, δ)-DP (Def 5) bound it by δ;
* Rényi divergence ``D_α(P‖Q) = log(Σ_o P(o)^α Q(o)^{1-α}) / (α-1)``;
  ex-post (α, ε̃)-RDP (Def 6): ``Σ_o P_D(o)^α (e^{ε̃(o)} P_D'(o))^{1-α} <= 1``;
* realized ex-post loss ``ε_M(o) = max_{(D,D')} log(P_D(o)/P_D'(o))``.

Every checker returns a :class:`~verifier.checks.results.CheckResult` whose findings are the
individual inequalities, decided exactly or with certified enclosures (never with a
tolerance).  Inequalities are decided in product form (``p <= e^b q``), so that an
attained bound is proved by an exact identity, not approximated through logarithms.

Claims over a parameter range.  When probabilities and bounds are expressions in one
unbound symbol, pass ``over=(symbol, a, b)`` to decide the pure/ex-post claim for
*every* value of the symbol in ``[a, b]`` (:mod:`verifier.checks.ranges`: exact real-root
isolation in ``w = e^{symbol/L}``).  With several unbound symbols, pass a box
``over={symbol: (lo, hi), ...}`` (:class:`verifier.checks.boxes.Box`): every inequality is
decided for every point of the box by certified branch and bound
(:mod:`verifier.checks.boxes`); each finding then carries the decision (``region``: failing
and undecided sub-boxes, a witness point) and the checkers that take ``over`` also
take a ``budget`` (:class:`verifier.checks.boxes.BoxBudget`).

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> e = sp.Rational(1, 2)
>>> p = sp.exp(e) / (1 + sp.exp(e))
>>> rr = FiniteMechanism(pair(), {"D": {1: p, 0: 1 - p}, "D'": {1: 1 - p, 0: p}})
>>> check_pure_dp(rr, epsilon=e).verdict, check_pure_dp(rr, epsilon=e).tight
(<Verdict.HOLDS: 'holds'>, True)
>>> pure_epsilon(rr).value
1/2
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Unpack

import sympy as sp

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Enclosure,
    Precision,
    Sign,
    Verdict,
    approx,
    combine_verdicts,
    decide_le,
    decide_sign,
    enclose,
    exact,
    exact_max,
    format_number,
)
from ..errors import InvalidParameter, UnboundSymbol
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .boxes import Box, BoxBudget, decide_on_box
from .docstrings import fill_doc
from .ranges import ParameterRange
from .results import CheckResult, Deferred, Finding, Subject
from .vocabulary import (
    CheckOptions,
    PointOptions,
    QueryOptions,
    fill_options,
    privacy_parameters,
)

__all__ = [
    "ParameterRange",
    "realized_ex_post_epsilon",
    "RealizedLoss",
    "pure_epsilon",
    "check_distributions",
    "check_ex_post",
    "check_pure_dp",
    "hockey_stick",
    "delta",
    "check_approx_dp",
    "check_ex_post_approx",
    "renyi_divergence",
    "rdp_epsilon",
    "check_rdp",
    "ex_post_rdp_sum",
    "check_ex_post_rdp",
    "lemma7_rdp_bound",
    "lemma7_dp_bound",
    "check_lemma7",
    "check_epsilon",
    "check_alpha",
    "check_delta",
    "EventRemoval",
    "event_removal",
    "check_pure_off_event",
]

Pair = tuple[Dataset, Dataset]
Bound = Callable[[Output], Any] | Mapping[Output, Any] | Any


Domain = ParameterRange | Box


def parameter_domain(over: Any) -> Domain | None:
    """``over=`` as a :class:`ParameterRange` (``(symbol, lo, hi)``) or a
    :class:`~verifier.checks.boxes.Box` (a mapping ``{symbol: (lo, hi), ...}``)."""
    if isinstance(over, (Box, dict)) or hasattr(over, "items"):
        return Box.of(over)
    return ParameterRange.of(over)


def _domain_symbols(over: Domain) -> set[sp.Symbol]:
    return {over.symbol} if isinstance(over, ParameterRange) else set(over.symbols)


# ---------------------------------------------------------------------------
# parameter validation
# ---------------------------------------------------------------------------


def _numeric_sign(x: sp.Expr, precision: Precision) -> Sign | None:
    if x.free_symbols:
        return None
    return decide_sign(x, precision).sign


def check_epsilon(
    eps: Any, what: str = "epsilon", precision: Precision = DEFAULT_PRECISION
) -> sp.Expr:
    """An exact ε > 0, or InvalidParameter naming the problem."""
    e = exact(eps)
    if e is sp.oo:
        return e
    s = _numeric_sign(e, precision)
    if s is None:
        if e.is_positive is False:
            raise InvalidParameter(f"{what} must be > 0, got {e}")
        return e
    if s in (Sign.NEGATIVE, Sign.ZERO):
        raise InvalidParameter(f"{what} must be > 0, got {format_number(e)}")
    if s is Sign.UNDECIDED:
        raise InvalidParameter(f"could not decide that {what} = {e} is > 0")
    return e


def check_alpha(alpha: Any, precision: Precision = DEFAULT_PRECISION) -> sp.Expr:
    """An exact Rényi order α > 1 (may be a symbol)."""
    a = exact(alpha)
    if _numeric_sign(a - 1, precision) not in (None, Sign.POSITIVE):
        raise InvalidParameter(f"Rényi order alpha must be > 1, got {format_number(a)}")
    return a


def check_delta(d: Any, precision: Precision = DEFAULT_PRECISION) -> sp.Expr:
    """An exact δ in [0, 1]."""
    x = exact(d)
    if (
        _numeric_sign(x, precision) is Sign.NEGATIVE
        or _numeric_sign(1 - x, precision) is Sign.NEGATIVE
    ):
        raise InvalidParameter(f"delta must lie in [0, 1], got {format_number(x)}")
    return x


def _bound_function(bound: Bound, precision: Precision, what: str) -> Callable[[Output], sp.Expr]:
    """Normalise a claimed ex-post bound (callable, mapping or constant)."""
    cache: dict[Any, sp.Expr] = {}

    if callable(bound) and not isinstance(bound, sp.Basic):
        raw: Callable[[Output], Any] = bound
    elif isinstance(bound, Mapping):
        table = dict(bound)

        def raw(o: Output) -> Any:
            if o not in table:
                raise InvalidParameter(f"{what} gives no value for output {o!r}")
            return table[o]
    else:
        const = exact(bound)

        def raw(o: Output) -> Any:
            return const

    def f(o: Output) -> sp.Expr:
        key = o
        if key not in cache:
            v = exact(raw(o))
            if v is not sp.oo and _numeric_sign(v, precision) is Sign.NEGATIVE:
                raise InvalidParameter(f"{what} for output {o!r} is negative: {format_number(v)}")
            cache[key] = v
        return cache[key]

    return f


def checked_pairs(mech: FiniteMechanism, pairs: Iterable[Pair] | None) -> list[Pair]:
    """The ordered pairs a check covers: ``pairs``, each naming datasets of ``mech``
    (else :class:`~verifier.errors.InvalidParameter`), or by default both directions of
    every edge."""
    if pairs is None:
        return list(mech.ordered_pairs())
    out = []
    for d, d2 in pairs:
        if d not in mech.graph or d2 not in mech.graph:
            raise InvalidParameter(f"pair ({d!r}, {d2!r}) names a dataset the mechanism lacks")
        out.append((d, d2))
    return out


def _require_bound(mech: FiniteMechanism, over: Domain | None) -> None:
    free = mech.free_symbols
    if over is not None:
        allowed = _domain_symbols(over)
        names = {str(s) for s in allowed} if isinstance(over, Box) else set()
        extra = {s for s in free - allowed if str(s) not in names}
        if extra:
            raise UnboundSymbol(
                f"symbol(s) {sorted(map(str, extra))} have no value (only "
                f"{', '.join(sorted(map(str, allowed)))} range)"
            )
    elif free:
        raise UnboundSymbol(
            f"symbol(s) {sorted(map(str, free))} have no value; give values or check the claim "
            f"over a range with over=(symbol, lo, hi)"
        )


def _claim_domain(mech: FiniteMechanism, over: Any) -> Domain | None:
    """The domain of a claim (``over`` read by :func:`parameter_domain`), every other
    symbol of ``mech`` required to have a value."""
    rng = parameter_domain(over)
    _require_bound(mech, rng)
    return rng


# ---------------------------------------------------------------------------
# deciding one inequality, at a point or over a range
# ---------------------------------------------------------------------------


def _decide(
    lhs: sp.Expr,
    rhs: sp.Expr,
    over: Domain | None,
    precision: Precision,
    budget: BoxBudget | None = None,
) -> tuple[Verdict, bool, tuple[Any, ...], Any]:
    """Verdict, attained (everywhere, for a domain), failing pieces and the box
    decision (``None`` unless ``over`` is a box)."""
    if over is None or not (lhs.free_symbols or rhs.free_symbols):
        c = decide_le(lhs, rhs, precision)
        return c.verdict, c.tight, (), None
    forms = None if isinstance(over, Box) else _without_positive_parts(lhs)
    if forms is not None:
        # sum_i max(0, t_i) <= rhs  <=>  sum_{i in S} t_i <= rhs for every subset S
        results = [_decide(f, rhs, over, precision, budget) for f in forms]
        verdict = combine_verdicts(r[0] for r in results)
        failing = tuple(x for r in results for x in r[2])
        tight = verdict is Verdict.HOLDS and any(r[1] for r in results)
        return verdict, tight, failing, None
    if isinstance(over, Box):
        if lhs is sp.oo or rhs is sp.oo:
            c = decide_le(lhs, rhs, precision)
            return c.verdict, c.tight, (), None
        d = decide_on_box(lhs, rhs, over, budget)
        return d.verdict, d.identically_equal, tuple(d.failing), d
    from .ranges import decide_on_interval

    r = decide_on_interval(lhs, rhs, over.symbol, over.lo, over.hi, precision=precision)
    return r.verdict, r.identically_equal, tuple(r.failing), None


def _without_positive_parts(lhs: sp.Expr, most: int = 6) -> list[sp.Expr] | None:
    """``lhs = r + Σ_i max(0, t_i)`` (a hockey-stick sum whose terms change sign over a
    domain) as the ``2^k`` sums ``r + Σ_{i ∈ S} t_i``, whose maximum it is — so ``lhs <=
    rhs`` over a range is decided as the conjunction of smooth inequalities (a box keeps
    its own decision of the sum, with the regions it reports); ``None`` without such
    terms or with more than ``most`` of them."""
    terms = sp.Add.make_args(lhs)
    parts = [a for a in terms if isinstance(a, sp.Max) and len(a.args) == 2 and 0 in a.args]
    if not parts or len(parts) > most:
        return None
    rest = sp.Add(*[a for a in terms if a not in parts])
    ts = [next(x for x in a.args if x != 0) for a in parts]
    return [
        rest + sp.Add(*chosen)
        for k in range(len(ts) + 1)
        for chosen in itertools.combinations(ts, k)
    ]


#: Largest expression tree (nodes) of a probability whose ratio ``p/q`` is evaluated for
#: display; larger ones are divided unevaluated (:func:`_log_ratio`).
_RATIO_NODES = 60


def _small(x: sp.Expr, limit: int = _RATIO_NODES) -> bool:
    """At most ``limit`` nodes in ``x``'s expression tree (the walk stops early)."""
    stack, n = [x], 0
    while stack:
        n += 1
        if n > limit:
            return False
        stack.extend(stack.pop().args)
    return True


def _log_ratio(p: sp.Expr, q: sp.Expr) -> sp.Expr:
    """``log(p/q)`` for display in findings (the verdicts compare ``p`` with
    ``e^ε q``).  Large probabilities are divided unevaluated: sympy's evaluation of
    ``p/q`` inverts ``q`` and asks whether its terms are zero, which for nested sums of
    radicals computes minimal polynomials (seen: minutes for one ratio of Talwar 2025,
    Theorem 7's hybrid algorithm at ε = ln(400)/12, depending on the hash seed); the
    unevaluated quotient is the same exact value, displayed and enclosed as is."""
    if p == 0:
        return -sp.oo
    if q == 0:
        return sp.oo
    if _small(p) and _small(q):
        return _log(p / q)
    return sp.log(sp.Mul(p, sp.Pow(q, -1, evaluate=False), evaluate=False), evaluate=False)


class _LogRatio(Deferred):
    """The realized loss ``log(p/q)`` of one finding at a point, formed by
    :func:`_log_ratio` only when it is read (:class:`~verifier.checks.results.Deferred`):
    a check decides every output and pair and shows a few.  Its enclosure is the
    logarithm of the quotient of ``p``'s and ``q``'s own enclosures, which the decision
    formed already."""

    __slots__ = ("p", "q")

    def __init__(self, p: sp.Expr, q: sp.Expr) -> None:
        self.p, self.q = p, q

    def value(self) -> sp.Expr:
        return _log_ratio(self.p, self.q)

    def enclosure(self, bits: int) -> Enclosure | None:
        a, b = enclose(self.p, bits), enclose(self.q, bits)
        if a is None or b is None:
            return None
        return a.log_ratio(b)

    def key(self) -> tuple[str, sp.Expr, sp.Expr]:
        return ("log_ratio", self.p, self.q)


def _realized_loss(p: sp.Expr, q: sp.Expr, at_point: bool) -> sp.Expr | _LogRatio:
    """``log(p/q)`` of a finding: deferred (:class:`_LogRatio`) between two nonzero
    numbers (``at_point``: the check has no parameter domain, so every symbol has a
    value), formed now otherwise (over a domain, or a zero)."""
    if not at_point or p == 0 or q == 0:
        return _log_ratio(p, q)
    return _LogRatio(p, q)


def _log(r: sp.Expr) -> sp.Expr:
    """``log(r)`` for display in findings.  Evaluating log() of a large expression runs
    sympy's assumption queries on the whole argument, which dominated the cost of
    checks on big exact mechanisms; the unevaluated log is the same exact value
    (displayed and enclosed as is), so only simple arguments are evaluated."""
    if r.is_Rational and r.p > 1 and r.q > 1:
        # sympy's log(p/q) stays log(p/q) for such a rational, after assumption
        # queries whose cost grows with the size of p and q: skip them
        return sp.log(r, evaluate=False)
    if r.is_Rational or isinstance(r, sp.exp) or (r.is_Pow and r.base.is_Rational):
        return sp.log(r)
    return sp.log(r, evaluate=False)


def check_distributions(
    mech: FiniteMechanism,
    over: Any,
    *,
    precision: Precision = DEFAULT_PRECISION,
    budget: BoxBudget | None = None,
) -> CheckResult:
    """The mechanism is a mechanism at every point of the domain ``over``: every
    probability is ``>= 0`` (decided over the domain) and every distribution sums to 1
    identically.  The premise of a claim about a mechanism built symbolically in
    parameters whose probabilities sympy cannot prove nonnegative by itself (built
    with ``validate=False``)."""
    from .boxes import identically_zero

    rng = parameter_domain(over)
    if rng is None:
        raise InvalidParameter("check_distributions needs a parameter domain (over=...)")
    _require_bound(mech, rng)
    zero = sp.Integer(0)
    findings: list[Finding] = []
    for d in mech.datasets:
        total = zero
        for o in mech.outputs:
            p = mech.p(d, o)
            total += p
            v, tight, failing, region = _decide(zero, p, rng, precision, budget)
            findings.append(
                Finding(
                    v,
                    o,
                    (d, d),
                    p,
                    zero,
                    zero,
                    p,
                    failing=failing,
                    region=region,
                    over=rng,
                    lower_bound=True,
                )
            )
        one = identically_zero(total - 1, sorted(total.free_symbols, key=str))
        ok = Verdict.HOLDS if one else Verdict.UNDECIDED
        findings.append(
            Finding(ok, "sum", (d, d), total, sp.Integer(1), total, sp.Integer(1), tight=one)
        )
    return CheckResult(
        f"{mech.name} is a mechanism for every {rng}",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="probability",
    )


# ---------------------------------------------------------------------------
# pure and ex-post DP
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Attained:
    """The smallest privacy parameter of a mechanism and where it is attained — the one
    result of :func:`pure_epsilon`, :func:`delta`, :func:`rdp_epsilon`,
    :func:`realized_ex_post_epsilon` (one per output) and
    :func:`verifier.interop.exact.epsilon_for_delta`.

    Attributes
    ----------
    value : sympy.Expr
        The exact value (``oo`` when no finite value will do).
    pair : tuple
        An ordered pair of neighbouring datasets ``(D, D')`` attaining it.
    output : hashable or None
        The output attaining it, for a per-output loss (``pure_epsilon``, the
        realized ex-post ε(o)); ``None`` for a sum over outputs (δ, a Rényi ε).
    certified : bool
        Whether the maximum over pairs (and outputs) is certified; an uncertified
        maximum is still an exact value of some pair.

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import randomized_response
    >>> r = delta(randomized_response(sp.log(3)), epsilon=sp.log(2))
    >>> r.value, r.pair
    (1/4, ('D', "D'"))
    >>> float(r)
    0.25
    """

    value: sp.Expr
    pair: Pair
    output: Output | None = None
    certified: bool = True

    def __float__(self) -> float:
        """The value as a float (display only; every verdict is exact)."""
        return approx(self.value)

    def _former(self) -> tuple[sp.Expr, Pair]:
        warnings.warn(
            "delta, rdp_epsilon and epsilon_for_delta return an Attained: use .value and "
            ".pair (unpacking it as a (value, pair) tuple is removed in the next release)",
            DeprecationWarning,
            stacklevel=3,
        )
        return self.value, self.pair

    def __iter__(self) -> Iterator[Any]:
        return iter(self._former())

    def __getitem__(self, i: int) -> Any:
        return self._former()[i]


#: The former name of :class:`Attained` for one output's realized loss.
RealizedLoss = Attained


@dataclass
class RealizedTable:
    """Realized ex-post ε(o) for every output possible somewhere."""

    rows: list[Attained]

    def __iter__(self) -> Any:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def as_dict(self) -> dict[Output, sp.Expr]:
        return {r.output: r.value for r in self.rows}

    def __str__(self) -> str:
        lines = ["output  realized ex-post epsilon  pair"]
        for r in self.rows:
            lines.append(
                f"{r.output!s:7} {format_number(r.value) if r.value is not sp.oo else 'inf':24} "
                f"{r.pair[0]!s} -> {r.pair[1]!s}" + ("" if r.certified else "  (max not certified)")
            )
        return "\n".join(lines)


@fill_doc
def realized_ex_post_epsilon(
    mech: FiniteMechanism,
    pairs: Iterable[Pair] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> RealizedTable:
    """Realized ex-post loss ``ε_M(o) = max_{(D,D')} log(P_D(o)/P_D'(o))`` per output.

    Outputs impossible at every dataset are excluded; ``oo`` where some
    ``P_D'(o) = 0 < P_D(o)``.  Values are exact expressions; the maximum over pairs
    is found with certified comparisons.

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    %(pairs_max)s
    %(precision)s

    Returns
    -------
    RealizedTable
        One :class:`Attained` per output (value, pair, output, whether the maximum
        is certified); ``as_dict()`` maps outputs to values.

    Raises
    ------
    %(raises_unbound)s
    verifier.errors.InvalidParameter
        A pair names a dataset the mechanism lacks.

    Examples
    --------
    At ``D`` both outputs have probability 1/2; at ``D'``, ``a`` has 1/4 and ``b``
    3/4.  The loss at ``a`` is largest from ``D`` to ``D'``: ``log((1/2)/(1/4)) =
    log 2``; at ``b`` from ``D'`` to ``D``: ``log((3/4)/(1/2)) = log(3/2)``.

    >>> from verifier.mechanism.model import FiniteMechanism
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> m = FiniteMechanism(pair(), {"D": {"a": R(1, 2), "b": R(1, 2)}, "D'": {"a": R(1, 4), "b": R(3, 4)}})
    >>> print(realized_ex_post_epsilon(m))
    output  realized ex-post epsilon  pair
    a       log(2) ≈ 0.693147        D -> D'
    b       log(3/2) ≈ 0.405465      D' -> D
    """
    _require_bound(mech, None)
    prs = checked_pairs(mech, pairs)
    rows: list[RealizedLoss] = []
    for o in mech.outputs:
        # the pairs where o is possible at the first dataset, and whether its loss is
        # infinite there (impossible at the second); the losses themselves are formed
        # for the largest ratio only
        cands: list[tuple[Pair, bool]] = []
        for d, d2 in prs:
            p, q = mech.p(d, o), mech.p(d2, o)
            if p == 0:
                continue
            cands.append(((d, d2), q == 0))
        if not cands:
            continue
        infinite = [pr for pr, inf in cands if inf]
        if infinite:
            rows.append(Attained(sp.oo, infinite[0], o, True))
            continue
        ratios = [mech.p(d, o) / mech.p(d2, o) for (d, d2), _ in cands]
        i, ok = exact_max(ratios, precision)
        rows.append(Attained(_log(ratios[i]), cands[i][0], o, ok))
    return RealizedTable(rows)


@fill_doc
def pure_epsilon(
    mech: FiniteMechanism,
    pairs: Iterable[Pair] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> Attained:
    """The smallest ε for which ``mech`` is ε-DP: ``max_o ε_M(o)`` (exact), with the
    output and the pair attaining it.

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    pairs : iterable of (dataset, dataset), optional
        The ordered pairs to maximise over; default every ordered neighbouring pair
        (pairs at distance ``k``, :func:`~verifier.mechanism.neighbours.pairs_at_distance`,
        give the group-privacy ε).
    %(precision)s

    Returns
    -------
    Attained
        The exact ε (``oo`` when some output is possible at one dataset only), the
        pair and the output attaining it.

    Raises
    ------
    verifier.errors.InvalidParameter
        The mechanism has no possible output, or a pair names an unknown dataset.
    %(raises_unbound)s

    Examples
    --------
    Randomized response with ε = log 3 is exactly log 3-DP (``(3/4)/(1/4) = 3``).  The
    truncated geometric mechanism with ``x = 1/2`` is ``log 2``-DP, and ``log 4``-DP
    for datasets two steps apart (``P_0(0)/P_2(0) = (2/3)/(1/6) = 4``):

    >>> from verifier.mechanism.instances import randomized_response, truncated_geometric
    >>> from verifier.mechanism.neighbours import pairs_at_distance
    >>> pure_epsilon(randomized_response("log(3)")).value
    log(3)
    >>> tg = truncated_geometric(2, sp.Rational(1, 2))
    >>> pure_epsilon(tg).value, pure_epsilon(tg, pairs=pairs_at_distance(tg.graph, 2)).value
    (log(2), log(4))
    """
    table = realized_ex_post_epsilon(mech, pairs, precision).rows
    if not table:
        raise InvalidParameter("the mechanism has no possible output")
    inf = [r for r in table if r.value is sp.oo]
    if inf:
        return inf[0]
    i, ok = exact_max([r.value for r in table], precision)
    r = table[i]
    value = r.value
    plain = value.is_Rational or (isinstance(value, sp.log) and value.args[0].is_Rational)
    if not plain and sp.count_ops(value) < 50:
        # (sympy's simplify returns a rational and the log of one as they are)
        value = sp.simplify(value)
    return Attained(value, r.pair, r.output, ok and all(t.certified for t in table))


@fill_doc
@privacy_parameters("epsilon_tilde")
def check_ex_post(
    mech: FiniteMechanism, *, epsilon_tilde: Bound, **options: Unpack[CheckOptions]
) -> CheckResult:
    """Check ex-post ε̃-DP (Ghazi et al. 2025, Def 2): ``P_D(o) <= e^{ε̃(o)} P_D'(o)``.

    ``epsilon_tilde`` is a function of the output, a mapping, or a constant (then this
    is ex-ante ε-DP).  Findings carry, per output and pair, the realized loss
    ``log(P_D(o)/P_D'(o))``, the claimed ``ε̃(o)`` and the slack.

    Parameters
    ----------
    mech : FiniteMechanism
    epsilon_tilde : callable, mapping or number
        The claimed ex-post bound ε̃(o) (keyword-only; a string in the spec grammar
        for a constant).
    %(check_options)s

    Returns
    -------
    CheckResult
        Verdict *holds*, *violated* or *undecided*, one :class:`Finding` per output
        and pair.

    Raises
    ------
    %(raises_mech)s
    %(raises_unbound_over)s
    verifier.errors.InvalidParameter
        A bound is not an exact number, or a pair names an unknown dataset.

    Examples
    --------
    The mechanism of :func:`realized_ex_post_epsilon`'s example realizes ``log 2`` at
    ``a`` and ``log(3/2)`` at ``b``: that bound holds, attained; ``log(5/4)`` at ``b``
    is violated (from ``D'`` to ``D``).

    >>> from verifier.mechanism.model import FiniteMechanism
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> m = FiniteMechanism(pair(), {"D": {"a": R(1, 2), "b": R(1, 2)}, "D'": {"a": R(1, 4), "b": R(3, 4)}})
    >>> r = check_ex_post(m, epsilon_tilde={"a": sp.log(2), "b": sp.log(R(3, 2))})
    >>> r.verdict, r.tight
    (<Verdict.HOLDS: 'holds'>, True)
    >>> w = check_ex_post(m, epsilon_tilde={"a": sp.log(2), "b": sp.log(R(5, 4))}).worst()
    >>> w.verdict, w.output, w.pair, w.realized
    (<Verdict.VIOLATED: 'violated'>, 'b', ("D'", 'D'), log(3/2))
    """
    o = fill_options(CheckOptions, "check_ex_post", options)
    precision = o["precision"]
    rng = _claim_domain(mech, o["over"])
    bound = _bound_function(epsilon_tilde, precision, "the claimed ex-post bound")
    prs = checked_pairs(mech, o["pairs"])
    findings: list[Finding] = []
    # an inequality met again (a symmetric mechanism repeats its laws over many pairs
    # and outputs) takes the decision made the first time, at a point or over a range
    # (a box decision spends its budget's sub-boxes: each is decided where it occurs)
    again = not isinstance(rng, Box)
    decided: dict[tuple[sp.Expr, sp.Expr, sp.Expr], tuple[Any, ...]] = {}
    for out in mech.outputs:
        b = bound(out)
        eb = sp.exp(b) if b is not sp.oo else sp.oo
        for d, d2 in prs:
            p, q = mech.p(d, out), mech.p(d2, out)
            if p == 0:
                continue
            known = decided.get((p, q, b)) if again else None
            if known is not None:
                rhs, v, tight, failing, region, loss = known
            else:
                rhs = sp.oo if eb is sp.oo else (eb * q)
                v, tight, failing, region = _decide(p, rhs, rng, precision, o["budget"])
                loss = _realized_loss(p, q, rng is None)
                if again:
                    decided[(p, q, b)] = (rhs, v, tight, failing, region, loss)
            findings.append(
                Finding(
                    v,
                    out,
                    (d, d2),
                    loss,
                    b,
                    p,
                    rhs,
                    tight=tight,
                    failing=failing,
                    region=region,
                    over=rng,
                )
            )
    where = f" for {rng}" if rng else ""
    return _result(
        mech,
        o,
        prs,
        findings,
        f"ex-post DP of {mech.name}{where}",
        "realized eps(o)",
        ("ex_post", {"epsilon_tilde": epsilon_tilde}),
        rng,
    )


def _ex_ante(
    ex_post: Callable[..., CheckResult],
    subject: tuple[str, dict[str, Any]],
    mech: FiniteMechanism,
    options: CheckOptions,
    title: str,
    **more: Any,
) -> CheckResult:
    """An ex-ante claim checked by the ex-post checker ``ex_post`` with the constant
    bound ``ε̃ = ε`` (with a constant bound, Ghazi et al. 2025, Defs 2 and 5 are ε-DP
    and (ε, δ)-DP); ``subject`` is the ex-ante checker's kind and parameters (ε first,
    then the others, which ``more`` also passes on), ``options`` its filled options and
    ``title`` its default title."""
    kind, params = subject
    pairs = options["pairs"]
    prs = None if pairs is None else list(pairs)
    result = ex_post(
        mech,
        epsilon_tilde=params["epsilon"],
        **{**options, "pairs": prs, "title": options["title"] or title},
        **more,
    )
    result.subject = Subject.of(kind, mech, params, prs, parameter_domain(options["over"]))
    return result


@fill_doc
@privacy_parameters("epsilon")
def check_pure_dp(
    mech: FiniteMechanism, *, epsilon: Any, **options: Unpack[CheckOptions]
) -> CheckResult:
    """Check ε-DP (ex-ante): ``P_D(o) <= e^ε P_D'(o)`` for all pairs and outputs.

    Parameters
    ----------
    mech : FiniteMechanism
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The claimed ε > 0 (keyword-only; ``"log(3)"`` is read exactly).
    %(check_options)s

    Returns
    -------
    CheckResult
        One :class:`Finding` per output and ordered pair.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``epsilon`` is not an exact number > 0.
    %(raises_unbound_over)s

    Examples
    --------
    Randomized response with ε = log 3 is log 3-DP with equality, and not 1-DP
    (``log 3 > 1``; the slack is ``1 - log 3``):

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> print(check_pure_dp(rr, epsilon="log(3)").summary())
    RR is (log(3))-DP: holds; worst slack 0 (attained exactly)
    >>> r = check_pure_dp(rr, epsilon=1)
    >>> r.verdict, r.worst().slack
    (<Verdict.VIOLATED: 'violated'>, 1 - log(3))
    """
    o = fill_options(CheckOptions, "check_pure_dp", options)
    e = check_epsilon(epsilon, precision=o["precision"])
    return _ex_ante(check_ex_post, ("pure_dp", {"epsilon": e}), mech, o, f"{mech.name} is ({e})-DP")


# ---------------------------------------------------------------------------
# approximate DP: hockey-stick divergence
# ---------------------------------------------------------------------------


def _support(
    P: Mapping[Output, Any], Q: Mapping[Output, Any]
) -> Iterator[tuple[Output, sp.Expr, sp.Expr]]:
    """``(o, P(o), Q(o))``, exact, for every output ``o`` with ``P(o) != 0``."""
    for o, pv in P.items():
        p = exact(pv)
        if p != 0:
            yield o, p, exact(Q.get(o, 0))


def hockey_stick(
    P: Mapping[Output, Any],
    Q: Mapping[Output, Any],
    eps_tilde: Bound,
    precision: Precision = DEFAULT_PRECISION,
) -> sp.Expr:
    """``Σ_o max(0, P(o) - e^{ε̃(o)} Q(o))`` exactly.

    Terms whose sign is certified are kept or dropped; a term whose sign cannot be
    decided stays as ``Max(0, term)`` so the value remains exact.
    """
    bound = _bound_function(eps_tilde, precision, "epsilon")
    total = sp.Integer(0)
    for o, p, q in _support(P, Q):
        b = bound(o)
        t = p - sp.exp(b) * q
        if t.free_symbols:  # a term over a parameter domain: its sign varies
            if t.is_polynomial():
                t = sp.expand(t)  # an identically zero term (an attained bound) drops
                if t == 0:
                    continue
            total += sp.Max(0, t)
            continue
        s = decide_sign(t, precision).sign
        if s is Sign.POSITIVE:
            total += t
        elif s is Sign.UNDECIDED:
            total += sp.Max(0, t)
    return total


def _dist(mech: FiniteMechanism, d: Dataset) -> dict[Output, sp.Expr]:
    return {o: mech.p(d, o) for o in mech.outputs if mech.p(d, o) != 0}


@fill_doc
@privacy_parameters("epsilon", "pairs", "precision")
def delta(mech: FiniteMechanism, *, epsilon: Bound, **options: Unpack[QueryOptions]) -> Attained:
    """The smallest δ with ``mech`` (ε, δ)-DP — or ex-post (ε̃, δ)-DP when ``epsilon``
    is a function or mapping of the output: the maximum over ordered pairs of the
    hockey-stick divergence, and a pair attaining it.

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    epsilon : callable, mapping or number
        ε (keyword-only), or ε̃(o) for ex-post DP.
    %(query_options)s

    Returns
    -------
    Attained
        The exact δ and a pair attaining it.

    Raises
    ------
    %(raises_mech)s
    %(raises_unbound)s
    verifier.errors.InvalidParameter
        ``epsilon`` is not exact, or a pair names an unknown dataset.

    Examples
    --------
    Randomized response with ε = log 3 (``3/4`` against ``1/4``): at ε = 0 the
    total variation ``3/4 - 1/4 = 1/2``; at ε = log 2, ``3/4 - 2 · 1/4 = 1/4``.

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> delta(rr, epsilon=0).value, delta(rr, epsilon="log(2)").value
    (1/2, 1/4)
    """
    o = fill_options(QueryOptions, "delta", options)
    precision = o["precision"]
    _require_bound(mech, None)
    prs = checked_pairs(mech, o["pairs"])
    vals = [hockey_stick(_dist(mech, d), _dist(mech, d2), epsilon, precision) for d, d2 in prs]
    i, ok = exact_max(vals, precision)
    return Attained(vals[i], prs[i], None, ok)


def _result(
    mech: FiniteMechanism,
    options: PointOptions,
    prs: list[Pair],
    findings: list[Finding],
    title: str,
    quantity: str,
    subject: tuple[str, dict[str, Any]],
    rng: Domain | None = None,
) -> CheckResult:
    """A checker's result: its findings, their conjunction, its title (``options``'
    or the default ``title``), the name of the bounded ``quantity`` and the subject
    (the checker's kind and parameters, the pairs ``prs`` when ``options`` names
    them, the domain ``rng``)."""
    kind, params = subject
    return CheckResult(
        options["title"] or title,
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity=quantity,
        subject=Subject.of(kind, mech, params, None if options["pairs"] is None else prs, rng),
    )


def _pair_check(
    mech: FiniteMechanism,
    options: PointOptions,
    quantity: Callable[[dict[Output, sp.Expr], dict[Output, sp.Expr]], sp.Expr],
    claimed: sp.Expr,
    title: str,
    quantity_name: str,
    subject: tuple[str, dict[str, Any]],
    *,
    rng: Domain | None = None,
    budget: BoxBudget | None = None,
    shown: Callable[[sp.Expr], tuple[sp.Expr, sp.Expr]] | None = None,
) -> CheckResult:
    """One finding per ordered pair ``(D, D')``: ``quantity(P_D, P_D') <= claimed``
    decided at a point, over a range or over a box (the hockey-stick divergence
    against δ, the ex-post Rényi sum against 1, the Rényi sum against
    ``e^{(α-1)ε}``); ``options`` are the checker's filled options, ``title`` its
    default title and ``subject`` its kind and parameters (:func:`_result`); ``rng``
    and ``budget`` the domain and the limits of a box.  The finding shows
    ``quantity`` against ``claimed``, or the pair ``shown(quantity)`` (the Rényi
    divergence against ε)."""
    precision = options["precision"]
    prs = checked_pairs(mech, options["pairs"])
    findings = []
    for d, d2 in prs:
        q = quantity(_dist(mech, d), _dist(mech, d2))
        v, tight, failing, region = _decide(q, claimed, rng, precision, budget)
        realized, bound = (q, claimed) if shown is None else shown(q)
        findings.append(
            Finding(
                v,
                None,
                (d, d2),
                realized,
                bound,
                q,
                claimed,
                tight=tight,
                failing=failing,
                region=region,
                over=rng,
            )
        )
    return _result(mech, options, prs, findings, title, quantity_name, subject, rng)


@fill_doc
@privacy_parameters("epsilon_tilde", "delta")
def check_ex_post_approx(
    mech: FiniteMechanism, *, epsilon_tilde: Bound, delta: Any, **options: Unpack[CheckOptions]
) -> CheckResult:
    """Check ex-post (ε̃, δ)-DP (Ghazi et al. 2025, Def 5) via the hockey-stick
    divergence per ordered pair; with a constant ε̃ this is (ε, δ)-DP.

    Parameters
    ----------
    mech : FiniteMechanism
    %(epsilon_tilde)s
    %(delta)s
    %(check_options)s

    Returns
    -------
    CheckResult
        One :class:`Finding` per ordered pair: the divergence against δ.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``delta`` is outside ``[0, 1]`` or not exact.
    %(raises_unbound_over)s

    Examples
    --------
    With ε̃(a) = log 2 and ε̃(b) = 0 on the mechanism of
    :func:`realized_ex_post_epsilon`'s example, the divergence from ``D`` to ``D'``
    is ``max(0, 1/2 - 2/4) + max(0, 1/2 - 3/4) = 0`` and from ``D'`` to ``D`` it is
    ``max(0, 1/4 - 1) + max(0, 3/4 - 1/2) = 1/4``:

    >>> from verifier.mechanism.model import FiniteMechanism
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> m = FiniteMechanism(pair(), {"D": {"a": R(1, 2), "b": R(1, 2)}, "D'": {"a": R(1, 4), "b": R(3, 4)}})
    >>> r = check_ex_post_approx(m, epsilon_tilde={"a": sp.log(2), "b": 0}, delta=R(1, 4))
    >>> r.verdict, [f.realized for f in r.findings]
    (<Verdict.HOLDS: 'holds'>, [0, 1/4])
    """
    o = fill_options(CheckOptions, "check_ex_post_approx", options)
    precision = o["precision"]
    rng = _claim_domain(mech, o["over"])
    dl = check_delta(delta, precision)
    return _pair_check(
        mech,
        o,
        lambda P, Q: hockey_stick(P, Q, epsilon_tilde, precision),
        dl,
        f"ex-post (eps~, {dl})-DP of {mech.name}",
        "delta",
        ("ex_post_approx", {"epsilon_tilde": epsilon_tilde, "delta": dl}),
        rng=rng,
        budget=o["budget"],
    )


@fill_doc
@privacy_parameters("epsilon", "delta")
def check_approx_dp(
    mech: FiniteMechanism, *, epsilon: Any, delta: Any, **options: Unpack[CheckOptions]
) -> CheckResult:
    """Check (ε, δ)-DP: ``Σ_o max(0, P_D(o) - e^ε P_D'(o)) <= δ`` for every pair.

    Parameters
    ----------
    mech : FiniteMechanism
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The claimed ε > 0 (keyword-only).
    %(delta)s
    %(check_options)s

    Returns
    -------
    CheckResult
        One :class:`Finding` per ordered pair: the hockey-stick divergence against δ.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``epsilon`` is not > 0 or ``delta`` not in ``[0, 1]``.
    %(raises_unbound_over)s

    Examples
    --------
    Randomized response with ε = log 3 has δ(log 2) = ``3/4 - 2 · 1/4 = 1/4``: it is
    (log 2, 1/4)-DP, attained, and not (log 2, 1/5)-DP.

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> r = check_approx_dp(rr, epsilon="log(2)", delta=sp.Rational(1, 4))
    >>> r.verdict, r.tight
    (<Verdict.HOLDS: 'holds'>, True)
    >>> check_approx_dp(rr, epsilon="log(2)", delta=sp.Rational(1, 5)).verdict
    <Verdict.VIOLATED: 'violated'>
    """
    o = fill_options(CheckOptions, "check_approx_dp", options)
    e = check_epsilon(epsilon, precision=o["precision"])
    dl = check_delta(delta, o["precision"])
    return _ex_ante(
        check_ex_post_approx,
        ("approx_dp", {"epsilon": e, "delta": dl}),
        mech,
        o,
        f"{mech.name} is ({e}, {dl})-DP",
        delta=dl,
    )


# ---------------------------------------------------------------------------
# Rényi DP
# ---------------------------------------------------------------------------


def _renyi_sum(P: Mapping[Output, Any], Q: Mapping[Output, Any], alpha: sp.Expr) -> sp.Expr:
    total = sp.Integer(0)
    for _o, p, q in _support(P, Q):
        if q == 0:
            return sp.oo
        if _small(p) and _small(q):
            total += p**alpha * q ** (1 - alpha)
        else:
            # large probabilities: powers, product and sum left unevaluated.  sympy's
            # evaluation of a negative power of a nested sum of radicals asks whether
            # its terms are zero, computing minimal polynomials (seen: up to a minute
            # for one Rényi sum of Talwar 2025, Corollary 8's hybrid at alpha = 13);
            # the unevaluated sum is the same exact value, and the comparisons
            # enclose it
            term = sp.Mul(
                sp.Pow(p, alpha, evaluate=False),
                sp.Pow(q, 1 - alpha, evaluate=False),
                evaluate=False,
            )
            total = sp.Add(total, term, evaluate=False)
    return total


def renyi_divergence(P: Mapping[Output, Any], Q: Mapping[Output, Any], alpha: Any) -> sp.Expr:
    """``D_α(P‖Q) = log(Σ_o P(o)^α Q(o)^{1-α}) / (α - 1)`` exactly (α may be a symbol).

    Parameters
    ----------
    P, Q : mapping
        ``{output: probability}`` (exact); outputs missing from ``Q`` have mass 0.
    alpha : sympy.Expr, int or fractions.Fraction
        The order α > 1 (or a symbol).

    Returns
    -------
    sympy.Expr
        The exact divergence; ``oo`` when ``Q(o) = 0 < P(o)`` for some ``o``.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``alpha`` is not > 1, or a probability is not exact.

    Examples
    --------
    ``Σ P²/Q = (1/4)/(1/3) + (1/4)/(2/3) = 9/8`` at α = 2:

    >>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    >>> renyi_divergence({0: half, 1: half}, {0: third, 1: 2 * third}, 2)
    log(9/8)
    >>> renyi_divergence({0: half, 1: half}, {0: 1}, 2)
    oo
    """
    a = check_alpha(alpha)
    s = _renyi_sum(P, Q, a)
    if s is sp.oo:
        return sp.oo
    return sp.log(s) / (a - 1)


@fill_doc
@privacy_parameters("alpha", "pairs", "precision")
def rdp_epsilon(mech: FiniteMechanism, *, alpha: Any, **options: Unpack[QueryOptions]) -> Attained:
    """The RDP ε of ``mech`` at order α: ``max_{(D,D')} D_α(P_D ‖ P_D')`` and a pair
    attaining it (numeric α).

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    alpha : sympy.Expr, int, fractions.Fraction or str
        The order α > 1 (keyword-only; a number, not a symbol).
    %(query_options)s

    Returns
    -------
    Attained
        The exact Rényi ε and a pair attaining it.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.UnboundSymbol
        ``alpha`` or a probability has a symbol without a value.
    verifier.errors.InvalidParameter
        ``alpha`` is not > 1.

    Examples
    --------
    Randomized response with ε = log 3 at α = 2: ``Σ P²/Q = (9/16)/(1/4) +
    (1/16)/(3/4) = 9/4 + 1/12 = 7/3``:

    >>> from verifier.mechanism.instances import randomized_response
    >>> rdp_epsilon(randomized_response("log(3)"), alpha=2).value
    log(7/3)
    """
    o = fill_options(QueryOptions, "rdp_epsilon", options)
    precision = o["precision"]
    _require_bound(mech, None)
    a = check_alpha(alpha, precision)
    if a.free_symbols:
        raise UnboundSymbol("rdp_epsilon needs a numeric alpha to take the maximum over pairs")
    prs = checked_pairs(mech, o["pairs"])
    vals = [renyi_divergence(_dist(mech, d), _dist(mech, d2), a) for d, d2 in prs]
    if any(v is sp.oo for v in vals):
        i = next(j for j, v in enumerate(vals) if v is sp.oo)
        return Attained(sp.oo, prs[i])
    i, ok = exact_max(vals, precision)
    return Attained(vals[i], prs[i], None, ok)


@fill_doc
@privacy_parameters("alpha", "epsilon")
def check_rdp(
    mech: FiniteMechanism, *, epsilon: Any, alpha: Any, **options: Unpack[PointOptions]
) -> CheckResult:
    """Check (α, ε)-RDP: ``Σ_o P_D(o)^α P_D'(o)^{1-α} <= e^{(α-1)ε}`` per pair.

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The claimed Rényi ε >= 0 (keyword-only).
    %(alpha)s
    %(point_options)s

    Returns
    -------
    CheckResult
        One :class:`Finding` per ordered pair (realized ``D_α`` against ε).

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``alpha`` is not > 1 or ``epsilon`` is negative.
    %(raises_unbound)s

    Examples
    --------
    Randomized response with ε = log 3 has ``D_2 = log(7/3)`` (:func:`rdp_epsilon`):
    (2, log(7/3))-RDP holds with equality, and (2, 1/2)-RDP fails (``7/3 > e^{1/2}``).

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> r = check_rdp(rr, alpha=2, epsilon=sp.log(sp.Rational(7, 3)))
    >>> r.verdict, r.tight
    (<Verdict.HOLDS: 'holds'>, True)
    >>> check_rdp(rr, alpha=2, epsilon=sp.Rational(1, 2)).verdict
    <Verdict.VIOLATED: 'violated'>
    """
    o = fill_options(PointOptions, "check_rdp", options)
    precision = o["precision"]
    _require_bound(mech, None)
    a = check_alpha(alpha, precision)
    e = exact(epsilon)
    if _numeric_sign(e, precision) is Sign.NEGATIVE:
        raise InvalidParameter(f"RDP epsilon must be >= 0, got {format_number(e)}")
    return _pair_check(
        mech,
        o,
        lambda P, Q: _renyi_sum(P, Q, a),
        sp.exp((a - 1) * e),
        f"{mech.name} is ({a}, {e})-RDP",
        "D_alpha",
        ("rdp", {"alpha": a, "epsilon": e}),
        # the finding shows the divergence D_alpha = log(sum)/(alpha - 1) against epsilon
        shown=lambda s: (sp.oo if s is sp.oo else _log(s) / (a - 1), e),
    )


def ex_post_rdp_sum(
    P: Mapping[Output, Any],
    Q: Mapping[Output, Any],
    eps_tilde: Bound,
    alpha: Any,
    precision: Precision = DEFAULT_PRECISION,
) -> sp.Expr:
    """``Σ_o P(o)^α (e^{ε̃(o)} Q(o))^{1-α}`` (Ghazi et al. 2025, Def 6); ex-post
    (α, ε̃)-RDP asks for it to be ``<= 1``."""
    a = check_alpha(alpha, precision)
    bound = _bound_function(eps_tilde, precision, "the claimed ex-post RDP bound")
    total = sp.Integer(0)
    for o, p, q in _support(P, Q):
        if q == 0:
            return sp.oo
        total += p**a * (sp.exp(bound(o)) * q) ** (1 - a)
    return total


@fill_doc
@privacy_parameters("epsilon_tilde", "alpha")
def check_ex_post_rdp(
    mech: FiniteMechanism, *, epsilon_tilde: Bound, alpha: Any, **options: Unpack[CheckOptions]
) -> CheckResult:
    """Check ex-post (α, ε̃)-RDP (Ghazi et al. 2025, Def 6) for every ordered pair.

    The sum ``Σ_o P_D(o)^α (e^{ε̃(o)} P_D'(o))^{1-α}`` must be at most 1.

    Parameters
    ----------
    mech : FiniteMechanism
    %(epsilon_tilde)s
    %(alpha)s
    %(check_options)s

    Returns
    -------
    CheckResult
        One :class:`Finding` per ordered pair: the sum against 1.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``alpha`` is not > 1.
    %(raises_unbound_over)s

    Examples
    --------
    On the mechanism of :func:`realized_ex_post_epsilon`'s example with its realized
    bound (ε̃(a) = log 2, ε̃(b) = log(3/2)) at α = 2: from ``D`` to ``D'`` the sum is
    ``(1/4)/(2 · 1/4) + (1/4)/(3/2 · 3/4) = 1/2 + 2/9 = 13/18``, from ``D'`` to ``D``
    ``(1/16)/(2 · 1/2) + (9/16)/(3/2 · 1/2) = 1/16 + 3/4 = 13/16``:

    >>> from verifier.mechanism.model import FiniteMechanism
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> m = FiniteMechanism(pair(), {"D": {"a": R(1, 2), "b": R(1, 2)}, "D'": {"a": R(1, 4), "b": R(3, 4)}})
    >>> r = check_ex_post_rdp(m, epsilon_tilde={"a": sp.log(2), "b": sp.log(R(3, 2))}, alpha=2)
    >>> r.verdict, [f.realized for f in r.findings]
    (<Verdict.HOLDS: 'holds'>, [13/18, 13/16])
    """
    o = fill_options(CheckOptions, "check_ex_post_rdp", options)
    precision = o["precision"]
    rng = _claim_domain(mech, o["over"])
    a = check_alpha(alpha, precision)
    return _pair_check(
        mech,
        o,
        lambda P, Q: ex_post_rdp_sum(P, Q, epsilon_tilde, a, precision),
        sp.Integer(1),
        f"ex-post ({a}, eps~)-RDP of {mech.name}",
        "ex-post RDP sum",
        ("ex_post_rdp", {"epsilon_tilde": epsilon_tilde, "alpha": a}),
        rng=rng,
        budget=o["budget"],
    )


# ---------------------------------------------------------------------------
# Lemma 7 (Ghazi et al. 2025): conversions
# ---------------------------------------------------------------------------


def lemma7_rdp_bound(eps_tilde: Bound) -> Callable[[Output], sp.Expr]:
    """Lemma 7 (i): ex-post ε̃-DP ⇒ ex-post (α, ε̃)-RDP for every α > 1 — the same
    function ε̃."""
    f = _bound_function(eps_tilde, DEFAULT_PRECISION, "eps~")
    return f


def lemma7_dp_bound(eps_tilde: Bound, alpha: Any, delta_: Any) -> Callable[[Output], sp.Expr]:
    """Lemma 7 (ii): ex-post (α, ε̃)-RDP ⇒ ex-post (ε̃ + log(1/δ)/(α-1), δ)-DP.

    >>> f = lemma7_dp_bound(sp.Rational(1, 2), 3, sp.Rational(1, 100))
    >>> f("any")
    1/2 + log(100)/2
    """
    a = check_alpha(alpha)
    dl = check_delta(delta_)
    if dl == 0:
        raise InvalidParameter("Lemma 7 (ii) needs delta > 0")
    f = _bound_function(eps_tilde, DEFAULT_PRECISION, "eps~")
    extra = sp.log(1 / dl) / (a - 1)
    return lambda o: f(o) + extra


@fill_doc
@privacy_parameters("epsilon_tilde", "alpha", "delta")
def check_lemma7(
    mech: FiniteMechanism,
    *,
    epsilon_tilde: Bound,
    delta: Any,
    alpha: Any,
    **options: Unpack[CheckOptions],
) -> CheckResult:
    """Both implications of Lemma 7 on one instance, as checked claims.

    (i) ex-post ε̃-DP ⇒ ex-post (α, ε̃)-RDP; (ii) ex-post (α, ε̃)-RDP ⇒ ex-post
    (ε̃ + log(1/δ)/(α-1), δ)-DP.  Each is an implication: it holds vacuously when its
    premise fails on the instance.  Over a box (``over``) an implication is decided as
    the conjunction of its premise and its conclusion: a premise that fails somewhere
    in the box is reported as such, never taken as vacuous.

    Parameters
    ----------
    mech : FiniteMechanism
    %(epsilon_tilde)s
    delta : sympy.Expr, int, fractions.Fraction or str
        δ in ``(0, 1]`` of (ii).
    %(alpha)s
    %(check_options)s

    Returns
    -------
    CheckResult
        The conjunction of (i) and (ii), each an implication with its premise.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        ``delta`` is 0 or outside ``[0, 1]``, or ``alpha`` is not > 1.
    %(raises_unbound_over)s

    Examples
    --------
    The mechanism of :func:`realized_ex_post_epsilon`'s example is ex-post ε̃-DP for
    its realized ε̃ (the premise of (i) holds), so Lemma 7 is checked, not vacuous:

    >>> from verifier.mechanism.model import FiniteMechanism
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> m = FiniteMechanism(pair(), {"D": {"a": R(1, 2), "b": R(1, 2)}, "D'": {"a": R(1, 4), "b": R(3, 4)}})
    >>> r = check_lemma7(m, epsilon_tilde={"a": sp.log(2), "b": sp.log(R(3, 2))}, alpha=2, delta=R(1, 10))
    >>> r.verdict, r.vacuous, [p.title for p in r.parts]
    (<Verdict.HOLDS: 'holds'>, False, ['Lemma 7 (i): ex-post DP => ex-post RDP', 'Lemma 7 (ii): ex-post RDP => ex-post (eps, delta)-DP'])
    """

    from .results import conjunction, implication

    o = fill_options(CheckOptions, "check_lemma7", options)
    prs = None if o["pairs"] is None else list(o["pairs"])
    # the options of the three checks (each with its own title)
    kw: dict[str, Any] = {**o, "pairs": prs, "title": None}
    dp = check_ex_post(mech, epsilon_tilde=epsilon_tilde, **kw)
    rdp = check_ex_post_rdp(mech, epsilon_tilde=lemma7_rdp_bound(epsilon_tilde), alpha=alpha, **kw)
    conv = check_ex_post_approx(
        mech, epsilon_tilde=lemma7_dp_bound(epsilon_tilde, alpha, delta), delta=delta, **kw
    )
    if o["over"] is not None:
        return conjunction(
            o["title"]
            or f"Lemma 7 on {mech.name} (alpha={alpha}, delta={delta}) for every point of the box",
            [
                conjunction("Lemma 7 (i): ex-post DP and ex-post RDP", [dp, rdp]),
                conjunction("Lemma 7 (ii): ex-post RDP and ex-post (eps, delta)-DP", [rdp, conv]),
            ],
        )
    return conjunction(
        o["title"] or f"Lemma 7 on {mech.name} (alpha={alpha}, delta={delta})",
        [
            implication("Lemma 7 (i): ex-post DP => ex-post RDP", dp, rdp),
            implication("Lemma 7 (ii): ex-post RDP => ex-post (eps, delta)-DP", rdp, conv),
        ],
    )


# ---------------------------------------------------------------------------
# pure DP off an event: the conditionals after removing a (randomised) event
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EventRemoval:
    """The least mass of an event whose removal leaves two distributions
    ``e^ε``-close (:func:`event_removal`).

    ``mass``: the least ``P(B)``; ``mass_both``: the least ``max(P(B), Q(B))``
    (``oo`` when no event leaves both conditionals defined and close).  ``removed``
    and ``removed_both``: an optimal randomised event, as the fraction of each output
    that ``B`` takes (outputs taken whole are ``1``; at most two are fractional).
    """

    mass: sp.Expr
    mass_both: sp.Expr
    removed: dict[Output, sp.Expr]
    removed_both: dict[Output, sp.Expr]


def _holds(a: sp.Expr, b: sp.Expr, precision: Precision, what: str) -> bool:
    """``a <= b``, certified (``InvalidParameter`` when it cannot be decided)."""
    return decide_le(a, b, precision).holds(
        lambda: InvalidParameter(f"could not decide {what}: {a} <= {b}")
    )


def _greedy_keep(
    window: list[tuple[Output, sp.Expr, sp.Expr, sp.Expr]],
    level: sp.Expr,
    low_side: bool,
    precision: Precision,
) -> dict[Output, sp.Expr]:
    """The kept fractions ``k`` of the window's outputs that maximise ``Σ k P`` under
    ``Σ k (P - level Q) >= 0`` (``low_side``: the ratio of the kept masses must rise to
    ``level``) or ``Σ k (level Q - P) >= 0`` (it must fall to ``level``): a fractional
    knapsack.  Outputs on the right side of ``level`` are kept whole and pay for the
    others, taken in order of likelihood ratio from ``level`` outwards."""
    sign = 1 if low_side else -1
    keep: dict[Output, sp.Expr] = {}
    budget = sp.Integer(0)
    costly = []
    for o, p, q, L in window:
        c = sign * (p - level * q)
        if _holds(0, c, precision, "the side of a likelihood ratio"):
            keep[o] = sp.Integer(1)
            budget += c
        else:
            costly.append((o, p, q, L, -c))
    # the output whose likelihood ratio is nearest to ``level`` gives most mass per cost
    costly.sort(key=lambda t: t[3], reverse=low_side)
    for o, _p, _q, _L, cost in costly:
        if _holds(cost, budget, precision, "the budget of a window"):
            keep[o] = sp.Integer(1)
            budget -= cost
        else:
            keep[o] = sp.simplify(budget / cost)
            budget = sp.Integer(0)
    return keep


def event_removal(
    P: Mapping[Output, Any],
    Q: Mapping[Output, Any],
    eps: Any,
    precision: Precision = DEFAULT_PRECISION,
) -> EventRemoval:
    """The least mass of a randomised event ``B`` such that ``P|B^c`` and ``Q|B^c``
    are ``e^ε``-close in both directions (every output: ``P|B^c(o) <= e^ε Q|B^c(o)``
    and ``Q|B^c(o) <= e^ε P|B^c(o)``), exactly.

    This is the event of Liu & Talwar 2019, Lemma E.2, whose proof allows randomised
    events ("the mechanism outputting a uniform [0, 1] r.v. in addition"): ``B`` takes a
    fraction ``1 - k(o)`` of each output ``o``.  Derivation.  With the kept masses
    ``P' = Σ k P``, ``Q' = Σ k Q`` the conditionals are ``k P/P'`` and ``k Q/Q'``, so an
    output kept at all has likelihood ratio ``L(o) = P(o)/Q(o)`` with
    ``e^{-ε} <= L(o) Q'/P' <= e^ε``; outputs with ``P(o) = 0`` or ``Q(o) = 0`` are
    removed.  Sort the outputs by ``L`` and fix the window ``[i, j]`` (in that order)
    of outputs that may be kept: the conditions become the two linear constraints
    ``L_j e^{-ε} Q' <= P' <= L_i e^ε Q'`` (kept outputs outside the window are not
    allowed; outputs inside it need not be kept), an LP over ``k ∈ [0, 1]`` whose
    feasible ``(P', Q')`` lie in a zonogon.  If keeping the whole window is feasible
    it is optimal; otherwise only one constraint is violated, and its maximum (a
    fractional knapsack: keep the outputs on the right side of the level, then the
    others by likelihood ratio from the level outwards) lies on that constraint's
    line, where ``P'`` and ``Q'`` are proportional — so it maximises ``P'`` and ``Q'``
    together.  The optimum over every window is therefore the least ``P(B)`` and the
    least ``max(P(B), Q(B))``.  Every comparison is certified.

    >>> R = sp.Rational
    >>> P = {0: R(6, 100), 1: R(5, 100), 2: R(89, 100)}
    >>> Q = {0: R(5, 100), 1: R(6, 100), 2: R(89, 100)}
    >>> r = event_removal(P, Q, sp.log(R(115, 100)))
    >>> r.mass, r.removed
    (11/100, {0: 1, 1: 1, 2: 0})
    """
    e = check_epsilon(eps, precision=precision)
    A = sp.exp(e)
    atoms = []
    for o in dict.fromkeys([*P, *Q]):
        p, q = exact(P.get(o, 0)), exact(Q.get(o, 0))
        if p != 0 and q != 0:
            atoms.append((o, p, q, p / q))

    # sort by likelihood ratio, with certified comparisons
    def cmp(a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
        if a[3] == b[3]:
            return 0
        return -1 if _holds(a[3], b[3], precision, "the order of likelihood ratios") else 1

    atoms.sort(key=functools.cmp_to_key(cmp))
    outputs = list(dict.fromkeys([*P, *Q]))
    best: tuple[sp.Expr, dict[Output, sp.Expr]] | None = None
    best_both: tuple[sp.Expr, dict[Output, sp.Expr]] | None = None
    for i in range(len(atoms)):
        for j in range(i, len(atoms)):
            Li, Lj = atoms[i][3], atoms[j][3]
            if not _holds(Lj, A**2 * Li, precision, "the width of a window"):
                break
            window = atoms[i : j + 1]
            lo, hi = Lj / A, Li * A
            Pf = sp.Add(*[a[1] for a in window])
            Qf = sp.Add(*[a[2] for a in window])
            if not _holds(lo * Qf, Pf, precision, "the kept ratio"):
                keep = _greedy_keep(window, lo, True, precision)
            elif not _holds(Pf, hi * Qf, precision, "the kept ratio"):
                keep = _greedy_keep(window, hi, False, precision)
            else:
                keep = {a[0]: sp.Integer(1) for a in window}
            kp = sp.Add(*[keep[a[0]] * a[1] for a in window])
            kq = sp.Add(*[keep[a[0]] * a[2] for a in window])
            removed = {o: 1 - keep.get(o, 0) for o in outputs}
            mass = 1 - kp
            if not _holds(1 - kq, 1 - kp, precision, "the larger removed mass"):
                both = 1 - kq
            else:
                both = 1 - kp
            if best is None or not _holds(best[0], mass, precision, "the least mass"):
                best = (mass, removed)
            if best_both is None or not _holds(best_both[0], both, precision, "the least mass"):
                best_both = (both, removed)
    if best is None or best_both is None:
        none = {o: sp.Integer(1) for o in outputs}
        return EventRemoval(sp.oo, sp.oo, none, none)
    return EventRemoval(best[0], best_both[0], best[1], best_both[1])


@fill_doc
@privacy_parameters("epsilon", "delta")
def check_pure_off_event(
    mech: FiniteMechanism,
    *,
    epsilon: Any,
    delta: Any,
    both: bool = False,
    **options: Unpack[PointOptions],
) -> CheckResult:
    """Check that for every ordered pair ``(D, D')`` some randomised event ``B`` with
    ``Pr_{M(D)}[B] <= δ`` (and ``Pr_{M(D')}[B] <= δ`` when ``both``) leaves
    ``M(D)|B^c`` and ``M(D')|B^c`` ``e^ε``-close in both directions — the form of
    ``(ε, δ)``-closeness of Liu & Talwar 2019, Lemma E.2 (decided by
    :func:`event_removal`).  Each finding compares the least removed mass with ``δ``
    and names an optimal event.

    Parameters
    ----------
    mech : FiniteMechanism
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The ε > 0 of the closeness off the event (keyword-only).
    %(delta)s
    both : bool
        Bound the event's mass under both distributions, not only under ``M(D)``.
    %(point_options)s
    """
    o = fill_options(PointOptions, "check_pure_off_event", options)
    precision = o["precision"]
    e = check_epsilon(epsilon, precision=precision)
    dl = check_delta(delta, precision)
    findings: list[Finding] = []
    prs = checked_pairs(mech, o["pairs"])
    for d, d2 in prs:
        r = event_removal(_dist(mech, d), _dist(mech, d2), e, precision)
        mass, removed = (r.mass_both, r.removed_both) if both else (r.mass, r.removed)
        c = decide_le(mass, dl, precision)
        taken = ", ".join(f"{o}: {v}" if v != 1 else f"{o}" for o, v in removed.items() if v != 0)
        findings.append(
            Finding(
                c.verdict,
                None,
                (d, d2),
                mass,
                dl,
                mass,
                dl,
                tight=c.tight,
                note=f"an optimal B takes {{{taken or 'nothing'}}}",
            )
        )
    kind = "pure_off_event_both" if both else "pure_off_event"
    what = "Pr[B] under both" if both else "Pr[B]"
    return _result(
        mech,
        o,
        prs,
        findings,
        f"{mech.name} is {e}-DP off an event with {what} <= {dl}",
        "least Pr[B]",
        (kind, {"epsilon": e, "delta": dl}),
    )
