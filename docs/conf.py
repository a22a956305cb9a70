"""Sphinx configuration for catsearch's documentation (built with -W: warnings are errors)."""

project = "catsearch"
author = "The catsearch developers"
copyright = "2026, The catsearch developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_typehints = "description"
nitpicky = False
html_theme = "alabaster"
exclude_patterns = ["_build"]
