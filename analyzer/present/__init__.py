"""Presentation: ``report`` formats every result (text, Markdown, CSV, JSON, LaTeX, HTML),
plots, and the published tables (``nine tables``) built from library calls.
"""

__all__: list[str] = []
