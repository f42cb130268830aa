"""The extensive form of home Lucky 9 as one description: a networkx game tree.

A :class:`GameTree` is a ``networkx.DiGraph`` whose nodes are

* *chance* nodes -- the deal; each out-edge carries its ``action`` label and exact
  ``probability`` (a :class:`~fractions.Fraction`);
* *decision* nodes -- a ``player`` (index into the tree's players) choosing ``stand`` or
  ``draw`` in an ``infoset`` (a hashable key saying exactly what that side sees, rules
  section 7 of ``docs/rules/lucky9-home.md``);
* *terminal* nodes -- ``payoffs``, one exact Fraction per player.

Third cards are dealt face down and nobody sees them before the showdown, so each terminal
carries the exact expected result over the third cards (a chance node that no decision
follows changes no expected payoff). Children keep their insertion order, which is the
order :func:`to_efg` writes them in (Gambit's ``.efg`` format, exact rationals).

Two trees are built here:

* :func:`pair_tree` -- one seat against the bank (the heads-up game, any shoe). The solver's
  arrays are compiled from it (:func:`compile_pair`): the joint deal weights of the two
  hands and each pair of choices' exact expected result. At the infinite deck the hands of
  a table are independent given nothing, so every table's arrays are built from this one
  description (:mod:`analyzer.choice.table.subgame`).
* :func:`table_tree` -- a whole table of ``players`` seats (small tables and tiny shoes: it
  grows as ``10**(players+1)``), used for export and for the brute-force checks
  (:func:`tree_values`, :func:`tree_best_response`), which read nothing but the tree.

>>> from analyzer.rules.shoe import Shoe
>>> tree = pair_tree(LUCKY9, Shoe.infinite(), "total")
>>> tree.players, tree.graph.number_of_nodes()
(('seat 1', 'bank'), 597)
>>> to_efg(tree).splitlines()[0]
'EFG 2 R "home Lucky 9, 2 people, infinite deck, by total" { "seat 1" "bank" }'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import networkx as nx

from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules, Payoffs, hand_label
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["ACTIONS", "compile_pair", "deal_classes", "GameTree", "LUCKY9", "MAX_TREE_NODES",
           "pair_tree", "PairArrays", "table_tree", "third_card_result", "to_efg",
           "tree_best_response", "tree_values"]

#: The shipped profile's rules (home Lucky 9).
LUCKY9 = load_profile("lucky9-home").choice_rules()
#: The two actions of every decision, in order: index 0 stands, 1 draws.
ACTIONS = ("stand", "draw")
#: Largest whole-table tree :func:`table_tree` builds.
MAX_TREE_NODES = 400_000
#: Point-value counts of the infinite deck, per 52 cards.
_INFINITE = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


@dataclass(frozen=True, eq=False)
class GameTree:
    """An extensive-form game: the tree, its players (the bank last) and what it models."""

    graph: nx.DiGraph
    players: tuple[str, ...]
    title: str
    shoe: str
    by: str
    seats: int

    @property
    def root(self) -> int:
        """The root node (0)."""
        return 0

    def children(self, node: int) -> list[tuple[int, dict[str, Any]]]:
        """``(child, edge attributes)`` in order."""
        return [(child, self.graph.edges[node, child]) for child in self.graph.successors(node)]

    def infosets(self, player: int) -> list[Any]:
        """The player's information sets, in order of first appearance (preorder)."""
        seen: dict[Any, None] = {}
        for node in nx.dfs_preorder_nodes(self.graph, self.root):
            data = self.graph.nodes[node]
            if data["kind"] == "decision" and data["player"] == player:
                seen.setdefault(data["infoset"], None)
        return list(seen)


# -- the deal -------------------------------------------------------------------------------
def _counts(shoe: Shoe) -> tuple[list[int], int]:
    if shoe.is_infinite:
        return list(_INFINITE), 52
    counts = list(shoe.value_counts())
    return counts, sum(counts)


def _hand_ways(counts: Sequence[int], hand: tuple[int, int]) -> int:
    """Ordered ways to deal ``hand`` (point values) from ``counts``."""
    a, b = hand
    if a == b:
        return counts[a] * (counts[a] - 1)
    return 2 * counts[a] * counts[b]


def _without(counts: Sequence[int], hand: tuple[int, int]) -> list[int]:
    out = list(counts)
    out[hand[0]] -= 1
    out[hand[1]] -= 1
    return out


def deal_classes(shoe: Shoe, by: str) -> list[tuple[str, int, tuple[tuple[int, int], ...]]]:
    """The chance outcomes of one two-card hand: ``(label, total, holdings)``; per total at
    the infinite deck by total (holdings carry no information there), else per holding."""
    if by == "total" and shoe.is_infinite:
        return [(str(t), t, tuple(h for h in HANDS if sum(h) % 10 == t)) for t in range(10)]
    return [(hand_label(h), sum(h) % 10, (h,)) for h in HANDS]


def _class_probability(counts: Sequence[int], size: int, holdings: Sequence[tuple[int, int]],
                       infinite: bool) -> Fraction:
    if infinite:
        return Fraction(sum(2 * counts[a] * counts[b] if a != b else counts[a] ** 2
                            for a, b in holdings), size * size)
    return Fraction(sum(_hand_ways(counts, h) for h in holdings), size * (size - 1))


@lru_cache(maxsize=65536)
def third_card_result(payoffs: Payoffs, counts: tuple[int, ...], size: int, infinite: bool,
                      own: int, bank: int, drew: int, bank_drew: int) -> Fraction:
    """A seat's exact expected net (``payoffs``: +1 win, -1 loss, 0 push at even money) with
    total ``own`` against the bank's ``bank``, given who draws; third cards from ``counts``
    (``size`` cards, the two hands already removed; dealt with replacement at the infinite
    deck)."""
    net = payoffs.seat
    if not drew and not bank_drew:
        return net(own, bank)
    if drew and bank_drew:
        total = Fraction(0)
        for t in range(10):
            for u in range(10):
                ways = counts[t] * (counts[u] - (0 if infinite or t != u else 1))
                if ways:
                    total += ways * net((own + t) % 10, (bank + u) % 10)
        return total / (size * size if infinite else size * (size - 1))
    total = Fraction(0)
    for t in range(10):
        mover = (own + t, bank) if drew else (own, bank + t)
        if counts[t]:
            total += counts[t] * net(mover[0] % 10, mover[1] % 10)
    return total / size


# -- building trees ------------------------------------------------------------------------
class _Builder:
    """Adds nodes in preorder (node ids count up from the root, 0)."""

    def __init__(self) -> None:
        self.graph = nx.DiGraph()

    def add(self, kind: str, **data: Any) -> int:
        node = int(self.graph.number_of_nodes())
        if node >= MAX_TREE_NODES:
            raise AnalyzerError(f"the game tree would pass {MAX_TREE_NODES:,} nodes; export a "
                                "smaller table (fewer players, --by total, the infinite deck)")
        self.graph.add_node(node, kind=kind, **data)
        return node

    def edge(self, parent: int, child: int, action: str, probability: Fraction | None = None,
             ) -> None:
        if probability is None:
            self.graph.add_edge(parent, child, action=action)
        else:
            self.graph.add_edge(parent, child, action=action, probability=probability)


def _title(rules: ChoiceRules, seats: int, shoe: Shoe, by: str) -> str:
    name = "home Lucky 9" if rules.name == "lucky9-home" else rules.name
    return f"{name}, {seats + 1} people, {shoe.describe()}, by {by}"


def pair_tree(rules: ChoiceRules, shoe: Shoe, by: str) -> GameTree:
    """One seat against the bank: the heads-up game (the bank's hand is dealt first)."""
    return table_tree(rules, shoe, 1, by)


def table_tree(rules: ChoiceRules, shoe: Shoe, players: int, by: str) -> GameTree:
    """The whole table of ``players`` seats and the bank (at most :data:`MAX_TREE_NODES`).

    Deal: the bank's hand, then each seat's (exact card removal at a finite shoe). A natural
    bank ends the hand; natural seats are settled and face up. Each live seat then chooses
    in seat order, seeing its own hand (its total with ``by="total"``), every seat's natural
    (with its point values at a finite shoe) and the earlier live seats' choices; the bank
    chooses last, seeing its own hand, the naturals and every choice. Payoffs are each
    seat's result per unit staked, and the bank's net (minus their sum).
    """
    if by not in ("total", "cards"):
        raise AnalyzerError(f"by must be 'total' or 'cards', got {by!r}")
    if players < 1:
        raise AnalyzerError("a table needs at least one player")
    counts, size = _counts(shoe)
    if not shoe.is_infinite and size < 2 * players + 4:
        raise AnalyzerError(f"{shoe.describe()}: too few cards for {players + 1} people")
    infinite = shoe.is_infinite
    classes = deal_classes(shoe, by)
    possible = sum(1 for _, _, holdings in classes
                   if _class_probability(counts, size, holdings, infinite) > 0)
    bound = possible ** (players + 1) * 2 ** (players + 2)
    if bound > 4 * MAX_TREE_NODES:
        raise AnalyzerError(f"the game tree of {players + 1} people would pass "
                            f"{MAX_TREE_NODES:,} nodes; export a smaller table (fewer players, "
                            "--by total, the infinite deck)")
    builder = _Builder()
    names = tuple(f"seat {j + 1}" for j in range(players)) + ("bank",)

    def view(total: int, holdings: Sequence[tuple[int, int]]) -> str:
        return str(total) if by == "total" else hand_label(holdings[0])

    def deal(hands: list[tuple[int, tuple[tuple[int, int], ...]]], remaining: list[int],
             left: int) -> int:
        """A chance node dealing the next hand (or, once everyone has two cards, play)."""
        if len(hands) == players + 1:
            return play(hands, remaining, left)
        node = builder.add("chance", label="bank's hand" if not hands else
                           f"seat {len(hands)}'s hand")
        for label, total, holdings in classes:
            probability = _class_probability(remaining, left, holdings, infinite)
            if probability == 0:
                continue
            after = remaining if infinite else _without(remaining, holdings[0])
            child = deal([*hands, (total, holdings)], after, left if infinite else left - 2)
            builder.edge(node, child, label, probability)
            builder.graph.edges[node, child]["total"] = total
        return node

    def play(hands: list[tuple[int, tuple[tuple[int, int], ...]]], remaining: list[int],
             left: int) -> int:
        bank_total = hands[0][0]
        seats = hands[1:]
        natural = [t in rules.naturals for t, _ in seats]
        if bank_total in rules.naturals:
            payoffs = [rules.payoffs.seat(t, bank_total, n, True) for (t, _), n in
                       zip(seats, natural, strict=True)]
            return builder.add("terminal", payoffs=(*payoffs, -sum(payoffs, Fraction(0))))
        # What everyone sees of the other seats before choosing: each natural, face up
        # (its point values matter only at a finite shoe), or "-" for a live seat.
        seen = "".join(("N" if infinite else f"N({hand_label(h[0])})") if n else "-"
                       for n, (_, h) in zip(natural, seats, strict=True))
        live = [j for j in range(players) if not natural[j]]

        def choose(position: int, choices: tuple[int, ...]) -> int:
            if position == len(live):
                return bank(choices)
            seat = live[position]
            total, holdings = seats[seat]
            earlier = "".join("SD"[c] for c in choices)
            infoset = (f"seat {seat + 1}", view(total, holdings), seen, earlier)
            node = builder.add("decision", player=seat, infoset=infoset,
                               label=f"seat {seat + 1} holds {view(total, holdings)}")
            for action, name in enumerate(ACTIONS):
                child = choose(position + 1, (*choices, action))
                builder.edge(node, child, name)
            return node

        def bank(choices: tuple[int, ...]) -> int:
            if not live:  # every seat natural: the bank's choice changes nothing
                payoffs = [rules.payoffs.seat(t, bank_total, True) for t, _ in seats]
                return builder.add("terminal", payoffs=(*payoffs, -sum(payoffs, Fraction(0))))
            vector = "".join("SD"[c] for c in choices)
            holding = hands[0][1]
            infoset = ("bank", view(bank_total, holding), seen, vector)
            node = builder.add("decision", player=players, infoset=infoset,
                               label=f"bank holds {view(bank_total, holding)}")
            for bank_drew, name in enumerate(ACTIONS):
                payoffs = []
                by_seat = dict(zip(live, choices, strict=True))
                for j, (total, _) in enumerate(seats):
                    if natural[j]:
                        payoffs.append(rules.payoffs.seat(total, bank_total, True))
                    else:
                        payoffs.append(third_card_result(rules.payoffs, tuple(remaining), left,
                                                         infinite, total, bank_total,
                                                         by_seat[j], bank_drew))
                leaf = builder.add("terminal",
                                   payoffs=(*payoffs, -sum(payoffs, Fraction(0))))
                builder.edge(node, leaf, name)
            return node

        return choose(0, ())

    deal([], counts, size)
    return GameTree(graph=builder.graph, players=names, title=_title(rules, players, shoe, by),
                    shoe=shoe.describe(), by=by, seats=players)


# -- compiling the solver's arrays ----------------------------------------------------------
@dataclass(frozen=True)
class PairArrays:
    """What the solver reads of the one-seat tree: for every (bank hand, seat hand) chance
    outcome, its probability and the seat's exact expected result per choice pair.

    ``bank_hands``/``seat_hands``: ``(label, total)`` of each chance outcome, in order;
    ``weight[b][h]``: the probability of the deal; ``result[b][h][d][a]``: the seat's
    expected result when it draws (``d = 1``) or stands and the bank draws (``a = 1``) or
    stands -- only for deals where both hands are live (others: ``None``).
    """

    bank_hands: tuple[tuple[str, int], ...]
    seat_hands: tuple[tuple[str, int], ...]
    weight: tuple[tuple[Fraction, ...], ...]
    result: tuple[tuple[tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]] | None,
                        ...], ...]


def compile_pair(tree: GameTree) -> PairArrays:
    """Read the deal weights and the live results off a one-seat tree (:func:`pair_tree`)."""
    if tree.seats != 1:
        raise AnalyzerError("compile_pair reads a one-seat tree")
    graph = tree.graph
    bank_hands: list[tuple[str, int]] = []
    seat_hands: list[tuple[str, int]] = []
    weight: list[list[Fraction]] = []
    result: list[list[Any]] = []
    for bank_node, bank_edge in tree.children(tree.root):
        bank_hands.append((bank_edge["action"], bank_edge["total"]))
        row_w: list[Fraction] = []
        row_r: list[Any] = []
        labels = []
        for seat_node, seat_edge in tree.children(bank_node):
            labels.append((seat_edge["action"], seat_edge["total"]))
            row_w.append(bank_edge["probability"] * seat_edge["probability"])
            data = graph.nodes[seat_node]
            if data["kind"] != "decision":
                row_r.append(None)
                continue
            cells = []
            for stand_or_draw, _ in tree.children(seat_node):
                banker = [graph.nodes[leaf]["payoffs"][0]
                          for leaf, _ in tree.children(stand_or_draw)]
                cells.append((banker[0], banker[1]))
            row_r.append((cells[0], cells[1]))
        if not seat_hands:
            seat_hands = labels
        elif labels != seat_hands:
            raise AnalyzerError("the seat's chance outcomes differ between bank hands")
        weight.append(row_w)
        result.append(row_r)
    return PairArrays(tuple(bank_hands), tuple(seat_hands), tuple(tuple(r) for r in weight),
                      tuple(tuple(r) for r in result))


# -- the Gambit .efg format -----------------------------------------------------------------
def _quote(text: str) -> str:
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else (
        f"{value.numerator}/{value.denominator}")


def _infoset_name(infoset: Any) -> str:
    return " ".join(str(part) for part in infoset if part != "")


def to_efg(tree: GameTree) -> str:
    """The tree in Gambit's extensive-form format (``EFG 2 R``: exact rational numbers).

    Nodes are written in preorder, unnamed (Gambit wants node names unique); each player's
    information sets are numbered in order of first appearance and named by what the side
    sees; every chance node is its own information set; every terminal has its own outcome.
    """
    graph = tree.graph
    lines = [f"EFG 2 R {_quote(tree.title)} {{ "
             + " ".join(_quote(p) for p in tree.players) + " }",
             _quote("home Lucky 9 (docs/rules/lucky9-home.md), written by nine-analyzer; "
                    "payoffs are each seat's result per unit staked and the bank's net"), ""]
    numbers: dict[tuple[int, Any], int] = {}
    chance = 0
    outcome = 0
    for node in nx.dfs_preorder_nodes(graph, tree.root):
        data = graph.nodes[node]
        children = tree.children(node)
        if data["kind"] == "chance":
            chance += 1
            moves = " ".join(f"{_quote(e['action'])} {_number(e['probability'])}"
                             for _, e in children)
            name = _quote(f"deal {chance}: {data.get('label', '')}")
            lines.append(f"c \"\" {chance} {name} {{ {moves} }} 0")
        elif data["kind"] == "decision":
            key = (data["player"], data["infoset"])
            number = numbers.setdefault(key, 1 + sum(1 for p, _ in numbers
                                                     if p == data["player"]))
            actions = " ".join(_quote(e["action"]) for _, e in children)
            lines.append(f"p \"\" {data['player'] + 1} {number} "
                         f"{_quote(_infoset_name(data['infoset']))} {{ {actions} }} 0")
        else:
            outcome += 1
            payoffs = ", ".join(_number(v) for v in data["payoffs"])
            lines.append(f"t \"\" {outcome} \"\" {{ {payoffs} }}")
    return "\n".join(lines) + "\n"


# -- brute force on the tree ---------------------------------------------------------------
Behaviour = Mapping[Any, Fraction]  # information set -> draw probability


def _reach_from(tree: GameTree, start: int, reach: Fraction,
                behaviour: Callable[[int, Any], Fraction]) -> Iterator[tuple[int, Fraction]]:
    """Every terminal below ``start`` with its probability under ``behaviour(player,
    infoset)`` (times ``reach``)."""
    stack: list[tuple[int, Fraction]] = [(start, reach)]
    graph = tree.graph
    while stack:
        node, reach = stack.pop()
        data = graph.nodes[node]
        if data["kind"] == "terminal":
            yield node, reach
            continue
        for child, edge in tree.children(node):
            if data["kind"] == "chance":
                step = edge["probability"]
            else:
                draw = behaviour(data["player"], data["infoset"])
                step = draw if edge["action"] == "draw" else 1 - draw
            if step:
                stack.append((child, reach * step))


def _lookup(profile: Sequence[Behaviour]) -> Callable[[int, Any], Fraction]:
    return lambda player, infoset: Fraction(profile[player].get(infoset, Fraction(0)))


def tree_values(tree: GameTree, profile: Sequence[Behaviour]) -> tuple[Fraction, ...]:
    """Every player's exact expected payoff; ``profile[player]`` maps its information sets
    to draw probabilities."""
    totals = [Fraction(0)] * len(tree.players)
    for leaf, reach in _reach_from(tree, tree.root, Fraction(1), _lookup(profile)):
        for i, value in enumerate(tree.graph.nodes[leaf]["payoffs"]):
            totals[i] += reach * value
    return tuple(totals)


def tree_best_response(tree: GameTree, profile: Sequence[Behaviour], player: int,
                       ) -> tuple[Fraction, dict[Any, Fraction]]:
    """``player``'s exact best-response value against the others' strategies in
    ``profile`` and a pure best response (each side chooses at most once on any path)."""
    graph = tree.graph
    others = _lookup(profile)
    gain: dict[Any, list[Fraction]] = {}
    base = Fraction(0)
    stack: list[tuple[int, Fraction]] = [(tree.root, Fraction(1))]
    while stack:
        node, reach = stack.pop()
        data = graph.nodes[node]
        if data["kind"] == "terminal":
            base += reach * data["payoffs"][player]
            continue
        if data["kind"] == "decision" and data["player"] == player:
            sums = gain.setdefault(data["infoset"], [Fraction(0), Fraction(0)])
            for action, (child, _) in enumerate(tree.children(node)):
                sums[action] += _subtree_value(tree, child, reach, others, player)
            continue
        for child, edge in tree.children(node):
            if data["kind"] == "chance":
                step = edge["probability"]
            else:
                draw = others(data["player"], data["infoset"])
                step = draw if edge["action"] == "draw" else 1 - draw
            if step:
                stack.append((child, reach * step))
    response = {infoset: Fraction(int(sums[1] > sums[0])) for infoset, sums in gain.items()}
    return base + sum((max(s) for s in gain.values()), Fraction(0)), response


def _subtree_value(tree: GameTree, node: int, reach: Fraction,
                   behaviour: Callable[[int, Any], Fraction], player: int) -> Fraction:
    """``player``'s payoff below ``node``, weighted by ``reach``, everyone playing
    ``behaviour``."""
    probabilities = _reach_from(tree, node, reach, behaviour)
    return sum((weight * tree.graph.nodes[leaf]["payoffs"][player]
                for leaf, weight in probabilities), Fraction(0))
