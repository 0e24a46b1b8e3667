"""The exception hierarchy of the verifier and the exit codes of its command line
(one file, as in networkx).

Every error the verifier raises on purpose derives from :class:`VerifierError` and
carries a message that names the problem.  Its three branches map one-to-one to exit
codes, each class carrying its code as the class attribute ``exit_code``:

====  ============================  =================================================
code  branch                        meaning
====  ============================  =================================================
2     :class:`BadInput`             the input is wrong: a malformed mechanism, a
                                    parameter out of its domain, an unreadable spec
                                    file, an unknown name, ...
3     :class:`Undecidable`          an exact decision needed to go on could not be
                                    completed within the precision limit
5     :class:`ConstructionFailed`   a construction that the theory says exists
                                    could not be completed (neither bad input nor a
                                    bug of the user)
====  ============================  =================================================

The command line adds 0 (ok), 1 (a claim is violated), 4 (internal error: any other
exception, a bug) and 130 (interrupted); :func:`exit_code_for` maps an exception to
its code.

>>> InvalidParameter.exit_code, Undecidable.exit_code, ExtensionFailed.exit_code
(2, 3, 5)
>>> exit_code_for(SpecError("x")), exit_code_for(RuntimeError("bug"))
(2, 4)
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "EXIT_OK",
    "EXIT_VIOLATED",
    "EXIT_BAD_INPUT",
    "EXIT_UNDECIDED",
    "EXIT_INTERNAL",
    "EXIT_CONSTRUCTION_FAILED",
    "EXIT_INTERRUPTED",
    "exit_code_for",
    "VerifierError",
    "BadInput",
    "InvalidMechanism",
    "InvalidParameter",
    "UnboundSymbol",
    "UnsupportedExpression",
    "SpecError",
    "UnknownClaim",
    "CertificateError",
    "MissingDependency",
    "Undecidable",
    "ConstructionFailed",
    "ExtensionFailed",
]

#: Every claim holds (``casestudies``: every outcome matches; ``search``: no
#: counterexample within the budget).
EXIT_OK = 0
#: Some claim is violated (``casestudies``: some outcome does not match; ``search``: a
#: counterexample was found and certified).
EXIT_VIOLATED = 1
#: Bad input (:class:`BadInput`, or a usage error reported by :mod:`argparse`).
EXIT_BAD_INPUT = 2
#: Undecided at the precision limit (:class:`Undecidable`, or an undecided verdict).
EXIT_UNDECIDED = 3
#: Internal error: an exception that is not a :class:`VerifierError` branch (a bug).
EXIT_INTERNAL = 4
#: A construction the theory says exists failed (:class:`ConstructionFailed`).
EXIT_CONSTRUCTION_FAILED = 5
#: Interrupted (``KeyboardInterrupt``, SIGINT: 128 + 2).
EXIT_INTERRUPTED = 130


class VerifierError(Exception):
    """Base class of every error the verifier raises on purpose.

    It is never raised itself: every error belongs to one of the branches
    :class:`BadInput`, :class:`Undecidable` and :class:`ConstructionFailed`, whose
    ``exit_code`` the command line exits with.  An instance of the base class alone
    would be a misclassified error, so its code is :data:`EXIT_INTERNAL`.

    Parameters
    ----------
    message : str
        What is wrong and where (every error of the verifier names its problem).

    Attributes
    ----------
    exit_code : int
        The command line's exit code for this class of error.

    Examples
    --------
    Catch every error the verifier raises on purpose (and nothing else):

    >>> from verifier import randomized_response
    >>> try:
    ...     randomized_response(0.5)
    ... except VerifierError as err:
    ...     print(type(err).__name__, err.exit_code)
    InvalidParameter 2
    """

    exit_code: ClassVar[int] = EXIT_INTERNAL


def exit_code_for(err: BaseException) -> int:
    """The exit code of the command line for the exception ``err``.

    The ``exit_code`` of a :class:`VerifierError`, :data:`EXIT_INTERRUPTED` for
    ``KeyboardInterrupt``, :data:`EXIT_INTERNAL` for anything else.
    """
    if isinstance(err, VerifierError):
        return type(err).exit_code
    if isinstance(err, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    return EXIT_INTERNAL


# ---------------------------------------------------------------------------
# bad input: exit 2
# ---------------------------------------------------------------------------


class BadInput(VerifierError):
    """The input is wrong; the message names the problem and where it is."""

    exit_code: ClassVar[int] = EXIT_BAD_INPUT


class InvalidMechanism(BadInput, ValueError):
    """A mechanism description is malformed: a distribution that does not sum to 1,
    a negative probability, an edge to an unknown dataset, an output missing from the
    order, ...

    Parameters
    ----------
    message : str
        The problem, naming the dataset and output.

    Examples
    --------
    >>> from verifier import FiniteMechanism, pair
    >>> FiniteMechanism(pair(), {"D": {0: 1}, "D'": {0: 1}, "E": {0: 1}})
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidMechanism: a distribution is given for dataset 'E', which is not a node of the neighbour graph
    """


class InvalidParameter(BadInput, ValueError):
    """A parameter is out of its domain: epsilon <= 0, alpha <= 1, delta outside
    [0, 1], a non-exact float where an exact number is required, ...

    Parameters
    ----------
    message : str
        The parameter, its value and its domain.

    Examples
    --------
    >>> from verifier import check_pure_dp, randomized_response
    >>> check_pure_dp(randomized_response("log(3)"), epsilon=-1)
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: epsilon must be > 0, got -1
    """


class UnboundSymbol(BadInput, ValueError):
    """A symbol has no value where a number is needed.

    Parameters
    ----------
    message : str
        The symbols without a value.

    Examples
    --------
    >>> import sympy as sp
    >>> from verifier import pure_epsilon, randomized_response
    >>> pure_epsilon(randomized_response(sp.Symbol("eps", positive=True)))
    Traceback (most recent call last):
    ...
    verifier.errors.UnboundSymbol: symbol(s) ['eps'] have no value; give values or check the claim over a range with over=(symbol, lo, hi)
    """


class UnsupportedExpression(BadInput, ValueError):
    """An expression uses a function or construct the certified evaluator or the
    exact decision procedure does not support.

    Parameters
    ----------
    message : str
        The unsupported function and the expression.

    Examples
    --------
    >>> import sympy as sp
    >>> from verifier import enclose
    >>> enclose(sp.gamma(sp.Rational(1, 3)))
    Traceback (most recent call last):
    ...
    verifier.errors.UnsupportedExpression: cannot evaluate gamma in 'gamma(1/3)' with certified arithmetic
    """


class SpecError(BadInput, ValueError):
    """A spec file cannot be read: unparsable text, an unknown key, a forbidden name.

    Parameters
    ----------
    message : str
        The problem and where it is in the file.

    Examples
    --------
    >>> from verifier.spec import loads_spec
    >>> loads_spec("[mechanisms")
    Traceback (most recent call last):
    ...
    verifier.errors.SpecError: invalid TOML: Expected ']' at the end of a table declaration (at end of document)
    """


class UnknownClaim(BadInput, KeyError):
    """A claim or case study name that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message plain
        return str(self.args[0]) if self.args else "unknown claim"


class CertificateError(InvalidParameter):
    """A certificate did not re-verify (:mod:`verifier.search.certificates`; it is
    never written)."""


class MissingDependency(BadInput, ImportError):
    """An optional feature needs a package that is not installed; the message names
    the extra that installs it (``pip install 'verifier[interop]'``)."""


# ---------------------------------------------------------------------------
# undecided: exit 3
# ---------------------------------------------------------------------------


class Undecidable(VerifierError, ValueError):
    """An exact decision needed to go on (to *construct* an object, not to check a
    claim, whose verdict is then simply undecided) could not be completed within the
    precision limit, e.g. the integer part of a real number whose enclosures keep
    touching an integer."""

    exit_code: ClassVar[int] = EXIT_UNDECIDED


# ---------------------------------------------------------------------------
# construction failed: exit 5
# ---------------------------------------------------------------------------


class ConstructionFailed(VerifierError):
    """A construction that a theorem says exists could not be completed, or failed
    its own verification: neither bad input nor undecided, and worth reporting."""

    exit_code: ClassVar[int] = EXIT_CONSTRUCTION_FAILED


class ExtensionFailed(ConstructionFailed, ArithmeticError):
    """The constructed extension (Talwar 2025, Proposition 2) failed its own
    verification (2ε-DP or agreement on ``B``) — which Proposition 2 says cannot
    happen (:mod:`verifier.constructions.extension`)."""
