"""Verifying the log of a game of choices (home Lucky 9, chemin de fer): every rule replayed,
the cards and naturals tested, and the choices against declared strategies.

A log holds ``table`` records (:class:`~analyzer.dealing.records.TableHand`): who banks,
each player's cards in seat order from the banker's right, the bank's cards, and each
player's stake and amount returned. The rules replayed (:mod:`analyzer.choice.play.table_log`),
each a violation of its kind, exit 3:

* ``seating``/``rotation``: the players sit from the banker's right, and the bank passes
  to the right after every hand (the people's order from the header, else the first hand);
* ``card-count``: every hand holds two cards and at most one third card (a player taking
  two cards, a bank drawing twice);
* ``natural-draw``: naturals settle first (a natural never draws; a natural bank ends the
  hand before anyone draws); ``player-draw``/``banker-draw``: forced draws and stands;
* ``payout``: even money, pushes returned, every seat settled against the bank's one
  hand (its one choice stands against every seat; the bank covers every stake);
* ``composition``: no shoe deals more copies of a card than its decks hold.

Tests (Holm together): the naturals' frequency (exact binomial: each hand's first two
cards are any two of the shoe), the dealt cards' point values (each card against what is
left of its shoe, a Wald chi-square), and, given the strategies (``--player``/``--banker``
files, or ``house``), each side's choices by its two-card total against the strategies'
exact draw probabilities (chi-square of the martingale differences). Without strategies, a
best-response check of home Lucky 9 (the observed draw frequencies as strategies, their
exact regrets: "this bank leaves X per hand") is reported as a note.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.choice.play.table_log import (
    bank_draw,
    deal_order,
    natural,
    seat_draw,
    seating,
    settle,
    table_strategy,
)
from analyzer.choice.strategy import Key, Strategy, load_strategy
from analyzer.choice.table.strategy import evaluate_strategies, information_for
from analyzer.choice.table.subgame import MAX_JOINT_SEATS
from analyzer.dealing.dialects import CARD_VALUE, LogOptions, card_text
from analyzer.dealing.handlog import Hand, Header, Problem, ShoeStart, detect_format, read_log
from analyzer.dealing.records import TableHand
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.distributions import chi2_sf, norm_sf
from analyzer.verify.inference.statistics import ALPHA, holm, wald_test
from analyzer.verify.partial import IssueLog, Partial, check_written_for
from analyzer.verify.verdict import StatisticalTest, Verdict, check_levels

__all__ = ["verify_table_logs"]


@dataclass
class _Choices:
    """One side's choices by class: [observed draws, expected draws, variance]."""

    classes: dict[int, list[float]] = field(default_factory=dict)
    decisions: int = 0
    impossible: int = 0  # a draw (or stand) the strategy never makes

    def add(self, key: int, p: Fraction, drew: bool) -> None:
        cell = self.classes.setdefault(key, [0.0, 0.0, 0.0])
        cell[0] += drew
        cell[1] += float(p)
        cell[2] += float(p * (1 - p))
        self.decisions += 1
        self.impossible += (p == 0 and drew) or (p == 1 and not drew)

    def test(self, name: str) -> StatisticalTest | None:
        if not self.decisions:
            return None
        cells = [c for c in self.classes.values() if c[2] > 0]
        statistic = sum((o - e) ** 2 / v for o, e, v in cells)
        if self.impossible:
            return StatisticalTest(name, None, "choices the strategy never makes",
                                   math.inf, len(cells), 0.0)
        p = chi2_sf(statistic, len(cells)) if cells else 1.0
        return StatisticalTest(name, None, "chi-square by two-card total against the "
                               "strategy's draw probabilities", statistic, len(cells), p)


@dataclass
class _Observed:
    """Observed draw counts per holding (players) and per (holding, what the bank saw: ``N``,
    ``D`` or ``S`` per seat) (bank)."""

    player: dict[int, list[int]] = field(default_factory=dict)
    bank: dict[tuple[int, str], list[int]] = field(default_factory=dict)


class _Table:
    """The state of one run over a table's logs."""

    def __init__(self, profile: Profile, decks: int, strategies: tuple[str, str] | None
                 ) -> None:
        self.profile = profile
        self.rules: ChoiceRules = profile.choice_rules()
        self.decks = decks
        self.composition = [decks] * 52
        self.names = strategies  # the strategies' names, loaded for the table's size
        self.strategies: tuple[Strategy, Strategy] | None = None
        self.results = [0, 0, 0]  # hands settled, the players' summed result, its square
        self.sizes: set[int] = set()
        self.people: tuple[str, ...] = ()
        self.last_banker: str | None = None
        self.shoes: dict[str, list[int]] = {}
        self.hands = 0
        self.naturals = [0, 0]  # naturals, two-card holdings
        self.values = np.zeros(10)
        self.expected = np.zeros(10)
        self.covariance = np.zeros((10, 10))
        self.choices = (_Choices(), _Choices())
        self.observed = _Observed()
        self.players_seen = 0

    def header(self, rec: Header, source: str) -> None:
        check_written_for(f"{source}: line {rec.line}", "the log's header says", rec.profile,
                          rec.decks, self.profile, self.decks)
        if rec.people:
            self.people = rec.people

    def hand(self, rec: TableHand, issues: IssueLog) -> None:
        """Replay one hand: seating, cards, naturals, draws, payouts, composition."""
        self.hands += 1
        rules = self.rules
        if self.names is not None and self.strategies is None and rec.seats:
            players = len(rec.seats)
            self.strategies = (table_strategy(rules, self.names[0], "player", players),
                               table_strategy(rules, self.names[1], "banker", players))

        def violation(kind: str, message: str) -> None:
            issues.violation_at(rec.line, rec.shoe, rec.hand, kind, message)

        names = [seat.person for seat in rec.seats]
        if not self.people:
            self.people = (rec.banker, *names)
        if rec.banker not in self.people or sorted(names) != sorted(
                p for p in self.people if p != rec.banker):
            violation("seating", f"the table is {', '.join(self.people)}: bank {rec.banker}, "
                                 f"seats {', '.join(names)}")
        elif names != seating(self.people, rec.banker):
            violation("seating", f"players sit from the banker's right: "
                                 f"{', '.join(seating(self.people, rec.banker))}, not "
                                 f"{', '.join(names)}")
        if self.last_banker is not None and self.last_banker in self.people and \
                rec.banker in self.people:
            expected = self.people[(self.people.index(self.last_banker) + 1) % len(self.people)]
            if rec.banker != expected:
                violation("rotation", f"the bank passes to the right: {expected} after "
                                      f"{self.last_banker}, not {rec.banker}")
        self.last_banker = rec.banker
        seats = [[CARD_VALUE[c] for c in seat.cards] for seat in rec.seats]
        bank = [CARD_VALUE[c] for c in rec.bank]
        shapes = [(seat.person, len(cards)) for seat, cards in zip(rec.seats, seats,
                                                                      strict=True)]
        broken = [f"{person} holds {n} cards" for person, n in shapes if not 2 <= n <= 3]
        if not 2 <= len(bank) <= 3:
            broken.append(f"the bank holds {len(bank)} cards")
        if broken:
            violation("card-count", "; ".join(broken) + " (two cards, then at most one third "
                                                        "card: no one draws twice)")
            self._cards(rec, violation)
            return
        self._rules(rec, seats, bank, violation)
        self._cards(rec, violation)
        self.naturals[0] += sum(natural(rules, h) for h in [*seats, bank])
        self.naturals[1] += len(seats) + 1

    def _rules(self, rec: TableHand, seats: list[list[int]], bank: list[int],
               report: Callable[[str, str], None]) -> None:
        rules = self.rules
        bank_natural = natural(rules, bank)
        choices: list[bool | None] = []
        for seat, cards in zip(rec.seats, seats, strict=True):
            total = (cards[0] + cards[1]) % 10
            drew = len(cards) == 3
            if natural(rules, cards) or bank_natural:
                choices.append(None)
                if drew:
                    why = "its own natural" if natural(rules, cards) else "the bank's natural"
                    report("natural-draw", f"{seat.person} drew on {why} (naturals settle "
                                           "first)")
                continue
            choices.append(drew)
            if total in rules.player_draws and not drew:
                report("player-draw", f"{seat.person} stood on {total}, where a player must "
                                      "draw")
            if total in rules.player_stands and drew:
                report("player-draw", f"{seat.person} drew on {total}, where a player must "
                                      "stand")
        bank_total = (bank[0] + bank[1]) % 10
        if bank_natural and len(bank) == 3:
            report("natural-draw", "the bank drew on its natural")
        elif not bank_natural:
            if bank_total in rules.banker_draws and len(bank) == 2:
                report("banker-draw", f"the bank stood on {bank_total}, where it must "
                                      "draw")
            if bank_total in rules.banker_stands and len(bank) == 3:
                report("banker-draw", f"the bank drew on {bank_total}, where it must "
                                      "stand")
        results = settle(rules, seats, bank, [sum(c) % 10 for c in seats], sum(bank) % 10)
        self.results[0] += 1
        net = sum(results, Fraction(0))
        if net.denominator != 1:
            raise AnalyzerError(f"{rules.name}: the table check sums whole results; this "
                                "profile's payoffs pay fractions of a stake")
        self.results[1] += net.numerator
        self.results[2] += net.numerator ** 2
        self.sizes.add(len(seats))
        for seat, result in zip(rec.seats, results, strict=True):
            owed = seat.stake + result * seat.stake  # by the rules' payoffs
            if seat.returned != owed:
                word = "wins" if result > 0 else "loses" if result < 0 else "pushes"
                report("payout", f"{seat.person} {word} against the bank: staked "
                                 f"{seat.stake}, returned {seat.returned}, owed "
                                 f"{owed}")
        if not bank_natural:
            self._choices(seats, bank, choices)

    def _choices(self, seats: list[list[int]], bank: list[int],
                 choices: list[bool | None]) -> None:
        rules = self.rules
        forced_seat = rules.player_draws | rules.player_stands
        earlier: list[bool] = []
        vector = []
        for i, (cards, drew) in enumerate(zip(seats, choices, strict=True)):
            vector.append("N" if drew is None else "D" if drew else "S")
            if drew is None:
                continue
            total = (cards[0] + cards[1]) % 10
            if total not in forced_seat:
                holding = HANDS.index((min(cards[:2]), max(cards[:2])))
                counts = self.observed.player.setdefault(holding, [0, 0])
                counts[0] += drew
                counts[1] += 1
                if self.strategies is not None:
                    p = seat_draw(rules, self.strategies[0], seats, i, earlier)
                    self.choices[0].add(total, p, drew)
            earlier.append(drew)
        total = (bank[0] + bank[1]) % 10
        if total in rules.banker_draws | rules.banker_stands:
            return
        drew = len(bank) == 3
        holding = HANDS.index((min(bank[:2]), max(bank[:2])))
        counts = self.observed.bank.setdefault((holding, "".join(vector)), [0, 0])
        counts[0] += drew
        counts[1] += 1
        self.players_seen = max(self.players_seen, len(seats))
        if self.strategies is not None:
            p = bank_draw(rules, self.strategies[1], seats, bank, choices)
            self.choices[1].add(total, p, drew)

    def _cards(self, rec: TableHand, report: Callable[[str, str], None]) -> None:
        """Composition per shoe, and each dealt card's value against what its shoe held."""
        left = self.shoes.get(rec.shoe)
        if left is None:
            if len(self.shoes) > 64:
                self.shoes.pop(next(iter(self.shoes)))
            left = self.shoes[rec.shoe] = list(self.composition)
        for card in deal_order([s.cards for s in rec.seats], rec.bank):
            values = np.zeros(10)
            for c, n in enumerate(left):
                values[CARD_VALUE[c]] += max(n, 0)
            size = values.sum()
            if size > 0:
                p = values / size
                self.expected += p
                self.covariance += np.diag(p) - np.outer(p, p)
            self.values[CARD_VALUE[card]] += 1
            left[card] -= 1
            if left[card] == -1:
                report("composition", f"card {card_text(card)} appears more often in shoe "
                                      f"{rec.shoe} than {self.decks} deck(s) hold")


def verify_table_logs(paths: Sequence[str], profile: Profile | str, decks: int | None = None,
                      player: str | None = None, banker: str | None = None,
                      alpha: float = ALPHA) -> Verdict:
    """Replay and test the logs of a game of choices (see the module docstring)."""
    check_levels(alpha, 0.001)
    rules = load_profile(profile) if isinstance(profile, str) else profile
    rules.choice_rules()  # a game of choices, or an error naming the profile
    if not paths:
        raise AnalyzerError("no log files given")
    strategies = None
    if player is not None or banker is not None:
        strategies = (player or "house", banker or "house")
    table = _Table(rules, rules.default_decks if decks is None else decks, strategies)
    issues_all: list[IssueLog] = []
    shoes = 0
    for path in paths:
        fmt = detect_format(path)
        if fmt != "jsonl":
            raise AnalyzerError(f"{path}: a game of choices is logged as JSON Lines, not {fmt}")
        issues = IssueLog(str(path))
        issues_all.append(issues)
        for rec in read_log(path, LogOptions("jsonl", cards="cards")):
            if isinstance(rec, TableHand):
                table.hand(rec, issues)
            elif isinstance(rec, Problem):
                issues.problem(rec.line, rec.message)
            elif isinstance(rec, Header):
                table.header(rec, str(path))
            elif isinstance(rec, ShoeStart):
                shoes += 1
            elif isinstance(rec, Hand):
                issues.problem(rec.line, f"a coup of a fixed tableau, not a hand of "
                                         f"{rules.name} (a 'table' record)")
    return _verdict(table, issues_all, paths, shoes, alpha)


def _verdict(table: _Table, logs: list[IssueLog], paths: Sequence[str], shoes: int,
             alpha: float) -> Verdict:
    tests: list[StatisticalTest] = []
    notes: list[str] = []
    unsupported: list[str] = []
    if table.naturals[1]:
        p_natural = _natural_probability(table.rules, table.decks)
        from scipy.stats import binomtest  # ~1 s to import: only here

        result = binomtest(table.naturals[0], table.naturals[1], p_natural)
        tests.append(StatisticalTest("naturals", None, f"exact binomial (p = "
                                     f"{p_natural:.5f} per two-card hand)",
                                     table.naturals[0] - table.naturals[1] * p_natural, None,
                                     float(result.pvalue)))
    if table.values.sum():
        statistic, df, p = wald_test(table.values.tolist(), table.expected, table.covariance)
        tests.append(StatisticalTest("card point values", None, "Wald chi-square, each card "
                                     "given its shoe's cards before it", statistic, df, p))
    for name, choices in zip(("player choices", "bank choices"), table.choices, strict=True):
        test = choices.test(name)
        if test is not None:
            tests.append(test)
    if table.strategies is None:
        unsupported.append("the choices against strategies: give --player and --banker "
                           "(strategy files, house, or equilibrium)")
        notes.extend(_best_response(table))
    else:
        found = _results(table)
        if isinstance(found, str):
            unsupported.append(found)
        else:
            tests.append(found)
    adjusted = holm([t.p_value for t in tests])
    tests = [StatisticalTest(t.name, t.bet, t.method, t.statistic, t.df, t.p_value, a,
                             a >= alpha, t.note) for t, a in zip(tests, adjusted, strict=True)]
    violations = [v for log in logs for v in log.violations][:100]
    kinds: dict[str, int] = {}
    for log in logs:
        for kind, n in log.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    partial = Partial(table.profile.name, table.decks, "independent",
                      tuple(str(p) for p in paths), table.hands, shoes, shoes, 0,
                      sum(log.malformed_count for log in logs),
                      tuple(m for log in logs for m in log.malformed)[:100],
                      sum(log.violation_count for log in logs), tuple(violations),
                      tuple(sorted(kinds.items())), (), ())
    return Verdict(partial, alpha, 0.001, tuple(tests), (), tuple(unsupported), False,
                   tuple(notes))


def _results(table: _Table) -> StatisticalTest | str:
    """The players' summed result per hand against its exact expectation under the
    strategies (home Lucky 9 at a table the exact evaluator covers), by a z-test with the
    observed variance; else why not."""
    rules, strategies = table.rules, table.strategies
    assert strategies is not None
    n, total, squares = table.results
    why = "the players' results against their exact expectation"
    if rules.banker_sees != "choice":
        return f"{why}: home Lucky 9 only (chemin de fer: nine evaluate gives the value)"
    if len(table.sizes) != 1 or next(iter(table.sizes)) > MAX_JOINT_SEATS or n < 2:
        return (f"{why}: exact for one table size of at most {MAX_JOINT_SEATS} players "
                f"at a finite shoe, and two hands or more (this log: {sorted(table.sizes)})")
    players = next(iter(table.sizes))
    values = evaluate_strategies(rules, Shoe.decks(table.decks), players,
                                 information_for(strategies), *strategies)
    expected = float(sum(values.seats))
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    z = (mean - expected) / math.sqrt(variance / n) if variance > 0 else 0.0
    p = 2 * norm_sf(abs(z))
    return StatisticalTest("players' results", None, f"z-test of the mean result per hand "
                           f"(exact expectation {expected:+.5f}, observed variance)", z, None,
                           p)


def _natural_probability(rules: ChoiceRules, decks: int) -> float:
    """The chance that two cards from a full shoe make a natural."""
    counts = Shoe.decks(decks).value_counts()
    size = sum(counts)
    ways = 0
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 in rules.naturals:
                ways += counts[a] * (counts[b] - (a == b))
    return ways / (size * (size - 1))


def _frequencies(cells: dict[tuple[int, int], list[int]], by: str) -> dict[Key, Fraction]:
    """Observed draw counts per holding as draw probabilities, per holding or pooled by
    total."""
    pooled: dict[Key, list[int]] = {}
    for hand, (drew, seen) in cells.items():
        key: Key = ("hand", hand) if by == "cards" else ("total", sum(hand) % 10)
        cell = pooled.setdefault(key, [0, 0])
        cell[0] += drew
        cell[1] += seen
    return {key: Fraction(drew, seen) for key, (drew, seen) in pooled.items()}


def _observed_strategies(table: _Table, by: str) -> tuple[Strategy, Strategy]:
    """The observed draw frequencies as strategy files, the house rule wherever a cell was
    never seen; the bank's tables keyed by what it saw (``NDS``: natural, drew, stood)."""
    name = "observed draw frequencies"
    house = load_strategy("house", "player")
    cells = {HANDS[i]: c for i, c in table.observed.player.items()}
    player = Strategy("player", house.default,
                      {"any": {**house.tables.get("any", {}), **_frequencies(cells, by)}},
                      name=name)
    house = load_strategy("house", "banker")
    by_view: dict[str, dict[tuple[int, int], list[int]]] = {}
    for (i, view), counts in table.observed.bank.items():
        by_view.setdefault(view, {})[HANDS[i]] = counts
    tables = {view: _frequencies(found, by) for view, found in by_view.items()}
    tables["any"] = dict(house.tables.get("any", {}))
    return player, Strategy("banker", house.default, tables, name=name)


def _best_response(table: _Table) -> list[str]:
    """Home Lucky 9 without declared strategies: the observed draw frequencies as
    strategies, and each side's exact regret against them in the rules' information model."""
    rules = table.rules
    if rules.banker_sees != "choice" or not table.observed.bank:
        return ["best-response check: home Lucky 9 logs only (its bank sees choices)"]
    players = max(table.players_seen, 1)
    exact = players <= MAX_JOINT_SEATS
    shoe = Shoe.decks(table.decks) if exact else Shoe.infinite()
    by = "cards" if exact else "total"
    found = evaluate_strategies(rules, shoe, players, by, *_observed_strategies(table, by))
    where = ("exact" if exact else "at the infinite deck, by total: exact card removal "
             f"covers at most {MAX_JOINT_SEATS} players")
    return [f"best-response check ({where}, the observed draw frequencies as strategies): "
            f"against this bank's play a player could gain "
            f"{float(max(found.seat_regrets)):.5f} per hand staked; against the players' play "
            f"the bank could gain {float(found.bank_regret):.5f} per hand"]
