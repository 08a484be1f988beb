"""The replay viewer for the browser (``tw.record_html``, ``tradewinds view``): one
self-contained HTML page of a game record, the picture of the table beside the list of moves.

The page needs no server and no network: its style, its script and the picture of every
position are inside it. It is written for one viewer, a seat or a spectator who sees
everything, and holds nothing that viewer may not see: a seat's page has only that seat's
pictures and log, so it can be handed to that player.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ._core import CHANCE, State
from ._core import replay
from ._records import Record, record_text

__all__ = ["record_html"]


def _script_json(value: Any) -> str:
    """``value`` as JSON that can stand inside a ``<script>`` element: no ``</`` (which would
    end the element) and no ``<!`` (which would open a comment)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!", "\\u003c!")


def _positions(final: State, record: str) -> list[State]:
    """The state after each prefix of the game: ``moves + 1`` states, from the first to the
    last, replayed once (each from the one before) rather than once per move."""
    state = replay(record, 0)
    out = [state.clone()]
    for action in final.history():
        state.apply(action)
        out.append(state.clone())
    return out


def _packed(pictures: list[str]) -> dict[str, Any]:
    """The distinct pictures, packed: every distinct line of SVG once (``lines``), and each
    picture as the lines it keeps from the one before it (``[kept at the start, kept at the
    end, [the lines between, by index]]``). A move changes a few lines of the table, so a game
    of 2,000 moves packs into a few hundred kilobytes instead of tens of megabytes."""
    lines: dict[str, int] = {}
    packed: list[list[Any]] = []
    before: list[int] = []
    for svg in pictures:
        now = [lines.setdefault(line, len(lines)) for line in svg.split("\n")]
        most = min(len(before), len(now))
        start = 0
        while start < most and before[start] == now[start]:
            start += 1
        end = 0
        while end < most - start and before[-1 - end] == now[-1 - end]:
            end += 1
        packed.append([start, end, now[start:len(now) - end]])
        before = now
    return {"lines": list(lines), "pictures": packed}


def viewer_data(record: Record, seat: int | None = None) -> dict[str, Any]:
    """What the page shows, as plain data: the game, the viewer, the distinct pictures
    (packed, see :func:`_packed`), the picture of each position (an index into them) and each
    move with its log sentence and whether chance made it."""
    text = record_text(record)
    final = replay(text)
    game = final.game
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be an int or None, not {type(seat).__name__}")
        if not 0 <= seat < game.players:
            raise ValueError(f"seat {seat} is out of range: this game has seats 0..{game.players - 1}")
    log = final.log(seat)
    pictures: list[str] = []
    index: dict[str, int] = {}
    shown: list[int] = []
    for state in _positions(final, text):
        svg = state.to_svg(seat)
        if svg not in index:
            index[svg] = len(pictures)
            pictures.append(svg)
        shown.append(index[svg])
    moves = [{"actor": actor, "chance": actor == CHANCE, "text": text} for _, actor, text in log]
    return {
        "game": game.name,
        "title": game.title,
        "options": game.options,
        "players": game.players,
        "seed": final.seed,
        "seat": seat,
        "view": "everything" if seat is None else f"what P{seat} sees",
        **_packed(pictures),
        "positions": shown,
        "moves": moves,
        "end": str(final.score_report()).rstrip("\n") if final.is_terminal else None,
    }


def record_html(record: Record, seat: int | None = None) -> str:
    """A game record as one self-contained HTML page that replays it in a browser.

    ``record`` is what :func:`tradewinds.replay` takes (the record's JSON text, the record as
    a dict, or the path of a file holding it). The page shows the picture of the table
    (:meth:`State.to_svg`) beside the list of moves, each told by its log sentence
    (:meth:`State.log`), chance outcomes marked; step with the buttons or the arrow keys, or
    jump to a move. ``seat``: the game as that seat sees it (the others' hidden cards face
    down, their secret moves untold); ``None``, everything. The page loads nothing: no server,
    no network. A record that cannot be replayed raises :class:`RecordError`; a seat the game
    does not have, ``ValueError``.
    """
    data = viewer_data(record, seat)
    title = f"{data['title']}: replay, {data['view']}"
    seed = "" if data["seed"] is None else f", seed {data['seed']}"
    heading = (
        f"{data['title']} ({data['game']}), {data['players']} player{'' if data['players'] == 1 else 's'}"
        f"{seed}: {len(data['moves'])} moves, {data['view']}"
    )
    fields = {
        "TITLE": html.escape(title),
        "HEADING": html.escape(heading),
        "TOTAL": str(len(data["moves"])),
        "DATA": _script_json(data),
    }
    # One pass, so that nothing substituted is read again as a placeholder.
    return re.sub(r"@([A-Z]+)@", lambda m: fields[m.group(1)], _PAGE)


# A raw string: the script's escapes ("\n") are the script's own.
_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tradewinds">
<title>@TITLE@</title>
<style>
  :root { color-scheme: light dark; --accent: #1f77b4; --chance: #9467bd; --line: #8884; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
  header { padding: 8px 16px; border-bottom: 1px solid var(--line); }
  h1 { font-size: 16px; margin: 0 0 6px; }
  .controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
  .controls button { min-width: 2.5em; padding: 3px 8px; font: inherit; cursor: pointer; }
  .controls input { width: 6em; font: inherit; }
  #counter { font-variant-numeric: tabular-nums; margin-left: 6px; }
  #told { margin: 6px 0 0; min-height: 1.4em; }
  #told.chance { color: var(--chance); }
  main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
  #table { flex: 1 1 auto; min-width: 0; }
  #picture svg { max-width: 100%; height: auto; display: block; }
  #end { white-space: pre-wrap; font: 12px/1.35 ui-monospace, Menlo, Consolas, monospace; }
  nav { flex: 0 0 340px; max-height: calc(100vh - 120px); overflow-y: auto; border: 1px solid var(--line); }
  #moves { list-style: none; margin: 0; padding: 0; }
  #moves li { padding: 3px 8px 3px 4px; border-left: 4px solid transparent; cursor: pointer; border-bottom: 1px solid var(--line); display: flex; gap: 6px; }
  #moves li:hover { background: #8882; }
  #moves li.current { background: var(--accent); color: #fff; }
  #moves .num { flex: 0 0 3em; text-align: right; font-variant-numeric: tabular-nums; opacity: .75; }
  #moves .who { flex: 0 0 auto; font-weight: 600; }
  #moves li.chance { border-left: 4px solid var(--chance); }
  #moves li.chance .who { color: var(--chance); }
  #moves li.chance.current .who { color: #fff; }
  @media (max-width: 800px) { main { flex-direction: column; } nav { flex-basis: auto; width: 100%; } }
</style>
</head>
<body>
<header>
  <h1>@HEADING@</h1>
  <div class="controls">
    <button type="button" id="first" title="the start (Home)">|&#x25C0;</button>
    <button type="button" id="back" title="back one move (ArrowLeft)">&#x25C0;</button>
    <button type="button" id="forward" title="forward one move (ArrowRight)">&#x25B6;</button>
    <button type="button" id="last" title="the end (End)">&#x25B6;|</button>
    <label>move <input type="number" id="jump" min="0" max="@TOTAL@" value="0"></label>
    <button type="button" id="go">go</button>
    <span id="counter"></span>
  </div>
  <p id="told"></p>
</header>
<main>
  <section id="table">
    <div id="picture" role="img" aria-label="the table"></div>
    <pre id="end" hidden></pre>
  </section>
  <nav aria-label="moves"><ol id="moves"></ol></nav>
</main>
<script type="application/json" id="replay-data">@DATA@</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const total = data.moves.length;
  const picture = document.getElementById("picture");
  const list = document.getElementById("moves");
  const counter = document.getElementById("counter");
  const told = document.getElementById("told");
  const jump = document.getElementById("jump");
  const end = document.getElementById("end");
  const parsed = new Map();
  let at = 0;

  function who(move) {
    return move.chance ? "chance" : "P" + move.actor;
  }

  // Each picture's lines (indices into data.lines), unpacked from the one before it.
  const pictureLines = [];
  data.pictures.forEach(function (packed, k) {
    const before = k === 0 ? [] : pictureLines[k - 1];
    const start = packed[0], end = packed[1], middle = packed[2];
    pictureLines.push(before.slice(0, start).concat(middle, before.slice(before.length - end)));
  });

  function svgOf(k) {
    if (!parsed.has(k)) {
      const text = pictureLines[k].map(function (i) { return data.lines[i]; }).join("\n");
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const error = doc.querySelector("parsererror");
      if (error) { throw new Error("picture " + k + " is not well-formed SVG: " + error.textContent); }
      parsed.set(k, doc.documentElement);
    }
    return document.importNode(parsed.get(k), true);
  }

  function row(position, whoText, text, chance) {
    const li = document.createElement("li");
    li.dataset.position = String(position);
    if (chance) { li.classList.add("chance"); li.title = "a chance event"; }
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = position === 0 ? "" : position + ".";
    const w = document.createElement("span");
    w.className = "who";
    w.textContent = whoText;
    const t = document.createElement("span");
    t.className = "text";
    t.textContent = text;
    li.append(num, w, t);
    return li;
  }

  list.append(row(0, "", "the start of the game", false));
  data.moves.forEach(function (move, i) {
    list.append(row(i + 1, move.chance ? "chance:" : who(move) + ":", move.text, move.chance));
  });
  const rows = list.children;

  function show(position) {
    const next = Math.max(0, Math.min(total, Math.trunc(Number(position)) || 0));
    rows[at].classList.remove("current");
    rows[at].removeAttribute("aria-current");
    at = next;
    rows[at].classList.add("current");
    rows[at].setAttribute("aria-current", "step");
    rows[at].scrollIntoView({ block: "nearest" });
    const k = data.positions[at];
    if (picture.dataset.picture !== String(k)) {
      picture.replaceChildren(svgOf(k));
      picture.dataset.picture = String(k);
    }
    picture.dataset.position = String(at);
    counter.textContent = "move " + at + " of " + total;
    if (at === 0) {
      told.textContent = "The start of the game.";
    } else {
      const move = data.moves[at - 1];
      told.textContent = (move.chance ? "Chance: " : who(move) + ": ") + move.text;
    }
    told.classList.toggle("chance", at > 0 && data.moves[at - 1].chance);
    jump.value = String(at);
    const over = at === total && data.end !== null;
    end.hidden = !over;
    end.textContent = over ? data.end : "";
    document.getElementById("first").disabled = document.getElementById("back").disabled = at === 0;
    document.getElementById("last").disabled = document.getElementById("forward").disabled = at === total;
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(at - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(at + 1); });
  document.getElementById("last").addEventListener("click", function () { show(total); });
  document.getElementById("go").addEventListener("click", function () { show(jump.value); });
  jump.addEventListener("change", function () { show(jump.value); });
  jump.addEventListener("keydown", function (e) { if (e.key === "Enter") { show(jump.value); } });
  list.addEventListener("click", function (e) {
    const li = e.target.closest("li");
    if (li) { show(li.dataset.position); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) { return; }
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: total };
    if (e.key in moves) {
      e.preventDefault();
      show(moves[e.key]);
    }
  });
  show(0);
})();
</script>
</body>
</html>
"""
