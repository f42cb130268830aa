"""The equilibria ``nine tables`` publishes, read back: what ``nine advise`` takes instead
of solving again (the strategies of ``nine advisor --format json``).

Only a file the tables build wrote is read -- its SHA-256 as the folder's manifest lists it
-- of this analyzer version and solved for the very rules asked about (their fingerprint);
anything else is None, and the caller solves. Whoever takes the strategies certifies them
again (:func:`~analyzer.choice.table.solve.solve_table` with ``known``).
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

from analyzer import __version__
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import SubgameKey
from analyzer.errors import AnalyzerError
from analyzer.present.tables.folder import read_manifest
from analyzer.rules.choice_rules import ChoiceRules

__all__ = ["CHECKOUT_TABLES", "published_strategies", "STRATEGIES_FILE"]

#: Where ``nine tables`` publishes the strategies, in the tables folder.
STRATEGIES_FILE = "lucky9/advisor.json"
#: The tables folder of a source checkout (absent from an installed package).
CHECKOUT_TABLES = Path(__file__).resolve().parents[3] / "tables"


def published_strategies(rules: ChoiceRules, folder: Path = CHECKOUT_TABLES,
                         ) -> dict[SubgameKey, Strategies] | None:
    """The published subgame strategies of ``rules`` at the infinite deck, by total, or
    None (see the module docstring)."""
    path = folder / STRATEGIES_FILE
    try:
        manifest = read_manifest(folder)
        if manifest is None or not path.is_file():
            return None
        content = path.read_bytes()
    except (AnalyzerError, OSError):
        return None
    entry = manifest.files.get(STRATEGIES_FILE)
    if entry is None or hashlib.sha256(content).hexdigest() != entry[0]:
        return None
    try:
        document = json.loads(content)
        if (document.get("fingerprint") != rules.fingerprint
                or document.get("analyzer_version") != __version__):
            return None
        return {(int(s["live"]), ()): (
            [[[Fraction(v) for v in row] for row in rows] for rows in s["seats"]],
            [[Fraction(v) for v in row] for row in s["bank"]]) for s in document["subgames"]}
    except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError):
        return None
