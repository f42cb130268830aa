"""Presentation: ``report`` formats every result (text, Markdown, CSV, JSON, LaTeX, HTML),
``plots`` draws PNG pictures, and ``tables`` builds the published tables (``nine tables``)
from library calls and those renderers. Nothing here imports the command line.
"""

__all__ = []
