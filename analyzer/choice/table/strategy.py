"""Strategies at a whole table: what each side sees, the equilibrium as strategy files, files
as plans to evaluate.

A seat's information set at a table is its own hand, every seat's natural and the earlier
live seats' choices; the bank's is its own hand, the naturals and every choice
(``docs/rules/lucky9-home.md`` section 7). :func:`seat_contexts` and :func:`bank_contexts`
name such a view in the strategy-file syntax of :mod:`analyzer.choice.strategy`, most
specific first (with the seat, the exact naturals, then the live seats' view only), so a
file written for any level of detail is read the same way. :func:`table_strategy_text`
writes a solved table's equilibrium as two such files -- rows that only repeat the common
play are left out -- and :func:`strategy_rules` turns files back into the draw
probabilities :func:`~analyzer.choice.table.solve.evaluate_table` evaluates exactly.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.choice.table.solve import solve_table
>>> table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
>>> text = table_strategy_text(table, "player")
>>> parsed = parse_strategy(text, "seats.toml", "player")
>>> rules = strategy_rules(table, parsed, None)
>>> evaluate_table(table, rules[0]).seats == table.seat_values
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.strategy import Side, Strategy, parse_strategy
from analyzer.choice.table.indifference import SubgameSolution
from analyzer.choice.table.solve import (
    NATURAL,
    BankRule,
    Pattern,
    SeatRule,
    SubgameKey,
    TableEquilibrium,
    TableValues,
    evaluate_profile,
    evaluate_table,
    subgame_of,
)
from analyzer.choice.table.subgame import InfoClass, Subgame
from analyzer.choice.table.tree import GameTree
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules, hand_label, parse_hand
from analyzer.rules.shoe import Shoe

__all__ = ["bank_contexts", "bank_plan", "bank_views", "choices_text", "evaluate_strategies",
           "evaluate_table", "information_for", "parse_strategy", "seat_contexts", "seat_plan",
           "seat_views", "Situation", "strategy_rules", "summary_observation",
           "table_strategy_text", "tree_behaviour"]


def _natural(hand: Any) -> str:
    return "N" if hand == NATURAL or not isinstance(hand, tuple) else f"N({hand_label(hand)})"


def choices_text(bits: int, count: int) -> str:
    """``count`` live seats' choices, one bit each from the first (1: drew), as ``DS..``.

    >>> choices_text(0b10, 2), choices_text(0, 0)
    ('DS', '')
    """
    return "".join("D" if bits >> (count - 1 - i) & 1 else "S" for i in range(count))


def seat_views(table: TableEquilibrium,
               seat: int) -> Iterator[tuple[Pattern, SubgameSolution, int, int, int]]:
    """Everything seat ``seat`` (1-based) can see when it chooses: (pattern, its solved
    subgame, the seat's place among the live seats, how many live seats follow, the earlier
    live seats' choices as bits for :func:`choices_text`)."""
    if not 1 <= seat <= table.players:
        raise AnalyzerError(f"--seat {seat}: the table has seats 1 to {table.players}")
    for pattern in table.patterns:
        if pattern.bank is not None or pattern.seats[seat - 1] is not None:
            continue
        solution = table.solution(pattern.key)
        position = pattern.live.index(seat - 1)
        for earlier in range(2**position):
            yield pattern, solution, position, len(pattern.live) - position - 1, earlier


def bank_views(table: TableEquilibrium) -> Iterator[tuple[Pattern, SubgameSolution, int]]:
    """Everything the bank can see when it chooses (at least one live seat): (pattern, its
    solved subgame, the live seats' choices as bits for :func:`choices_text`)."""
    for pattern in table.patterns:
        if pattern.bank is not None or not pattern.live:
            continue
        solution = table.solution(pattern.key)
        for vector in range(2 ** len(pattern.live)):
            yield pattern, solution, vector


def seat_contexts(pattern: Pattern, seat: int, earlier: int) -> list[str]:
    """What ``seat`` (0-based) sees in ``pattern`` after the earlier live seats chose
    ``earlier`` (binary, seat order, 1 = drew), most specific first."""
    live = pattern.live
    position = live.index(seat)
    choices = iter(choices_text(earlier, position))
    before_exact = "".join(_natural(h) if h is not None else next(choices)
                           for h in pattern.seats[:seat])
    before_plain = _plain(pattern, seat, earlier)
    after_exact = "".join(_natural(h) if h is not None else "-" for h in pattern.seats[seat + 1:])
    after_plain = "".join("N" if h is not None else "-" for h in pattern.seats[seat + 1:])
    views = [f"{before_exact}/{after_exact}", f"{before_plain}/{after_plain}"]
    label = f"seat {seat + 1}: "
    out = [label + v for v in views] + views
    view = f"live:{choices_text(earlier, position)}+{len(live) - position - 1}"
    out += [label + view, view]
    return list(dict.fromkeys(out))


def _plain(pattern: Pattern, seat: int, earlier: int) -> str:
    position = pattern.live.index(seat)
    choices = iter(choices_text(earlier, position))
    return "".join("N" if h is not None else next(choices) for h in pattern.seats[:seat])


def summary_observation(choices: str) -> str:
    """How a heads-up banker file (``[draw.drew]``, ``[draw.stood]``) reads the live seats'
    choices (``D``/``S``, seat order) at a table: ``drew`` if at least half of them drew.

    >>> summary_observation("D"), summary_observation("DSS"), summary_observation("")
    ('drew', 'stood', 'stood')
    """
    return "drew" if choices and 2 * choices.count("D") >= len(choices) else "stood"


def bank_contexts(pattern: Pattern, vector: int) -> list[str]:
    """What the bank sees in ``pattern`` after the live seats chose ``vector``, most
    specific first; last, the heads-up observation :func:`summary_observation` names."""
    live = len(pattern.live)
    exact_choices = iter(choices_text(vector, live))
    exact = "".join(_natural(h) if h is not None else next(exact_choices)
                    for h in pattern.seats)
    plain_choices = iter(choices_text(vector, live))
    plain = "".join("N" if h is not None else next(plain_choices) for h in pattern.seats)
    choices = choices_text(vector, live)
    return list(dict.fromkeys([exact, plain, f"live:{choices}",
                               summary_observation(choices)]))


def _class_draw(strategy: Strategy, info: InfoClass, contexts: Sequence[str]) -> Fraction:
    values = {strategy.table_draw(hand, contexts) for hand in info.hands}
    if len(values) > 1:
        raise AnalyzerError(f"{strategy.name}: the play differs within total {info.total}; "
                            "evaluate with --by cards")
    return values.pop()


def strategy_rules(table: TableEquilibrium | Callable[[SubgameKey], Subgame],
                   player: Strategy | None, banker: Strategy | None, players: int | None = None,
                   ) -> tuple[SeatRule | None, BankRule | None]:
    """Strategy files as the draw probabilities of
    :func:`~analyzer.choice.table.solve.evaluate_table` (None keeps the equilibrium), or of
    :func:`~analyzer.choice.table.solve.evaluate_profile` given the subgames."""
    if isinstance(table, TableEquilibrium):
        solved = table

        def game_of(key: SubgameKey) -> Subgame:
            return solved.solution(key).game

        size = table.players
    else:
        game_of, size = table, players or 0  # type: ignore[assignment]
    for strategy in (player, banker):
        if strategy is not None and strategy.players not in (None, size):
            raise AnalyzerError(f"{strategy.source or strategy.name}: written for "
                                f"{strategy.players} players, the table has {size}")
    seat_rule: SeatRule | None = None
    bank_rule: BankRule | None = None
    memo: dict[Any, Fraction] = {}

    def draw(strategy: Strategy, info: InfoClass, contexts: list[str]) -> Fraction:
        # Only the contexts the file has tables for matter: memoise on those.
        present = tuple(c for c in contexts if c in strategy.tables)
        key = (id(strategy), info, present)
        if key not in memo:
            memo[key] = _class_draw(strategy, info, present)
        return memo[key]

    views: dict[Any, list[str]] = {}
    if player is not None:
        def seat_rule(pattern: Pattern, seat: int, position: int, earlier: int,
                      cls: int) -> Fraction | None:
            del position
            where = (pattern.seats, seat, earlier)
            if where not in views:
                views[where] = seat_contexts(pattern, seat, earlier)
            return draw(player, game_of(pattern.key).seat_classes[cls], views[where])
    if banker is not None:
        def bank_rule(pattern: Pattern, vector: int, cls: int) -> Fraction | None:
            where = (pattern.seats, -1, vector)
            if where not in views:
                views[where] = bank_contexts(pattern, vector)
            return draw(banker, game_of(pattern.key).bank_classes[cls], views[where])
    return seat_rule, bank_rule


def information_for(strategies: Sequence[Strategy]) -> str:
    """The information model strategy files need: ``cards`` if any names a two-card
    holding, else ``total``."""
    return "cards" if any(key[0] == "hand" for strategy in strategies
                          for table in strategy.tables.values() for key in table) else "total"


def evaluate_strategies(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                        player: Strategy | Sequence[Strategy], banker: Strategy) -> TableValues:
    """Every side's exact value and regret when the seats play ``player`` (one file for every
    seat, or one per seat, seat 1 first) and the bank ``banker`` -- solving nothing:
    ``max_regret == 0`` certifies the files independently."""
    seats = [player] * players if isinstance(player, Strategy) else list(player)
    if len(seats) != players:
        raise AnalyzerError(f"{len(seats)} seat strategies for a table of {players} players")
    games: dict[SubgameKey, Subgame] = {}

    def game_of(key: SubgameKey) -> Subgame:
        if key not in games:
            games[key] = subgame_of(rules, shoe, key, by)
        return games[key]

    by_file: dict[int, tuple[SeatRule | None, BankRule | None]] = {}
    for strategy in seats:  # one set of rules (and its memo) per distinct file
        if id(strategy) not in by_file:
            by_file[id(strategy)] = strategy_rules(game_of, strategy, banker, players)
    rules_of = [by_file[id(s)][0] for s in seats]
    _, bank_rule = by_file[id(seats[0])]

    def seat_rule(pattern: Pattern, seat: int, position: int, earlier: int,
                  cls: int) -> Fraction | None:
        rule = rules_of[seat]
        assert rule is not None
        return rule(pattern, seat, position, earlier, cls)

    assert bank_rule is not None
    return evaluate_profile(rules, shoe, players, by, seat_rule, bank_rule)


def tree_behaviour(table: TableEquilibrium, tree: GameTree) -> list[dict[Any, Fraction]]:
    """The equilibrium as behaviour strategies on the extensive form's information sets
    (:func:`~analyzer.choice.table.tree.table_tree`): one mapping per player, bank last."""
    out: list[dict[Any, Fraction]] = [{} for _ in tree.players]
    for player in range(len(tree.players)):
        for infoset in tree.infosets(player):
            _, view, seen, choices = infoset
            seats = tuple(None if token == "-" else
                          (NATURAL if token == "N" else parse_hand(token[2:-1]))
                          for token in _TOKENS.findall(seen))
            pattern = Pattern(None, seats, Fraction(0))
            solution = table.solution(pattern.key)
            bits = int(choices.replace("S", "0").replace("D", "1") or "0", 2)
            if player < table.players:
                cls = _label_index(solution.game.seat_classes, view)
                out[player][infoset] = solution.seats[pattern.live.index(player)][bits][cls]
            else:
                cls = _label_index(solution.game.bank_classes, view)
                out[player][infoset] = solution.bank[cls][bits]
    return out


_TOKENS = re.compile(r"N\([^)]*\)|N|-")


def _label_index(classes: Sequence[InfoClass], label: str) -> int:
    for index, info in enumerate(classes):
        if info.label == label:
            return index
    raise AnalyzerError(f"no information class {label!r}")


# -- writing the equilibrium ----------------------------------------------------------------
def _entries(classes: Sequence[InfoClass], row: Sequence[Fraction]) -> dict[str, Fraction]:
    """A row of draw probabilities as file entries: by total where every holding agrees."""
    by_total: dict[int, list[tuple[InfoClass, Fraction]]] = {}
    for info, draw in zip(classes, row, strict=True):
        by_total.setdefault(info.total, []).append((info, draw))
    out: dict[str, Fraction] = {}
    for total, members in sorted(by_total.items()):
        values = {d for _, d in members}
        if len(values) == 1:
            out[str(total)] = values.pop()
        else:
            out.update({info.label: d for info, d in members})
    return out


def _text(value: Fraction) -> str:
    return '"draw"' if value == 1 else '"stand"' if value == 0 else f'"{value}"'


def _ranges(entries: dict[str, Fraction]) -> list[tuple[str, Fraction]]:
    """Entries with runs of consecutive totals that agree merged into ranges (``0-4``)."""
    out: list[tuple[str, Fraction]] = []
    run: list[tuple[int, Fraction]] = []

    def flush() -> None:
        if run:
            low, high = run[0][0], run[-1][0]
            out.append((str(low) if low == high else f"{low}-{high}", run[0][1]))
            run.clear()

    for key, value in entries.items():
        if key.isdigit() and run and int(key) == run[-1][0] + 1 and value == run[-1][1]:
            run.append((int(key), value))
            continue
        flush()
        if key.isdigit():
            run.append((int(key), value))
        else:
            out.append((key, value))
    flush()
    return out


def _section(name: str | None, entries: dict[str, Fraction], base: dict[str, Fraction],
             ) -> list[str]:
    changed = {k: v for k, v in entries.items() if base.get(k) != v}
    if name is not None and not changed:
        return []
    lines = ["[draw]" if name is None else f'[draw."{name}"]']
    lines += [f'"{k}" = {_text(v)}' for k, v in _ranges(changed if name is not None
                                                         else entries)]
    return lines


def table_strategy_text(table: TableEquilibrium, side: Side) -> str:
    """The equilibrium's play for ``side`` as a strategy file (every seat in one file)."""
    status = ("certified equilibrium" if table.certified else
              f"solved at the {table.solved_at}, not evaluated at {table.shoe}"
              if not table.exact else f"max regret {table.max_regret}")
    rows: list[tuple[str, dict[str, Fraction]]] = []
    for result in table.subgames:
        live, removed = result.key
        solution = result.solution
        classes = (solution.game.seat_classes if side == "player"
                   else solution.game.bank_classes)
        if removed:  # a finite shoe: the naturals' cards change the play
            for pattern in table.patterns:
                if pattern.bank is None and pattern.live and pattern.key == result.key:
                    rows += _exact_rows(table, pattern, side)
            continue
        if side == "player":
            for k, by_earlier in enumerate(solution.seats):
                for e, row in enumerate(by_earlier):
                    name = f"live:{choices_text(e, k)}+{live - k - 1}"
                    rows.append((name, _entries(classes, row)))
        else:
            for v in range(solution.game.vectors):
                rows.append((f"live:{choices_text(v, live)}",
                             _entries(classes, [r[v] for r in solution.bank])))
    common = Counter(tuple(sorted(e.items())) for _, e in rows).most_common(1)
    base = dict(common[0][0]) if common else {}
    lines = [f"# home Lucky 9, {table.players + 1} people, {table.shoe}, by {table.by}: "
             f"{status}", f'side = "{side}"', f'by = "{table.by}"',
             f"players = {table.players}", 'default = "stand"']
    lines += _section(None, base, {})
    for name, entries in rows:
        lines += _section(name, entries, base)
    return "\n".join(lines) + "\n"


def _exact_rows(table: TableEquilibrium, pattern: Pattern, side: Side,
                ) -> list[tuple[str, dict[str, Fraction]]]:
    solution = table.solution(pattern.key)
    out = []
    if side == "player":
        for k, seat in enumerate(pattern.live):
            for e, row in enumerate(solution.seats[k]):
                out.append((seat_contexts(pattern, seat, e)[0],
                            _entries(solution.game.seat_classes, row)))
    else:
        for v in range(solution.game.vectors):
            out.append((bank_contexts(pattern, v)[0],
                        _entries(solution.game.bank_classes, [r[v] for r in solution.bank])))
    return out


# -- plans by situation (strategy cards, JSON) ----------------------------------------------
@dataclass(frozen=True)
class Situation:
    """One thing a side can see, and its play there: ``context`` in the strategy-file
    syntax, ``sees`` in words, ``draws`` per information class ``(label, total, draw)``."""

    context: str
    sees: str
    draws: tuple[tuple[str, int, Fraction], ...]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _earlier_words(choices: str) -> str:
    if not choices:
        return "no live seat before you"
    words = {"D": "drew", "S": "stood"}
    return "the live seats before you: " + ", ".join(words[c] for c in choices)


def seat_plan(table: TableEquilibrium, seat: int) -> list[Situation]:
    """Everything seat ``seat`` (1-based) can see and its equilibrium play there. At the
    infinite deck only the live seats matter (a natural seat is out of the hand), so the
    situations are the earlier live seats' choices and how many live seats follow; at a
    finite shoe the naturals' point values are named too."""
    out: list[Situation] = []
    seen: set[str] = set()
    for pattern, solution, position, after, earlier in seat_views(table, seat):
        if pattern.key[1]:
            context = seat_contexts(pattern, seat - 1, earlier)[0]
            naturals = ", ".join(f"seat {j + 1} {hand_label(h)}" for j, h in
                                 enumerate(pattern.seats) if isinstance(h, tuple))
            extra = f"; naturals {naturals}"
        else:
            context = f"live:{choices_text(earlier, position)}+{after}"
            extra = ""
        if context in seen:
            continue
        seen.add(context)
        sees = (f"{_earlier_words(choices_text(earlier, position))}; "
                f"{_plural(after, 'live seat')} after you{extra}")
        row = solution.seats[position][earlier]
        out.append(Situation(context, sees, tuple(
            (c.label, c.total, d) for c, d in zip(solution.game.seat_classes, row,
                                                  strict=True))))
    return out


def bank_plan(table: TableEquilibrium) -> list[Situation]:
    """Everything the bank can see -- the live seats' choices (and at a finite shoe the
    naturals' point values) -- and its equilibrium play there."""
    out: list[Situation] = []
    seen: set[str] = set()
    for pattern, solution, vector in bank_views(table):
        live = len(pattern.live)
        choices = choices_text(vector, live)
        context = (bank_contexts(pattern, vector)[0] if pattern.key[1]
                   else f"live:{choices}")
        if context in seen:
            continue
        seen.add(context)
        words = {"D": "drew", "S": "stood"}
        sees = "the live seats: " + ", ".join(words[c] for c in choices)
        if pattern.key[1]:
            sees += "; naturals " + ", ".join(
                f"seat {j + 1} {hand_label(h)}" for j, h in enumerate(pattern.seats)
                if isinstance(h, tuple))
        column = [row[vector] for row in solution.bank]
        out.append(Situation(context, sees, tuple(
            (c.label, c.total, d) for c, d in zip(solution.game.bank_classes, column,
                                                  strict=True))))
    return out
