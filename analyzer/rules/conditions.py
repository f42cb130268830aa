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
from typing import Any, Literal, NamedTuple

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
    #: In plain English: a true-or-false feature's sentence when true, then when false;
    #: any other feature's noun phrase ("Player's final total").
    words: tuple[str, ...] = ()


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
    two = f"{name}'s first two cards"
    return [
        Feature(f"{hand}_pair", f"{two} have the same rank (K-K, not T-J)",
                (False, True), "cards", words=(f"{two} are a pair", f"{two} are not a pair")),
        Feature(f"{hand}_identical_pair", f"{two} have the same rank and suit", (False, True),
                "cards", words=(f"{two} are an identical pair (same rank and suit)",
                                f"{two} are not an identical pair")),
        Feature(f"{hand}_suited", f"{two} have the same suit", (False, True), "cards",
                words=(f"{two} are suited", f"{two} are not suited")),
        Feature(f"{hand}_colour", f"colour of {two}: red, black or mixed",
                ("red", "black", "mixed"), "cards", words=(f"the colour of {two}",)),
        Feature(f"{hand}_suit", f"the suit of {two} if suited (S H D C), else none", _SUITS,
                "cards", aliases=_SUIT_ALIASES, words=(f"the suit of {two}",)),
        Feature(f"{hand}_pair_rank", f"rank of {name}'s pair (A=1 ... K=13, or A 2 .. T J Q "
                "K), none if not a pair", (*_RANKS, NO_CARD), "cards", aliases=RANK_ALIASES,
                words=(f"the rank of {name}'s pair",)),
        Feature(f"{hand}_first_ranks", f"the ranks of {two}, compared as a multiset: "
                "== {K, 9}", (), "cards", kind="ranks", aliases=RANK_ALIASES,
                words=(f"the ranks of {two}",)),
        Feature(f"{hand}_first_cards", f"{two}, compared as a multiset: == {{'4D', '4D'}}",
                (), "cards", kind="cards", words=(two,)),
    ]


def _coup_features(hand: str) -> list[Feature]:
    """The point-value features of one hand."""
    name = hand.capitalize()
    two = f"{name}'s first two cards"
    return [
        Feature(f"{hand}_total", f"{name}'s final total", _TOTALS,
                words=(f"{name}'s final total",)),
        Feature(f"{hand}_two_card_total", f"{name}'s total on the first two cards", _TOTALS,
                words=(f"{name}'s two-card total",)),
        Feature(f"{hand}_cards", f"cards in {name}'s final hand", (2, 3),
                words=(f"the number of cards in {name}'s final hand",)),
        Feature(f"{hand}_natural", f"{name} has a natural", (False, True),
                words=(f"{name} has a natural", f"{name} has no natural")),
        Feature(f"{hand}_third", f"point value of {name}'s third card, none if it stood",
                _THIRD, words=(f"the point value of {name}'s third card",)),
        Feature(f"{hand}_pair_value", f"{two} have the same point value", (False, True),
                words=(f"{two} have the same point value",
                       f"{two} have different point values")),
        Feature(f"{hand}_low_value", f"lower point value of {two}", _TOTALS,
                words=(f"the lower point value of {two}",)),
        Feature(f"{hand}_high_value", f"higher point value of {two}", _TOTALS,
                words=(f"the higher point value of {two}",)),
    ]


#: Every feature a condition can name, by name.
FEATURES: dict[str, Feature] = {f.name: f for f in [
    Feature("winner", "player, banker or tie", ("player", "banker", "tie"),
            words=("the result",)),
    *(feature for hand in ("player", "banker") for feature in _coup_features(hand)),
    Feature("natural", "either hand has a natural", (False, True),
            words=("either hand has a natural", "neither hand has a natural")),
    Feature("margin", "difference of the final totals", _TOTALS,
            words=("the difference between the final totals",)),
    Feature("winning_total", "final total of the winning hand (of either on a tie)", _TOTALS,
            words=("the winning hand's final total",)),
    Feature("winning_cards", "cards in the winning hand (Banker's on a tie)", (2, 3),
            words=("the number of cards in the winning hand (Banker's on a tie)",)),
    Feature("cards_dealt", "cards dealt in the coup", (4, 5, 6),
            words=("the number of cards dealt",)),
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


_Test = Callable[[Mapping[str, Any]], Any]


class _Part(NamedTuple):
    """A parsed piece of a condition: its test, and it and its negation in plain English."""

    test: _Test
    words: str
    negation: str


def _listed(parts: list[str], word: str) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


#: Each comparison in words, then its negation's.
_VERBS = {"==": ("is", "is not"), "!=": ("is not", "is"), "<": ("is less than", "is at least"),
          "<=": ("is at most", "is more than"), ">": ("is more than", "is at most"),
          ">=": ("is at least", "is less than")}
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RESULT_WORDS = {"player": "a Player win", "banker": "a Banker win", "tie": "a tie"}


def _value_words(feature: Feature, value: Value) -> str:
    """A value as the plain-English phrases of a condition say it."""
    if value == NO_CARD and not isinstance(value, bool):
        return "none"
    if feature.name == "winner":
        return _RESULT_WORDS.get(str(value), str(value))
    if isinstance(value, str):
        return _SUIT_WORDS.get(value, value)
    if feature.aliases and any(k.isalpha() for k, _ in feature.aliases):
        return RANK_SYMBOLS[int(value)]
    return str(value)


def _multiset_words(key: str) -> str:
    return " and ".join(key.replace("S", "♠").replace("H", "♥").replace("D", "♦")
                        .replace("C", "♣").split())


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
    #: The condition in plain English, from the glossary's words (PAR sheets print it).
    words: str = field(default="", compare=False)

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

    def parse(self) -> _Part:
        if not self.tokens:
            raise self.error("empty condition")
        part = self.disjunction()
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek()!r}")
        return part

    def disjunction(self) -> _Part:
        parts = [self.conjunction()]
        while (self.peek() or "").lower() == "or":
            self.take()
            parts.append(self.conjunction())
        if len(parts) == 1:
            return parts[0]
        tests = [p.test for p in parts]
        words = [p.words for p in parts]
        return _Part(lambda c: functools.reduce(np.logical_or, (t(c) for t in tests)),
                     ("either " if len(parts) == 2 else "one of: ") + _listed(words, "or"),
                     ("neither " + " nor ".join(words) if len(parts) == 2
                      else "none of: " + _listed(words, "or")))

    def conjunction(self) -> _Part:
        parts = [self.factor()]
        while (self.peek() or "").lower() == "and":
            self.take()
            parts.append(self.factor())
        if len(parts) == 1:
            return parts[0]
        tests = [p.test for p in parts]
        words = [p.words for p in parts]
        return _Part(lambda c: functools.reduce(np.logical_and, (t(c) for t in tests)),
                     _listed(words, "and"),
                     ("not both " if len(parts) == 2 else "not all of: ")
                     + _listed(words, "and"))

    def factor(self) -> _Part:
        token = self.peek()
        if token is None:
            raise self.error("unexpected end")
        if token.lower() == "not":
            self.take()
            inner = self.factor()
            return _Part(lambda c: np.logical_not(inner.test(c)), inner.negation, inner.words)
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

    def comparison(self) -> _Part:
        part = self.single_comparison()
        self.atoms.append((self.last_feature, part.test))
        return part

    def single_comparison(self) -> _Part:
        feature = self.feature()
        name = feature.name
        self.last_feature = name
        token = (self.peek() or "").lower()
        noun = feature.words[0] if feature.words else name
        if feature.kind != "scalar":
            return self.multiset_comparison(feature, token, noun)
        if token in _OPS:
            symbol = self.take()
            op = _OPS[symbol]
            value = self.value(feature)
            if op not in (operator.eq, operator.ne) and not isinstance(value, int):
                raise self.error(f"{self.tokens[self.position - 2]} needs a number")
            said, unsaid = _VERBS[symbol]
            told = _value_words(feature, value)
            words = (f"{noun} {said} {told}", f"{noun} {unsaid} {told}")
            if op in (operator.eq, operator.ne):
                return _Part(lambda c: op(c[name], value), *words)
            if NO_CARD in feature.values:
                return _Part(lambda c: np.logical_and(c[name] != NO_CARD, op(c[name], value)),
                             words[0], f"{words[1]} or none")
            return _Part(lambda c: op(c[name], value), *words)
        if token == "in":
            self.take()
            if self.peek() == "{":
                self.take()
                members = {self.value(feature)}
                while self.peek() == ",":
                    self.take()
                    members.add(self.value(feature))
                self.take("}")
                ordered = sorted(members, key=str)
                told = _listed([_value_words(feature, v) for v in ordered], "or")
            else:
                low = self.value(feature)
                self.take("..")
                high = self.value(feature)
                if not isinstance(low, int) or not isinstance(high, int) or low > high:
                    raise self.error("a range needs two numbers, low..high")
                members = set(range(low, high + 1))
                told = (f"from {_value_words(feature, low)} to {_value_words(feature, high)}"
                        if high > low else _value_words(feature, low))
            listed = sorted(members, key=str)
            return _Part(lambda c: np.isin(c[name], listed), f"{noun} is {told}",
                         f"{noun} is not {told}")
        if feature.values and set(feature.values) <= {True, False}:
            yes, no = feature.words if len(feature.words) == 2 else (name, f"not {name}")
            return _Part(lambda c: c[name], yes, no)
        raise self.error(f"{name} needs a comparison")

    def multiset_comparison(self, feature: Feature, token: str, noun: str) -> _Part:
        name = feature.name
        if token in ("==", "!="):
            symbol = self.take()
            op = _OPS[symbol]
            key = self.multiset(feature)
            said, unsaid = ("are", "are not") if symbol == "==" else ("are not", "are")
            told = _multiset_words(key)
            return _Part(lambda c: op(c[name], key), f"{noun} {said} {told}",
                         f"{noun} {unsaid} {told}")
        if token == "in":
            self.take()
            self.take("{")
            keys = [self.multiset(feature)]
            while self.peek() == ",":
                self.take()
                keys.append(self.multiset(feature))
            self.take("}")
            told = _listed([_multiset_words(key) for key in keys], "or")
            return _Part(lambda c: np.isin(c[name], keys), f"{noun} are {told}",
                         f"{noun} are not {told}")
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
    part = parser.parse()
    return Condition(text.strip(), frozenset(parser.used), part.test, tuple(parser.atoms),
                     part.words)
