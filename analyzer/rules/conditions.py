"""The payline condition language: parsed and checked at load time, never ``eval``-ed.

Grammar (keywords are case-insensitive)::

    condition := term ('or' term)*
    term      := factor ('and' factor)*
    factor    := 'not' factor | '(' condition ')' | comparison | FEATURE
    comparison:= FEATURE op VALUE | FEATURE 'in' (INT '..' INT | '{' VALUE (',' VALUE)* '}')
    op        := '==' | '!=' | '<' | '<=' | '>' | '>='

>>> c = parse_condition("winner == banker and banker_total != 6")
>>> c({"winner": "banker", "banker_total": 7}), c({"winner": "banker", "banker_total": 6})
(True, False)
>>> parse_condition("player_total in 1..3")({"player_total": 2})
True
>>> sorted(parse_condition("natural or margin >= 4").features)
['margin', 'natural']

A condition also tests whole columns of coups at once (numpy arrays of feature values):

>>> import numpy as np
>>> parse_condition("player_third in 4..7")({"player_third": np.array([-1, 4, 9])}).tolist()
[False, True, False]
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from analyzer.errors import AnalyzerError, did_you_mean
from analyzer.inputs import MAX_DEPTH, nesting_depth
from analyzer.rules.cards import Card

__all__ = ["MAX_CONDITION", "cards_key", "Condition", "Feature", "FEATURES", "glossary",
           "GlossaryEntry", "Kind", "Level", "NO_CARD", "parse_condition", "RANK_ALIASES",
           "RANK_SYMBOLS", "ranks_key", "Value"]

#: Longest condition text: real paylines are under 200 characters.
MAX_CONDITION = 2_000

Level = Literal["coup", "cards"]
Kind = Literal["scalar", "cards", "ranks"]
Value = int | str | bool


@dataclass(frozen=True)
class Feature:
    """A documented coup feature a condition may read.

    ``values`` lists what it can take; ``level`` says whether point values of the coup
    suffice ("coup") or the ranks and suits of the first two cards are needed ("cards").
    """

    name: str
    doc: str
    values: tuple[Value, ...]
    level: Level = "coup"
    #: "scalar", or a two-card multiset compared with ``{a, b}``: "cards" or "ranks".
    kind: Kind = "scalar"
    #: Extra spellings of values, e.g. rank ``K`` for 13 (keys upper case).
    aliases: tuple[tuple[str, Value], ...] = ()


_TOTALS: tuple[Value, ...] = tuple(range(10))
#: A hand that did not draw has third card ``none``, stored as -1 so columns stay integer.
NO_CARD = -1
_THIRD: tuple[Value, ...] = (*range(10), NO_CARD)

#: Rank spellings (A = 1 ... K = 13) accepted wherever a rank is expected.
RANK_ALIASES: tuple[tuple[str, Value], ...] = (
    ("A", 1), ("T", 10), ("J", 11), ("Q", 12), ("K", 13),
    *((str(n), n) for n in range(1, 11)))
#: Rank symbols by rank number (index 0 unused).
RANK_SYMBOLS = "?A23456789TJQK"
_RANKS: tuple[Value, ...] = tuple(range(1, 14))
_SUITS: tuple[Value, ...] = ("S", "H", "D", "C", "none")
_SUIT_ALIASES: tuple[tuple[str, Value], ...] = (
    ("S", "S"), ("H", "H"), ("D", "D"), ("C", "C"),
    ("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C"), ("NONE", "none"))


def _card_features(hand: str) -> list[Feature]:
    """The card-level features of one hand's first two cards (ranks and suits needed)."""
    name = hand.capitalize()
    return [
        Feature(f"{hand}_pair", f"{name}'s first two cards have the same rank (K-K, not T-J)",
                (False, True), "cards"),
        Feature(f"{hand}_identical_pair", f"{name}'s first two cards have the same rank and "
                "suit", (False, True), "cards"),
        Feature(f"{hand}_suited", f"{name}'s first two cards have the same suit",
                (False, True), "cards"),
        Feature(f"{hand}_colour", f"colour of {name}'s first two cards: red, black or mixed",
                ("red", "black", "mixed"), "cards"),
        Feature(f"{hand}_suit", f"the suit of {name}'s first two cards if suited (S H D C), "
                "else none", _SUITS, "cards", aliases=_SUIT_ALIASES),
        Feature(f"{hand}_pair_rank", f"rank of {name}'s pair (A=1 ... K=13, or A 2 .. T J Q "
                "K), none if not a pair", (*_RANKS, NO_CARD), "cards", aliases=RANK_ALIASES),
        Feature(f"{hand}_first_ranks", f"the ranks of {name}'s first two cards, compared as "
                "a multiset: == {K, 9}", (), "cards", kind="ranks", aliases=RANK_ALIASES),
        Feature(f"{hand}_first_cards", f"{name}'s first two cards, compared as a multiset: "
                "== {'4D', '4D'}", (), "cards", kind="cards"),
    ]


#: Every feature a condition can name, by name.
FEATURES: dict[str, Feature] = {f.name: f for f in [
    Feature("winner", "player, banker or tie", ("player", "banker", "tie")),
    Feature("player_total", "Player's final total", _TOTALS),
    Feature("banker_total", "Banker's final total", _TOTALS),
    Feature("player_two_card_total", "Player's total on the first two cards", _TOTALS),
    Feature("banker_two_card_total", "Banker's total on the first two cards", _TOTALS),
    Feature("player_cards", "cards in Player's final hand", (2, 3)),
    Feature("banker_cards", "cards in Banker's final hand", (2, 3)),
    Feature("player_natural", "Player has a natural", (False, True)),
    Feature("banker_natural", "Banker has a natural", (False, True)),
    Feature("natural", "either hand has a natural", (False, True)),
    Feature("margin", "difference of the final totals", _TOTALS),
    Feature("winning_total", "final total of the winning hand (of either on a tie)", _TOTALS),
    Feature("winning_cards", "cards in the winning hand (Banker's on a tie)", (2, 3)),
    Feature("cards_dealt", "cards dealt in the coup", (4, 5, 6)),
    Feature("player_third", "point value of Player's third card, none if it stood",
            _THIRD),
    Feature("banker_third", "point value of Banker's third card, none if it stood",
            _THIRD),
    Feature("player_pair_value", "Player's first two cards have the same point value",
            (False, True)),
    Feature("banker_pair_value", "Banker's first two cards have the same point value",
            (False, True)),
    Feature("player_low_value", "lower point value of Player's first two cards", _TOTALS),
    Feature("banker_low_value", "lower point value of Banker's first two cards", _TOTALS),
    Feature("player_high_value", "higher point value of Player's first two cards", _TOTALS),
    Feature("banker_high_value", "higher point value of Banker's first two cards", _TOTALS),
    *(feature for hand in ("player", "banker") for feature in _card_features(hand)),
]}

@dataclass(frozen=True)
class GlossaryEntry:
    """One feature as ``nine features`` lists it: its name, what kind of value it has, the
    values a condition may compare it with, what the engine must see, and its meaning."""

    name: str
    type: str
    values: str
    needs: str
    meaning: str
    #: A condition that reads the feature (checked by the tests to parse).
    example: str


def _value_text(values: tuple[Value, ...]) -> str:
    numbers = sorted(v for v in values if isinstance(v, int) and not isinstance(v, bool)
                     and v != NO_CARD)
    words = [str(v) for v in values if isinstance(v, str)]
    text = ""
    if numbers:
        contiguous = numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2
        text = f"{numbers[0]}-{numbers[-1]}" if contiguous else ", ".join(map(str, numbers))
    text = ", ".join([t for t in (text, *words) if t])
    none = any(not isinstance(v, bool) and v == NO_CARD for v in values)
    return text + (" or none" if none else "")


def _entry(feature: Feature) -> GlossaryEntry:
    needs = "ranks and suits" if feature.level == "cards" else "point values"
    if feature.kind == "ranks":
        return GlossaryEntry(feature.name, "two ranks", "{A, 9}: ranks A 2 .. 9 T J Q K",
                             needs, feature.doc, f"{feature.name} == {{K, 9}}")
    if feature.kind == "cards":
        return GlossaryEntry(feature.name, "two cards", "{'4D', '4D'}: cards in quotes",
                             needs, feature.doc, f"{feature.name} == {{'4D', 'AS'}}")
    if set(feature.values) <= {True, False}:
        return GlossaryEntry(feature.name, "true or false", "true, false", needs, feature.doc,
                             feature.name)
    first = feature.values[0]
    if all(isinstance(v, str) for v in feature.values if v != NO_CARD):
        return GlossaryEntry(feature.name, "word", _value_text(feature.values), needs,
                             feature.doc, f"{feature.name} == {first}")
    values = _value_text(feature.values)
    if feature.aliases and any(k.isalpha() for k, _ in feature.aliases):
        values += " (A J Q K also)"
    return GlossaryEntry(feature.name, "number", values, needs, feature.doc,
                         f"{feature.name} == {first}")


def glossary() -> tuple[GlossaryEntry, ...]:
    """Every feature a condition can read, from :data:`FEATURES` (``nine features``).

    >>> entry = next(e for e in glossary() if e.name == "banker_cards")
    >>> entry.type, entry.values, entry.meaning
    ('number', '2, 3', "cards in Banker's final hand")
    """
    return tuple(_entry(feature) for feature in FEATURES.values())


_NAMES: dict[str, Value] = {"player": "player", "banker": "banker", "tie": "tie",
                            "true": True, "false": False, "none": NO_CARD,
                            "red": "red", "black": "black", "mixed": "mixed"}

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}

_TOKEN = re.compile(r"\s*(?:(\d+)|('[^']*'|\"[^\"]*\")|(==|!=|<=|>=|<|>|\.\.|[(){},])"
                    r"|([A-Za-z_][A-Za-z0-9_]*))")


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its source text, the features it reads, and its test."""

    text: str
    features: frozenset[str]
    test: Callable[[Mapping[str, Any]], Any]
    #: Each comparison (or bare boolean feature) of the condition: (feature name, its test).
    #: The engine uses the card-level ones to group card pairs that no line tells apart.
    atoms: tuple[tuple[str, Callable[[Mapping[str, Any]], Any]], ...] = field(
        default=(), compare=False)

    def __call__(self, coup: Mapping[str, Any]) -> Any:
        """True or false for one coup's features; a boolean array for feature columns."""
        result = self.test(coup)
        return bool(result) if np.ndim(result) == 0 else result

    @property
    def level(self) -> Level:
        """'cards' if any feature needs ranks or suits, else 'coup'."""
        cards = any(FEATURES[f].level == "cards" for f in self.features if f in FEATURES)
        return "cards" if cards else "coup"


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise AnalyzerError(f"cannot read {text[position:].strip()!r} in condition {text!r}")
        tokens.append(match.group(0).strip())
        position = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str, features: Mapping[str, Feature]) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.position = 0
        self.features = features
        self.used: set[str] = set()
        self.atoms: list[tuple[str, Callable[[Mapping[str, Any]], Any]]] = []
        self.last_feature = ""

    def error(self, message: str) -> AnalyzerError:
        return AnalyzerError(f"{message} in condition {self.text!r}")

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None:
            raise self.error("unexpected end" + (f", expected {expected!r}" if expected else ""))
        if expected is not None and token.lower() != expected:
            raise self.error(f"expected {expected!r}, found {token!r}")
        self.position += 1
        return token

    def parse(self) -> Callable[[Mapping[str, Any]], Any]:
        if not self.tokens:
            raise self.error("empty condition")
        test = self.disjunction()
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek()!r}")
        return test

    def disjunction(self) -> Callable[[Mapping[str, Any]], Any]:
        parts = [self.conjunction()]
        while (self.peek() or "").lower() == "or":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else (
            lambda c: functools.reduce(np.logical_or, (p(c) for p in parts)))

    def conjunction(self) -> Callable[[Mapping[str, Any]], Any]:
        parts = [self.factor()]
        while (self.peek() or "").lower() == "and":
            self.take()
            parts.append(self.factor())
        return parts[0] if len(parts) == 1 else (
            lambda c: functools.reduce(np.logical_and, (p(c) for p in parts)))

    def factor(self) -> Callable[[Mapping[str, Any]], Any]:
        token = self.peek()
        if token is None:
            raise self.error("unexpected end")
        if token.lower() == "not":
            self.take()
            inner = self.factor()
            return lambda c: np.logical_not(inner(c))
        if token == "(":
            self.take()
            inner = self.disjunction()
            self.take(")")
            return inner
        return self.comparison()

    def feature(self) -> Feature:
        token = self.take()
        feature = self.features.get(token.lower())
        if feature is None:
            raise self.error(f"unknown feature {token!r}{did_you_mean(token, self.features)} "
                             "(nine features lists them all)")
        self.used.add(feature.name)
        return feature

    def value(self, feature: Feature) -> Value:
        token = self.take()
        value: Value
        bare = (token[1:-1] if token[0] in "'\"" else token).upper()
        aliased = dict(feature.aliases).get(bare)
        if aliased is not None:
            value = aliased
        elif token.isdigit():
            value = int(token)
        elif token[0] in "'\"":
            value = token[1:-1]
        elif token.lower() in _NAMES:
            value = _NAMES[token.lower()]
        else:
            raise self.error(f"unknown value {token!r}")
        if isinstance(value, str) and feature.values and value not in feature.values:
            upper = value.upper()
            if upper not in feature.values:
                raise self.error(f"{feature.name} cannot be {token}")
            value = upper
        elif feature.values and value not in feature.values:
            raise self.error(f"{feature.name} cannot be {token}")
        return value

    def multiset(self, feature: Feature) -> str:
        """A two-card literal such as ``{'4D', '4D'}`` or ``{K, 9}``, in canonical form."""
        self.take("{")
        elements = [self.element(feature)]
        while self.peek() == ",":
            self.take()
            elements.append(self.element(feature))
        self.take("}")
        if len(elements) != 2:
            raise self.error(f"{feature.name} compares with two cards, e.g. {{K, 9}}")
        if feature.kind == "cards":
            return cards_key(Card.parse(text) for text in elements)
        return ranks_key(int(e) for e in elements)

    def element(self, feature: Feature) -> str:
        token = self.take()
        bare = token[1:-1] if token[0] in "'\"" else token
        if feature.kind == "ranks":
            rank = dict(feature.aliases).get(bare.upper())
            if rank is None:
                raise self.error(f"{bare!r} is not a rank (A 2 .. 9 T J Q K)")
            return str(rank)
        try:
            Card.parse(bare)
        except AnalyzerError:
            raise self.error(f"{bare!r} is not a card: write cards in quotes, e.g. '4D'") from None
        return bare

    def comparison(self) -> Callable[[Mapping[str, Any]], Any]:
        test = self.single_comparison()
        self.atoms.append((self.last_feature, test))
        return test

    def single_comparison(self) -> Callable[[Mapping[str, Any]], Any]:
        feature = self.feature()
        name = feature.name
        self.last_feature = name
        token = (self.peek() or "").lower()
        if feature.kind != "scalar":
            return self.multiset_comparison(feature, token)
        if token in _OPS:
            op = _OPS[self.take()]
            value = self.value(feature)
            if op not in (operator.eq, operator.ne) and not isinstance(value, int):
                raise self.error(f"{self.tokens[self.position - 2]} needs a number")
            if op in (operator.eq, operator.ne):
                return lambda c: op(c[name], value)
            if NO_CARD in feature.values:
                return lambda c: np.logical_and(c[name] != NO_CARD, op(c[name], value))
            return lambda c: op(c[name], value)
        if token == "in":
            self.take()
            if self.peek() == "{":
                self.take()
                members = {self.value(feature)}
                while self.peek() == ",":
                    self.take()
                    members.add(self.value(feature))
                self.take("}")
            else:
                low = self.value(feature)
                self.take("..")
                high = self.value(feature)
                if not isinstance(low, int) or not isinstance(high, int) or low > high:
                    raise self.error("a range needs two numbers, low..high")
                members = set(range(low, high + 1))
            listed = sorted(members, key=str)
            return lambda c: np.isin(c[name], listed)
        if feature.values and set(feature.values) <= {True, False}:
            return lambda c: c[name]
        raise self.error(f"{name} needs a comparison")

    def multiset_comparison(self, feature: Feature,
                            token: str) -> Callable[[Mapping[str, Any]], Any]:
        name = feature.name
        if token in ("==", "!="):
            op = _OPS[self.take()]
            key = self.multiset(feature)
            return lambda c: op(c[name], key)
        if token == "in":
            self.take()
            self.take("{")
            keys = [self.multiset(feature)]
            while self.peek() == ",":
                self.take()
                keys.append(self.multiset(feature))
            self.take("}")
            return lambda c: np.isin(c[name], keys)
        raise self.error(f"{name} needs == {{a, b}}, != {{a, b}} or in {{{{a, b}}, ...}}")


def cards_key(cards: Any) -> str:
    """Canonical text of two cards as a multiset (sorted by deck order).

    >>> cards_key([Card.parse("4d"), Card.parse("As")])
    'AS 4D'
    """
    return " ".join(str(card) for card in sorted(cards, key=lambda card: card.index))


def ranks_key(ranks: Any) -> str:
    """Canonical text of two ranks (numbers 1-13) as a multiset.

    >>> ranks_key([13, 9]), ranks_key([10, 1])
    ('9 K', 'A T')
    """
    return " ".join(RANK_SYMBOLS[r] for r in sorted(ranks))


def parse_condition(text: str, features: Mapping[str, Feature] | None = None) -> Condition:
    """Parse a condition; raise :class:`AnalyzerError` naming what is wrong."""
    if len(text) > MAX_CONDITION or nesting_depth(text) > MAX_DEPTH:
        raise AnalyzerError(f"condition too long or nested (at most {MAX_CONDITION} characters "
                            f"and {MAX_DEPTH} levels of parentheses)")
    parser = _Parser(text, FEATURES if features is None else features)
    test = parser.parse()
    return Condition(text.strip(), frozenset(parser.used), test, tuple(parser.atoms))
