"""Sphinx configuration of the Python API reference (``make docs``; warnings are errors)."""

project = "nine-analyzer"
author = "nine-analyzer"
extensions = ["sphinx.ext.autodoc"]
# the names as a user imports them (analyzer.odds), each documented where ``import analyzer``
# exports it
add_module_names = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
html_theme = "alabaster"
html_title = "nine-analyzer API"
exclude_patterns = ["_build"]
