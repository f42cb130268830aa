"""A bet's expected value as an exact rational function of the number of decks ``d``.

With ``d`` decks every count of ordered 6-card sequences is a sum of products of falling
factorials of card counts (``4d``, ``16d``, ``d`` ...) of total degree 6, so ``EV(d) =
P(d) / ((52d)(52d-1)...(52d-5))`` with ``P`` a polynomial of degree at most 6 with rational
coefficients (Thorp and Walden, "The fundamental theorem of card counting", 1973, use the
same falling-factorial structure). Seven exact engine values (d = 1..7) fix ``P`` (Lagrange
interpolation), so agreement there proves nothing; d = 8, 9, 10, 12 and 16 verify it, and
``P``'s leading coefficient over ``52**6`` is the infinite-deck limit.

>>> f = deck_formula("punto-banco", "tie")
>>> f.values[7][1] == f.engine[7][1]  # d = 8
True
>>> f.limit == f.infinite_ev
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["CHECK_DECKS", "deck_formula", "deck_formulas", "DeckFormula", "DEGREE", "evaluate",
           "falling_denominator", "FIT_DECKS", "interpolate", "SHOWN_DECKS", "sympy_formula"]

#: The polynomial's degree bound and the decks used to fit and to check it.
DEGREE = 6
FIT_DECKS = tuple(range(1, DEGREE + 2))
CHECK_DECKS = (8, 9, 10, 12, 16)
SHOWN_DECKS = tuple(sorted(set(range(1, 9)) | set(CHECK_DECKS)))


@dataclass(frozen=True)
class DeckFormula:
    """``EV(d) = numerator(d) / (52d)_6`` for one bet, with the checks that prove it."""

    profile: str
    bet: str
    bet_name: str
    #: Coefficients of the numerator polynomial, constant term first.
    numerator: tuple[Fraction, ...]
    #: The reduced rational function in sympy syntax, symbol ``d``.
    formula: str
    #: (d, EV from the formula) for d = 1..8 and the check decks.
    values: tuple[tuple[int, Fraction], ...]
    #: (d, EV from the exact engine) for the same decks and the verification decks.
    engine: tuple[tuple[int, Fraction], ...]
    limit: Fraction
    infinite_ev: Fraction
    #: The decks whose engine values fixed the numerator (agreement there is by
    #: construction; every other deck and the limit are real checks).
    fit_decks: tuple[int, ...] = FIT_DECKS

    @property
    def checked(self) -> tuple[int, ...]:
        """The engine decks not used for fitting."""
        return tuple(d for d, _ in self.engine if d not in self.fit_decks)

    @property
    def verified(self) -> bool:
        """Does the formula reproduce the engine at decks not used for fitting (at least
        two of them), and the infinite-deck limit?"""
        return (len(self.checked) >= 2
                and all(evaluate(self.numerator, d) == ev for d, ev in self.engine)
                and self.limit == self.infinite_ev)


def falling_denominator(d: int | Fraction) -> Fraction:
    """``(52d)(52d-1)...(52d-5)``: ordered 6-card sequences of a d-deck shoe.

    >>> falling_denominator(8)
    Fraction(4998398275503360, 1)
    """
    n = 52 * Fraction(d)
    result = Fraction(1)
    for k in range(DEGREE):
        result *= n - k
    return result


def evaluate(numerator: Sequence[Fraction], d: int | Fraction) -> Fraction:
    """The formula's exact EV at ``d`` decks."""
    value = sum((c * Fraction(d) ** k for k, c in enumerate(numerator)), Fraction(0))
    return value / falling_denominator(d)


def interpolate(points: Sequence[tuple[int, Fraction]]) -> tuple[Fraction, ...]:
    """Coefficients (constant first) of the polynomial through ``points``, exactly.

    >>> interpolate([(0, Fraction(1)), (1, Fraction(2)), (2, Fraction(5))])
    (Fraction(1, 1), Fraction(0, 1), Fraction(1, 1))
    """
    size = len(points)
    result = [Fraction(0)] * size
    for i, (xi, yi) in enumerate(points):
        basis = [Fraction(1)]
        scale = Fraction(1)
        for j, (xj, _) in enumerate(points):
            if j == i:
                continue
            basis = [Fraction(0), *basis]
            for k in range(len(basis) - 1):
                basis[k] -= xj * basis[k + 1]
            scale *= xi - xj
        for k, c in enumerate(basis):
            result[k] += yi * c / scale
    while len(result) > 1 and result[-1] == 0:
        result.pop()
    return tuple(result)


def sympy_formula(numerator: Sequence[Fraction]) -> str:
    """The reduced rational function numerator(d) / (52d)_6 in sympy syntax."""
    import sympy

    d = sympy.Symbol("d", positive=True)
    top = sum((sympy.Rational(c.numerator, c.denominator) * d**k
               for k, c in enumerate(numerator)), sympy.Integer(0))
    bottom = sympy.Mul(*[52 * d - k for k in range(DEGREE)])
    expression = sympy.factor(sympy.cancel(top / bottom))
    return str(expression)


def deck_formula(profile: Profile | str, bet_id: str) -> DeckFormula:
    """Fit, reduce and verify the exact EV formula of one bet in the number of decks."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    bet = profile.bet(bet_id)
    index = [b.id for b in profile.bets].index(bet.id)
    decks = sorted(set(FIT_DECKS) | set(SHOWN_DECKS) | set(CHECK_DECKS))
    engine = {d: odds(profile, Shoe.decks(d)).bets[index].ev for d in decks}
    numerator = interpolate([(d, engine[d] * falling_denominator(d)) for d in FIT_DECKS])
    if len(numerator) > DEGREE + 1:
        raise AnalyzerError(f"bet {bet_id!r}: numerator degree exceeds {DEGREE}")
    coefficients = tuple(numerator) + (Fraction(0),) * (DEGREE + 1 - len(numerator))
    limit = coefficients[DEGREE] / Fraction(52) ** DEGREE
    infinite_ev = odds(profile, Shoe.infinite()).bets[index].ev
    result = DeckFormula(
        profile.name, bet.id, bet.name, coefficients, sympy_formula(coefficients),
        tuple((d, evaluate(coefficients, d)) for d in SHOWN_DECKS),
        tuple((d, engine[d]) for d in decks), limit, infinite_ev)
    if not all(evaluate(coefficients, d) == ev for d, ev in engine.items()):
        raise AnalyzerError(f"bet {bet_id!r}: the interpolated formula misses an engine value "
                            "(numerator not a polynomial of degree <= 6)")
    return result


def deck_formulas(profile: Profile | str, bet_ids: Sequence[str] = ()) -> tuple[DeckFormula, ...]:
    """Formulas for the listed bets (every bet of the profile when none are listed)."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    if profile.tableau is None:
        raise AnalyzerError(f"profile {profile.name!r} has no fixed tableau (its players choose): "
                            "it has no EV formula in the deck count; use nine solve")
    ids = list(bet_ids) or [b.id for b in profile.bets]
    return tuple(deck_formula(profile, bet_id) for bet_id in ids)
