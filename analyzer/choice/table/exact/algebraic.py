"""Exact equilibria with irrational mixing: arithmetic in a number field, signs decided exactly.

For three or more sides the indifference equations are polynomial, and their solution can be
irrational: then no profile in fractions has regret 0, yet the equilibrium is still exact.
Here it is computed and certified in ``QQ(alpha)``:

* :class:`NumberField` -- ``alpha`` is the one root of an irreducible polynomial over QQ in
  a rational *isolating interval*. An element is a polynomial in ``alpha`` of degree below
  the field's, so it is zero exactly when all its coefficients are (the minimal polynomial
  divides no smaller non-zero polynomial); a non-zero element's sign is decided by
  bisecting the interval (the minimal polynomial changes sign at ``alpha`` only) until
  interval arithmetic on the element excludes 0, which must happen.
* :func:`solve_support` -- the indifference equations of a support (a lex Groebner basis
  over QQ, sympy): in *shape position* every unknown is a polynomial in the last one, which
  is a root of the basis's univariate polynomial; each irreducible factor and each of its
  real roots (isolating intervals) gives a candidate, kept when every unknown is in [0, 1].
* :func:`close_algebraic` -- from a profile in fractions that nearly certifies (its mixed
  cells and the cells where a deviation gains become the unknowns), the certified exact
  equilibrium, irrational or not.
* :func:`certify_support` -- every cell's advantage and every side's value as exact
  polynomials in the support's unknowns
  (:func:`~analyzer.choice.table.exact.multilinear.interpolate`), evaluated in the field:
  the support's advantages must be exactly 0, every other cell's sign must agree with its
  pure play; each side's regret, the sum over its cells of the positive part of what the
  other action gains, is an exact field element (0 when so).

>>> field = NumberField((Fraction(-2), Fraction(0), Fraction(1)), Fraction(1), Fraction(2))
>>> root2 = (Fraction(0), Fraction(1))
>>> field.mul(root2, root2), field.sign(field.sub(root2, (Fraction(7, 5), Fraction(0))))
((Fraction(2, 1), Fraction(0, 1)), 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.table.exact.evaluation import Cell, exact_regrets
from analyzer.choice.table.exact.multilinear import MultilinearForm, Polynomial, interpolate
from analyzer.choice.table.subgame import Subgame
from analyzer.errors import AnalyzerError

__all__ = ["AlgebraicCertificate", "AlgebraicSolution", "APPROXIMATION_DIGITS", "close_algebraic",
           "decimal", "Element", "NumberField", "certify_support", "solve_support"]

#: A field element: its coefficients on ``1, alpha, alpha**2, ...`` (the field's degree).
Element = tuple[Fraction, ...]


def _horner(coefficients: Sequence[Fraction], x: Fraction) -> Fraction:
    total = Fraction(0)
    for c in reversed(coefficients):
        total = total * x + c
    return total


def _interval_value(coefficients: Sequence[Fraction], low: Fraction, high: Fraction,
                    ) -> tuple[Fraction, Fraction]:
    """Bounds on the polynomial over ``[low, high]`` by interval Horner (``0 <= low`` not
    needed: each product takes the extreme of its four corners)."""
    lo = hi = Fraction(0)
    for c in reversed(coefficients):
        corners = (lo * low, lo * high, hi * low, hi * high)
        lo, hi = min(corners) + c, max(corners) + c
    return lo, hi


@dataclass(frozen=True)
class NumberField:
    """``QQ(alpha)``: ``minimal`` (coefficients lowest degree first, monic) is irreducible
    over QQ and has exactly one root, ``alpha``, in ``[low, high]`` (checked by
    :meth:`verify`; degree 1 is QQ itself)."""

    minimal: tuple[Fraction, ...]
    low: Fraction
    high: Fraction

    @property
    def degree(self) -> int:
        """The field's degree over QQ."""
        return len(self.minimal) - 1

    def verify(self) -> None:
        """Refuse, in one line, a polynomial that is not monic and irreducible over QQ or an
        interval that does not isolate exactly one of its roots (sympy: factorisation over
        QQ, Sturm's root count)."""
        import sympy  # ~0.3 s to import; only an irrational equilibrium needs it

        t = sympy.Symbol("t")
        poly = sympy.Poly([sympy.Rational(c.numerator, c.denominator)
                           for c in reversed(self.minimal)], t, domain="QQ")
        if self.minimal[-1] != 1 or not poly.is_irreducible:
            raise AnalyzerError(f"minimal polynomial {poly.as_expr()} is not monic and "
                                "irreducible over QQ")
        if not self.low < self.high or poly.count_roots(
                sympy.Rational(self.low.numerator, self.low.denominator),
                sympy.Rational(self.high.numerator, self.high.denominator)) != 1 or (
                    _horner(self.minimal, self.low) * _horner(self.minimal, self.high) >= 0):
            raise AnalyzerError(f"[{self.low}, {self.high}] does not isolate one root of "
                                f"{poly.as_expr()} with a sign change")

    def element(self, coefficients: Sequence[Fraction]) -> Element:
        """Any polynomial in ``alpha`` reduced modulo the minimal polynomial."""
        rest = [Fraction(c) for c in coefficients]
        d = self.degree
        for top in range(len(rest) - 1, d - 1, -1):
            lead = rest[top]
            if lead:
                for i in range(d):
                    rest[top - d + i] -= lead * self.minimal[i]
            rest[top] = Fraction(0)
        rest += [Fraction(0)] * (d - len(rest))
        return tuple(rest[:d])

    def rational(self, value: Fraction) -> Element:
        """A rational number as an element."""
        return self.element([value])

    def add(self, a: Element, b: Element) -> Element:
        """``a + b``."""
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def sub(self, a: Element, b: Element) -> Element:
        """``a - b``."""
        return tuple(x - y for x, y in zip(a, b, strict=True))

    def scale(self, a: Element, factor: Fraction) -> Element:
        """``factor * a``."""
        return tuple(x * factor for x in a)

    def mul(self, a: Element, b: Element) -> Element:
        """``a * b`` reduced modulo the minimal polynomial."""
        product = [Fraction(0)] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    product[i + j] += x * y
        return self.element(product)

    def refine(self, low: Fraction, high: Fraction) -> tuple[Fraction, Fraction]:
        """The isolating interval halved once (the minimal polynomial changes sign on the
        half that holds ``alpha``; it has no rational root when the degree is above 1)."""
        middle = (low + high) / 2
        at_middle = _horner(self.minimal, middle)
        if at_middle == 0:
            return middle, middle
        if _horner(self.minimal, low) * at_middle < 0:
            return low, middle
        return middle, high

    def sign(self, a: Element) -> int:
        """The exact sign of ``a`` (-1, 0, 1): 0 only when every coefficient is 0."""
        if not any(a):
            return 0
        low, high = self.low, self.high
        while True:
            lo, hi = _interval_value(a, low, high)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            if low == high:  # alpha rational (degree 1): the value is exact
                return (lo > 0) - (lo < 0)
            low, high = self.refine(low, high)

    def approximate(self, a: Element, width: Fraction = Fraction(1, 10**30),
                    ) -> tuple[Fraction, Fraction]:
        """Rational bounds on ``a`` no further apart than ``width``."""
        low, high = self.low, self.high
        while True:
            lo, hi = _interval_value(a, low, high)
            if hi - lo <= width:
                return lo, hi
            low, high = self.refine(low, high)

    def evaluate(self, polynomial: Polynomial, at: Sequence[Element]) -> Element:
        """A polynomial in the unknowns with unknown ``i`` at the element ``at[i]``."""
        total = self.rational(Fraction(0))
        for monomial, coefficient in polynomial.items():
            term = self.rational(coefficient)
            for i in monomial:
                term = self.mul(term, at[i])
            total = self.add(total, term)
        return total


@dataclass(frozen=True)
class AlgebraicSolution:
    """A solution of a support's indifference equations: each unknown an element of
    ``field`` (the first unknown of ``unknowns`` is ``alpha`` itself when the field's
    degree is above 1)."""

    field: NumberField
    unknowns: tuple[Cell, ...]
    values: tuple[Element, ...]


def _fraction(value: Any) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def solve_support(form: MultilinearForm, generator: Cell | None = None,
                  ) -> list[AlgebraicSolution]:
    """Every real solution in [0, 1] of the indifference equations of ``form``'s unknowns
    (each unknown's advantage 0, every other cell at ``form.fixed``), exactly; ``generator``
    the unknown whose value generates the field (default: the first). Refused in one line
    when the solutions are not finitely many or the basis is not in shape position."""
    import sympy  # ~0.3 s to import; only polynomial systems need it

    unknowns = list(form.unknowns)
    generator = generator if generator is not None else unknowns[0]
    symbols = [sympy.Symbol(f"x{i}") for i in range(len(unknowns))]
    last = symbols[unknowns.index(generator)]
    order = [s for s in symbols if s is not last] + [last]
    system = []
    for cell in unknowns:
        terms = [sympy.Rational(c.numerator, c.denominator) * sympy.Mul(
            *(symbols[i] for i in monomial)) for monomial, c in form.advantage[cell].items()]
        system.append(sympy.Add(*terms))
    basis = list(sympy.groebner(system, *order, order="lex").exprs)
    if basis == [1]:
        return []
    univariate = [g for g in basis if g.free_symbols <= {last}]
    others = [g for g in basis if g not in univariate]
    shape: dict[Any, Any] = {}
    for g in others:
        poly = sympy.Poly(g, *order)
        lead = [s for s in order[:-1] if poly.degree(s) > 0]
        if len(lead) != 1 or poly.degree(lead[0]) != 1 or (
                g.coeff(lead[0]).free_symbols):
            raise AnalyzerError("the indifference equations' Groebner basis is not in shape "
                                "position (a continuum, or a generator to choose)")
        shape[lead[0]] = sympy.solve(g, lead[0])[0]
    if len(univariate) != 1 or len(shape) != len(order) - 1:
        raise AnalyzerError("the indifference equations leave free unknowns (a continuum)")
    found: list[AlgebraicSolution] = []
    for factor, _ in sympy.Poly(univariate[0], last, domain="QQ").factor_list()[1]:
        monic = factor.monic()
        minimal = tuple(_fraction(c) for c in reversed(monic.all_coeffs()))
        for (low, high), _ in monic.intervals():
            low_f, high_f = _fraction(sympy.Rational(low)), _fraction(sympy.Rational(high))
            if low_f == high_f:  # an exact rational root: any interval around it isolates
                low_f, high_f = low_f - Fraction(1, 10**6), high_f + Fraction(1, 10**6)
            field = NumberField(minimal, low_f, high_f)
            values = []
            for s in symbols:
                expression = last if s is last else shape[s]
                poly = sympy.Poly(expression, last, domain="QQ")
                values.append(field.element([_fraction(c) for c in reversed(poly.all_coeffs())]))
            one = field.rational(Fraction(1))
            if all(field.sign(v) >= 0 and field.sign(field.sub(one, v)) >= 0 for v in values):
                found.append(AlgebraicSolution(field, tuple(unknowns), tuple(values)))
    return found


@dataclass(frozen=True)
class AlgebraicCertificate:
    """An exact profile with irrational unknowns checked by every side's exact best
    response in its field: each side's value and regret as field elements (seats, then the
    bank), and the cells whose sign contradicts their play (empty when certified)."""

    solution: AlgebraicSolution
    values: tuple[Element, ...]
    regrets: tuple[Element, ...]
    gaining: tuple[Cell, ...]

    @property
    def certified(self) -> bool:
        """Every side's regret exactly 0."""
        return not self.gaining and not any(any(r) for r in self.regrets)


def certify_support(game: Subgame, fixed: Mapping[Cell, Fraction],
                    solution: AlgebraicSolution) -> AlgebraicCertificate:
    """Every side's exact value and regret in the subgame with ``solution``'s unknowns at
    their field values and every other cell at ``fixed``: the form is interpolated again
    from exact evaluations of the subgame (not taken from the solve)."""
    field = solution.field
    form = interpolate(game, fixed, solution.unknowns, values=True)
    at = [solution.values[solution.unknowns.index(c)] for c in form.unknowns]
    assert form.values is not None
    values = tuple(field.evaluate(v, at) for v in form.values)
    regrets = [field.rational(Fraction(0)) for _ in range(game.live + 1)]
    gaining: list[Cell] = []
    zero = field.rational(Fraction(0))
    for cell, polynomial in form.advantage.items():
        advantage = field.evaluate(polynomial, at)
        sign = field.sign(advantage)
        if sign == 0:
            continue
        draw = (at[form.unknowns.index(cell)] if cell in form.unknowns
                else field.rational(fixed[cell]))
        # drawing gains when the advantage is positive, on the weight of standing
        lost = field.sub(field.rational(Fraction(1)), draw) if sign > 0 else draw
        if field.sign(lost) == 0:
            continue
        gain = field.mul(advantage if sign > 0 else field.sub(zero, advantage), lost)
        regrets[cell[0]] = field.add(regrets[cell[0]], gain)
        gaining.append(cell)
    return AlgebraicCertificate(solution, values, tuple(regrets), tuple(gaining))


def close_algebraic(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                    bank: Sequence[Sequence[Fraction]]) -> AlgebraicCertificate | None:
    """The exact equilibrium whose support is ``seats``/``bank``'s mixed cells and the
    cells where a pure deviation gains (every other cell kept), certified in its number
    field; None when no solution of those indifference equations certifies."""
    gaining = exact_regrets(game, seats, bank)[2]
    fixed: dict[Cell, Fraction] = {}
    support: list[Cell] = []
    for k, rows in enumerate(seats):
        for e, row in enumerate(rows):
            for c, x in enumerate(row):
                fixed[(k, e, c)] = x
    for c, row in enumerate(bank):
        for v, x in enumerate(row):
            fixed[(game.live, v, c)] = x
    support = sorted(cell for cell, x in fixed.items() if 0 < x < 1 or cell in gaining)
    rest = {cell: x for cell, x in fixed.items() if cell not in support}
    form = interpolate(game, rest, support)
    for generator in form.unknowns:
        try:
            solutions = solve_support(form, generator)
        except AnalyzerError:
            continue  # not in shape position for this generator: try the next
        for solution in solutions:
            found = certify_support(game, rest, solution)
            if found.certified:
                return found
        return None
    return None


#: The decimals of the rational approximations a certificate's fraction profile holds in
#: place of an irrational subgame's unknowns (stated in its block; never called exact).
APPROXIMATION_DIGITS = 20


def decimal(field: NumberField, value: Element, digits: int = 12) -> str:
    """``value`` rounded to ``digits`` decimals, from rational bounds closer than that."""
    low, high = field.approximate(value, Fraction(1, 10 ** (digits + 4)))
    scaled = round((low + high) / 2 * 10**digits)
    whole, rest = divmod(abs(scaled), 10**digits)
    return f"{'-' if scaled < 0 else ''}{whole}.{rest:0{digits}d}"
