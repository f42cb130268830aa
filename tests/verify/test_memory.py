"""Memory that does not grow with the log (issue 24): what used to grow, now bounded, with
the same results as keeping everything."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from analyzer.dealing import arrow
from analyzer.dealing.arrow import shoe_runs
from analyzer.dealing.records import Hand, make_hand
from analyzer.engine.lookup import Model, build_model
from analyzer.verify import check, columnar
from analyzer.verify.check import check_file
from analyzer.verify.inference import decks as decks_module
from analyzer.verify.inference.decks import DeckTally
from analyzer.verify.inference.moments import ShoeMoments
from analyzer.verify.partial import IssueLog
from analyzer.verify.shoes import OpenShoe, ShoeTracker


def _endless_shoe(hands: int, seed: int) -> list[Hand]:
    """Hands of one shoe id that never ends (a simulator that never reshuffles), a burn
    of a card now and then, a hand or two of three cards."""
    rng = random.Random(seed)
    out = []
    for number in range(1, hands + 1):
        player = tuple(rng.randrange(52) for _ in range(2 + (number % 7 == 0)))
        banker = tuple(rng.randrange(52) for _ in range(2 + (number % 11 == 0)))
        burn = (rng.randrange(52),) if number % 97 == 0 else ()
        out.append(make_hand(number + 1, "T", number, player, banker, burn))
    return out


def _independent(model: Model, hands: list[Hand], spill: bool
                 ) -> tuple[IssueLog, ShoeTracker, DeckTally, int]:
    """Route ``hands`` as check_file does in the independent model (``spill``: as it
    does; else every hand kept to the end); with the most hands a shoe kept."""
    issues = IssueLog("log.csv")
    decks = DeckTally(model, False)
    shoes = ShoeTracker(model, issues, decks=decks)
    kept = 0
    for hand in hands:
        shoe = shoes.hand(hand)
        shoe.hand_records.append(hand)
        if spill and len(shoe.hand_records) >= shoe.spill_at:
            shoes.spill(shoe)
        kept = max(kept, len(shoe.hand_records),
                   sum(map(len, shoe.first_seen)) // 4)  # (line, hand) pairs: small
    shoes.close_shoe()
    return issues, shoes, decks, kept


@pytest.mark.parametrize("decks", [1, 8])
def test_a_named_shoe_that_never_ends_lets_its_hands_go(decks: int) -> None:
    """The independent model kept every hand of a shoe id that never ended (929 MB for 2M
    hands): now at most a shoe's worth, with the same composition violations at the same
    hands, the same card counts and the same deck sums as when all were kept."""
    model = build_model("punto-banco", decks)
    hands = _endless_shoe(3000, decks)
    issues, shoes, tally, kept = _independent(model, hands, spill=True)
    every, all_kept, all_tally, most = _independent(model, hands, spill=False)
    assert most == len(hands)  # the reference kept them all
    assert kept <= 2 * 52 * decks  # a shoe holds 52 * decks cards
    assert issues.violation_count == every.violation_count > 0
    assert [(i.line, i.hand, i.kind, i.message) for i in issues.violations] == \
        [(i.line, i.hand, i.kind, i.message) for i in every.violations]
    assert shoes.card_counts == all_kept.card_counts
    assert sum(shoes.card_counts) == sum(len(h.player) + len(h.banker) for h in hands)
    assert tally.sums_fixed() == all_tally.sums_fixed() and tally.shoes == 1


def test_a_shoe_that_is_not_followed_keeps_no_list_of_its_cards() -> None:
    """Shoe-aware model: a shoe not followed from its start (here one whose id never ends,
    past its composition) kept every card it dealt in a list; now a count, and the rank
    moments are those of that list's cards, each from the full shoe."""
    model = build_model("punto-banco", 1)
    moments = ShoeMoments(model)
    issues = IssueLog("log.csv")
    shoes = ShoeTracker(model, issues, moments)
    hands = _endless_shoe(2000, 3)
    for hand in hands:
        shoes.hand(hand)
        shoes.deal(hand)
        shoe = shoes.current
        assert shoe is not None
        lists = [v for v in vars(shoe).values() if isinstance(v, list | set | dict)]
        assert sum(map(len, lists)) <= 4 * 52 + 52 + 52  # sequence, tested, counts ...
    assert isinstance(shoe, OpenShoe) and not shoe.tracking and shoe.untracked > 1000
    untracked = shoe.untracked
    shoes.close_shoe()
    assert shoes.card_counts == _hand_cards(hands)  # every hand card, counted once
    # the fixed rank moments: the same integers as add_shoe of as many cards, all tested
    by_count, by_list = ShoeMoments(model), ShoeMoments(model)
    start = shoes.start
    by_count.add_unfollowed(start, untracked)
    by_list.add_shoe(start, [0] * untracked, [True] * untracked, fixed=True)
    assert by_count.rank_sums() == by_list.rank_sums() != [0] * len(by_list.rank_sums())


def _hand_cards(hands: list[Hand]) -> list[int]:
    counts = [0] * 52
    for h in hands:
        for c in h.player + h.banker:
            counts[c] += 1
    return counts


def test_deck_sums_are_weighed_a_bounded_number_of_shoes_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A block of one-hand shoes is tens of thousands of shoes: weighed
    ``SHOES_AT_ONCE`` at a time (the arrays of all at once were 94 MB each), the same sums."""
    rng = random.Random(5)
    model = build_model("punto-banco", 8)
    counts = [[rng.randrange(3) for _ in range(52)] for _ in range(2500)]
    whole = DeckTally(model, False)
    whole.add_counts(counts)
    sizes: list[int] = []
    real = DeckTally._add_rows

    def spy(self: DeckTally, rows: object) -> None:
        sizes.append(len(rows))  # type: ignore[arg-type]
        real(self, rows)  # type: ignore[arg-type]

    monkeypatch.setattr(DeckTally, "_add_rows", spy)
    monkeypatch.setattr(decks_module, "SHOES_AT_ONCE", 1000)
    split = DeckTally(model, False)
    split.add_counts(counts)
    assert sizes == [1000, 1000, 500]
    assert split.sums_fixed() == whole.sums_fixed() and split.floor == whole.floor
    assert split.shoes == whole.shoes == 2500


def test_a_run_of_one_shoe_id_is_not_gathered_past_a_shoe(tmp_path: Path) -> None:
    """The column-wise reader kept a shoe's rows until the shoe changed, up to 2**20 rows
    (1.7 GB for a gzipped log of one endless shoe): past ``max_rows`` it stops, and the
    reference reads the log, to the same report."""
    path = tmp_path / "one.csv"
    rows = [f"T,{n},AS 2H,0\n" for n in range(1, 5001)]
    path.write_text("shoe,hand,cards,note\n" + "".join(rows), encoding="utf-8")
    runs = list(shoe_runs(path, 21, None, 4, ",", 0, block_size=1 << 12, max_rows=416))
    assert runs == [None]
    assert list(shoe_runs(path, 21, None, 4, ",", 0))[-1] is not None  # 5,000 < 2**20


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("shoe_aware", [False, True])
def test_a_log_of_one_endless_shoe_gives_the_reference_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gz: bool, shoe_aware: bool) -> None:
    """The whole file through check_file: the column-wise path hands it over without
    reading more than a shoe's rows past a block, and the partial is the reference's."""
    import gzip

    from analyzer.dealing.simulate import simulate

    source = tmp_path / "source.csv"
    with source.open("w", encoding="utf-8", newline="") as stream:
        simulate("punto-banco", 8, 12, 4, stream, "csv")
    header, *body = source.read_text(encoding="utf-8").splitlines()
    shoe = header.split(",").index("shoe")
    hand = header.split(",").index("hand")
    lines = [header]
    for number, row in enumerate(body, start=1):
        cells = row.split(",")
        cells[shoe], cells[hand] = "T", str(number)
        cells[header.split(",").index("cards_left")] = ""
        lines.append(",".join(cells))
    text = "\n".join(lines) + "\n"
    path = tmp_path / ("one.csv.gz" if gz else "one.csv")
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    model = build_model("punto-banco", 8)
    # blocks of about 90 rows (the log: about 960 rows of one shoe id, more than the 416
    # cards of the shoe)
    monkeypatch.setattr(arrow, "BLOCK", 1 << 12)
    monkeypatch.setattr(columnar, "INDEPENDENT_BLOCK", 1 << 12)
    monkeypatch.setattr(columnar, "CHUNK", 100)
    gathered: list[int] = []
    real_replay = columnar._replay

    def spy(columns: list, *args: object, **kwargs: object) -> object:  # type: ignore[type-arg]
        gathered.append(len(columns[0]))
        return real_replay(columns, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(columnar, "_replay", spy)
    fast = check_file(path, model, shoe_aware=shoe_aware)
    assert gathered == []  # no run was ever formed: one shoe id, more rows than cards
    monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    assert check_file(path, model, shoe_aware=shoe_aware) == fast
    assert fast.violation_count > 0 and fast.shoes == 1 and fast.hands == len(body) > 416


@pytest.mark.parametrize("hand_column", [True, False])
@pytest.mark.parametrize("shoe_aware", [False, True])
@pytest.mark.parametrize("cycle", [40, 64, 65, 100])
def test_shoe_ids_are_remembered_as_long_as_the_reference_keeps_a_shoe_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cycle: int, shoe_aware: bool,
        hand_column: bool) -> None:
    """The column-wise path kept every shoe id of the log (about 130 bytes a shoe: 7 MB
    more at 6M hands, 170 MB for 2M one-hand shoes) to send a log using one again to the
    reference; it keeps the last ``RECENT_IDS`` (here patched to :data:`OPEN_SHOES`): an
    id used again that long after is a new shoe to the reference too. The ids here come
    round every ``cycle`` shoes: the same partial as the reference either way; left to it
    when an id comes round within OPEN_SHOES shoes, column-wise when it comes round
    after more than OPEN_SHOES shoes and a run (a run's ids are added when it is done,
    so the window is the OPEN_SHOES ids before the run: at most 14 shoes a run here).
    Without a hand column too (it kept every id there: the reader numbered an id's hands
    on however long ago it was used; now from 1 once OPEN_SHOES other ids came since)."""
    from analyzer.dealing.simulate import simulate
    from analyzer.verify.shoes import OPEN_SHOES

    source = tmp_path / "source.csv"
    with source.open("w", encoding="utf-8", newline="") as stream:
        simulate("punto-banco", 1, 150, 6, stream, "csv")
    header, *body = source.read_text(encoding="utf-8").splitlines()
    shoe = header.split(",").index("shoe")
    order: dict[str, int] = {}
    hand = header.split(",").index("hand")
    keep = [k for k in range(len(header.split(","))) if hand_column or k != hand]
    lines = [",".join(header.split(",")[k] for k in keep)]
    for row in body:
        cells = row.split(",")
        cells[shoe] = str(order.setdefault(cells[shoe], len(order)) % cycle)
        lines.append(",".join(cells[k] for k in keep))
    path = tmp_path / "cycling.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(arrow, "BLOCK", 1 << 12)  # runs of a few shoes each
    monkeypatch.setattr(columnar, "INDEPENDENT_BLOCK", 1 << 12)
    monkeypatch.setattr(columnar, "RECENT_IDS", OPEN_SHOES)
    model = build_model("punto-banco", 1)
    answers: list[object] = []
    real = check.replay_columns

    def spy(*args: object, **kwargs: object) -> object:
        answers.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return answers[-1]

    monkeypatch.setattr(check, "replay_columns", spy)
    fast = check_file(path, model, shoe_aware=shoe_aware)
    assert len(order) == 150 and fast.shoes == 150
    if cycle <= OPEN_SHOES:
        assert answers[0] is None  # the reference would continue the shoe still open
    elif cycle > OPEN_SHOES + 14:
        assert answers[0] is not None
    monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    assert check_file(path, model, shoe_aware=shoe_aware) == fast


def test_the_shuffle_null_does_not_list_a_length_per_shoe() -> None:
    """The statistics stage padded the logged shoe lengths with one entry a shoe (16 MB of
    list for 2M shoes, built even when the Monte Carlo that reads it is never run): the
    padding is now an iterator, the same lengths in the same order."""
    from analyzer.verify.inference.shoesums import ShuffleSums
    from analyzer.verify.inference.shuffle import _Null

    category = np.asarray([c // 4 for c in range(52)], dtype=np.int64)
    sums = ShuffleSums(False, shoes=10_000_000, pairs=300_000_000, lengths=(410, 412, 398))
    null = _Null([8] * 52, category, 13, sums)
    assert all(len(v) < 1000 for v in vars(null).values()
               if isinstance(v, list | tuple | dict))
    assert null.shoes == 10_000_000
    mean = round((2 * 300_000_000 + 10_000_000) / 10_000_000)
    assert null.cards_dealt == 410 + 412 + 398 + mean * (10_000_000 - 3)


def _no_hand_log(path: Path, ids: list[str]) -> None:
    """A log without a hand column, a row of one four-card hand for each of ``ids``."""
    rows = [f"{shoe},AS 2H,3D 4C,0,\n" for shoe in ids]
    path.write_text("shoe,player_cards,banker_cards,note,cards_left\n" + "".join(rows),
                    encoding="utf-8")


def test_without_a_hand_column_an_id_is_numbered_on_only_while_recent(
        tmp_path: Path) -> None:
    """The reader numbered each id's hands on from that id's last, however long ago, so
    it kept every id of the log (about 100 bytes each: 400 MB at 2M one-hand shoes). Now
    an id among the last NUMBERED_IDS (= OPEN_SHOES) dealt from goes on; one used again
    after that many others opens at hand 1 (a new shoe, as the tracker would have closed
    the old one by then), and reading five times more ids takes no more memory."""
    import tracemalloc

    from analyzer.dealing.handlog import LogOptions, read_log

    def peak(count: int) -> int:
        log = tmp_path / f"many{count}.csv"
        _no_hand_log(log, [f"s{k}" for k in range(count)])
        tracemalloc.start()
        read = sum(type(r) is Hand for r in read_log(log, LogOptions(format="csv")))
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert read == count
        return size

    small, large = peak(10_000), peak(50_000)  # (both past the input's first blocks)
    assert large - small < 100_000  # every id kept: 40,000 more, about 5 MB

    from analyzer.dealing.handlog import NUMBERED_IDS
    from analyzer.verify.shoes import OPEN_SHOES

    assert NUMBERED_IDS == OPEN_SHOES
    others = [f"x{k}" for k in range(NUMBERED_IDS)]
    ids = ["A", *others[:NUMBERED_IDS - 1], "A", *others, "A", "B", "B"]
    path = tmp_path / "ids.csv"
    _no_hand_log(path, ids)
    hands = [r for r in read_log(path, LogOptions(format="csv")) if type(r) is Hand]
    numbers = [(h.shoe, h.hand) for h in hands if h.shoe in ("A", "B")]
    # A again after 63 other ids: hand 2; after 64: hand 1
    assert numbers == [("A", 1), ("A", 2), ("A", 1), ("B", 1), ("B", 2)]
    assert [h.hand for h in hands if h.shoe == others[0]] == [1, 2]
