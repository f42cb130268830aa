"""nine-analyzer: exact combinatorial analysis of the baccarat family of card games.

The public API mirrors the command line::

    from analyzer.rules.shoe import Shoe
    from analyzer.engine.odds import odds
    table = odds("punto-banco", Shoe.decks(8))
"""

__version__ = "0.1.0"

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import Card, Rank, Suit, parse_cards
from analyzer.rules.shoe import Shoe, make_shoe

__all__ = ["AnalyzerError", "Card", "Rank", "Shoe", "Suit", "make_shoe", "parse_cards",
           "__version__"]
