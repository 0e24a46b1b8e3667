"""The exception hierarchy of the verifier (one file, as in networkx).

Every error raised on bad input derives from :class:`VerifierError` and carries a
message that names the problem; the command-line interface turns any of them into
exit code 2 and prints the message, never a traceback.
"""

from __future__ import annotations


class VerifierError(Exception):
    """Base class of every error the verifier raises on purpose."""


class InvalidMechanism(VerifierError, ValueError):
    """A mechanism description is malformed: a distribution that does not sum to 1,
    a negative probability, an edge to an unknown dataset, an output missing from the
    order, ..."""


class InvalidParameter(VerifierError, ValueError):
    """A parameter is out of its domain: epsilon <= 0, alpha <= 1, delta outside
    [0, 1], a non-exact float where an exact number is required, ..."""


class UnboundSymbol(VerifierError, ValueError):
    """A symbol has no value where a number is needed."""


class UnsupportedExpression(VerifierError, ValueError):
    """An expression uses a function or construct the certified evaluator or the
    exact decision procedure does not support."""


class SpecError(VerifierError, ValueError):
    """A spec file cannot be read: unparsable text, an unknown key, a forbidden name."""


class UnknownClaim(VerifierError, KeyError):
    """A claim or case study name that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message plain
        return str(self.args[0]) if self.args else "unknown claim"
