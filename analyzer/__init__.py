"""nine-analyzer: exact combinatorial analysis of the baccarat family of card games.

The public API mirrors the command line::

    from analyzer import odds, Shoe
    table = odds("punto-banco", Shoe.decks(8))
"""

__version__ = "0.1.0"

from analyzer.cards import Card, Rank, Suit, parse_cards  # noqa: E402
from analyzer.errors import AnalyzerError  # noqa: E402
from analyzer.shoe import Shoe, make_shoe  # noqa: E402

__all__ = ["AnalyzerError", "Card", "Rank", "Shoe", "Suit", "make_shoe", "parse_cards",
           "__version__"]
