"""Session-wide checks of the test suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from verifier.runtime.collector import size_sympy_cache

# the suite runs with the caches the `verifier` command gives sympy: set before any
# test module (or doctest) imports sympy; pytest-xdist's workers inherit it
size_sympy_cache()


@pytest.fixture(autouse=True)
def _written_specs_match_the_schema(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every spec file a test writes into its ``tmp_path`` (certificates, dumps)
    matches the JSON Schema of ``verifier schema`` (:mod:`tests.schema_check`)."""
    tmp = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if tmp is None:
        return
    try:
        import jsonschema  # noqa: F401  (a dev dependency)
    except ImportError:
        return
    from .schema_check import check_written_specs

    check_written_specs(tmp)
