"""Table equilibria kept on disk between runs, so a second ``nine advise`` at a table the
published equilibria do not cover (one deck, 2 or 3 people; any profile outside a source
checkout) certifies the strategies found by the first instead of solving again.

Only the strategies are kept, never a verdict: whoever reads them passes them to
:func:`~analyzer.choice.table.solve.solve_table` as ``known``, which certifies every subgame
again by exact best responses (and solves any subgame where they do not certify). A file
is named by a fingerprint of everything the equilibrium is solved from -- the format, the
analyzer's version and the source of the modules that solve it, the rules' own fingerprint,
the shoe's card counts, the table size and what each side sees -- and carries that
fingerprint and a SHA-256 digest of its content; a file that fails either, or does not
parse, is not read (and is replaced by the next solve). The folder is the compiled plans'
(:func:`analyzer.engine.plan_cache.cache_folder`: ``$NINE_CACHE_DIR``, ``off`` turns it off);
a folder that cannot be written just means no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import SubgameKey, TableEquilibrium
from analyzer.engine.plan_cache import cache_folder, source_digest
from analyzer.errors import AnalyzerError
from analyzer.outputs import output_stream
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["FORMAT", "KEPT_METHOD", "keep_strategies", "kept_path", "kept_strategies",
           "table_fingerprint"]

#: Bumped whenever the file layout changes.
FORMAT = 1
#: How a subgame taken from a kept file is checked (the table's ``method``).
KEPT_METHOD = ("an equilibrium this solver found in an earlier run (kept in the cache "
               "folder), certified again by every side's exact best response")
#: The modules whose source decides which equilibrium the solver reports.
_SOURCES = ("choice/table/solve.py", "choice/table/indifference.py", "choice/table/cfr.py",
            "choice/table/subgame.py", "choice/table/tree.py", "choice/table/kept.py",
            "choice/table/exact/equations.py", "choice/table/exact/evaluation.py",
            "choice/table/exact/ring.py", "choice/headsup/game.py",
            "choice/headsup/solver.py", "rules/choice_rules.py")


def table_fingerprint(rules: ChoiceRules, shoe: Shoe, players: int, by: str) -> str:
    """The name of a table's file: a digest of everything its equilibrium is solved from."""
    text = json.dumps({"format": FORMAT, "code": source_digest(_SOURCES),
                       "rules": rules.fingerprint,
                       "shoe": "infinite" if shoe.is_infinite else list(shoe.counts),
                       "players": players, "by": by})
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def kept_path(rules: ChoiceRules, shoe: Shoe, players: int, by: str) -> Path | None:
    """Where a table's strategies are kept, or None when the cache is turned off."""
    folder = cache_folder()
    if folder is None:
        return None
    return folder / "equilibria" / f"{table_fingerprint(rules, shoe, players, by)}.json"


def _digest(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def keep_strategies(rules: ChoiceRules, shoe: Shoe, table: TableEquilibrium) -> None:
    """Store a certified table's subgame strategies (nothing for one not certified at
    ``shoe``, or when the cache is off or cannot be written)."""
    path = kept_path(rules, shoe, table.players, table.by)
    if path is None or not table.certified:
        return
    body = {"format": FORMAT, "fingerprint": path.stem,
            "subgames": [{"live": r.key[0], "naturals": [list(h) for h in r.key[1]],
                          "seats": [[[str(v) for v in row] for row in rows]
                                    for rows in r.solution.seats],
                          "bank": [[str(v) for v in row] for row in r.solution.bank]}
                         for r in table.subgames]}
    text = json.dumps({**body, "sha256": _digest(body)}, separators=(",", ":"))
    with contextlib.suppress(OSError, AnalyzerError):  # an unwritable cache: no cache
        path.parent.mkdir(parents=True, exist_ok=True)
        with output_stream(path) as stream:
            stream.write(text)


def kept_strategies(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                    ) -> dict[SubgameKey, Strategies] | None:
    """The strategies kept for this table, or None (none kept, the cache off, or a file that
    fails its fingerprint or digest or does not parse)."""
    path = kept_path(rules, shoe, players, by)
    if path is None:
        return None
    try:
        document = json.loads(path.read_bytes())
        digest = document.pop("sha256")
        if (document.get("format") != FORMAT or document.get("fingerprint") != path.stem
                or digest != _digest(document)):
            return None
        return {(int(s["live"]), tuple((int(a), int(b)) for a, b in s["naturals"])): (
            [[[Fraction(v) for v in row] for row in rows] for rows in s["seats"]],
            [[Fraction(v) for v in row] for row in s["bank"]]) for s in document["subgames"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError):
        return None
