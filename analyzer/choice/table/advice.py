"""Advice at the table: what the equilibrium does in one information set, and what each choice
is worth there.

A seat asking knows (``docs/rules/lucky9-home.md`` section 7) its own two cards, which seats
hold a natural (face up: at a finite shoe their cards too) and what the earlier live seats
chose; :func:`advise_seat` returns the certified equilibrium's play there (``draw``,
``stand`` or ``draw p/q``), the exact expected result of drawing and of standing against the
equilibrium bank (the other seats playing the equilibrium too), the margin, and the best
choice against a bank that plays the house rule (draw on 4 or less). :func:`advise_bank`
does the same for the bank, which knows its own cards and every seat's natural or choice.
Expected results are per unit staked, conditional on what the side knows.

Bad input -- a table size outside 2 to 9 people, a seat outside the table, cards the shoe
cannot deal (a duplicate from one deck), a natural declared for the seat asking, more
choices than earlier seats -- is an :class:`~analyzer.errors.AnalyzerError` in one line.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> advice = advise_seat(LUCKY9, Shoe.infinite(), people=4, seat=2, cards="TH 5S",
...                      earlier="stood")
>>> advice.action, advice.ev_draw == advice.ev_stand, advice.house_action
('draw 32/65', True, 'draw')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzer.choice.table.dealt.game import DealtSubgame
from analyzer.choice.table.dealt.played import MAX_AT_SHOE_PEOPLE, infinite_rules
from analyzer.choice.table.deck_play import (
    EXACT_LIVE,
    FLOAT_LIVE,
    algebraic_words,
    certificate_draw,
    epsilon_words,
    float_conditional,
)
from analyzer.choice.table.exact.evaluation import exact_counterfactual
from analyzer.choice.table.indifference import GIVEN_METHOD, Strategies
from analyzer.choice.table.solve import (
    NATURAL,
    Pattern,
    SubgameKey,
    TableEquilibrium,
    check_players,
    solve_table,
    subgame_of,
)
from analyzer.choice.table.stored.certificate import (
    Certificate,
    algebraic_certificate,
    certified_strategies,
    epsilon_of,
    shipped_certificate,
)
from analyzer.choice.table.stored.kept import KEPT_METHOD, keep_strategies, kept_strategies
from analyzer.choice.table.subgame import MAX_JOINT_SEATS, Subgame, class_index
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import Card, HandCard, Suit, parse_hand
from analyzer.rules.choice_rules import ChoiceRules, hand_label
from analyzer.rules.profile import Profile, choice_rules_of
from analyzer.rules.shoe import Shoe

__all__ = ["advise_bank", "advise_seat", "Advice", "action_text", "MAX_AT_SHOE_PEOPLE",
           "parse_choices", "parse_naturals"]

_CHOICE_WORDS = {"drew": "D", "draw": "D", "d": "D", "hit": "D", "stood": "S", "stand": "S",
                 "s": "S", "natural": "N", "n": "N", "nat": "N"}
#: Seats given a natural's cards, or none (their seat number only).
Naturals = dict[int, tuple[HandCard, ...]]


def action_text(draw: Fraction) -> str:
    """``draw``, ``stand`` or ``draw p/q``."""
    return "draw" if draw == 1 else "stand" if draw == 0 else f"draw {draw}"


@dataclass(frozen=True)
class Advice:
    """The equilibrium's play in one information set and what each choice is worth: the
    expected results are computed at ``shoe`` when ``exact``, else at ``solved_at``."""

    #: Who asks: ``seat`` or ``bank``.
    side: str
    #: People at the table, the bank included.
    people: int
    #: The seat asking, 1-based; None for the bank.
    seat: int | None
    #: The side's own two cards, as given.
    cards: str
    #: The holding as the strategy card names it (``T+5``, or a total).
    holding: str
    #: The holding's point total.
    total: int
    #: What the side knows of the others, in words (naturals and earlier choices).
    sees: str
    #: The shoe asked for, described.
    shoe: str
    #: What a side knows of its own hand: ``cards`` or ``total``.
    by: str
    #: The table's model, in words (as the table equilibrium's ``model``).
    model: str
    #: The table's equilibrium is certified (every exact regret zero at ``shoe``).
    certified: bool
    #: The values are computed at ``shoe`` (else at ``solved_at``, see ``scope``).
    exact: bool
    #: The shoe the strategy was solved at, described.
    solved_at: str
    #: Empty, or the table's sentence saying what is not computed at ``shoe``.
    scope: str
    #: The equilibrium's probability of drawing here (0 stand, 1 draw, else mixed).
    draw: Fraction
    #: Exact expected result per unit staked of drawing, against the equilibrium.
    ev_draw: Fraction
    #: Exact expected result per unit staked of standing, against the equilibrium.
    ev_stand: Fraction
    #: The best choice against house-rule opponents (1 draw, 0 stand).
    house_draw: Fraction
    #: Exact expected result of drawing against house-rule opponents.
    house_ev_draw: Fraction
    #: Exact expected result of standing against house-rule opponents.
    house_ev_stand: Fraction
    #: What the values count, in words (the bank: which seats are already paid).
    note: str = ""
    #: Whose play is advised and assumed of the others ("equilibrium play", or the infinite
    #: deck's equilibrium play assumed of every side at a finite shoe).
    play: str = "equilibrium play"
    #: Not evaluated at a finite ``shoe`` (6+ people): the shipped epsilon-certificate of the
    #: best play found there, as its file states it (``nine certify --check`` re-derives it).
    certificate: Certificate | None = None
    #: What the side asked to see (``cards`` or ``total``), when the answer is by another.
    asked_by: str = ""
    #: The values are computed at ``shoe`` in floats: the bound on each expected result's
    #: distance from the exact one (a margin's is twice it); None when exact or elsewhere.
    error: Fraction | None = None
    #: Where the answer is the infinite deck's beside ``certificate`` (too many live seats
    #: to evaluate at ``shoe``): that file's own probability of drawing here, read from it.
    certificate_draw: Fraction | None = None

    @property
    def values_at(self) -> str:
        """The shoe the expected results and margin are computed at."""
        return self.shoe if self.exact or self.error is not None else self.solved_at

    @property
    def action(self) -> str:
        """The equilibrium's play: ``draw``, ``stand`` or ``draw p/q``."""
        return action_text(self.draw)

    @property
    def margin(self) -> Fraction:
        """How much drawing beats standing (negative: standing is better)."""
        return self.ev_draw - self.ev_stand

    @property
    def best_action(self) -> str:
        """The better choice at the shoe asked for against the others' play (``either``
        when the two are worth the same)."""
        return "draw" if self.margin > 0 else "stand" if self.margin < 0 else "either"

    @property
    def house_action(self) -> str:
        """The best play against the house-rule opponents."""
        return action_text(self.house_draw)


def parse_choices(text: str | Sequence[str]) -> list[str]:
    """``drew,stood,natural`` (or d/s/n, commas or spaces) as ``D``/``S``/``N``."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out = []
    for item in (i.strip().lower() for i in items):
        if not item:
            continue
        if item not in _CHOICE_WORDS:
            raise AnalyzerError(f"choice {item!r}: expected drew, stood or natural")
        out.append(_CHOICE_WORDS[item])
    return out


def parse_naturals(text: str, players: int) -> Naturals:
    """``2,4`` (or ``2 4``) or ``2=9H KD,4`` (suits optional: ``2=9K``): 1-based seats holding
    a natural, with their cards if given."""
    out: Naturals = {}
    items = text.split(",") if "=" in text else text.replace(",", " ").split()
    for item in (i.strip() for i in items):
        if not item:
            continue
        seat_text, _, cards_text = item.partition("=")
        if not seat_text.strip().isdigit():
            raise AnalyzerError(f"--naturals {item!r}: expected a seat number, e.g. 2 or 2=9K")
        seat = int(seat_text)
        if not 1 <= seat <= players:
            raise AnalyzerError(f"--naturals {seat}: the table has seats 1 to {players}")
        if seat in out:
            raise AnalyzerError(f"--naturals: seat {seat} is listed twice")
        out[seat] = parse_hand(cards_text) if cards_text.strip() else ()
    return out


def _holding(rules: ChoiceRules, cards: Sequence[HandCard], who: str) -> tuple[int, int]:
    if len(cards) != 2:
        raise AnalyzerError(f"{who}: give exactly two cards, e.g. \"8 7\"")
    low, high = sorted(c.points for c in cards)
    return low, high


def _check_shoe(shoe: Shoe, cards: Sequence[HandCard]) -> None:
    """The shoe can deal ``cards``: each suited card, and each rank however suited."""
    if shoe.is_infinite:
        return
    suited = Counter(Card(c.rank, c.suit) for c in cards if c.suit is not None)
    for card, count in suited.items():
        held = shoe.count(card)
        if count > held:
            raise AnalyzerError(f"{card}: {shoe.describe()} holds {held} of it, the cards "
                                f"name {count}")
    for rank, count in Counter(c.rank for c in cards).items():
        held = sum(shoe.count(Card(rank, suit)) for suit in Suit)
        if count > held:
            raise AnalyzerError(f"{rank.symbol}: {shoe.describe()} holds {held} of that rank, "
                                f"the cards name {count}")


def _naturals_words(declared: Naturals) -> str:
    if not declared:
        return "no natural showing"
    return "naturals showing at seat" + ("s " if len(declared) > 1 else " ") + ", ".join(
        f"{seat}" + (f" ({' '.join(map(str, cards))})" if cards else "")
        for seat, cards in sorted(declared.items()))


def _table(rules: ChoiceRules, shoe: Shoe, players: int, by: str | None,
           known: Mapping[SubgameKey, Strategies] | None,
           shipped: Mapping[SubgameKey, Strategies] | None = None) -> TableEquilibrium:
    """The table to advise from: strategies found earlier (``known``, e.g. published), a
    shipped certificate's (``shipped``, evaluated again exactly) or the strategies an earlier
    run kept (:mod:`~analyzer.choice.table.stored.kept`), certified again; else solved (and its
    strategies kept for the next run)."""
    check_players(rules, players)
    by = by or ("total" if shoe.is_infinite else "cards")
    method, given_only = GIVEN_METHOD, False
    if known is None and shipped is not None:
        known, given_only = shipped, True
    if known is None:
        known, method = kept_strategies(rules, shoe, players, by), KEPT_METHOD
    if known is None:
        table = solve_table(rules, shoe, players, by)
        keep_strategies(rules, shoe, table)
        return table
    frozen = tuple(sorted((key, (tuple(tuple(tuple(r) for r in rows) for rows in seats),
                                 tuple(tuple(r) for r in bank)))
                          for key, (seats, bank) in known.items()))
    table = _certified(rules, shoe, players, by, frozen, method, given_only)
    if method == KEPT_METHOD and any(r.solution.method != KEPT_METHOD for r in table.subgames):
        keep_strategies(rules, shoe, table)  # a kept subgame did not certify: solved again
    return table


@lru_cache(maxsize=16)
def _certified(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
               known: tuple[tuple[SubgameKey, Strategies], ...],
               method: str, given_only: bool = False) -> TableEquilibrium:
    """The table from strategies found earlier, certified once per process."""
    return solve_table(rules, shoe, players, by, known=dict(known), known_method=method,
                       given_only=given_only)


@dataclass(frozen=True)
class _Situation:
    """Where the advice is computed: the table whose play is advised, the subgame at the
    shoe asked for, every side's draw probabilities there, and what that play is."""

    table: TableEquilibrium | None
    game: Subgame
    seats: list[list[list[Fraction]]]
    bank: list[list[Fraction]]
    by: str
    model: str
    certified: bool
    exact: bool  # the values are computed at the shoe asked for
    solved_at: str  # where the advised play was solved
    scope: str
    play: str = "equilibrium play"
    certificate: Certificate | None = None  # an epsilon-certificate's play; floats: its
    floats: bool = False  # values in floats with a rounding bound
    shipped: Certificate | None = None  # the table's shipped certificate, read once


def _from_certificate(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                      naturals: Naturals, found: Certificate,
                      ) -> tuple[_Situation, Pattern] | None:
    """A shipped certificate's play in the situation's subgame at ``shoe``, its values exact
    up to :data:`EXACT_LIVE` live seats, else in floats with a rounding bound; None beyond
    :data:`FLOAT_LIVE` live seats (not evaluated: the caller keeps the infinite deck's)."""
    pattern = _pattern(players, naturals, rules, True)
    if pattern.key[0] > FLOAT_LIVE or pattern.key not in found.strategies:
        return None
    game = subgame_of(rules, shoe, pattern.key, by)
    seats, bank = found.strategies[pattern.key]
    floats = pattern.key[0] > EXACT_LIVE and isinstance(game, DealtSubgame)
    at = shoe.describe()
    how = f"computed at {at} in floats with a rounding bound" if floats else f"exact at {at}"
    model = (f"no equilibrium is certified at {at} for {players + 1} people by {by}: the "
             f"best play found there (the shipped certificate {Path(found.path).name}, "
             f"{found.command}: not an equilibrium, {epsilon_words(found)}) is assumed "
             f"of every side, and the values and margin are {how} against that play")
    play = f"best play found at {at} (not an equilibrium: {epsilon_words(found)})"
    certified, model, play, kept = algebraic_words(found, pattern.key, at, model, play)
    return _Situation(None, game, [[list(r) for r in rows] for rows in seats],
                      [list(r) for r in bank], by, model, certified, not floats, at, "", play,
                      kept, floats, found), pattern


def _situation(rules: ChoiceRules, shoe: Shoe, players: int, by: str | None,
               naturals: Naturals, known: Mapping[SubgameKey, Strategies] | None = None,
               ) -> tuple[_Situation, Pattern]:
    """The certified equilibrium of the table at ``shoe`` where there is one; at a finite
    shoe beyond it, up to :data:`MAX_AT_SHOE_PEOPLE` people, the infinite deck's certified
    equilibrium (by total, each holding as its total) evaluated exactly at ``shoe`` -- the
    margins are that shoe's; larger tables get the infinite deck's table, which says so."""
    check_players(rules, players)
    by = by or ("total" if shoe.is_infinite else "cards")
    read = shipped_certificate(rules, shoe, players, by)  # once: its views below
    shipped = None if known is not None else certified_strategies(read)
    # the best play found (an epsilon-certificate) or an algebraic block's fraction profile
    epsilon = None if known is not None else epsilon_of(read) or algebraic_certificate(read)
    if epsilon is not None:
        found = _from_certificate(rules, shoe, players, by, naturals, epsilon)
        if found is not None:
            return found
    if (shoe.is_infinite or players <= MAX_JOINT_SEATS or players + 1 > MAX_AT_SHOE_PEOPLE
            or shipped is not None):
        table = _table(rules, shoe, players, by, known, shipped)
        # a natural's cards out of the shoe matter only to a table solved at that shoe
        pattern = _pattern(table.players, naturals, rules,
                           not shoe.is_infinite and table.solved_at == table.shoe)
        solution = table.solution(pattern.key)
        return _Situation(table, solution.game, [[list(r) for r in rows] for rows in
                                                  solution.seats],
                          [list(r) for r in solution.bank], table.by, table.model,
                          table.certified, table.exact, table.solved_at, table.scope, shipped=read
                          ), pattern
    table = solve_table(rules, Shoe.infinite(), players, "total")
    pattern = _pattern(table.players, naturals, rules, True)
    game = subgame_of(rules, shoe, pattern.key, by)
    seat_rule, bank_rule = infinite_rules(table, by)
    seats = [[[seat_rule(pattern, -1, k, e, c) for c in range(len(game.seat_classes))]
              for e in range(2**k)] for k in range(game.live)]
    bank = [[bank_rule(pattern, v, c) for v in range(game.vectors)]
            for c in range(len(game.bank_classes))]
    model = (f"no equilibrium is certified at {shoe.describe()} for {players + 1} people: "
             "every other side is assumed to play the infinite deck's certified equilibrium "
             "by total (each holding as its total), and the values and margin are exact at "
             f"{shoe.describe()} against that play")
    return _Situation(table, game, seats, bank, by, model, False, True, table.solved_at, "",
                      "infinite deck's equilibrium play (assumed of every side)"), pattern


def _epsilon(where: _Situation) -> Certificate | None:
    """The epsilon-certificate whose play is advised, or of a table answered elsewhere."""
    if where.certificate is not None or where.exact:
        return where.certificate
    return epsilon_of(where.shipped)


def _file_play(rules: ChoiceRules, players: int, naturals: Naturals, where: _Situation,
               side: int | None, context: int, holding: tuple[int, int]) -> Fraction | None:
    """Where the answer is the infinite deck's beside a shipped certificate of the shoe
    (a subgame too large to evaluate there), the file's own play here (``side``: the live
    seat's position, None for the bank); else None."""
    found = _epsilon(where)
    if where.exact or where.certificate is not None or found is None:
        return None
    key = _pattern(players, naturals, rules, True).key
    return certificate_draw(rules, found, key, key[0] if side is None else side, context,
                            holding)


def _asked(shoe: Shoe, by: str | None) -> str:
    """What the side asked to see of its own hand (the shoe's default when not given)."""
    return by or ("total" if shoe.is_infinite else "cards")


def _pattern(players: int, naturals: Naturals, rules: ChoiceRules, finite: bool) -> Pattern:
    seats: list[Any] = [None] * players
    for seat, cards in naturals.items():
        if not cards:
            if not finite:
                seats[seat - 1] = NATURAL
                continue
            raise AnalyzerError(f"--naturals {seat}: at a finite shoe a natural's cards change "
                                f"the odds; give them, e.g. {seat}=9K")
        holding = _holding(rules, cards, f"--naturals {seat}")
        if sum(holding) % 10 not in rules.naturals:
            raise AnalyzerError(f"--naturals {seat}: {' '.join(map(str, cards))} is not a "
                                "natural")
        seats[seat - 1] = holding if finite else NATURAL
    return Pattern(None, tuple(seats), Fraction(0))


def _values(where: _Situation, cell: tuple[int, int, int], house: str,
            ) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction, Fraction | None]:
    """The advised draw probability, EV of standing and drawing, the same two against
    house-rule opponents (``house``: which side plays the house rule), and the bound on
    each EV's distance from the exact one (None: exact)."""
    game = where.game
    side, context, cls = cell
    house_bank = [[Fraction(int(info.total <= 4))] * game.vectors
                  for info in game.bank_classes]
    house_seats = [[[Fraction(int(info.total <= 4)) for info in game.seat_classes]
                    for _ in rows] for rows in where.seats]
    advised = where.seats[side][context][cls] if side < game.live else where.bank[cls][context]
    if where.floats and isinstance(game, DealtSubgame):
        memo = ("advice-float", cell, str(where.seats), str(where.bank))
        if memo not in game._cache:  # noqa: SLF001 - the subgame's own memo
            game._cache[memo] = float_conditional(  # noqa: SLF001
                game, where.seats, where.bank, cell, house_seats, house_bank)
        found = game._cache[memo]  # noqa: SLF001
        return (advised, found.stand, found.draw, found.house_stand, found.house_draw,
                found.bound)

    def at(seat_rows: list[list[list[Fraction]]], bank_rows: list[list[Fraction]],
           ) -> tuple[Fraction, Fraction]:
        # one exact pass per profile of the subgame serves every situation in it
        sides = "seats" if side < game.live else "bank"
        key = ("advice", sides, tuple(tuple(tuple(r) for r in rows) for rows in seat_rows),
               tuple(tuple(r) for r in bank_rows))
        if key not in game._cache:  # noqa: SLF001 - the subgame's own memo
            game._cache[key] = exact_counterfactual(  # noqa: SLF001
                game, seat_rows, bank_rows, sides)
        seat_cf, bank_cf = game._cache[key]  # noqa: SLF001
        if side < game.live:
            reach = game.seat_reach(seat_rows, side, context, cls)
            stand, draw = seat_cf[side][context][cls]
        else:
            reach = game.bank_reach(seat_rows, context, cls)
            stand, draw = bank_cf[cls][context]
        if reach == 0:
            raise AnalyzerError("this situation cannot arise under the equilibrium play")
        return stand / reach, draw / reach

    stand, draw = at(where.seats, where.bank)
    if house == "bank":
        house_stand, house_draw = at(where.seats, house_bank)
    else:
        house_stand, house_draw = at(house_seats, where.bank)
    return advised, stand, draw, house_stand, house_draw, None


def advise_seat(profile: ChoiceRules | Profile | str, shoe: Shoe, people: int, cards: str,
                seat: int | None = None, naturals: str = "", earlier: str = "",
                by: str | None = None, known: Mapping[SubgameKey, Strategies] | None = None,
                ) -> Advice:
    """The advice for a seat (1-based; default: the next to choose after ``earlier``);
    ``profile`` a name, alias, path, :class:`Profile` or the rules; ``known``: subgame
    strategies found earlier, taken where they certify again (see
    :func:`~analyzer.choice.table.solve.solve_table`)."""
    rules = choice_rules_of(profile)
    players = people - 1
    if not 2 <= people <= 9:
        raise AnalyzerError(f"--people {people}: home Lucky 9 is played by 2 to 9 people")
    choices = parse_choices(earlier)
    seat = len(choices) + 1 if seat is None else seat
    if not 1 <= seat <= players:
        raise AnalyzerError(f"--seat {seat}: a table of {people} people has seats 1 to {players}")
    declared = parse_naturals(naturals, players)
    if seat in declared:
        raise AnalyzerError(f"--naturals {seat}: the seat asking cannot hold a natural (it "
                            "has nothing to choose)")
    own_cards = parse_hand(cards)
    holding = _holding(rules, own_cards, "--cards")
    if sum(holding) % 10 in rules.naturals:
        raise AnalyzerError(f"--cards {cards}: a natural {sum(holding) % 10} is settled at "
                            "once; there is nothing to choose")
    if len(choices) > seat - 1:
        raise AnalyzerError(f"--earlier: {len(choices)} choices, but seat {seat} has "
                            f"{seat - 1} earlier seat{'s' if seat != 2 else ''}")
    if len(choices) == seat - 1:  # one entry per earlier seat, naturals included
        for index, choice in enumerate(choices, start=1):
            if choice == "N" and index not in declared:
                declared[index] = ()
            elif choice != "N" and index in declared:
                raise AnalyzerError(f"--earlier: seat {index} holds a natural, it did not "
                                    "choose")
        live_choices = [c for c in choices if c != "N"]
    else:
        if "N" in choices:
            raise AnalyzerError("--earlier: list every earlier seat (natural ones as "
                                "'natural') or only the live ones")
        live_choices = choices
    live_before = [j for j in range(1, seat) if j not in declared]
    if len(live_choices) != len(live_before):
        raise AnalyzerError(f"--earlier: seat {seat} has {len(live_before)} live seat"
                            f"{'s' if len(live_before) != 1 else ''} before it; give "
                            f"{'each' if live_before else 'no'} choice")
    _check_shoe(shoe, [*own_cards, *(c for cs in declared.values() for c in cs)])
    where, pattern = _situation(rules, shoe, players, by, declared, known)
    game = where.game
    position = pattern.live.index(seat - 1)
    context = sum((1 << (position - 1 - i)) for i, c in enumerate(live_choices) if c == "D")
    cls = class_index(game.seat_classes, holding)
    draw, stand_ev, draw_ev, house_stand, house_draw, error = _values(
        where, (position, context, cls), "bank")
    words = {"D": "drew", "S": "stood"}
    after = len(pattern.live) - position - 1
    sees = (f"{_naturals_words(declared)}; before you "
            + (", ".join(words[c] for c in live_choices) if live_choices else "no live seat")
            + f"; after you {after} live seat{'s' if after != 1 else ''} (live: no natural, "
            "still to choose)")
    return Advice("seat", people, seat, " ".join(map(str, own_cards)), hand_label(holding),
                  sum(holding) % 10, sees, shoe.describe(), where.by, where.model,
                  where.certified, where.exact, where.solved_at, where.scope, draw, draw_ev,
                  stand_ev, Fraction(int(house_draw > house_stand)), house_draw, house_stand,
                  play=where.play, certificate=_epsilon(where), asked_by=_asked(shoe, by),
                  error=error, certificate_draw=_file_play(
                      rules, players, declared, where, position, context, holding))


def advise_bank(profile: ChoiceRules | Profile | str, shoe: Shoe, cards: str, choices: str,
                people: int | None = None, naturals: str = "", by: str | None = None,
                known: Mapping[SubgameKey, Strategies] | None = None) -> Advice:
    """The advice for the bank after every seat's natural or choice (seat order); ``profile``
    a name, alias, path, :class:`Profile` or the rules; ``known`` as for :func:`advise_seat`."""
    rules = choice_rules_of(profile)
    seen = parse_choices(choices)
    if people is not None and not 2 <= people <= 9:
        raise AnalyzerError(f"--people {people}: home Lucky 9 is played by 2 to 9 people")
    players = len(seen) if people is None else people - 1
    if not seen or len(seen) != players:
        raise AnalyzerError(f"--choices: give one entry per seat ({players} seat"
                            f"{'s' if players != 1 else ''}): natural, drew or stood")
    declared = parse_naturals(naturals, players)
    for index, choice in enumerate(seen, start=1):
        if choice == "N":
            declared.setdefault(index, ())
        elif index in declared:
            raise AnalyzerError(f"--choices: seat {index} holds a natural, it did not choose")
    own_cards = parse_hand(cards)
    holding = _holding(rules, own_cards, "--cards")
    if sum(holding) % 10 in rules.naturals:
        raise AnalyzerError(f"--cards {cards}: the bank's natural ends the hand at once")
    _check_shoe(shoe, [*own_cards, *(c for cs in declared.values() for c in cs)])
    live = [c for c in seen if c != "N"]
    if not live:
        raise AnalyzerError("every seat holds a natural: the bank's choice changes nothing")
    where, _ = _situation(rules, shoe, players, by, declared, known)
    game = where.game
    vector = sum(1 << (len(live) - 1 - i) for i, c in enumerate(live) if c == "D")
    cls = class_index(game.bank_classes, holding)
    draw, stand_ev, draw_ev, house_stand, house_draw, error = _values(
        where, (game.live, vector, cls), "seats")
    settled = len(seen) - len(live)
    note = (f"{settled} natural seat{'s' if settled != 1 else ''} already paid; the values "
            "are the bank's net on the live seats" if settled else
            "the values are the bank's net on every seat")
    words = {"D": "drew", "S": "stood", "N": "natural"}
    sees = "seat by seat: " + ", ".join(f"{i} {words[c]}" for i, c in enumerate(seen, start=1))
    return Advice("bank", players + 1, None, " ".join(map(str, own_cards)),
                  hand_label(holding), sum(holding) % 10, sees, shoe.describe(),
                  where.by, where.model, where.certified, where.exact, where.solved_at,
                  where.scope, draw, draw_ev, stand_ev,
                  Fraction(int(house_draw > house_stand)), house_draw, house_stand, note,
                  where.play, _epsilon(where), _asked(shoe, by), error,
                  _file_play(rules, players, declared, where, None, vector, holding))
