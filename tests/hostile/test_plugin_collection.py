"""The pytest plugin on hostile repositories: a path that matches the spec patterns
but is no regular file (a loop of symbolic links, a pipe, a directory, a link to
``/dev/zero``, a link to nothing) is a collection error, as ``verifier check``
refuses each, never skipped while the other claims report "passed"; a refusal over a
limit names the ini option that raises it (the plugin has no command-line option)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# imported here, before pytester's in-process runs snapshot sys.modules: a module
# imported inside a run is dropped after it and imported anew by the next run, while
# the package's lazily cached names would still point at the first run's objects
import verifier.mechanism.model  # noqa: F401
import verifier.spec.distributions  # noqa: F401
import verifier.spec.read  # noqa: F401

pytest_plugins = ["pytester"]

CLAIMS = Path(__file__).resolve().parents[1] / "plugin" / "repo" / "claims"


def _args(request: pytest.FixtureRequest) -> list[str]:
    loaded = request.config.pluginmanager.has_plugin("verifier")
    return ["-p", "no:cacheprovider", *([] if loaded else ["-p", "verifier.pytest_plugin"])]


@pytest.fixture
def repo(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "claims").mkdir()
    shutil.copy(CLAIMS / "randomized_response.toml", pytester.path / "claims")
    return pytester


@pytest.mark.parametrize(
    "kind,message",
    [
        ("loop", "Too many levels of symbolic links"),
        ("fifo", "not a regular file"),
        ("directory", "is a directory"),
        ("dev_zero", "not a regular file"),
        ("dangling", "no such file"),
    ],
)
def test_an_irregular_spec_path_is_a_collection_error(repo, request, kind, message):
    path = repo.path / "claims" / "odd.toml"
    if kind == "loop":
        os.symlink("odd.toml", path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "dev_zero":
        os.symlink("/dev/zero", path)
    else:
        os.symlink("nowhere.toml", path)
    result = repo.runpytest(*_args(request))
    out = result.stdout.str()
    assert result.ret != 0, out
    assert "ERROR collecting claims/odd.toml" in out and message in out, out
    assert " passed" not in out.splitlines()[-1], out


def test_a_limit_names_the_ini_option_that_raises_it(repo, request):
    repo.makeini("[pytest]\nverifier_max_file_size = 100\n")
    result = repo.runpytest(*_args(request))
    out = result.stdout.str()
    assert result.ret != 0
    assert "the ini option verifier_max_file_size raises it" in out, out
    assert "--max-file-size" not in out


def test_the_ini_option_raises_the_limit(repo, request):
    repo.makeini("[pytest]\nverifier_max_file_size = 100000\n")
    repo.runpytest(*_args(request)).assert_outcomes(passed=2)
