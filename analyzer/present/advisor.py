"""The offline advisor page, ``tables/lucky9/advisor.html``: one self-contained HTML page
where a player picks the table size, its seat, its two cards (or total), which seats show a
natural and what the earlier live seats did, and reads the equilibrium's play and its
margin; the bank likewise from every seat's natural or choice.

The page embeds every information set of the certified equilibria of the tables of 2 to 9
people at the infinite deck, each side seeing its total
(:func:`~analyzer.choice.table.summary.situations`): at the infinite deck a table splits
into subgames by the number of live seats only, so the subgames of 1 to 8 live seats serve
every table size. It loads nothing (no network, no external file) and its script only
looks the answer up, as ``nine advise --infinite --format json`` computes it.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.solve import solve_table
>>> from analyzer.rules.shoe import Shoe
>>> page = render_advisor(advisor_data(solve_table(LUCKY9, Shoe.infinite(), 2, "total")))
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<body", 1)[1]
True
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

from analyzer import __version__
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import TableEquilibrium
from analyzer.choice.table.summary import Cell, Situations, situations
from analyzer.errors import AnalyzerError
from analyzer.present.report.lucky9 import play_sentence

__all__ = ["advisor_data", "AdvisorData", "render_advisor", "strategies_json"]


@dataclass(frozen=True)
class AdvisorData:
    """What the page embeds: the subgames of 1 to ``players`` live seats of a certified
    table (by total, infinite deck) and where they come from."""

    profile: str
    title: str
    shoe: str
    by: str
    players: int
    certified: bool
    subgames: tuple[Situations, ...]
    strategies: tuple[Strategies, ...]
    fingerprint: str


def advisor_data(table: TableEquilibrium) -> AdvisorData:
    """Every information set of ``table`` (and so of every smaller table at its shoe): it
    must be certified, at the infinite deck, by total."""
    if not table.certified or table.shoe != "infinite deck" or table.by != "total":
        raise AnalyzerError("the advisor embeds a certified table at the infinite deck, by "
                            f"total; got {table.shoe}, by {table.by}"
                            + ("" if table.certified else ", not certified"))
    lives = range(1, table.players + 1)
    solutions = [table.solution((live, ())) for live in lives]
    return AdvisorData(table.profile, table.title, table.shoe, table.by, table.players,
                       table.certified, tuple(situations(table, live) for live in lives),
                       tuple((s.seats, s.bank) for s in solutions),
                       solutions[0].game.rules.fingerprint)


def strategies_json(data: AdvisorData) -> dict[str, Any]:
    """``nine advisor --format json``: the equilibrium strategies of every subgame the page
    embeds, exact, with the fingerprint of the rules they were solved for; what ``nine
    advise`` takes instead of solving again
    (:func:`analyzer.present.tables.published.published_strategies`)."""
    return {
        "profile": data.profile, "fingerprint": data.fingerprint, "shoe": data.shoe,
        "by": data.by, "people": [2, data.players + 1], "certified": data.certified,
        "subgames": [{"live": live,
                      "seats": [[[str(v) for v in row] for row in rows] for rows in seats],
                      "bank": [[str(v) for v in row] for row in bank]}
                     for live, (seats, bank) in enumerate(data.strategies, start=1)],
    }


def _cell(cell: Cell) -> Any:
    """``[draw probability "p/q", expected standing, expected drawing, margin]`` or null;
    each float the exact value rounded once (as ``nine advise`` rounds it)."""
    if cell is None:
        return None
    draw, stand, drawing = cell
    return [str(draw), float(stand), float(drawing), float(drawing - stand)]


def _document(data: AdvisorData) -> dict[str, Any]:
    plays = sorted({c[0] for s in data.subgames for rows in (*s.seats, s.bank) for row in rows
                    for c in row if c is not None})
    return {
        "plays": {str(p): play_sentence(p) for p in plays},
        "profile": data.profile, "title": data.title, "shoe": data.shoe, "by": data.by,
        "people": [2, data.players + 1], "certified": data.certified,
        "analyzer_version": __version__,
        "classes": list(data.subgames[0].classes),
        "subgames": [{"seats": [[[_cell(c) for c in row] for row in rows] for rows in s.seats],
                      "bank": [[_cell(c) for c in row] for row in s.bank]}
                     for s in data.subgames],
    }


_CSS = """
body{font:16px/1.4 system-ui,sans-serif;margin:0 auto;max-width:40em;padding:.6em;color:#111}
h1{font-size:1.3em;margin:.2em 0}
fieldset{border:1px solid #bbb;border-radius:.4em;margin:.5em 0;padding:.4em .6em}
legend{font-weight:600}
button{font:inherit;min-width:2.6em;min-height:2.6em;margin:.15em;border:1px solid #888;
border-radius:.4em;background:#f4f4f4;color:#111}
button[aria-pressed=true]{background:#1d5fbf;color:#fff;border-color:#1d5fbf}
input{font:inherit;min-height:2.4em;width:8em;padding:0 .4em}
.seat{display:flex;flex-wrap:wrap;align-items:center;border-top:1px solid #eee}
.seat span{min-width:4.5em}
#answer{border:2px solid #1d5fbf;border-radius:.4em;padding:.5em .7em;margin:.6em 0}
#play{font-size:1.4em;font-weight:700;margin:.1em 0}
.error{color:#a00}
small{color:#555}
"""

_SCRIPT = r"""
const D = JSON.parse(document.getElementById('data').textContent);
const S = {mode: 'seat', people: 3, seat: 1, others: {}, total: null};
const $ = id => document.getElementById(id);
function buttons(box, values, current, pick, label) {
  box.replaceChildren(...values.map(v => {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = label ? label(v) : String(v);
    b.dataset.value = String(v);
    b.setAttribute('aria-pressed', String(String(v) === String(current)));
    b.addEventListener('click', () => { pick(v); draw(); });
    return b;
  }));
}
function signed(x) {
  const v = x * 100; return (v >= 0 ? '+' : '') + v.toFixed(2) + '%';
}
function g2(p) {  // Python's format(p, '.2g')
  const [m, e] = p.toExponential(1).split('e'), exp = Number(e);
  if (exp < -4 || exp >= 2)
    return m.replace(/\.?0+$/, '') + 'e' + (exp < 0 ? '-' : '+')
      + String(Math.abs(exp)).padStart(2, '0');
  return p.toFixed(1 - exp).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}
function points(m) {
  const p = Math.abs(m) * 100;
  return p >= 0.005 ? p.toFixed(2) : g2(p);
}
function cardsTotal(text) {
  const t = text.toUpperCase().replace(/10/g, 'T').replace(/[^0-9TJQKA]/g, '');
  if (t.length !== 2) return null;
  const v = c => 'TJQK'.includes(c) ? 0 : c === 'A' ? 1 : Number(c);
  return (v(t[0]) + v(t[1])) % 10;
}
function states(seat) {
  if (S.mode === 'bank') return ['drew', 'stood', 'natural'];
  return seat < S.seat ? ['drew', 'stood', 'natural'] : ['live', 'natural'];
}
function draw() {
  const players = S.people - 1;
  if (S.seat > players) S.seat = players;
  buttons($('mode'), ['seat', 'bank'], S.mode, v => { S.mode = v; },
          v => v === 'seat' ? 'I am a seat' : 'I am the bank');
  buttons($('people'), [2, 3, 4, 5, 6, 7, 8, 9], S.people, v => { S.people = v; });
  $('seat-box').hidden = S.mode !== 'seat';
  buttons($('seat'), [...Array(players).keys()].map(i => i + 1), S.seat, v => { S.seat = v; });
  buttons($('totals'), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], S.total,
          v => { S.total = v; $('cards').value = ''; });
  const rows = [];
  for (let j = 1; j <= players; j++) {
    if (S.mode === 'seat' && j === S.seat) continue;
    const options = states(j);
    if (!options.includes(S.others[j])) S.others[j] = options[options.length === 2 ? 0 : 1];
    const row = document.createElement('div'); row.className = 'seat'; row.id = 'seat-' + j;
    const name = document.createElement('span'); name.textContent = 'Seat ' + j;
    const box = document.createElement('div');
    buttons(box, options, S.others[j], v => { S.others[j] = v; });
    row.append(name, box); rows.push(row);
  }
  $('others').replaceChildren(...rows);
  answer();
}
function answer() {
  const out = $('play'), why = $('why'), total = S.total;
  out.dataset.draw = ''; out.dataset.margin = ''; out.className = '';
  const fail = text => { out.textContent = text; out.className = 'error'; why.textContent = ''; };
  if (total === null) return fail('Enter your two cards or pick your total.');
  if (total === 9) return fail('A natural 9 is settled at once: there is nothing to choose.');
  const players = S.people - 1;
  const seats = [...Array(players).keys()].map(i => i + 1);
  const live = seats.filter(j => (S.mode === 'seat' && j === S.seat) || S.others[j] !== 'natural');
  if (!live.length) return fail('Every seat holds a natural: the bank\'s choice changes nothing.');
  const game = D.subgames[live.length - 1];
  let cell, bits = 0;
  if (S.mode === 'seat') {
    const position = live.indexOf(S.seat);
    for (const j of live.slice(0, position)) bits = 2 * bits + (S.others[j] === 'drew' ? 1 : 0);
    cell = game.seats[position][bits][total];
  } else {
    for (const j of live) bits = 2 * bits + (S.others[j] === 'drew' ? 1 : 0);
    cell = game.bank[total][bits];
  }
  if (!cell) return fail('This situation cannot arise under the equilibrium play.');
  const [p, stand, drawing, margin] = cell;
  out.dataset.draw = p; out.dataset.margin = String(margin);
  out.dataset.evDraw = String(drawing); out.dataset.evStand = String(stand);
  out.textContent = D.plays[p];
  const stake = S.mode === 'seat' ? 'your stake' : 'a stake';
  why.textContent = margin === 0 ? 'Drawing and standing are worth the same here (you expect '
    + signed(drawing) + ' either way).' :
    (margin > 0 ? 'Drawing' : 'Standing') + ' is better by ' + points(margin) + ' points of '
    + stake + ' (you expect ' + signed(drawing) + ' drawing, ' + signed(stand) + ' standing).';
}
$('cards').addEventListener('input', () => {
  S.total = cardsTotal($('cards').value); draw();
});
draw();
"""


def render_advisor(data: AdvisorData) -> str:
    """The page: controls, the answer, and the equilibria as JSON in a data block."""
    blob = json.dumps(_document(data), separators=(",", ":")).replace("</", "<\\/")
    people = f"2 to {data.players + 1}"
    body = f"""<h1>{html.escape(data.title)}: what to play</h1>
<p><small>The certified equilibrium of every table of {people} people ({data.shoe}, each side
seeing its own total; no side gains by changing its play alone), as
<code>nine advise --infinite</code> gives it. Nothing is sent anywhere: the answers are in
this page. Live: a seat without a natural, still to choose.</small></p>
<fieldset><legend>Who are you?</legend><div id="mode"></div></fieldset>
<fieldset><legend>People at the table (the bank included)</legend><div id="people"></div>
</fieldset>
<fieldset id="seat-box"><legend>Your seat (1 = the bank's right)</legend><div id="seat"></div>
</fieldset>
<fieldset><legend>Your two cards</legend><label>Cards <input id="cards"
autocomplete="off" placeholder="e.g. T5 or 8 7"></label> <small>or your total:</small>
<div id="totals"></div></fieldset>
<fieldset><legend>The other seats: naturals showing, and what the earlier ones did</legend>
<div id="others"></div></fieldset>
<div id="answer" aria-live="polite"><p id="play"></p><p id="why"></p></div>
<p><small>Margins are points of a stake, per hand, against the others playing the
equilibrium too. {html.escape(data.profile)} · analyzer {__version__}</small></p>"""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
            f"<title>{html.escape(data.title)}: advisor</title><style>{_CSS}</style></head>"
            f"<body>\n{body}\n<script type=\"application/json\" id=\"data\">{blob}</script>\n"
            f"<script>{_SCRIPT}</script>\n</body></html>\n")
