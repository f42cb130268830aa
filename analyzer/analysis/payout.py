"""Solving a payline's payout for a target house edge: the analysis behind ``nine solve-payout``.

A bet's expected value is linear in its line payouts once it is fixed which line pays on
each coup: ``EV = sum_i P(line i pays) x_i - P(no line holds)``. Under the "highest" rule
which line pays depends on the order of the payouts, so the EV as a function of one line's
payout ``x`` is continuous and piecewise linear, with breaks where ``x`` meets another
line's payout; :func:`solve_payout` solves on each piece exactly and keeps the piece that
contains its solution.

A solved payout rarely fits on a felt (``22254431954453/2477226179548:1``): the solution also
carries the neighbouring whole and half payouts with each one's exact house edge, the
nearest below and above the solution marked (:func:`payout_edges` tabulates any payouts).

>>> from analyzer.rules.shoe import Shoe
>>> solution = solve_payout("punto-banco", "tie", 1, Fraction(5, 100), Shoe.decks(8))
>>> solution.payout, round(float(solution.payout), 4)
(Fraction(22254431954453, 2477226179548), 8.9836)
>>> solution.expression
'619306544887*x1/6508331087895 - 5889024543008/6508331087895'
>>> [(str(n.payout), n.mark) for n in solution.neighbours]
[('8', ''), ('17/2', 'nearest below'), ('9', 'nearest above'), ('19/2', '')]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction

from analyzer.engine.odds import BetOdds, odds
from analyzer.errors import AnalyzerError, did_you_mean
from analyzer.rules.profile import Bet, PayLine, Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["find_line", "neighbour_payouts", "parse_edge", "parse_payouts", "PayoutEdge",
           "PayoutEdges", "payout_edges", "PayoutSolution", "solve_payout"]

#: Most payouts ``--payouts`` tabulates at once; the largest payout it takes (to one).
MAX_PAYOUTS, MAX_PAYOUT = 50, 1_000_000


@dataclass(frozen=True)
class PayoutEdge:
    """One payout of the line and the bet's exact house edge with it; ``mark`` says
    ``nearest below`` or ``nearest above`` a solved payout, ``exact`` when it is the
    solution itself, else nothing."""

    payout: Fraction
    edge: Fraction
    mark: str = ""


@dataclass(frozen=True)
class PayoutEdges:
    """Payouts of one line with the bet's exact house edge at each (``--payouts``)."""

    profile: str
    shoe: str
    bet_id: str
    bet_name: str
    line: int
    line_name: str
    current: Fraction
    current_edge: Fraction
    rows: tuple[PayoutEdge, ...]


@dataclass(frozen=True)
class PayoutSolution:
    """The payout of one line that gives a bet a target house edge, with the others fixed.

    ``probabilities[i]`` is the probability that line ``i`` pays at the solved payout (under
    the "highest" rule it can differ from the profile's, if the solution reorders lines);
    ``expression`` is the bet's EV in the line payouts ``x1, x2, ...`` (sympy syntax) for
    that order.
    """

    profile: str
    shoe: str
    bet_id: str
    bet_name: str
    line: int
    line_names: tuple[str, ...]
    current: tuple[Fraction, ...]
    edge: Fraction
    payout: Fraction
    current_edge: Fraction
    probabilities: tuple[Fraction, ...]
    lose_probability: Fraction
    expression: str
    latex: str
    illustrative: str = ""
    #: True when the solved payout changes which line pays on some coups (highest rule).
    reordered: bool = False
    #: The whole and half payouts around the solution, each with its exact edge.
    neighbours: tuple[PayoutEdge, ...] = ()

    @property
    def feasible(self) -> bool:
        """A payout cannot be negative; false when the edge needs one."""
        return self.payout >= 0


def parse_edge(text: str) -> Fraction:
    """A house edge as ``0.05``, ``5%`` or ``1/20``, exactly.

    An edge is between -100% and 100% and written without an exponent, so a hostile value
    cannot make the exact arithmetic run for ever.

    >>> parse_edge("5%"), parse_edge("0.0125"), parse_edge("1/20")
    (Fraction(1, 20), Fraction(1, 80), Fraction(1, 20))
    """
    raw = text.strip()
    number = raw[:-1].strip() if raw.endswith("%") else raw
    if len(number) > 40 or not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?|-?\.[0-9]+", number):
        raise AnalyzerError(f"edge {text!r} is not a number (e.g. 0.05, 5% or 1/20)")
    try:
        edge = Fraction(number) / (100 if raw.endswith("%") else 1)
    except ZeroDivisionError:
        raise AnalyzerError(f"edge {text!r} is not a number (e.g. 0.05, 5% or 1/20)") from None
    if not -1 < edge < 1:
        raise AnalyzerError(f"edge {text!r} must lie between -100% and 100%")
    return edge


def parse_payouts(text: str) -> tuple[Fraction, ...]:
    """Payouts to one as ``50,55,60`` (each a whole number, decimal or fraction), exactly.

    >>> parse_payouts("8, 8.5, 17/2")
    (Fraction(8, 1), Fraction(17, 2), Fraction(17, 2))
    """
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items or len(items) > MAX_PAYOUTS:
        raise AnalyzerError(f"--payouts {text!r}: give 1 to {MAX_PAYOUTS} payouts, e.g. "
                            "50,55,60")
    out = []
    for item in items:
        if len(item) > 40 or not re.fullmatch(r"[0-9]+(\.[0-9]+)?(/[1-9][0-9]*)?", item):
            raise AnalyzerError(f"--payouts: {item!r} is not a payout like 8, 8.5 or 17/2")
        pays = Fraction(item)
        if pays > MAX_PAYOUT:
            raise AnalyzerError(f"--payouts: {item} is above {MAX_PAYOUT:,} to 1")
        out.append(pays)
    return tuple(out)


def neighbour_payouts(payout: Fraction) -> tuple[Fraction, ...]:
    """The whole and half payouts around ``payout``: two below and two above it (or the
    payout itself and one on each side when it is one), none negative.

    >>> [str(p) for p in neighbour_payouts(Fraction(898, 100))]
    ['8', '17/2', '9', '19/2']
    """
    low, high = math.floor(2 * payout), math.ceil(2 * payout)
    halves = [low - 1, low, high + 1] if low == high else [low - 1, low, high, high + 1]
    return tuple(Fraction(h, 2) for h in halves if h >= 0)


def _mark(payout: Fraction, target: Fraction, below: Fraction | None,
          above: Fraction | None) -> str:
    if payout == target:
        return "exact"
    return ("nearest below" if payout == below else "nearest above" if payout == above
            else "")


def _edges(profile: Profile, bet: Bet, index: int, payouts: tuple[Fraction, ...], shoe: Shoe,
           target: Fraction | None) -> tuple[PayoutEdge, ...]:
    """Each payout's exact house edge, the nearest on each side of ``target`` marked."""
    below = max((p for p in payouts if target is not None and p < target), default=None)
    above = min((p for p in payouts if target is not None and p > target), default=None)
    return tuple(PayoutEdge(p, _line_odds(profile, _with_payout(bet, index, p), shoe)
                            .house_edge, "" if target is None else _mark(p, target, below,
                                                                         above))
                 for p in payouts)


def payout_edges(profile: Profile | str, bet_id: str, line: int | str,
                 payouts: tuple[Fraction, ...], shoe: Shoe) -> PayoutEdges:
    """The bet's exact house edge with each of ``payouts`` on ``line`` (``--payouts``)."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    bet = profile.bet(bet_id)
    index = find_line(bet, line)
    return PayoutEdges(profile.name, shoe.describe(), bet.id, bet.name, index,
                       bet.lines[index].name, bet.lines[index].pays,
                       _line_odds(profile, bet, shoe).house_edge,
                       _edges(profile, bet, index, payouts, shoe, None))


def find_line(bet: Bet, line: int | str) -> int:
    """A payline's index from its 1-based number or its name."""
    if isinstance(line, int) or (isinstance(line, str) and line.strip().isdigit()):
        number = int(line)
        if not 1 <= number <= len(bet.lines):
            raise AnalyzerError(f"bet {bet.id!r} has lines 1-{len(bet.lines)}, not {number}")
        return number - 1
    for index, payline in enumerate(bet.lines):
        if payline.name.lower() == line.strip().lower():
            return index
    names = "; ".join(f"{i}: {p.name}" for i, p in enumerate(bet.lines, start=1))
    near = did_you_mean(line.strip(), [p.name.lower() for p in bet.lines])
    raise AnalyzerError(f"bet {bet.id!r} has no line {line!r}{near} (lines: {names})")


def _with_payout(bet: Bet, index: int, payout: Fraction) -> Bet:
    lines = list(bet.lines)
    lines[index] = PayLine(lines[index].name, lines[index].when, payout)
    return replace(bet, lines=tuple(lines))


def _line_odds(profile: Profile, bet: Bet, shoe: Shoe) -> BetOdds:
    return odds(replace(profile, bets=(bet,)), shoe).bet(bet.id)


def solve_payout(profile: Profile | str, bet_id: str, line: int | str, edge: Fraction,
                 shoe: Shoe) -> PayoutSolution:
    """The exact payout of ``line`` (1-based number or name) giving house edge ``edge``."""
    import sympy

    if isinstance(profile, str):
        profile = load_profile(profile)
    bet = profile.bet(bet_id)
    index = find_line(bet, line)
    others = sorted({p.pays for i, p in enumerate(bet.lines) if i != index})
    # pieces of x on which the paying line of every coup is fixed: each break and the
    # open intervals between them (with the "all" rule there is one piece)
    if bet.pay_rule == "all" or not others:
        samples = [bet.lines[index].pays]
    else:
        samples = [Fraction(0)] if others[0] > 0 else []
        for low, high in zip(others, [*others[1:], others[-1] + 2], strict=True):
            samples += [low, (low + high) / 2]
    current = _line_odds(profile, bet, shoe)
    solution: tuple[Fraction, BetOdds] | None = None
    for sample in samples:
        result = (current if sample == bet.lines[index].pays else
                  _line_odds(profile, _with_payout(bet, index, sample), shoe))
        probability = [line_.probability for line_ in result.lines]
        if probability[index] == 0:
            continue
        rest = sum((probability[i] * payline.pays for i, payline in enumerate(bet.lines)
                    if i != index), Fraction(0))
        x = (-edge + result.lose_probability - rest) / probability[index]
        check = _line_odds(profile, _with_payout(bet, index, x), shoe) \
            if x >= 0 else result
        if x < 0 or check.ev == -edge:
            solution = (x, check)
            break
    if solution is None:
        raise AnalyzerError(f"line {index + 1} of bet {bet.id!r} never pays on this shoe; "
                            "its payout cannot move the edge")
    payout, solved = solution
    symbols = sympy.symbols(f"x1:{len(bet.lines) + 1}")
    expression = sum((sympy.Rational(p.probability.numerator, p.probability.denominator) * s
                      for p, s in zip(solved.lines, symbols, strict=True)), sympy.Integer(0))
    expression -= sympy.Rational(solved.lose_probability.numerator,
                                 solved.lose_probability.denominator)
    return PayoutSolution(
        profile=profile.name, shoe=shoe.describe(), bet_id=bet.id, bet_name=bet.name,
        line=index, line_names=tuple(p.name for p in bet.lines),
        current=tuple(p.pays for p in bet.lines), edge=edge, payout=payout,
        current_edge=current.house_edge,
        probabilities=tuple(p.probability for p in solved.lines),
        lose_probability=solved.lose_probability, expression=str(expression),
        latex=sympy.latex(expression), illustrative=profile.illustrative,
        reordered=any(a.probability != b.probability
                      for a, b in zip(current.lines, solved.lines, strict=True)),
        neighbours=_edges(profile, bet, index, neighbour_payouts(payout), shoe, payout)
        if payout >= 0 else ())
