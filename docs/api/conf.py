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
    "sphinx.ext.intersphinx",  # types link to Python's, sympy's and networkx's docs
    "myst_parser",  # the guides (docs/*.md, README.md) rendered beside the reference
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["dollarmath"]
myst_fence_as_directive = ["math"]  # GitHub's ```math blocks
myst_heading_anchors = 3
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# type hints are documented as written; their targets are not all in this reference
nitpicky = False
# a name documented twice (re-exports) is not an error; the guides' links between
# repository files (README -> docs/..., notebooks/...) are checked by tests/test_docs.py
# and resolve on the repository, not all on this site
suppress_warnings = ["ref.python", "myst.xref_missing"]
# The inventories are vendored (docs/api/inventories/make.py writes them): the build
# needs no network, and they list exactly the targets this reference links to.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", "inventories/python.inv"),
    "sympy": ("https://docs.sympy.org/latest", "inventories/sympy.inv"),
    "networkx": ("https://networkx.org/documentation/stable", "inventories/networkx.inv"),
}
html_theme = "alabaster"
exclude_patterns = ["_build", "inventories"]
