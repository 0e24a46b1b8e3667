"""Sphinx configuration of the API reference (``python -m sphinx -W -b html docs/api
OUT``; built by .ci/run with warnings as errors)."""

from __future__ import annotations

project = "verifier"
author = "the verifier authors"
copyright = "2026, the verifier authors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",  # numpydoc sections
    "sphinx.ext.viewcode",
]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# type hints are documented as written; their targets are not all in this reference
nitpicky = False
suppress_warnings = ["ref.python"]  # a name documented twice (re-exports) is not an error
html_theme = "alabaster"
exclude_patterns = ["_build"]
