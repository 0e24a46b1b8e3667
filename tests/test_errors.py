"""The exception hierarchy: three branches, one exit code each; the old import paths
still work."""

from __future__ import annotations

import inspect

import pytest

from verifier import errors
from verifier.errors import (
    EXIT_BAD_INPUT,
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_UNDECIDED,
    BadInput,
    ConstructionFailed,
    Undecidable,
    VerifierError,
    exit_code_for,
)

BRANCHES = {
    BadInput: EXIT_BAD_INPUT,
    Undecidable: EXIT_UNDECIDED,
    ConstructionFailed: EXIT_CONSTRUCTION_FAILED,
}


def _error_classes() -> list[type[VerifierError]]:
    return [
        c
        for _, c in inspect.getmembers(errors, inspect.isclass)
        if issubclass(c, VerifierError) and c is not VerifierError
    ]


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: c.__name__)
def test_every_error_lies_in_exactly_one_branch_and_carries_its_code(cls):
    branches = [b for b in BRANCHES if issubclass(cls, b)]
    assert len(branches) == 1, (cls, branches)
    assert cls.exit_code == BRANCHES[branches[0]]
    assert exit_code_for(cls("message")) == cls.exit_code


def test_the_codes_are_distinct_and_not_internal():
    codes = list(BRANCHES.values())
    assert len(set(codes)) == len(codes)
    assert EXIT_INTERNAL not in codes and EXIT_INTERRUPTED not in codes


def test_other_exceptions():
    assert exit_code_for(RuntimeError("bug")) == EXIT_INTERNAL
    assert exit_code_for(KeyboardInterrupt()) == EXIT_INTERRUPTED
    assert exit_code_for(VerifierError("no branch")) == EXIT_INTERNAL


def test_old_import_paths_name_the_same_classes():
    from verifier.checks.certified import Undecidable as U
    from verifier.constructions.extension import ExtensionFailed as E
    from verifier.search.certificates import CertificateError as C

    assert (U, E, C) == (errors.Undecidable, errors.ExtensionFailed, errors.CertificateError)
    # the builtin bases callers may catch are kept
    assert issubclass(errors.InvalidParameter, ValueError)
    assert issubclass(errors.UnknownClaim, KeyError)
    assert issubclass(errors.Undecidable, ValueError)
    assert issubclass(errors.ExtensionFailed, ArithmeticError)
    assert issubclass(errors.CertificateError, errors.InvalidParameter)


def test_unknown_claim_message_is_plain():
    assert str(errors.UnknownClaim("no claim 'x'")) == "no claim 'x'"
