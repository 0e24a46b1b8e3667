"""Resource limits of spec files: what a file may ask for, estimated before it is
computed.

A spec file is input from anyone, and an accepted file must not be able to exhaust
time or memory.  The expression parser bounds every single number
(:mod:`verifier.arithmetic.expressions`); this module bounds what a file as a whole asks for:

* ``max_file_bytes`` -- the size of the file, checked with ``stat`` before reading
  (only regular files are read: never a device, a pipe or a directory);
* ``max_outputs`` -- the number of outputs of a derived mechanism, and
  ``max_work`` -- the exact operations its closed form performs, both estimated
  from the inputs and parameters before the mechanism is built
  (:mod:`verifier.algorithms.estimates`);
* ``max_exponent`` -- the magnitude, as a power of two, of a claim's privacy
  parameters (``epsilon``, ``epsilon_tilde``, ``alpha``) and range ends: checking a claim
  computes ``exp(epsilon)``, which needs about ``log2(epsilon)`` extra bits of
  working precision (``epsilon = "exp(10^9)"`` would need a billion); the ends of a
  box (``over = { eps_1 = [lo, hi], ... }``) are limited the same way;
* ``max_box_parameters`` -- the number of parameters of a box: deciding a claim over
  a box rewrites it exactly with one factor per parameter, whose expansion grows
  exponentially with their number.

Each limit has a default (:data:`DEFAULT_LIMITS`, documented in
``docs/spec-format.md``, "Limits") and a command-line option that raises it
knowingly (``verifier check --max-outputs N --max-work N --max-exponent N
--max-box-parameters N --max-file-size BYTES``).  A refusal is a :class:`~verifier.errors.InvalidParameter`
(exit 2) naming the entry, the estimate and the limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InvalidParameter, VerifierError

if TYPE_CHECKING:
    import sympy as sp

#: ``verifier.arithmetic.exact.MAX_EXP_ARGUMENT_BITS``, the largest magnitude (in bits) of an
#: argument of ``exp`` that the certified evaluator encloses (the same number; a test
#: checks it): kept here so that the command line's options are built without importing
#: the arithmetic (sympy, mpmath).
MAX_EXP_ARGUMENT_BITS = 1024

__all__ = [
    "Limits",
    "DEFAULT_LIMITS",
    "MAX_LIMITS",
    "CLI_OPTIONS",
    "magnitude_bits",
    "count_text",
]

#: The largest value each limit may be raised to (beyond them the computations
#: themselves are refused or cannot complete on any machine).
_MAXIMA = {
    "max_file_bytes": 1 << 30,
    "max_outputs": 2_000_000,
    "max_work": 10**12,
    "max_exponent": MAX_EXP_ARGUMENT_BITS,
    "max_box_parameters": 32,
}


#: The options of ``verifier check`` that raise each limit (named in every refusal).
CLI_OPTIONS: dict[str, str] = {
    "max_file_bytes": "--max-file-size",
    "max_outputs": "--max-outputs",
    "max_work": "--max-work",
    "max_exponent": "--max-exponent",
    "max_box_parameters": "--max-box-parameters",
}


@dataclass(frozen=True)
class Limits:
    """The resource limits of reading and checking a spec file.

    Parameters
    ----------
    max_file_bytes : int
        Largest spec file read, in bytes (default 16 MiB).
    max_outputs : int
        Largest estimated number of outputs of a derived mechanism (default 20,000).
    max_work : int
        Largest estimated number of exact operations to build a derived mechanism
        (default 500,000: about a second).
    max_exponent : int
        Largest ``N`` such that a privacy parameter or range end may reach ``2^N`` in
        absolute value (default 256; at most ``verifier.arithmetic.exact.MAX_EXP_ARGUMENT_BITS``).
    max_box_parameters : int
        Most parameters of a box (``over = { a = [lo, hi], ... }``; default 8, at most
        32); checking the file's claims uses it as
        :attr:`verifier.checks.boxes.BoxBudget.max_parameters`.
    raised_by : mapping, optional
        What raises each limit, named in a refusal (default :data:`CLI_OPTIONS`, the
        options of ``verifier check``; the pytest plugin names its ini options).
    """

    max_file_bytes: int = 16 * 1024 * 1024
    max_outputs: int = 20_000
    max_work: int = 500_000
    max_exponent: int = 256
    max_box_parameters: int = 8
    raised_by: Mapping[str, str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name, top in _MAXIMA.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidParameter(f"limit {name} must be a positive integer, got {value!r}")
            if value > top:
                raise InvalidParameter(f"limit {name} = {value} exceeds its maximum {top}")

    def hint(self, name: str) -> str:
        """What raises the limit ``name`` (an option, for a refusal's message)."""
        return (self.raised_by or CLI_OPTIONS).get(name, CLI_OPTIONS[name])


#: The limits in force unless raised.
DEFAULT_LIMITS = Limits()
#: The largest value of each limit.
MAX_LIMITS = Limits(
    max_file_bytes=_MAXIMA["max_file_bytes"],
    max_outputs=_MAXIMA["max_outputs"],
    max_work=_MAXIMA["max_work"],
    max_exponent=_MAXIMA["max_exponent"],
    max_box_parameters=_MAXIMA["max_box_parameters"],
)


def magnitude_bits(value: sp.Expr) -> int | None:
    """An upper bound ``N`` with ``|value| <= 2^N`` for a constant, from a certified
    enclosure at 64 bits (``None`` for an expression with free symbols, or one the
    certified evaluator cannot enclose).

    >>> import sympy as sp
    >>> magnitude_bits(sp.Integer(10) ** 9), magnitude_bits(sp.exp(10**9)) > 10**9
    (30, True)
    """
    import mpmath
    import sympy as sp

    from ..arithmetic.exact import enclose

    if not isinstance(value, sp.Expr) or value.free_symbols:
        return None
    try:
        enc = enclose(value, 64)
    except VerifierError:
        return None
    if enc is None:
        return None
    mags = [mpmath.mag(x) for x in (enc.lo, enc.hi) if x != 0]
    return int(max(mags)) if mags else 0


def count_text(n: int) -> str:
    """A count for a message: exact when short, else its power of ten.

    >>> count_text(20000), count_text(2**200), count_text(2**256)
    ('20000', 'about 10^60', 'more than 10^77')
    """
    if n < 10**12:
        return str(n)
    if n >= 1 << 256:  # the estimates saturate there (verifier.algorithms.estimates)
        return "more than 10^77"
    return f"about 10^{len(str(n)) - 1}"
