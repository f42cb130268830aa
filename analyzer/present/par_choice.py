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

from analyzer import __version__
from analyzer.choice.headsup.outcomes import Outcomes, equilibrium_outcomes
from analyzer.choice.headsup.solver import Equilibrium, solve
from analyzer.choice.table.summary import TableSummary, by_size
from analyzer.errors import AnalyzerError
from analyzer.present.par import (
    ALPHA,
    POWER,
    RTP_ERROR,
    VOLATILITY_LEVEL,
    ParSheet,
    WinRange,
    par_sheet,
    profile_sha256,
    rules_document,
    sheet_date,
    win_ranges,
    z_value,
)
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.statistics import rtp_hands_needed

__all__ = ["ChoiceParSheet", "choice_par_sheet", "profile_par_sheet", "TABLE_BY",
           "TABLE_PLAYERS"]

#: The bank's edge by table size is given for 1 to this many players (2 to 5 people) at the
#: infinite deck: larger tables take 1 to 8 s each (``tables/lucky9/`` has them all).
TABLE_PLAYERS = 4
#: What each side sees of its own hand in those tables (at the infinite deck a holding tells
#: nothing more than its total).
TABLE_BY = "total"


@dataclass(frozen=True)
class ChoiceParSheet:
    """A choice game's PAR sheet: the certified heads-up equilibrium on one shoe and what
    follows from it.

    ``outcomes`` are the player's when both sides play ``equilibrium``; ``win_ranges`` are
    of the bank's win per unit the player stakes; ``table_sizes`` holds the tables of 1 to
    :data:`TABLE_PLAYERS` players at the infinite deck (empty for a heads-up game).
    ``commands`` maps what a figure is (``par``, ``solve``, ``card``, ``tables``) to the
    ``nine`` command that prints it.
    """

    profile: Profile
    decks: int
    equilibrium: Equilibrium
    outcomes: Outcomes
    win_ranges: tuple[WinRange, ...]
    hands_needed: int
    table_sizes: tuple[TableSummary, ...]
    commands: tuple[tuple[str, str], ...]
    rules: str
    notes: tuple[str, ...] = ()
    version: str = __version__
    #: The day the sheet was made (ISO 8601) and the SHA-256 of the merged profile text.
    generated: str = ""
    profile_sha256: str = ""

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

    @property
    def volatility_index(self) -> float:
        """z x SD at the two-sided :data:`~analyzer.present.par.VOLATILITY_LEVEL`."""
        return z_value(VOLATILITY_LEVEL) * self.sd

    @property
    def shoe(self) -> str:
        """The shoe as the solver describes it: ``1 deck``."""
        return self.equilibrium.shoe

    @property
    def stem(self) -> str:
        """File name of the sheet, without extension: ``lucky9-home-1-deck``."""
        return f"{self.profile.name}-{self.decks}-deck{'s' if self.decks != 1 else ''}"

    def command(self, what: str) -> str:
        """The ``nine`` command that prints ``what`` (``par``, ``solve``, ``card``,
        ``tables``)."""
        return dict(self.commands)[what]


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
    decks = rules_profile.default_decks if decks is None else decks
    if isinstance(decks, bool) or not 1 <= decks <= 64:
        raise AnalyzerError(f"--decks: a PAR sheet is for 1 to 64 decks, not {decks!r}")
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
    name = rules_profile.name if rules_document(rules_profile) else (
        rules_profile.path or rules_profile.name)
    solve_args = ["nine solve --profile", name, "--decks", str(decks), "--by", by]
    commands = [("par", f"nine par --profile {name} --decks {decks} --out DIR"),
                ("solve", " ".join(solve_args)),
                ("card", " ".join([*solve_args, "--card"]))]
    if table_sizes:
        commands.append(("tables", f"nine solve --profile {name} --players "
                                   f"{len(table_sizes)} --infinite --by {TABLE_BY} --by-size"))
    return ChoiceParSheet(rules_profile, decks, equilibrium, outcomes,
                          win_ranges(-equilibrium.value, sd, outcomes.lose),
                          rtp_hands_needed(sd, RTP_ERROR, ALPHA, POWER), tuple(table_sizes),
                          tuple(commands), rules_document(rules_profile), tuple(notes),
                          generated=sheet_date(), profile_sha256=profile_sha256(rules_profile))


def profile_par_sheet(profile: Profile | str,
                      decks: int | None = None) -> ParSheet | ChoiceParSheet:
    """The PAR sheet of any profile: by its fixed tableau (:func:`par_sheet`), or for a game
    of choices by its certified equilibrium (:func:`choice_par_sheet`)."""
    rules = load_profile(profile) if isinstance(profile, str) else profile
    if rules.tableau is not None:
        return par_sheet(rules, decks)
    return choice_par_sheet(rules, decks)
