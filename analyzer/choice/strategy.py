"""Strategy files for choice games: when a player or the banker takes a third card.

A strategy file is a small TOML document. ``side`` is ``"player"`` or ``"banker"``;
``default`` is the play wherever nothing else applies; the ``[draw]`` table maps an own total
(``"5"``), a range of totals (``"0-4"``) or a two-card holding by point values (``"T+5"``,
``"A+A"``; T is any ten-valued card) to a draw probability: ``1``/``"draw"``, ``0``/``"stand"``
or a fraction such as ``"7/12"``. A banker's file may split ``[draw]`` by what it saw:
``[draw.drew]`` and ``[draw.stood]`` (home Lucky 9), ``[draw.stood]`` and ``[draw.3]``
(chemin de fer: the player's third card; ``T`` or ``0`` for a ten), with ``[draw.any]`` (or keys
directly under ``[draw]``) applying to every observation. A table for an observation the game's
banker cannot make (``[draw.3]`` in home Lucky 9, ``[draw.drew]`` in chemin de fer) is an
error when the strategy is used (:func:`check_observations`). Precedence, first match wins:
(1) the observation's own table, the holding; (2) the observation's own table, the total;
(3) ``any``, the holding; (4) ``any``, the total; (5) ``default``. So an observation's total
beats an ``any`` holding.

At a table of several players (``docs/rules/lucky9-home.md`` section 7) a table may also be
keyed by what the side sees of the others, most specific first:

* a player: ``"seat 2: D/N-"`` -- seat 2, the seat before it drew, the next seat has a
  natural and the last one is live (earlier seats ``D``/``S``/``N``, later seats ``N``/``-``;
  ``N(4+5)`` names a natural's point values, which matter at a finite shoe); the same
  without ``seat 2:`` for any seat with that view; or ``"live:DS+1"`` -- the live seats
  before it drew and stood and one live seat is still to choose, wherever the naturals are
  (all that matters at the infinite deck);
* the banker: ``"NDS"`` -- seat 1 natural, seat 2 drew, seat 3 stood; or ``"live:DS"`` --
  the live seats drew, then stood, wherever the naturals are. Heads-up, ``D`` and ``S`` are
  ``drew`` and ``stood``.

A file may say ``players = N``, the table size its contexts are written for, ``by`` the
information model and ``shoe`` the shoe it was solved for (``"1 deck"``, ``"infinite
deck"``); used at another, it is refused in one line (delete the line to play it there
anyway). Precedence at a
table: each context from the most specific to the least (its holding, then its total), then
``any``, then ``default``. The common house rule, for either side::

    # draw on 4 or less, stand on 5 or more
    side = "player"
    default = "stand"
    [draw]
    "0-4" = "draw"

>>> rule = parse_strategy('side = "banker"\\ndefault = "stand"\\n[draw]\\n"0-4" = 1\\n'
...                       '[draw.stood]\\n"5" = "1/2"\\n', "example")
>>> rule.draw((0, 3), "drew"), rule.draw((0, 5), "stood"), rule.draw((0, 5), "drew")
(Fraction(1, 1), Fraction(1, 2), Fraction(0, 1))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_toml, read_text
from analyzer.rules.choice_rules import STOOD, hand_label, parse_hand

__all__ = ["HOUSE_RULE", "Key", "MAX_PROBABILITY_TEXT", "Side", "Strategy",
           "check_observations", "context_key", "hand_label", "load_strategy", "parse_strategy",
           "strategy_text"]

#: Which role a strategy is for.
Side = Literal["player", "banker"]
#: A ``[draw]`` entry's key: an own total or a two-card holding.
Key = tuple[str, int] | tuple[str, tuple[int, int]]

#: Longest probability a strategy file may write (digits, a point, a slash).
MAX_PROBABILITY_TEXT = 200
#: The common house rule: draw on 4 or less, stand on 5 or more (either side).
HOUSE_RULE = 'default = "stand"\n[draw]\n"0-4" = "draw"\n'


@dataclass(frozen=True)
class Strategy:
    """Draw probabilities by (observation or ``any``) -> own total or holding."""

    side: Side
    default: Fraction
    tables: dict[str, dict[Key, Fraction]] = field(default_factory=dict)
    name: str = ""
    #: Where the strategy came from (a file path), for error messages.
    source: str = ""
    #: Each observation table's name as written in the file (``"T"`` for ``"0"``).
    written: dict[str, str] = field(default_factory=dict)

    #: The table size the file's contexts are written for (None: any).
    players: int | None = None
    #: The information model (``total`` or ``cards``) and the shoe (as the analyzer names
    #: it, e.g. ``1 deck``) the file was solved for (None: any).
    by: str | None = None
    shoe: str | None = None

    def draw(self, hand: tuple[int, int], observation: str | None = None) -> Fraction:
        """The draw probability holding ``hand`` after seeing ``observation`` (precedence:
        the observation's holding, its total, ``any`` holding, ``any`` total, default).
        Heads-up, the table contexts ``D``/``live:D`` mean ``drew`` (``S``: ``stood``)."""
        names: list[str] = []
        if observation is not None:
            names.append(observation)
            short = {"drew": "D", STOOD: "S"}.get(observation)
            if short:
                names += [short, f"live:{short}"]
        return self.table_draw(hand, names)

    def table_draw(self, hand: tuple[int, int], contexts: Sequence[str]) -> Fraction:
        """The draw probability holding ``hand`` where the side sees ``contexts`` (most
        specific first), then ``any``, then the default."""
        total = sum(hand) % 10
        for table_name in (*contexts, "any"):
            table = self.tables.get(table_name, {})
            for key in (("hand", hand), ("total", total)):
                if key in table:
                    return table[key]
        return self.default

    @property
    def uses_contexts(self) -> bool:
        """Whether any table is keyed by a table context (what the side sees of others)."""
        return any(context_key(name, self.side) for name in self.tables)


_DIGITS = frozenset("0123456789")


def _probability(value: Any, where: str) -> Fraction:
    if isinstance(value, bool):
        raise AnalyzerError(f"{where}: expected a probability, 'draw' or 'stand'")
    if value == "draw":
        return Fraction(1)
    if value == "stand":
        return Fraction(0)
    # no exponents: "1e-999999999" would make the exact arithmetic run for ever; plain digits
    # are harmless up to a bound that holds the exact equilibria of a 9-person table (about
    # 75 characters)
    text = repr(value) if isinstance(value, float) else str(value).strip()
    if len(text) > MAX_PROBABILITY_TEXT or not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?", text):
        raise AnalyzerError(f"{where}: {value!r} is not a probability, 'draw' or 'stand'")
    try:
        probability = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: {value!r} is not a probability, 'draw' or 'stand'"
                            ) from None
    if not 0 <= probability <= 1:
        raise AnalyzerError(f"{where}: draw probability {value} is not between 0 and 1")
    return probability


def _keys(text: str, where: str) -> list[Key]:
    if "-" in text:
        parts = text.split("-")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise AnalyzerError(f"{where}: {text!r}: a range of totals is written like '0-4'")
        low, high = (int(part) for part in parts)
        if not 0 <= low <= high <= 9:
            raise AnalyzerError(f"{where}: total range {text!r} must lie in 0-9")
        return [("total", t) for t in range(low, high + 1)]
    if text in _DIGITS:
        return [("total", int(text))]
    try:
        return [("hand", parse_hand(text))]
    except AnalyzerError:
        raise AnalyzerError(f"{where}: {text!r} is not a total, a range like '0-4' or a "
                            "holding like 'T+5'") from None


_NATURAL = r"N(?:\([0-9TJQKA]{1,2}\+[0-9TJQKA]{1,2}\))?"
_EARLIER = re.compile(rf"(?:[DS]|{_NATURAL})*")
_LATER = re.compile(rf"(?:-|{_NATURAL})*")
_TOKEN = re.compile(rf"[DS-]|{_NATURAL}")


def _tokens(text: str) -> list[str]:
    """Context tokens in canonical form (a natural's values as ``N(T+9)``)."""
    out = []
    for token in _TOKEN.findall(text):
        if token.startswith("N("):
            token = f"N({hand_label(parse_hand(token[2:-1]))})"
        out.append(token)
    return out


def context_key(text: str, side: Side) -> str | None:
    """``text`` as a table context in canonical form (see the module docstring), or None.

    >>> context_key("seat 2 : d / n(9+k)-", "player"), context_key("live:ds+1", "player")
    ('seat 2: D/N(T+9)-', 'live:DS+1')
    >>> context_key("nds", "banker"), context_key("drew", "banker")
    ('NDS', None)
    """
    raw = text.strip().upper().replace(" ", "")
    if side == "player":
        seat = re.fullmatch(r"SEAT(\d+):(.*)", raw)
        prefix = f"seat {int(seat.group(1))}: " if seat else ""
        body = seat.group(2) if seat else raw
        live = re.fullmatch(r"LIVE:([DS]*)\+(\d+)", body)
        if live:
            return f"{prefix}live:{live.group(1)}+{int(live.group(2))}"
        if body.count("/") == 1:
            earlier, later = body.split("/")
            if _EARLIER.fullmatch(earlier) and _LATER.fullmatch(later):
                return f"{prefix}{''.join(_tokens(earlier))}/{''.join(_tokens(later))}"
        return None
    live = re.fullmatch(r"LIVE:([DS]*)", raw)
    if live:
        return f"live:{live.group(1)}"
    if raw and _EARLIER.fullmatch(raw) and text.strip().lower() not in ("any", "drew", STOOD):
        return "".join(_tokens(raw))
    return None


def _observation(text: str, where: str, side: Side = "banker") -> str:
    context = context_key(text, side)
    if context is not None:
        return context
    name = text.strip().lower()
    if name in ("any", "drew", STOOD):
        return name
    symbols = {"t": "0", "j": "0", "q": "0", "k": "0", "a": "1", "10": "0"}
    name = symbols.get(name, name)
    if name in _DIGITS:
        return name
    raise AnalyzerError(f"{where}: unknown observation {text!r} (any, drew, stood, 0-9, T, A)")


def parse_strategy(text: str, where: str, side: Side | None = None) -> Strategy:
    """Parse a strategy document; ``side`` fills in a missing ``side`` field."""
    data = parse_toml(text, where)
    unknown = set(data) - {"side", "default", "draw", "name", "by", "note", "profile",
                           "players", "shoe"}
    if unknown:
        raise AnalyzerError(f"{where}: {sorted(unknown)[0]}: unknown field")
    found_side = data.get("side", side)
    if found_side not in ("player", "banker"):
        raise AnalyzerError(f"{where}: side: must be 'player' or 'banker'")
    if side is not None and found_side != side:
        raise AnalyzerError(f"{where}: side: this is a {found_side} strategy, expected {side}")
    default = _probability(data.get("default", "stand"), f"{where}: default")
    raw = data.get("draw", {})
    if not isinstance(raw, dict):
        raise AnalyzerError(f"{where}: draw: must be a table")
    tables: dict[str, dict[Key, Fraction]] = {}
    written: dict[str, str] = {}
    for key, value in raw.items():
        if isinstance(value, dict):
            if found_side == "player" and context_key(key, "player") is None:
                raise AnalyzerError(f"{where}: draw.{key}: a player's table is keyed by what "
                                    "it sees at a table, e.g. \"live:DS+1\" or "
                                    "\"seat 2: D/N-\"")
            observation = _observation(key, f"{where}: draw.{key}", found_side)
            written.setdefault(observation, key)
            for inner, probability in value.items():
                place = f"{where}: draw.{key}.{inner}"
                for k in _keys(inner, place):
                    tables.setdefault(observation, {})[k] = _probability(probability, place)
        else:
            for k in _keys(key, f"{where}: draw.{key}"):
                tables.setdefault("any", {})[k] = _probability(value, f"{where}: draw.{key}")
    players = data.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not 1 <= players <= 8):
        raise AnalyzerError(f"{where}: players: must be a whole number from 1 to 8")
    by = data.get("by")
    if by is not None and by not in ("total", "cards"):
        raise AnalyzerError(f"{where}: by: must be 'total' or 'cards'")
    shoe = data.get("shoe")
    if shoe is not None and (not isinstance(shoe, str) or not shoe.strip()):
        raise AnalyzerError(f"{where}: shoe: must name a shoe, e.g. \"1 deck\"")
    return Strategy(side=found_side, default=default, tables=tables,
                    name=str(data.get("name", where)), source=where, written=written,
                    players=players, by=by, shoe=shoe)


def check_observations(strategy: Strategy, observations: Sequence[str], game_name: str) -> None:
    """Refuse a banker strategy with a table for an observation the game's banker cannot make
    (``observations``: e.g. ``drew``/``stood`` in home Lucky 9, ``0``-``9``/``stood`` in
    chemin de fer); such a table would otherwise be silently ignored.

    >>> rule = parse_strategy('side = "banker"\\n[draw.3]\\n"5" = 1\\n', "bank.toml")
    >>> try:
    ...     check_observations(rule, ("drew", "stood"), "lucky9-home")
    ... except AnalyzerError as error:
    ...     print(error)
    bank.toml: [draw.3]: the banker of lucky9-home never sees '3' (its tables: any, drew, stood)
    """
    allowed = {"any", *observations}
    for observation in strategy.tables:
        if observation not in allowed and context_key(observation, "banker") is None:
            name = strategy.written.get(observation, observation)
            raise AnalyzerError(
                f"{strategy.source or strategy.name}: [draw.{name}]: the banker of {game_name} "
                f"never sees {name!r} (its tables: {', '.join(['any', *observations])})")


def load_strategy(name_or_path: str, side: Side) -> Strategy:
    """A strategy file, or ``house`` (draw on 4 or less, stand on 5 or more)."""
    if name_or_path == "house":
        return parse_strategy(HOUSE_RULE, "house rule", side)
    return parse_strategy(read_text(name_or_path), name_or_path, side)


def strategy_text(side: Side, choices: Any, by: str, note: str = "") -> str:
    """A strategy file holding solver output (``choices`` from an equilibrium)."""
    lines = [f"# {note}" if note else "# written by nine-analyzer", f'side = "{side}"',
             f'by = "{by}"', 'default = "stand"']
    if side == "player":
        lines.append("[draw]")
        lines += [f'"{c.label}" = "{c.draw}"' for c in choices if c.draw != 0]
    else:
        observations: dict[str, list[str]] = {}
        for c in choices:
            if c.draw != 0:
                observations.setdefault(c.observation, []).append(f'"{c.label}" = "{c.draw}"')
        for observation, entries in observations.items():
            lines.append(f"[draw.{observation if observation != STOOD else STOOD}]")
            lines += entries
    return "\n".join(lines) + "\n"
