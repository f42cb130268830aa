"""PAR sheets of the choice games (home Lucky 9, chemin de fer): the certified equilibrium.

A game of choices has no drawing tableau, so its accounting starts from how both sides play:
the certified heads-up equilibrium (:func:`analyzer.choice.headsup.solver.solve`, the profile's own
shoe and information model). :func:`choice_par_sheet` gathers its game value per side, the
banker's edge per unit the player stakes, the certificate and its exact regret, the exact
probabilities of the player's win, push and loss when both sides play it
(:func:`analyzer.choice.headsup.outcomes.equilibrium_outcomes`), the SD and the range of the bank's
win after 100 to 1,000,000 hands, the hands needed to verify, both strategy cards, and for a
table game (home Lucky 9) the bank's edge by table size
(:func:`analyzer.choice.table.summary.by_size`); each figure with the ``nine`` command that
prints it. :func:`profile_par_sheet` builds either kind of sheet for any profile.

>>> sheet = choice_par_sheet("chemin-de-fer")
>>> sheet.equilibrium.certificate.certified, sheet.banker_edge == -sheet.equilibrium.value
(True, True)
>>> sheet.outcomes.win + sheet.outcomes.push + sheet.outcomes.lose
Fraction(1, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from analyzer.choice.headsup.outcomes import Outcomes, equilibrium_outcomes
from analyzer.choice.headsup.solver import Equilibrium, solve
from analyzer.choice.table.summary import TableSummary, by_size
from analyzer.errors import AnalyzerError
from analyzer.present.par import ParSheet, par_sheet
from analyzer.present.sheet import Sheet, SheetKind, WinRange, command_name, sheet_decks, spread
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["CHOICE", "ChoiceParSheet", "choice_par_sheet", "profile_par_sheet", "TABLE_BY",
           "TABLE_PLAYERS"]

#: A game of choices' kind of sheet: the player against the bank, both playing the
#: equilibrium, coup by coup.
CHOICE = SheetKind("choice", "coups", "bank", "banker's edge", "unit staked",
                   ("par", "solve", "card", "tables"))

#: The bank's edge by table size is given for 1 to this many players (2 to 5 people) at the
#: infinite deck: larger tables take 1 to 8 s each (``tables/lucky9/`` has them all).
TABLE_PLAYERS = 4
#: What each side sees of its own hand in those tables (at the infinite deck a holding tells
#: nothing more than its total).
TABLE_BY = "total"


@dataclass(frozen=True, kw_only=True)
class ChoiceParSheet(Sheet):
    """A choice game's PAR sheet: the certified heads-up equilibrium on one shoe and what
    follows from it (``commands``: ``par``, ``solve``, ``card`` and, for a table game,
    ``tables``)."""

    kind: ClassVar[SheetKind] = CHOICE
    #: The certified heads-up equilibrium on the sheet's shoe.
    equilibrium: Equilibrium
    #: The player's win, push and loss when both sides play ``equilibrium``.
    outcomes: Outcomes
    #: z x SD at the two-sided :data:`~analyzer.present.sheet.VOLATILITY_LEVEL`.
    volatility_index: float
    #: The range of the bank's win per unit the player stakes after each of
    #: :data:`~analyzer.present.sheet.HANDS`.
    win_ranges: tuple[WinRange, ...]
    #: Coups to detect an error of :data:`~analyzer.present.sheet.RTP_ERROR` in the return.
    hands_needed: int
    #: The tables of 1 to :data:`TABLE_PLAYERS` players at the infinite deck (empty for a
    #: heads-up game).
    table_sizes: tuple[TableSummary, ...]

    @property
    def banker_edge(self) -> Fraction:
        """The banker's expected win per unit the player stakes (zero-sum: minus the game
        value for the player)."""
        return -self.equilibrium.value

    @property
    def max_regret(self) -> Fraction:
        """The most either side gains by deviating alone (zero: a certified equilibrium)."""
        certificate = self.equilibrium.certificate
        value = self.equilibrium.value
        return max(certificate.player_best_response - value,
                   value - certificate.banker_best_response)

    @property
    def sd(self) -> float:
        """The SD of one unit's result."""
        return math.sqrt(self.outcomes.variance)


def _table_sizes(profile: Profile) -> tuple[tuple[TableSummary, ...], str]:
    """The bank's edge at 1 to :data:`TABLE_PLAYERS` players, or why there is none."""
    rules = profile.choice_rules()
    if rules.people[1] <= 2:  # heads-up only (chemin de fer)
        return (), ""
    players = min(TABLE_PLAYERS, rules.people[1] - 1)
    try:
        return by_size(rules, Shoe.infinite(), players, TABLE_BY, profile.title), ""
    except AnalyzerError as exc:
        return (), f"the bank's edge by table size is not given: {exc}"


def choice_par_sheet(profile: Profile | str, decks: int | None = None, *,
                     equilibrium: Equilibrium | None = None,
                     table_sizes: tuple[TableSummary, ...] | None = None) -> ChoiceParSheet:
    """The PAR sheet of a choice game (a name, alias, file or Profile) on ``decks`` decks
    (default: the profile's), each side seeing what the profile's default information model
    says (its own total, or its own two cards).

    Results already computed by the same calls (``nine tables`` has them) may be passed in:
    ``equilibrium`` of ``solve(profile, Shoe.decks(decks), by)`` and ``table_sizes`` of
    ``by_size(rules, Shoe.infinite(), TABLE_PLAYERS, TABLE_BY, title)``.
    """
    rules_profile = load_profile(profile) if isinstance(profile, str) else profile
    rules = rules_profile.choice_rules()
    decks = sheet_decks(rules_profile, decks)
    shoe = Shoe.decks(decks)
    by = rules.default_information
    if equilibrium is None:
        equilibrium = solve(rules_profile, shoe, by)
    outcomes = equilibrium_outcomes(rules, shoe, equilibrium)
    notes: list[str] = []
    if table_sizes is None:
        table_sizes, note = _table_sizes(rules_profile)
        notes += [note] if note else []
    sd = math.sqrt(outcomes.variance)
    name = command_name(rules_profile)
    solve_args = ["nine solve --profile", name, "--decks", str(decks), "--by", by]
    commands = [("par", f"nine par --profile {name} --decks {decks} --out DIR"),
                ("solve", " ".join(solve_args)),
                ("card", " ".join([*solve_args, "--card"]))]
    if table_sizes:
        commands.append(("tables", f"nine solve --profile {name} --players "
                                   f"{len(table_sizes)} --infinite --by {TABLE_BY} --by-size"))
    volatility, ranges, hands = spread(-equilibrium.value, sd, outcomes.lose)
    return ChoiceParSheet(profile=rules_profile, decks=decks, commands=tuple(commands),
                          notes=tuple(notes), equilibrium=equilibrium, outcomes=outcomes,
                          volatility_index=volatility, win_ranges=ranges, hands_needed=hands,
                          table_sizes=tuple(table_sizes))


def profile_par_sheet(profile: Profile | str,
                      decks: int | None = None) -> ParSheet | ChoiceParSheet:
    """The PAR sheet of any profile: by its fixed tableau (:func:`par_sheet`), or for a game
    of choices by its certified equilibrium (:func:`choice_par_sheet`)."""
    rules = load_profile(profile) if isinstance(profile, str) else profile
    if rules.tableau is not None:
        return par_sheet(rules, decks)
    return choice_par_sheet(rules, decks)
