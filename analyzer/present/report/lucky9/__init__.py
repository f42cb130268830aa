"""Rendering home Lucky 9's whole tables: ``nine solve --players N`` and its strategy cards
(:mod:`.table`), a table certified with one irrational subgame (:mod:`.algebraic`), shipped
epsilon-certificates (:mod:`.epsilon`) and ``nine advise`` (:mod:`.advice`)."""

from __future__ import annotations

from analyzer.present.report.lucky9.advice import (
    advice_json,
    advice_sentence,
    play_sentence,
    render_advice,
)
from analyzer.present.report.lucky9.epsilon import epsilon_json, epsilon_sentence, rounding_json
from analyzer.present.report.lucky9.table import (
    clock_rule,
    render_edges,
    render_table_cards,
    render_table_evaluation,
    render_table_summary,
    table_evaluation_json,
    table_summary_json,
)

__all__ = ["advice_json", "advice_sentence", "clock_rule", "epsilon_json", "epsilon_sentence",
           "play_sentence", "render_advice", "render_edges", "render_table_cards",
           "render_table_evaluation", "render_table_summary", "rounding_json",
           "table_evaluation_json", "table_summary_json"]
