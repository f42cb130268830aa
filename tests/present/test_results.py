"""The analyses a publication keeps for the PAR sheets, under typed keys
(analyzer/present/tables/results.py)."""

from __future__ import annotations

import pickle

from analyzer.present.par import REMOVAL_SAMPLES, REMOVAL_SEED, ParSheet
from analyzer.present.tables.build import build_tables
from analyzer.present.tables.results import (
    Results,
    drift_key,
    drift_plot_key,
    heads_up_key,
    odds_key,
    par_key,
    removal_key,
    table_sizes_key,
)


def test_a_key_names_the_analysis_profile_shoe_and_seeds() -> None:
    keys = [odds_key("punto-banco", 8), odds_key("punto-banco", None), odds_key("pb", 8),
            removal_key("punto-banco", 8, 200, 1), removal_key("punto-banco", 8, 200, 2),
            drift_key("punto-banco", 8, 200, 1), drift_plot_key("punto-banco", 8, 200, 1),
            heads_up_key("lucky9-home", 1, "cards"), heads_up_key("lucky9-home", 1, "total"),
            table_sizes_key("lucky9-home", "total", 8), table_sizes_key("lucky9-home", "total", 4),
            par_key("punto-banco", 8)]
    assert len(set(keys)) == len(keys)
    assert odds_key("punto-banco", 8) == odds_key("punto-banco", 8)
    assert pickle.loads(pickle.dumps(keys)) == keys  # workers hand their results back


def test_results_keep_each_analysis_under_its_key() -> None:
    first, second = Results(), Results()
    first.put(drift_plot_key("lucky-baccarat", 8, 200, 7), b"PNG")
    second.put(odds_key("punto-banco", 8), None)
    first.update(second)
    assert first.get(drift_plot_key("lucky-baccarat", 8, 200, 7)) == b"PNG"
    assert drift_plot_key("lucky-baccarat", 8, 200, 8) not in first.found
    assert first.get(drift_plot_key("lucky-baccarat", 8, 200, 8)) is None
    assert set(first.found) == {drift_plot_key("lucky-baccarat", 8, 200, 7),
                                odds_key("punto-banco", 8)}


def test_the_par_sheet_reads_what_the_other_sections_computed() -> None:
    publication = build_tables(sections=("odds", "removal", "par"), profiles=("punto-banco",),
                               decks=(8,))
    results = publication.results
    sheet = results.get(par_key("punto-banco", 8))
    assert isinstance(sheet, ParSheet)
    assert sheet.odds is results.get(odds_key("punto-banco", 8)) is not None
    removal = results.get(removal_key("punto-banco", 8, REMOVAL_SAMPLES, REMOVAL_SEED))
    assert sheet.removal is removal is not None
    assert {count.samples for count in removal.counts} == {REMOVAL_SAMPLES}
