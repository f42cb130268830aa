"""Certified equilibria of a whole home Lucky 9 table: 2 to 9 people, one of them the bank.

What each side sees when it chooses (``docs/rules/lucky9-home.md`` section 7): a seat sees
its own two cards, *every* seat's revealed natural -- also the naturals of the seats that
choose after it, and at a finite shoe their point values -- and the choices of the earlier
seats; the bank sees its own two cards, every natural and every choice. So the game splits
into independent subgames, one per natural pattern (:mod:`analyzer.choice.table.subgame`): the
``m`` live seats against a live bank. At the infinite deck the subgame depends on ``m``
only, so a table of ``n`` players needs the ``n`` subgames ``m = 1..n``; each seat's value
is a weighted sum of its values in the subgames it is live in, with weights from the
chance of each natural pattern (``q = 16/169`` for a two-card 9). At a finite shoe the
naturals' cards leave the shoe, so each multiset of natural holdings has its own subgame;
exact card removal covers tables of at most three people
(:data:`~analyzer.choice.table.subgame.MAX_JOINT_SEATS` live seats), and four people at one
deck through the certificates ``nine certify`` ships. A larger finite-shoe
table gets the infinite-deck equilibrium by total (there a holding tells no more than its
total), ``solved_at`` the infinite deck and not ``exact``: its values and regrets at the shoe
asked for are not computed, and it says so (:attr:`TableEquilibrium.scope`).

Every subgame is solved and certified by :func:`~analyzer.choice.table.indifference.solve_subgame`;
a side's regret in the whole game is the probability-weighted sum of its regrets in the
subgames (its information sets in different subgames are different), so the table is
``certified`` exactly when every subgame is.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
>>> table.certified, table.bank_value == -sum(table.seat_values)
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

from analyzer.choice.headsup.game import build_game
from analyzer.choice.headsup.solver import METHOD as HEADS_UP_METHOD
from analyzer.choice.headsup.solver import solve_game
from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.dealt.patterns import (
    NATURAL,
    Pattern,
    SubgameKey,
    grouped_patterns,
    natural_holdings,
    table_patterns,
    without,
)
from analyzer.choice.table.dealt.search import solve_dealt
from analyzer.choice.table.exact.evaluation import exact_regrets
from analyzer.choice.table.indifference import (
    GIVEN_METHOD,
    Strategies,
    SubgameSolution,
    certify_given,
    solve_subgame,
)
from analyzer.choice.table.subgame import (
    MAX_JOINT_SEATS,
    Subgame,
    finite_subgame,
    infinite_subgame,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK
from analyzer.rules.choice_rules import (
    DREW,
    MAX_PEOPLE,
    STOOD,
    ChoiceRules,
    Payoffs,
    hand_label,
)
from analyzer.rules.profile import Profile, choice_rules_of
from analyzer.rules.shoe import Shoe

__all__ = ["BankRule", "check_players", "combine",
           "evaluate_profile", "evaluate_table", "natural_holdings", "NATURAL",
           "Pattern", "SeatRule", "solve_table", "subgame_of", "SubgameKey",
           "SubgameResult", "TableEquilibrium", "TableValues", "grouped_patterns",
           "table_patterns"]

@dataclass(frozen=True)
class SubgameResult:
    """One subgame of the table: which it is, the chance it is played, its solution."""

    key: SubgameKey
    probability: Fraction
    solution: SubgameSolution


@dataclass(frozen=True)
class TableValues:
    """Every side's exact value at a strategy profile and its exact regret (what switching
    alone to a best response would gain); the bank's value is minus the seats' sum."""

    seats: tuple[Fraction, ...]
    bank: Fraction
    seat_regrets: tuple[Fraction, ...]
    bank_regret: Fraction

    @property
    def max_regret(self) -> Fraction:
        """The largest side's regret."""
        return max((*self.seat_regrets, self.bank_regret))


def combine(patterns: Sequence[Pattern], players: int,
            per_subgame: Callable[[SubgameKey], tuple[Sequence[Fraction], Sequence[Fraction]]],
            payoffs: Payoffs) -> TableValues:
    """The table's values and regrets from each subgame's (values, regrets): a natural bank
    beats every live seat and ties a natural one; against a live bank a natural seat wins
    (by ``payoffs``) and a live seat gets its value in the subgame."""
    seats, regrets, bank_regret = [Fraction(0)] * players, [Fraction(0)] * players, Fraction(0)
    for pattern in patterns:
        if pattern.bank is not None:
            for j, hand in enumerate(pattern.seats):
                seats[j] += pattern.probability * (payoffs.tie if hand is not None else -1)
            continue
        live = pattern.live
        values, subgame_regrets = per_subgame(pattern.key) if live else ((), ())
        for j, hand in enumerate(pattern.seats):
            if hand is not None:
                seats[j] += pattern.probability * payoffs.natural_win
        for position, j in enumerate(live):
            seats[j] += pattern.probability * values[position]
            regrets[j] += pattern.probability * subgame_regrets[position]
        if live:
            bank_regret += pattern.probability * subgame_regrets[-1]
    return TableValues(tuple(seats), -sum(seats, Fraction(0)), tuple(regrets), bank_regret)


def subgame_of(rules: ChoiceRules, shoe: Shoe, key: SubgameKey, by: str) -> Subgame:
    """The subgame ``key`` of a table on ``shoe``."""
    live, removed = key
    if shoe.is_infinite:
        return infinite_subgame(rules, live, by)
    counts = tuple(shoe.value_counts())
    for hand in removed:
        counts = without(counts, hand)
    less = f" less the naturals {', '.join(hand_label(h) for h in removed)}" if removed else ""
    return _finite(rules, counts, live, by, shoe.describe() + less)


@lru_cache(maxsize=64)
def _finite(rules: ChoiceRules, counts: tuple[int, ...], live: int, by: str,
            label: str) -> Subgame:
    """The joint tables up to :data:`MAX_JOINT_SEATS` live seats (while their int64 counts
    fit), else the walk over removed-card compositions (any number of seats)."""
    if live <= MAX_JOINT_SEATS and 8 * sum(counts) ** (2 * (live + 1)) < 2**63:
        return finite_subgame(rules, counts, live, by, label)
    return dealt_subgame(rules, counts, live, by, label)


@lru_cache(maxsize=128)
def _solved(rules: ChoiceRules, shoe: Shoe, key: SubgameKey, by: str) -> SubgameSolution:
    if shoe.is_infinite and by == "cards":
        return _lifted(rules, key[0])
    if not shoe.is_infinite and key[0] == 1:
        found = _heads_up(rules, shoe, key, by)
        if found is not None:
            return found
    return solve_subgame(subgame_of(rules, shoe, key, by))


def _dealt(rules: ChoiceRules, shoe: Shoe, key: SubgameKey, by: str,
           warm: dict[int, Strategies]) -> SubgameSolution:
    """A subgame of three or more live seats at a finite shoe (:mod:`.dealt.search`), warm
    started from the last certified one of as many live seats; its float matrix is let go
    after."""
    game = subgame_of(rules, shoe, key, by)
    try:
        found = solve_dealt(game, warm.get(key[0]), _seed(rules, key[0], game))
    finally:
        release = getattr(game, "release", None)
        if release is not None:
            release()
    if found.certified:
        warm[key[0]] = (found.seats, found.bank)
    return found


def _seed(rules: ChoiceRules, live: int, game: Subgame) -> Strategies:
    """The CFR+ search's first prediction for a finite-shoe subgame: the infinite deck's
    certified equilibrium by total of as many live seats, each class (a holding or a total)
    playing its total's draw probabilities."""
    by_total = _solved(rules, Shoe.infinite(), (live, ()), "total")
    totals = [c.total for c in by_total.game.seat_classes]
    seat_map = [totals.index(c.total) for c in game.seat_classes]
    bank_totals = [c.total for c in by_total.game.bank_classes]
    bank_map = [bank_totals.index(c.total) for c in game.bank_classes]
    seats = [[[row[i] for i in seat_map] for row in rows] for rows in by_total.seats]
    return seats, [list(by_total.bank[i]) for i in bank_map]


#: How a subgame taken from a certificate file was evaluated.
CERTIFICATE_METHOD = ("a certificate file's strategies (nine certify), every side's exact "
                      "value and best response computed again at the shoe")


def _without_values(shoe: Shoe, holdings: Sequence[tuple[int, int]]) -> Shoe:
    """``shoe`` less one card of each point value the holdings use (suits do not matter)."""
    counts = list(shoe.counts)
    for value in (v for hand in holdings for v in hand):
        index = next(i for i, card in enumerate(DECK) if card.points == value and counts[i])
        counts[index] -= 1
    return Shoe(tuple(counts), label=shoe.describe())


def _heads_up(rules: ChoiceRules, shoe: Shoe, key: SubgameKey, by: str,
              ) -> SubgameSolution | None:
    """One live seat at a finite shoe is the heads-up game on the shoe less the naturals:
    the heads-up solver (linear programs, exact indifference) solves it in milliseconds;
    the answer is certified again on the subgame. None if it does not certify there."""
    game = subgame_of(rules, shoe, key, by)
    equilibrium = solve_game(build_game(rules, _without_values(shoe, key[1]), by))
    seat_draw = {c.label: c.draw for c in equilibrium.player}
    bank_draw = {(c.label, c.observation): c.draw for c in equilibrium.banker}
    try:
        seats = [[[seat_draw[c.label] for c in game.seat_classes]]]
        bank = [[bank_draw[(c.label, STOOD)], bank_draw[(c.label, DREW)]]
                for c in game.bank_classes]
    except KeyError:
        return None
    return certify_given(game, (seats, bank), f"{HEADS_UP_METHOD}; certified again on the "
                         "subgame by exact best responses", "none: one live seat")


def _lifted(rules: ChoiceRules, live: int) -> SubgameSolution:
    """At the infinite deck a holding tells nothing beyond its total: the by-total
    equilibrium played per holding, certified again on the by-cards subgame."""
    by_total = _solved(rules, Shoe.infinite(), (live, ()), "total")
    game = infinite_subgame(rules, live, "cards")
    totals = [c.total for c in by_total.game.seat_classes]
    seat_map = [totals.index(c.total) for c in game.seat_classes]
    bank_totals = [c.total for c in by_total.game.bank_classes]
    bank_map = [bank_totals.index(c.total) for c in game.bank_classes]
    seats = [[[row[i] for i in seat_map] for row in rows] for rows in by_total.seats]
    bank = [list(by_total.bank[i]) for i in bank_map]
    values, regrets, _ = exact_regrets(game, seats, bank)
    cell_map = {(k, e, c): (k, e, seat_map[c]) for k in range(live) for e in range(2**k)
                for c in range(len(seat_map))}
    cell_map |= {(live, v, c): (live, v, bank_map[c]) for v in range(2**live)
                 for c in range(len(bank_map))}
    lift = [cell for cell, source in cell_map.items() if source in by_total.mixed]
    free = [cell for cell, source in cell_map.items() if source in by_total.free]
    return SubgameSolution(
        game=game, seats=tuple(tuple(tuple(r) for r in s) for s in seats),
        bank=tuple(tuple(r) for r in bank), values=values, regrets=regrets,
        mixed=tuple(sorted(lift)), free=tuple(sorted(free)), cfr=by_total.cfr,
        rounds=by_total.rounds, seconds=by_total.seconds,
        method=by_total.method + "; by cards: the by-total equilibrium per holding, certified "
        "on the by-cards game")


@dataclass(frozen=True)
class TableEquilibrium:
    """An equilibrium of a table of ``players`` seats and the bank (see the module
    docstring); values are per unit staked by each seat, the bank's is its net; unless
    ``exact``, they are ``solved_at``'s and nothing at ``shoe`` is computed."""

    profile: str  #: The profile's name.
    title: str  #: The game's title.
    shoe: str  #: The shoe asked for, described.
    solved_at: str  #: The shoe the strategy was solved at, described.
    by: str  #: What a side knows of its own hand: ``cards`` or ``total``.
    players: int  #: Seats at the table (the bank not counted).
    #: The model solved, in words (``exact card removal``, ``infinite deck (exact)``, or
    #: the infinite deck's equilibrium not evaluated at ``shoe``).
    model: str
    exact: bool  #: The values and regrets are computed exactly at ``shoe``.
    patterns: tuple[Pattern, ...]  #: Who holds a natural, and the chance of each such pattern.
    #: Every subgame of live seats, the chance it is played, and its solution.
    subgames: tuple[SubgameResult, ...]
    values: TableValues  #: Every side's exact value and regret at the equilibrium.
    method: str  #: How the subgames were solved and certified, in words.
    iterations: int  #: CFR+ iterations over every subgame.
    seconds: float  #: Wall time of the solve, in seconds.
    note: str  #: What is left free among the equilibria, in words.
    payoffs: Payoffs = field(default_factory=Payoffs)  #: The house rules a hand settles by.
    #: Values and regrets evaluated in floats at ``shoe`` (not ``exact``): bounds on their
    #: distance from the exact ones (:mod:`analyzer.choice.table.dealt.rounding`); else None.
    rounding: TableValues | None = None

    @property
    def seat_values(self) -> tuple[Fraction, ...]:
        """Each seat's expected result per unit staked, seat 1 first."""
        return self.values.seats

    @property
    def bank_value(self) -> Fraction:
        """The bank's expected net per hand, in units of one seat's stake."""
        return self.values.bank

    @property
    def certified(self) -> bool:
        """Every side's exact regret is zero at the shoe asked for."""
        return self.exact and self.values.max_regret == 0

    @property
    def max_regret(self) -> Fraction | None:
        """The largest side's exact regret at the shoe asked for (a certified epsilon when
        not zero); None when it is not computed there."""
        return self.values.max_regret if self.exact else None

    @property
    def values_at(self) -> str:
        """The shoe the reported values (and regrets, when ``exact``) are computed at."""
        return self.shoe if self.exact else self.solved_at

    @property
    def scope(self) -> str:
        """One plain sentence saying what a table not evaluated at its shoe is ("" when
        every value is computed at the shoe asked for)."""
        if self.exact:
            return ""
        return (f"Solved at the {self.solved_at}; not evaluated at {self.shoe}: values and "
                f"regrets at {self.shoe} are not computed (this command solves with exact card "
                f"removal up to {MAX_JOINT_SEATS + 1} people; `nine certify --list` names the "
                "one-deck tables shipped for more, certified or with their epsilon)")

    @cached_property
    def _by_key(self) -> dict[SubgameKey, SubgameSolution]:
        return {r.key: r.solution for r in reversed(self.subgames)}  # the first of each key

    def solution(self, key: SubgameKey) -> SubgameSolution:
        """The solved subgame ``key``."""
        found = self._by_key.get(key)
        if found is not None:
            return found
        raise AnalyzerError(f"no subgame with {key[0]} live seats and naturals {key[1]}")


def check_players(rules: ChoiceRules, players: int) -> None:
    """Refuse a table size the profile does not seat, in one line."""
    low, high = rules.people
    if not isinstance(players, int) or not 1 <= players <= MAX_PEOPLE - 1:
        raise AnalyzerError(f"--players {players}: a table seats 1 to {MAX_PEOPLE - 1} players "
                            f"(2 to {MAX_PEOPLE} people)")
    if not low <= players + 1 <= high:
        raise AnalyzerError(f"--players {players}: profile {rules.name!r} seats {low - 1} to "
                            f"{high - 1} players facing the banker")
    if rules.banker_sees != "choice":
        raise AnalyzerError(f"profile {rules.name!r}: the table game needs a banker who sees "
                            "only who drew (banker_sees = \"choice\")")


def solve_table(profile: ChoiceRules | Profile | str, shoe: Shoe, players: int,
                by: str = "total", title: str = "",
                known: Mapping[SubgameKey, Strategies] | None = None,
                known_method: str = GIVEN_METHOD, dealt: bool = False,
                given_only: bool = False,
                starts: Mapping[int, Strategies] | None = None) -> TableEquilibrium:
    """The certified equilibrium of a table of ``players`` seats and the bank (see the module
    docstring); ``profile`` a name, alias, path, :class:`Profile` or the rules; ``known``:
    subgame strategies found earlier (``known_method``: where, in words), taken where exact
    best responses certify them again. ``dealt``: a finite-shoe table of more than three
    people is solved with exact card removal (minutes: ``nine certify``) instead of answered
    by the infinite deck; ``given_only``: every subgame is ``known``'s, evaluated exactly at
    the shoe whatever its regrets (a certificate file checked again,
    :mod:`analyzer.choice.table.stored.certificate`); ``starts``: warm starts for the
    subgames of three or more live seats at a finite shoe, by live seats (exact strategies
    of a subgame of that shape, e.g. the smaller table's)."""
    rules = choice_rules_of(profile)
    check_players(rules, players)
    if by not in rules.information:
        raise AnalyzerError(f"--by {by}: profile {rules.name!r} models "
                            f"{' or '.join(rules.information)}")
    begin = time.perf_counter()
    exact = shoe.is_infinite or players <= MAX_JOINT_SEATS or dealt or given_only
    solve_shoe = shoe if exact else Shoe.infinite()
    if not exact:  # at the infinite deck a holding tells no more than its total
        by = "total"
    patterns = table_patterns(rules, solve_shoe, players)
    keys = sorted({p.key for p in patterns if p.bank is None and p.live})
    results = []
    warm = dict(starts or {})
    for key in keys:
        probability = sum((p.probability for p in patterns
                           if p.bank is None and p.live and p.key == key), Fraction(0))
        given = (certify_given(subgame_of(rules, solve_shoe, key, by), known[key],
                               CERTIFICATE_METHOD if given_only else known_method,
                               zero=not given_only)
                 if known is not None and key in known else None)
        if given is None and given_only:
            raise AnalyzerError(f"no strategies given for the subgame of {key[0]} live "
                                f"seat{'s' if key[0] > 1 else ''} and naturals {key[1]}, or "
                                "they do not fit it")
        if given is None and not solve_shoe.is_infinite and key[0] > MAX_JOINT_SEATS:
            given = _dealt(rules, solve_shoe, key, by, warm)
        results.append(SubgameResult(key, probability, given if given is not None
                                     else _solved(rules, solve_shoe, key, by)))
    solved = {r.key: r.solution for r in results}
    values = combine(patterns, players, lambda key: (solved[key].values, solved[key].regrets),
                     rules.payoffs)
    if not exact:
        model = (f"the infinite deck's equilibrium by total, not evaluated at "
                 f"{shoe.describe()}")
    elif shoe.is_infinite:
        model = "infinite deck (exact)"
    elif given_only:
        model = "exact card removal (a certificate's strategies, evaluated again exactly)"
    else:
        model = "exact card removal"
    free = sum(len(r.solution.free) for r in results)
    note = ("unique support solution: no free unknowns" if not free else
            f"{free} unknowns left free by the indifference equations (a continuum of "
            "equilibria sharing the bank's value; the seats' values can differ between them): "
            "reported is the one whose free unknowns are the simplest fractions within 1/1000 "
            "of the CFR+ average from the uniform start")
    by_method: dict[str, list[int]] = {}
    for result in results:
        by_method.setdefault(result.solution.method, []).append(result.key[0])
    method = "; ".join(
        (f"{'subgames' if len(lives) > 1 else 'the subgame'} of "
         f"{', '.join(map(str, sorted(set(lives))))} live seat"
         f"{'s' if set(lives) != {1} else ''}: {found}") if len(by_method) > 1 else found
        for found, lives in by_method.items())
    return TableEquilibrium(
        profile=rules.name, title=title or rules.name,
        shoe=shoe.describe(), solved_at=solve_shoe.describe(), by=by, players=players,
        model=model, exact=exact, patterns=tuple(patterns), subgames=tuple(results),
        values=values, method=method,
        iterations=sum(r.solution.cfr.iterations for r in results),
        seconds=time.perf_counter() - begin, note=note, payoffs=rules.payoffs)


SeatRule = Callable[[Pattern, int, int, int, int], Fraction | None]
BankRule = Callable[[Pattern, int, int], Fraction | None]
Rows = tuple[list[list[list[Fraction]]], list[list[Fraction]]]


def _evaluate(patterns: Sequence[Pattern], players: int, game_of: Callable[[SubgameKey], Subgame],
              default: Callable[[SubgameKey], Rows], seats: SeatRule | None,
              bank: BankRule | None, payoffs: Payoffs) -> TableValues:
    """Exact values and regrets of the profile ``seats``/``bank`` give (``default`` where
    they give None); each distinct subgame profile is evaluated once."""
    cache: dict[Any, tuple[Any, Any]] = {}

    def per_pattern(pattern: Pattern) -> tuple[Any, Any]:
        seat_rows, bank_rows = default(pattern.key)
        if seats is not None:
            for k, seat in enumerate(pattern.live):
                for e, row in enumerate(seat_rows[k]):
                    for c in range(len(row)):
                        chosen = seats(pattern, seat, k, e, c)
                        if chosen is not None:
                            row[c] = chosen if type(chosen) is Fraction else Fraction(chosen)
        if bank is not None:
            for c, row in enumerate(bank_rows):
                for v in range(len(row)):
                    chosen = bank(pattern, v, c)
                    if chosen is not None:
                        row[v] = chosen if type(chosen) is Fraction else Fraction(chosen)
        # keyed by numerators and denominators: hashing a Fraction costs a modular inverse
        content = (pattern.key, *((tuple(v.numerator for v in r), tuple(v.denominator for v in r))
                                  for rows in (*seat_rows, bank_rows) for r in rows))
        if content not in cache:
            values, regrets, _ = exact_regrets(game_of(pattern.key), seat_rows, bank_rows)
            cache[content] = (values, regrets)
        return cache[content]

    totals = [Fraction(0)] * players
    regrets = [Fraction(0)] * players
    bank_regret = Fraction(0)
    for pattern in patterns:
        found = per_pattern(pattern) if pattern.bank is None and pattern.live else ((), ())

        def fixed(_: SubgameKey, found: tuple[Any, Any] = found) -> tuple[Any, Any]:
            return found

        single = combine([pattern], players, fixed, payoffs)
        totals = [a + b for a, b in zip(totals, single.seats, strict=True)]
        regrets = [a + b for a, b in zip(regrets, single.seat_regrets, strict=True)]
        bank_regret += single.bank_regret
    return TableValues(tuple(totals), -sum(totals, Fraction(0)), tuple(regrets), bank_regret)


def evaluate_table(table: TableEquilibrium, seats: SeatRule | None = None,
                   bank: BankRule | None = None) -> TableValues:
    """Exact values and regrets when some sides replace their equilibrium play:
    ``seats(pattern, seat, position, earlier, class)`` and ``bank(pattern, vector, class)``
    give a draw probability, or None to keep the equilibrium's (``seat`` is the table seat,
    0-based, ``position`` its place among the live seats, ``earlier``/``vector`` the live
    seats' choices as a binary number; the class indexes the subgame's information
    classes). Subgames are evaluated once per distinct strategy profile."""
    def default(key: SubgameKey) -> Rows:
        solution = table.solution(key)
        return ([[list(row) for row in rows] for rows in solution.seats],
                [list(row) for row in solution.bank])

    return _evaluate(table.patterns, table.players, lambda key: table.solution(key).game,
                     default, seats, bank, table.payoffs)


def evaluate_profile(rules: ChoiceRules, shoe: Shoe, players: int, by: str, seats: SeatRule,
                     bank: BankRule) -> TableValues:
    """Exact values and regrets of a whole strategy profile, without solving anything: an
    independent certificate of any strategies (for instance of strategy files written
    earlier). ``seats`` and ``bank`` must give every cell's draw probability."""
    check_players(rules, players)
    games: dict[SubgameKey, Subgame] = {}

    def game_of(key: SubgameKey) -> Subgame:
        if key not in games:
            games[key] = subgame_of(rules, shoe, key, by)
        return games[key]

    def default(key: SubgameKey) -> Rows:
        game = game_of(key)
        return ([[[Fraction(0)] * len(game.seat_classes) for _ in range(2**k)]
                 for k in range(game.live)],
                [[Fraction(0)] * game.vectors for _ in game.bank_classes])

    return _evaluate(table_patterns(rules, shoe, players), players, game_of, default, seats,
                     bank, rules.payoffs)
