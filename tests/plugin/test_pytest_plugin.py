"""The pytest plugin on a paper repository's layout (``tests/plugin/repo``): its spec
files are collected, one item per claim; an item passes when the verdict is the
expected one and a failing item reports the verdict table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

# imported here, before pytester's in-process runs snapshot sys.modules: a module
# imported inside a run is dropped after it and imported anew by the next run, while
# the package's lazily cached names would still point at the first run's objects
import verifier.mechanism.model  # noqa: F401
import verifier.spec.distributions  # noqa: F401
import verifier.spec.read  # noqa: F401

# pytester runs pytest in-process on a copy of the repository (a module-level
# pytest_plugins: a non-root conftest may not declare one)
pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent / "repo"


@pytest.fixture
def repo(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(REPO / "claims", pytester.path / "claims")
    return pytester


def _plugin_args(request: pytest.FixtureRequest) -> list[str]:
    """``-p verifier.pytest_plugin`` unless the installed entry point loads it already."""
    return (
        []
        if request.config.pluginmanager.has_plugin("verifier")
        else ["-p", "verifier.pytest_plugin"]
    )


def test_every_claim_is_an_item(repo: pytest.Pytester, request: pytest.FixtureRequest) -> None:
    result = repo.runpytest("--collect-only", "-q", *_plugin_args(request))
    out = result.stdout.str()
    assert "claims/randomized_response.toml::rr-is-log3-dp" in out
    assert "claims/randomized_response.toml::rr-is-not-1-dp" in out
    assert "claims/best_of_three.toml::best-of-3-is-log3-dp" in out
    assert "3 tests collected" in out


def test_passing_and_failing_items(repo: pytest.Pytester, request: pytest.FixtureRequest) -> None:
    result = repo.runpytest("-v", *_plugin_args(request))
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "rr-is-log3-dp PASSED" in out
    assert "rr-is-not-1-dp PASSED" in out  # refuted, as expected
    assert "best-of-3-is-log3-dp FAILED" in out
    # the report is the verdict table of the failing claim
    report = out[out.index("= FAILURES =") :]
    assert "best-of-3-is-log3-dp (pure_dp on best): VIOLATED, expected holds" in report
    assert "realized eps(o)" in report and "claimed" in report and "violated" in report
    assert "Liu & Talwar 2019" in report
    assert "Traceback" not in report


def test_the_patterns_are_configurable(
    repo: pytest.Pytester, request: pytest.FixtureRequest
) -> None:
    (repo.path / "claims" / "best_of_three.toml").rename(repo.path / "paper.toml")
    repo.makeini("[pytest]\nverifier_spec_files =\n    paper.toml\n")
    result = repo.runpytest("-v", *_plugin_args(request))
    result.assert_outcomes(failed=1)
    assert "paper.toml::best-of-3-is-log3-dp FAILED" in result.stdout.str()


def test_an_unreadable_spec_file_is_a_located_collection_error(
    repo: pytest.Pytester, request: pytest.FixtureRequest
) -> None:
    (repo.path / "claims" / "bad.toml").write_text(
        '[mechanisms.m]\ngraph = { kind = "pair" }\noutputs = [0]\n'
        'distributions.D = { "0" = "1/2" }\ndistributions."D\'" = { "0" = 1 }\n'
    )
    result = repo.runpytest(*_plugin_args(request))
    result.assert_outcomes(errors=1)  # pytest stops at a collection error
    assert "mechanisms.m.distributions.D" in result.stdout.str()
    assert "sums to 1/2" in result.stdout.str()


def test_other_toml_files_are_not_collected(
    repo: pytest.Pytester, request: pytest.FixtureRequest
) -> None:
    (repo.path / "pyproject.toml").write_text('[project]\nname = "paper"\n')
    (repo.path / "docs").mkdir()
    shutil.copy(REPO / "claims" / "best_of_three.toml", repo.path / "docs" / "x.toml")
    result = repo.runpytest("--collect-only", "-q", *_plugin_args(request))
    assert "3 tests collected" in result.stdout.str()
