"""Exact card removal at any table size: removed-card compositions (:mod:`.compositions`),
the compiled walk over them (:mod:`.kernels`) and the subgame it evaluates (:mod:`.game`).
"""

__all__: list[str] = []
