"""nine-analyzer: exact combinatorial analysis of the baccarat family of card games.

The public API mirrors the command line::

    from analyzer.rules.shoe import Shoe
    from analyzer.engine.odds import odds
    table = odds("punto-banco", Shoe.decks(8))
"""

import os

__version__ = "0.1.0"

# The engine's matrix products are small (bets x 6,958 terms x a few hundred shoes): a
# multi-threaded BLAS only adds contention (5-7x slower measured on a loaded 2-core machine).
# These variables reach every BLAS loaded after this import (numpy's, scipy's); the
# evaluators also set the limit through threadpoolctl for libraries loaded before it.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from analyzer.errors import AnalyzerError  # noqa: E402
from analyzer.rules.cards import Card, Rank, Suit, parse_cards  # noqa: E402
from analyzer.rules.shoe import Shoe, make_shoe  # noqa: E402

__all__ = ["AnalyzerError", "Card", "Rank", "Shoe", "Suit", "make_shoe", "parse_cards",
           "__version__"]
