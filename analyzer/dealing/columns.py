"""Which column of a CSV/TSV log holds what: every header matched, used or listed as ignored.

Headers are compared *plain*: without case, spaces, ``_``, ``-`` or ``.`` (``Banker
Stake``, ``banker_stake`` and ``BANKER-STAKE`` are one name). Besides the fields of
:data:`~analyzer.dealing.dialects.COMMON_NAMES`, a log's money is found in two shapes:

* **a pair of columns per bet**: the bet's name followed by a money word, e.g. ``Banker
  Stake`` / ``Banker Returned``, ``BankBet`` / ``BankWin``, ``tie_wager`` / ``tie_profit``.
  Bet names are the profile's ids and names and their synonyms (:data:`BET_SYNONYMS`:
  ``bank``, ``b``, ``punto``, ``p``, ``egalite``, ``t`` ...). A stake is written with one
  of :data:`STAKE_WORDS`; what came back (stake included) with one of
  :data:`RETURNED_WORDS`; or the net of the stake (negative on a loss) with one of
  :data:`PROFIT_WORDS`.
* **one bet a row**: a column naming the bet (:data:`BET_ON_NAMES`: ``bet_on``,
  ``side`` ...), one stake column and one returned or profit column.

:func:`find_columns` returns where each field is, and the report of every header: used
(with its meaning, ``Banker Stake -> banker stake``) or ignored. Nothing is dropped
without a word.

>>> found = find_columns(["Hand", "Player Cards", "Banker Cards", "Banker Stake",
...                       "Banker Returned", "Dealer"], LogOptions(), "x.csv")
>>> found.bets, found.ignored
({'banker': (3, 4)}, ('Dealer',))
>>> found.used[3]
('Banker Stake', 'banker stake')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from analyzer.dealing.dialects import COMMON_NAMES, FIELDS, SPLIT_NAMES, LogOptions, short
from analyzer.dealing.records import NotChecked
from analyzer.errors import AnalyzerError

__all__ = ["BET_ON_NAMES", "BET_SYNONYMS", "bet_spellings", "Columns", "find_columns", "JSON_KEYS",
           "json_layout", "plain", "PROFIT_WORDS", "RETURNED_WORDS", "ROLES", "STAKE_WORDS"]

#: Words of a stake column, of an amount returned (stake included) and of a profit (net
#: of the stake), compared plain.
STAKE_WORDS = ("stake", "bet", "wager", "amount", "betamount", "stakeamount")
RETURNED_WORDS = ("returned", "return", "payout", "paid", "won", "win", "returnedamount")
PROFIT_WORDS = ("profit", "pnl", "net", "result", "netresult", "winloss")
#: Headers of the column naming the bet in a one-bet-a-row log, compared plain.
BET_ON_NAMES = ("beton", "side", "betside", "bettype", "betname", "bet")
#: Common spellings of the three main bets, beside the profile's own ids and names.
BET_SYNONYMS: dict[str, tuple[str, ...]] = {
    "banker": ("banker", "bank", "b", "banco"),
    "player": ("player", "punto", "p"),
    "tie": ("tie", "egalite", "t"),
}
#: What a log's columns (or keys) may be used for: the checks that need them say so when
#: none was found (:class:`~analyzer.dealing.records.NotChecked`).
ROLES = ("shoe", "hand", "cards", "outcome", "burn", "money", "decks")
_MONEY = {"stake": STAKE_WORDS, "returned": RETURNED_WORDS, "profit": PROFIT_WORDS}
_MEANING = {"shoe": "shoe id", "hand": "hand number", "player_cards": "player cards",
            "banker_cards": "banker cards", "outcome": "outcome", "burn": "burn cards",
            "bet_on": "bet named", "stake": "stake", "returned": "returned",
            "profit": "profit (net of stake)", "cards_left": "shoe end (cards left)"}
_ROLE = {"shoe": "shoe", "hand": "hand", "player_cards": "cards", "banker_cards": "cards",
         "outcome": "outcome", "burn": "burn", "bet_on": "money", "stake": "money",
         "returned": "money", "profit": "money"}


def plain(name: str) -> str:
    """A header as it is compared: lower case, without spaces, ``_``, ``-`` or ``.``.

    >>> plain(" Banker_Stake.1 ")
    'bankerstake1'
    """
    return re.sub(r"[\s_.-]+", "", name.strip().lower())


def bet_spellings(bets: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each plain spelling of a bet (its id, its name, :data:`BET_SYNONYMS`) -> its id.
    ``bets``: the profile's (id, name) pairs; none: the three main bets.

    >>> table = bet_spellings([("banker", "Banker"), ("player-pair", "Player Pair")])
    >>> table["bank"], table["playerpair"], "p" in table
    ('banker', 'player-pair', False)
    """
    pairs = bets or tuple((bet_id, bet_id) for bet_id in BET_SYNONYMS)
    table: dict[str, str] = {}
    for bet_id, name in pairs:
        for spelling in (bet_id, name, *BET_SYNONYMS.get(bet_id, ())):
            table.setdefault(plain(spelling), bet_id)
    return table


class Columns(NamedTuple):
    """Where each field of a CSV log is, and what every column was used for.

    ``single``: field -> column (``bet_on``, ``stake``, ``returned``, ``profit`` in a
    one-bet-a-row log); ``bets``: per bet its (stake, returned-or-profit) columns, ``net``
    the bets whose second column is a profit; ``split``: a card field over several
    columns; ``used``: (header, meaning) of each used column; ``ignored``: the others;
    ``roles``: which of :data:`ROLES` the log has columns for; ``not_checked``: what the
    columns cannot support (a bet's stake without what it returned).
    """

    single: dict[str, int]
    bets: dict[str, tuple[int, int]]
    split: dict[str, tuple[int, ...]]
    net: frozenset[str] = frozenset()
    used: tuple[tuple[str, str], ...] = ()
    ignored: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    not_checked: tuple[NotChecked, ...] = ()


def _split_columns(names: list[str]) -> dict[str, tuple[int, ...]]:
    """Card fields found split over numbered columns under :data:`SPLIT_NAMES`."""
    found: dict[str, tuple[int, ...]] = {}
    for field, stems in SPLIT_NAMES.items():
        for stem in stems:
            columns = []
            for number in (1, 2, 3):
                name = f"{stem}{number}"
                if name not in names:
                    break
                columns.append(names.index(name))
            if len(columns) >= 2:
                found[field] = tuple(columns)
                break
    return found


def _money_column(name: str, header: str, spellings: dict[str, str]
                  ) -> tuple[str, str] | None:
    """(bet id, kind) of a per-bet money column (``kind``: stake, returned or profit), or
    None. A known bet name (any spelling) before a money word; any name before the
    literal ``_stake`` / ``_returned`` (the nine-handlog spelling)."""
    lowered = header.strip().lower()
    for kind, literal in (("stake", "_stake"), ("returned", "_returned")):
        if lowered.endswith(literal) and len(lowered) > len(literal):
            prefix = lowered[:-len(literal)]
            return spellings.get(plain(prefix), prefix), kind
    for kind, words in _MONEY.items():
        for word in sorted(words, key=len, reverse=True):
            if name.endswith(word) and len(name) > len(word):
                bet_id = spellings.get(name[:-len(word)])
                if bet_id is not None:
                    return bet_id, kind
    return None


def _listing(headers: Sequence[str]) -> str:
    listing = ", ".join(headers)
    return listing if len(listing) <= 200 else f"{listing[:196]}..."


def find_columns(headers: Sequence[str], options: LogOptions, path: str | Path,
                 cards: bool = True) -> Columns:
    """The column of each field of a CSV log, and what every column is used for (see the
    module docstring); AnalyzerError (naming the file, the header and the option that
    fixes it) when the cards cannot be found (``cards``: they must be there; not in an
    outcome-only log)."""
    names = [plain(h) for h in headers]
    listing = _listing(headers)
    wanted_of = dict(options.columns)
    single: dict[str, int] = {}
    split: dict[str, tuple[int, ...]] = {}
    taken: dict[int, str] = {}  # column -> meaning

    def column(name: str, field: str) -> int:
        if plain(name) not in names:
            raise AnalyzerError(f"{path}: line 1: --column {field}={wanted_of[field]}: no "
                                f"such column {short(name)} (columns: {listing})")
        return names.index(plain(name))

    fields = (*FIELDS, "bet_on", "stake", "returned", "profit")
    for field in fields:
        if field in wanted_of:
            parts = wanted_of[field].split(",")
            if len(parts) > 1:
                split[field] = tuple(column(part, field) for part in parts)
            else:
                single[field] = column(parts[0], field)
    for field in FIELDS:
        if field in single or field in split:
            continue
        for name in COMMON_NAMES[field]:
            index = names.index(plain(name)) if plain(name) in names else None
            if index is not None and index not in single.values():
                single[field] = index
                break
    for field, found in _split_columns(names).items():
        if field not in single and field not in split:
            split[field] = found
    for field in ("player_cards", "banker_cards") if cards else ():
        if field not in single and field not in split:
            raise AnalyzerError(_missing_cards(field, headers, path, bool(single or split)))
    for field, index in single.items():
        taken[index] = _MEANING[field]
    for field, indices in split.items():
        for number, index in enumerate(indices, start=1):
            taken[index] = f"{_MEANING[field].removesuffix('s')} {number}"
    bets, net, unpaired = _bet_columns(headers, names, options, path, taken)
    _bet_on_columns(names, single, taken, bool(bets))
    roles = {_ROLE[f] for f in (*single, *split) if f in _ROLE}
    if bets:
        roles.add("money")
    used = tuple((headers[i], taken[i]) for i in range(len(headers)) if i in taken)
    ignored = tuple(headers[i] for i in range(len(headers)) if i not in taken)
    return Columns(single, bets, split, frozenset(net), used, ignored,
                   tuple(r for r in ROLES if r in roles), unpaired)


def _bet_columns(headers: Sequence[str], names: list[str], options: LogOptions,
                 path: str | Path, taken: dict[int, str]
                 ) -> tuple[dict[str, tuple[int, int]], set[str], tuple[NotChecked, ...]]:
    """Per bet its (stake, returned-or-profit) columns, by name or ``--column``; the bets
    whose second column is a profit; a bet's payouts not checked for each money column
    without its partner (left ignored)."""
    spellings = bet_spellings(options.bets)
    found: dict[str, dict[str, int]] = {}
    for field, header in options.columns:
        for kind in _MONEY:
            if field.endswith(f"_{kind}") and field not in _MEANING:
                bet = field[:-len(kind) - 1]
                if plain(header) not in names:
                    raise AnalyzerError(f"{path}: line 1: --column {field}={header}: no such "
                                        f"column (columns: {_listing(headers)})")
                found.setdefault(bet, {})[kind] = names.index(plain(header))
    chosen = {i for kinds in found.values() for i in kinds.values()}
    for index, name in enumerate(names):
        if index in taken or index in chosen:
            continue
        money = _money_column(name, headers[index], spellings)
        if money is not None:
            bet, kind = money
            found.setdefault(bet, {}).setdefault(kind, index)
    bets: dict[str, tuple[int, int]] = {}
    net: set[str] = set()
    unpaired: list[NotChecked] = []
    for bet, kinds in found.items():
        stake = kinds.get("stake")
        back = kinds.get("returned", kinds.get("profit"))
        if stake is None or back is None:  # left ignored, and said
            have = headers[stake if stake is not None else back]  # type: ignore[index]
            missing = "returned" if stake is not None else "stake"
            words = "/".join(RETURNED_WORDS[:4] if missing == "returned" else STAKE_WORDS[:4])
            unpaired.append(NotChecked.of("payouts", (
                f"bet {bet}: column {short(have)} has no {missing} column beside it "
                f"(looked for {bet} + {words}; name one with --column {bet}_{missing}="
                "HEADER)")))
            continue
        bets[bet] = (stake, back)
        taken[stake] = f"{bet} stake"
        if "returned" in kinds:
            taken[back] = f"{bet} returned"
        else:
            net.add(bet)
            taken[back] = f"{bet} profit (net of stake)"
    return bets, net, tuple(unpaired)


def _bet_on_columns(names: list[str], single: dict[str, int], taken: dict[int, str],
                    paired: bool) -> None:
    """A one-bet-a-row log: the column naming the bet, its stake and its returned or
    profit column (added to ``single`` and ``taken``); not when bets have columns of
    their own."""
    if paired:
        return
    free = {name: i for i, name in reversed(list(enumerate(names))) if i not in taken}

    def first(field: str, candidates: tuple[str, ...]) -> int | None:
        if field in single:
            return single[field]
        return next((free[c] for c in candidates if c in free and free[c] not in
                     single.values()), None)

    bet_on = first("bet_on", BET_ON_NAMES)
    if bet_on is None:
        return
    single["bet_on"] = bet_on
    stake = first("stake", tuple(w for w in STAKE_WORDS if names[bet_on] != w))
    back = first("returned", RETURNED_WORDS)
    kind = "returned"
    if back is None:
        back, kind = first("profit", PROFIT_WORDS), "profit"
    if stake is None or back is None:
        del single["bet_on"]  # a column named like a bet, but no money beside it
        return
    single["stake"] = stake
    single[kind] = back
    for field in ("bet_on", "stake", kind):
        taken[single[field]] = _MEANING[field]


def _missing_cards(field: str, headers: Sequence[str], path: str | Path,
                   known: bool = True) -> str:
    """The one-line refusal of a log without a cards column, with what fixes it
    (``known``: some column is a field of a hand log; else it is none)."""
    if len(headers) == 1:  # , ; tab and | are told from the header line
        return (f"{path}: line 1: the header {short(headers[0], 60)} is a single column: "
                "not a hand log, or one whose separator is not , ; tab or | (give "
                "--delimiter SEP)")
    if not known:
        return (f"{path}: line 1: not a hand log nine verify reads: none of its columns "
                f"({_listing(headers)}) is a shoe, hand, cards or outcome column")
    looked = " or ".join(COMMON_NAMES[field][:2])
    looked += f" or {SPLIT_NAMES[field][0]}1,{SPLIT_NAMES[field][0]}2,..."
    return (f"{path}: line 1: missing column {field!r} (looked for {looked}; columns: "
            f"{_listing(headers)}; remap with --column {field}=HEADER)")


#: The keys of each JSON Lines record type that the reader uses, with their meaning and
#: role; a hand's ``player_cards``/``banker_cards``/``winner`` only when ``player``/
#: ``banker``/``outcome`` are absent. Other keys (``seed``, ``generator``, ``unit``,
#: ``cards_left`` ...) are read past: listed as ignored.
JSON_KEYS: dict[str, dict[str, tuple[str, str]]] = {
    "hand": {"type": ("record type", ""), "shoe": ("shoe id", "shoe"),
             "hand": ("hand number", "hand"), "player": ("player cards", "cards"),
             "player_cards": ("player cards", "cards"), "banker": ("banker cards", "cards"),
             "banker_cards": ("banker cards", "cards"), "outcome": ("outcome", "outcome"),
             "winner": ("outcome", "outcome"), "burn": ("burn cards", "burn"),
             "bets": ("stakes and amounts returned", "money")},
    "shoe": {"type": ("record type", ""), "shoe": ("shoe id", "shoe"),
             "decks": ("deck count", "decks"), "burn": ("burn cards", "burn")},
    "shoe_end": {"type": ("record type", ""), "shoe": ("shoe id", "shoe")},
    "header": {"type": ("record type", ""), "format": ("log format", ""),
               "version": ("format version", ""), "profile": ("profile", ""),
               "decks": ("deck count", "decks"), "people": ("people at the table", "")},
    "table": {"type": ("record type", ""), "shoe": ("shoe id", "shoe"),
              "hand": ("hand number", "hand"), "banker": ("who holds the bank", ""),
              "seats": ("players' cards, stakes and amounts returned", "money"),
              "bank": ("bank cards", "cards")},
}
_ALTERNATIVE = {"player_cards": "player", "banker_cards": "banker", "winner": "outcome"}


def json_layout(shapes: set[tuple[str, tuple[str, ...]]], complete: bool = True
                ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]]:
    """(used, ignored, roles) of a JSON Lines log from the (record type, keys) of its
    records (see :data:`JSON_KEYS`); ``complete``: every record's keys were seen.

    >>> used, ignored, roles = json_layout({("hand", ("shoe", "player", "banker", "x"))})
    >>> used[1], ignored, roles
    (('player', 'player cards'), ('x',), ('shoe', 'cards'))
    """
    used: dict[str, str] = {}
    ignored: dict[str, None] = {}
    roles: set[str] = set()
    for kind, keys in sorted(shapes, key=lambda shape: (shape[0] != "hand", shape)):
        known = JSON_KEYS.get(kind, {})
        for key in keys:
            found = known.get(key)
            if found is None or _ALTERNATIVE.get(key) in keys:
                ignored.setdefault(key)
                continue
            used.setdefault(key, found[0])
            if found[1]:
                roles.add(found[1])
    listed = tuple(k for k in ignored if k not in used)
    if not complete:
        listed += ("(records of more shapes than could be listed)",)
    return (tuple(used.items()), listed, tuple(r for r in ROLES if r in roles))
