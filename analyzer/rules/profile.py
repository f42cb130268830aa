"""Rule profiles as data: TOML files loaded into frozen, self-validating records.

A profile holds a game's drawing rules (for punto banco, the tableau as a table) and its
bets (payout lines whose conditions are parsed by :mod:`analyzer.rules.conditions`). Shipped
profiles live in ``analyzer/profiles/``; a user's own file loads the same way.

A file may build on a base: ``base = "punto-banco"`` (a shipped profile's name or alias, or
a path, relative to the file) takes the base's rules -- ``decks``, ``tableau``,
``procedure``, ``game`` and its bets -- and the file adds or overrides: a table merges key by
key, any other value replaces the base's, a bet replaces the base's bet of the same id or
is added after them; ``base_bets = ["banker"]`` keeps only the listed base bets (``[]``:
none). The identity (``name``, ``title``, ``aliases``, ``description``, ``source``,
``illustrative``) is the file's own. The merged profile is validated as a whole
(:func:`profile_data` returns it, ``nine profiles --show FILE`` prints it); a missing base
or a cycle of bases is a one-line error.

>>> profile = load_profile("punto-banco")
>>> profile.name, [bet.id for bet in profile.bets]
('punto-banco', ['banker', 'player', 'tie'])
>>> load_profile("baccarat").name
'punto-banco'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal

from analyzer.errors import AnalyzerError, did_you_mean
from analyzer.inputs import parse_toml, read_text, toml_text
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.conditions import Condition, parse_condition
from analyzer.rules.procedure import Procedure, parse_procedure

__all__ = ["Bet", "choice_rules_of", "DEFAULT_PROCEDURE", "load_profile", "load_profile_file",
           "MAX_NAME", "parse_profile", "PROFILE_NAME", "PayLine", "PayRule", "Profile",
           "profile_data", "profile_text", "shipped_profiles", "Tableau"]

PayRule = Literal["highest", "all"]
_TOTALS = frozenset(str(total) for total in range(10))
_PAYOUT = re.compile(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?")
#: Largest payout a line may have (to one); published paytables stop at 30,000.
MAX_PAYOUT = 1_000_000
#: Most decks a profile may name (the engine is exact at any size; dealing commands have
#: their own, smaller limits).
MAX_DECKS = 100_000
#: Longest profile name: output files (PAR sheets) are named after it.
MAX_NAME = 64
#: A profile's name: an identifier, so that the files named after it stay in their folder.
PROFILE_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_NAME - 1}}}")
#: The shoe procedure of a profile without a ``[procedure]`` table.
DEFAULT_PROCEDURE = parse_procedure({}, (), "")


@dataclass(frozen=True)
class Tableau:
    """Fixed drawing rules of a punto banco style game.

    ``banker_draws[t]`` is the set of Player third-card values on which a Banker holding
    ``t`` draws; ``banker_draws_player_stood`` the Banker totals that draw when Player stood.
    """

    naturals: frozenset[int]
    player_draws: frozenset[int]
    banker_draws_player_stood: frozenset[int]
    banker_draws: tuple[frozenset[int], ...]

    def __post_init__(self) -> None:
        if len(self.banker_draws) != 10:
            raise AnalyzerError("tableau needs a banker row for every total 0-9")
        for group in (self.naturals, self.player_draws, self.banker_draws_player_stood,
                      *self.banker_draws):
            if any(not 0 <= v <= 9 for v in group):
                raise AnalyzerError("tableau values must lie in 0-9")

    def banker_draws_on(self, banker_total: int, player_third: int | None) -> bool:
        """Does Banker draw, holding ``banker_total``, after Player's third card (or stand)?"""
        if player_third is None:
            return banker_total in self.banker_draws_player_stood
        return player_third in self.banker_draws[banker_total]

    def is_natural(self, player_total: int, banker_total: int) -> bool:
        """Does either two-card total end the coup at once?"""
        return player_total in self.naturals or banker_total in self.naturals

    def player_draws_on(self, player_total: int) -> bool:
        """Does a non-natural Player holding ``player_total`` draw?"""
        return player_total in self.player_draws

    def play(self, values: Sequence[int], start: int = 0) -> tuple[int, int]:
        """Cards Player and Banker end with when a coup is dealt from ``values[start:]``.

        Cards go Player, Banker, Player, Banker, then Player's third card (if it draws), then
        Banker's; the one place the drawing rules are applied to a deal.

        >>> rules = load_profile("punto-banco").tableau
        >>> rules.play([3, 0, 2, 0, 4, 9]), rules.play([9, 0, 0, 0, 5]), rules.play([6, 0, 0, 3, 9])
        ((3, 3), (2, 2), (2, 3))
        """
        if len(values) - start < 4:
            raise AnalyzerError(f"a coup needs at least 4 cards, got {len(values) - start}")
        player = (values[start] + values[start + 2]) % 10
        banker = (values[start + 1] + values[start + 3]) % 10
        if self.is_natural(player, banker):
            return 2, 2
        next_card = start + 4
        third: int | None = None
        if self.player_draws_on(player):
            if next_card >= len(values):
                raise AnalyzerError("the shoe ran out before Player's third card")
            third = values[next_card]
            next_card += 1
        if not self.banker_draws_on(banker, third):
            return 2 + (third is not None), 2
        if next_card >= len(values):
            raise AnalyzerError("the shoe ran out before Banker's third card")
        return 2 + (third is not None), 3


@dataclass(frozen=True)
class PayLine:
    """One payout line of a bet: a condition on the coup and what it pays to one."""

    name: str
    when: Condition
    pays: Fraction

    def __post_init__(self) -> None:
        if self.pays < 0:
            raise AnalyzerError(f"payline {self.name!r}: negative payout {self.pays}")


@dataclass(frozen=True)
class Bet:
    """A wager: its paylines, and whether only the highest holding line pays."""

    id: str
    name: str
    lines: tuple[PayLine, ...]
    pay_rule: PayRule = "highest"
    note: str = ""

    def __post_init__(self) -> None:
        if not self.lines:
            raise AnalyzerError(f"bet {self.id!r} has no paylines")
        if self.pay_rule not in ("highest", "all"):
            raise AnalyzerError(f"bet {self.id!r}: pay_rule must be 'highest' or 'all'")

    @property
    def features(self) -> frozenset[str]:
        """Every coup feature the bet's conditions read."""
        return frozenset().union(*(line.when.features for line in self.lines))

    @property
    def card_level(self) -> bool:
        """Does any payline read ranks or suits (not only point values)?"""
        return any(line.when.level == "cards" for line in self.lines)


@dataclass(frozen=True)
class Profile:
    """A game: its drawing rules, bets and shoe procedure, as loaded from TOML."""

    #: The profile's name (``punto-banco``), as ``--profile`` takes it.
    name: str
    #: The game's title as people read it.
    title: str
    #: The fixed drawing rules (naturals, Player's and Banker's draws); None for a game of
    #: choices, whose players decide.
    tableau: Tableau | None
    #: The wagers, in the profile's order.
    bets: tuple[Bet, ...]
    #: Other names ``--profile`` accepts for it.
    aliases: tuple[str, ...] = ()
    #: A sentence on the game.
    description: str = ""
    #: Where the rules and paytables come from.
    source: str = ""
    #: Decks per shoe when none is given.
    default_decks: int = 8
    #: Why the paytable is illustrative (empty when it is a published one).
    illustrative: str = ""
    #: How a shoe is dealt: burn, cut card and betting windows.
    procedure: Procedure = DEFAULT_PROCEDURE
    #: A game of choices' rules (its ``[game]`` table); None for a fixed tableau.
    game: ChoiceRules | None = None
    #: The TOML file it was loaded from (empty for a profile built in Python).
    path: str = ""

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for bet in self.bets:
            if bet.id in seen:
                raise AnalyzerError(f"profile {self.name!r}: duplicate bet id {bet.id!r}")
            seen.add(bet.id)

    @property
    def card_level(self) -> bool:
        """Does any bet read ranks or suits (not only point values)?"""
        return any(bet.card_level for bet in self.bets)

    def choice_rules(self) -> ChoiceRules:
        """The choice game's rules (the ``[game]`` table); an error if this is no choice game."""
        if self.game is None:
            raise AnalyzerError(f"{self.path or self.name}: game.kind: profile {self.name!r} is "
                                "not a choice game (needs [game] kind = \"choice\")")
        return self.game

    def bet(self, bet_id: str) -> Bet:
        """The bet with this id."""
        for bet in self.bets:
            if bet.id == bet_id:
                return bet
        ids = [b.id for b in self.bets]
        near = did_you_mean(bet_id, ids)
        raise AnalyzerError(f"profile {self.name!r} has no bet {bet_id!r}{near} (bets: "
                            f"{', '.join(ids)})")


_TOP_KEYS = {"name", "title", "aliases", "description", "source", "decks", "illustrative",
             "tableau", "bets", "procedure", "game"}


def parse_profile(data: Mapping[str, Any], where: str) -> Profile:
    """Validate a profile's TOML data; errors name ``where`` (the file) and the field."""

    def fail(fieldname: str, message: str) -> AnalyzerError:
        return AnalyzerError(f"{where}: {fieldname}: {message}")

    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise fail(sorted(unknown)[0], "unknown field")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise fail("name", "missing or not a string")
    if not PROFILE_NAME.fullmatch(name):
        raise fail("name", f"{name[:80]!r} is not an identifier (letters, digits, '-' and "
                           f"'_', starting with a letter or digit, at most {MAX_NAME} "
                           "characters; output files are named after it)")
    title = data.get("title", name)
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise fail("aliases", "must be a list of strings")
    decks = data.get("decks", 8)
    if not _is_int(decks) or not 1 <= decks <= MAX_DECKS:
        raise fail("decks", f"must be an integer from 1 to {MAX_DECKS:,}")
    for key in ("title", "description", "source", "illustrative"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, "must be a string")
    tableau = _parse_tableau(data["tableau"], fail) if "tableau" in data else None
    raw_bets = data.get("bets", [])
    if not isinstance(raw_bets, list):
        raise fail("bets", "must be an array of tables ([[bets]])")
    bets = tuple(_parse_bet(raw, i, fail) for i, raw in enumerate(raw_bets))
    procedure = data.get("procedure", {})
    game = data.get("game", {})
    if not isinstance(procedure, dict):
        raise fail("procedure", "must be a table")
    if not isinstance(game, dict):
        raise fail("game", "must be a table")
    if tableau is None and not game:
        raise fail("tableau", "missing (a profile needs a tableau or a [game] table)")
    rules = ChoiceRules.from_table(game, name, where) if game else None
    try:
        run = parse_procedure(procedure, [bet.id for bet in bets], name)
        return Profile(name=name, title=str(title), tableau=tableau, bets=bets,
                       aliases=tuple(aliases), description=str(data.get("description", "")),
                       source=str(data.get("source", "")), default_decks=decks,
                       illustrative=str(data.get("illustrative", "")),
                       procedure=run,
                       game=rules, path=where)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {exc}") from None


def _is_int(value: Any) -> bool:
    """An integer in the TOML sense: ``true`` is a boolean, not 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_set(value: Any, fieldname: str, fail: Any) -> frozenset[int]:
    if not isinstance(value, list) or not all(_is_int(v) and 0 <= v <= 9 for v in value):
        raise fail(fieldname, "must be a list of integers 0-9")
    return frozenset(value)


def _parse_tableau(raw: Any, fail: Any) -> Tableau:
    if not isinstance(raw, dict):
        raise fail("tableau", "must be a table")
    known = {"naturals", "player_draws", "banker_draws_player_stood", "banker_draws"}
    unknown = set(raw) - known
    if unknown:
        raise fail(f"tableau.{sorted(unknown)[0]}", "unknown field")
    for key in known:
        if key not in raw:
            raise fail(f"tableau.{key}", "missing")
    rows_raw = raw["banker_draws"]
    if not isinstance(rows_raw, dict):
        raise fail("tableau.banker_draws", "must be a table keyed by banker total")
    rows: list[frozenset[int]] = [frozenset()] * 10
    for key, value in rows_raw.items():
        if key not in _TOTALS:
            raise fail(f"tableau.banker_draws.{key}", "key must be a banker total 0-9")
        rows[int(key)] = _int_set(value, f"tableau.banker_draws.{key}", fail)
    naturals = _int_set(raw["naturals"], "tableau.naturals", fail)
    # a missing row would silently read as "never draws": every total that can reach
    # Banker's decision must be written out ([] for "stands")
    missing = [total for total in range(10) if total not in naturals and str(total) not in rows_raw]
    if missing:
        raise fail("tableau.banker_draws", f"no row for banker total {missing[0]} (every "
                   "non-natural total needs one; write [] where Banker stands)")
    return Tableau(
        naturals=naturals,
        player_draws=_int_set(raw["player_draws"], "tableau.player_draws", fail),
        banker_draws_player_stood=_int_set(raw["banker_draws_player_stood"],
                                           "tableau.banker_draws_player_stood", fail),
        banker_draws=tuple(rows),
    )


def _parse_payout(value: Any, fieldname: str, fail: Any) -> Fraction:
    """A payout to one: an integer, a decimal (``0.95``) or a fraction (``"19/20"``).

    Bounded by :data:`MAX_PAYOUT` and written without exponents, so a hostile value such as
    ``"1e999999999"`` cannot make the exact arithmetic run for ever.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise fail(fieldname, "payout must be a number or a fraction string like '19/20'")
    text = repr(value) if isinstance(value, float) else str(value).strip()
    if len(text) > 40 or not _PAYOUT.fullmatch(text):
        raise fail(fieldname, f"payout {value!r} is not a number like 8, 0.95 or '19/20'")
    try:
        pays = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise fail(fieldname, f"payout {value!r} is not a number") from None
    if pays < 0:
        raise fail(fieldname, f"negative payout {value}")
    if pays > MAX_PAYOUT:
        raise fail(fieldname, f"payout {value!r} is above {MAX_PAYOUT:,} to 1")
    return pays


def _parse_bet(raw: Any, index: int, fail: Any) -> Bet:
    if not isinstance(raw, dict):
        raise fail(f"bets[{index}]", "must be a table")
    bet_id = raw.get("id")
    if not isinstance(bet_id, str) or not bet_id:
        raise fail(f"bets[{index}].id", "missing or not a string")
    here = f"bet {bet_id}"
    unknown = set(raw) - {"id", "name", "lines", "pay_rule", "note"}
    if unknown:
        raise fail(f"{here}: {sorted(unknown)[0]}", "unknown field")
    lines_raw = raw.get("lines")
    if not isinstance(lines_raw, list) or not lines_raw:
        raise fail(f"{here}: lines", "a bet needs at least one payline")
    lines = []
    for number, line in enumerate(lines_raw, start=1):
        place = f"{here}: line {number}"
        if not isinstance(line, dict):
            raise fail(place, "must be a table")
        unknown = set(line) - {"name", "when", "pays"}
        if unknown:
            raise fail(f"{place}: {sorted(unknown)[0]}", "unknown field")
        when = line.get("when")
        if not isinstance(when, str):
            raise fail(f"{place}: when", "missing condition")
        try:
            condition = parse_condition(when)
        except AnalyzerError as exc:
            raise fail(f"{place}: when", str(exc)) from None
        if "pays" not in line:
            raise fail(f"{place}: pays", "missing")
        pays = _parse_payout(line["pays"], f"{place}: pays", fail)
        lines.append(PayLine(str(line.get("name", when)), condition, pays))
    pay_rule = raw.get("pay_rule", "highest")
    if pay_rule not in ("highest", "all"):
        raise fail(f"{here}: pay_rule", "must be 'highest' or 'all'")
    return Bet(bet_id, str(raw.get("name", bet_id)), tuple(lines), pay_rule,
               str(raw.get("note", "")))


def load_profile_file(path: str | Path) -> Profile:
    """Load and validate a profile from a TOML file (with its bases merged)."""
    return parse_profile(_file_data(Path(path), ()), str(path))


def _parse_text(text: str, where: str) -> Profile:
    return parse_profile(_with_base(parse_toml(text, where), where, Path(where).parent, ()),
                         where)


#: Keys a profile never takes from its base: they name and describe the file's own game.
_IDENTITY = ("name", "title", "aliases", "description", "source", "illustrative")
#: Most bases in one chain (a longer one is surely a mistake).
MAX_BASES = 16


def _file_data(path: Path, chain: tuple[str, ...]) -> dict[str, Any]:
    where = str(path)
    return _with_base(parse_toml(read_text(path), where), where, path.parent, chain)


def _base_path(base: str, folder: Path, where: str) -> Path:
    """The file a ``base`` names: a shipped profile, else a path relative to ``folder``."""
    key = base.lower()
    for profile in shipped_profiles():
        if key == profile.name or key in profile.aliases:
            return PROFILES_FOLDER / f"{profile.name}.toml"
    path = Path(base) if Path(base).is_absolute() else folder / base
    if path.is_file():
        return path
    names = [p.name for p in shipped_profiles()]
    near = did_you_mean(key, [*names, *(a for p in shipped_profiles() for a in p.aliases)])
    raise AnalyzerError(f"{where}: base: no profile {base!r}{near} (shipped: "
                        f"{', '.join(names)}; or a .toml path relative to the file)")


def _with_base(data: dict[str, Any], where: str, folder: Path,
               chain: tuple[str, ...]) -> dict[str, Any]:
    """``data`` merged onto its base (see the module docstring); ``chain``: the files that
    build on this one, to refuse a cycle."""
    if "base" not in data:
        if "base_bets" in data:
            raise AnalyzerError(f"{where}: base_bets: only a profile with a base keeps bets "
                                "from it")
        return data
    own = dict(data)
    base = own.pop("base")
    keep = own.pop("base_bets", None)
    if not isinstance(base, str) or not base.strip():
        raise AnalyzerError(f"{where}: base: must be a profile name or a .toml path")
    path = _base_path(base.strip(), folder, where)
    here = str(Path(where).resolve()) if Path(where).is_file() else where
    visited = (*chain, here)
    if str(path.resolve()) in visited:
        raise AnalyzerError(f"{where}: base: a cycle of bases ({' -> '.join(visited)} -> "
                            f"{path.resolve()})")
    if len(visited) > MAX_BASES:
        raise AnalyzerError(f"{where}: base: more than {MAX_BASES} bases in one chain")
    inherited = {k: v for k, v in _file_data(path, visited).items() if k not in _IDENTITY}
    bets = own.pop("bets", [])
    merged = _merged(inherited, own)
    merged["bets"] = _merged_bets(merged.get("bets", []), bets, keep, where)
    if not merged["bets"]:
        del merged["bets"]
    first = {k: merged.pop(k) for k in _IDENTITY if k in merged}  # the file's identity first
    return first | merged


def _merged(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """Tables merged key by key, any other value replaced."""
    out = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _bet_id(raw: Any) -> Any:
    return raw.get("id") if isinstance(raw, dict) else None


def _merged_bets(base: Any, own: Any, keep: Any, where: str) -> list[Any]:
    """The base's bets (those in ``keep`` if given), each replaced by the file's bet of the
    same id, then the file's other bets."""
    if not isinstance(base, list) or not isinstance(own, list):
        return own if isinstance(own, list) else []
    if keep is not None:
        if not isinstance(keep, list) or not all(isinstance(k, str) for k in keep):
            raise AnalyzerError(f"{where}: base_bets: must be a list of bet ids")
        ids = [_bet_id(b) for b in base]
        for name in keep:
            if name not in ids:
                raise AnalyzerError(f"{where}: base_bets: the base has no bet {name!r} "
                                    f"(bets: {', '.join(map(str, ids))})")
        base = [b for b in base if _bet_id(b) in keep]
    replacing: dict[Any, Any] = {}
    for bet in own:
        if _bet_id(bet) in replacing:
            raise AnalyzerError(f"{where}: bets: duplicate bet id {_bet_id(bet)!r}")
        if _bet_id(bet) is not None:
            replacing[_bet_id(bet)] = bet
    out = [replacing.pop(_bet_id(b), b) for b in base]
    return out + [b for b in own if _bet_id(b) is None or _bet_id(b) in replacing]


def profile_data(name_or_path: str | Path) -> dict[str, Any]:
    """A profile's TOML data with its bases merged (a shipped name or alias, or a path),
    validated as a profile."""
    profile = load_profile(name_or_path)
    path = (PROFILES_FOLDER / f"{profile.name}.toml" if profile.path.startswith("profiles/")
            else Path(profile.path))
    return _file_data(path, ())


def profile_text(name_or_path: str | Path) -> str:
    """The merged profile as TOML text (``nine profiles --show``)."""
    return toml_text(profile_data(name_or_path))


#: The shipped profiles' folder (package data, installed as files beside the modules; read
#: by path: ``importlib.resources`` costs about 7 ms of every start in what it imports).
PROFILES_FOLDER = Path(__file__).resolve().parent.parent / "profiles"


@cache
def shipped_profiles() -> tuple[Profile, ...]:
    """Every profile shipped inside the package, sorted by name."""
    folder = PROFILES_FOLDER
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            # the same object as a load by name
            same = _shipped_by_name(entry.name[:-len(".toml")])
            found.append(same if same is not None else _parse_text(
                entry.read_text(encoding="utf-8"), f"profiles/{entry.name}"))
    return tuple(found)


@cache
def _shipped_by_name(key: str) -> Profile | None:
    """The shipped profile stored as ``profiles/<key>.toml`` when its name is ``key``
    (every shipped profile's file is named after it), parsed alone."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", key):
        return None
    entry = PROFILES_FOLDER / f"{key}.toml"
    if not entry.is_file():
        return None
    profile = _parse_text(entry.read_text(encoding="utf-8"), f"profiles/{key}.toml")
    return profile if profile.name == key else None


def load_profile(name_or_path: str | Path) -> Profile:
    """A shipped profile by name or alias, or a user's TOML file by path."""
    text = str(name_or_path)
    key = text.lower()
    # by name, one file is parsed; by alias, every shipped profile
    if isinstance(name_or_path, str):
        found = _shipped_by_name(key)
        if found is not None:
            return found
    for profile in shipped_profiles():
        if key == profile.name or key in profile.aliases:
            return profile
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        return load_profile_file(path)
    known = [p.name for p in shipped_profiles()]
    near = did_you_mean(key, [*known, *(a for p in shipped_profiles() for a in p.aliases)])
    raise AnalyzerError(f"unknown profile {text!r}{near} (shipped: {', '.join(known)}; or "
                        "give a .toml file)")


def choice_rules_of(profile: str | Path | Profile | ChoiceRules) -> ChoiceRules:
    """A choice game's rules from a profile name, alias, path, :class:`Profile` or the rules
    themselves (what every choice-game verb accepts).

    >>> choice_rules_of("lucky9").name == choice_rules_of(load_profile("lucky9-home")).name
    True
    """
    if isinstance(profile, ChoiceRules):
        return profile
    return (profile if isinstance(profile, Profile) else load_profile(profile)).choice_rules()
