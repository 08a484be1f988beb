"""The replay viewer's page (`tw.record_html`, `tradewinds view`) without a browser: what the
page holds (every position's picture, every move's log sentence, chance marked, nothing a
seat may not see), that it loads nothing from anywhere, and the command's files and errors.
`tests/test_viewer_browser.py` drives the page in a real browser."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import tradewinds as tw
from conftest import ONE_CONFIG, Config, ids
from tradewinds._viewer import _script_json

FIRST = ONE_CONFIG[0]


def short_record(game: tw.Game, seed: int, moves: int = 40) -> str:
    """The record of a game played at random from `seed` for `moves` moves (or to its end)."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal and state.move_number < moves:
        state.apply(state.agent_action("random", seed=rng.randrange(2**32)))
    return state.record()


def page_data(page: str) -> dict[str, Any]:
    """The data the page's script reads (its JSON block)."""
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found, "the page has its data block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def unpacked(data: dict[str, Any]) -> list[str]:
    """The page's distinct pictures, unpacked as its script unpacks them."""
    out: list[list[int]] = []
    for start, end, middle in data["pictures"]:
        before = out[-1] if out else []
        out.append(before[:start] + middle + (before[len(before) - end:] if end else []))
    return ["\n".join(data["lines"][i] for i in lines) for lines in out]


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            self.attrs.append((name, value or ""))
            if name == "id" and value:
                self.ids.add(value)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_the_page_holds_every_position_and_every_move(config: Config) -> None:
    game = config.load()
    record = short_record(game, 5)
    final = tw.replay(record)
    for seat in (None, *range(game.players)):
        data = page_data(tw.record_html(record, seat))
        total = final.move_number
        assert len(data["moves"]) == total and len(data["positions"]) == total + 1
        log = final.log(seat)
        assert [m["text"] for m in data["moves"]] == [text for _, _, text in log]
        assert [m["actor"] for m in data["moves"]] == [actor for _, actor, _ in log]
        assert [m["chance"] for m in data["moves"]] == [actor == tw.CHANCE for _, actor, _ in log]
        pictures = unpacked(data)
        assert len(set(pictures)) == len(pictures), "an identical picture is stored once"
        for k in range(total + 1):
            assert pictures[data["positions"][k]] == tw.replay(record, k).to_svg(seat), (seat, k)
        assert data["seat"] == seat
        assert data["end"] == (str(final.score_report()).rstrip("\n") if final.is_terminal else None)
        assert data["view"] == ("everything" if seat is None else f"what P{seat} sees")


def test_a_finished_game_shows_its_score_report(one_game: tw.Game) -> None:
    record = short_record(one_game, 2, moves=10**9)
    final = tw.replay(record)
    assert final.is_terminal
    data = page_data(tw.record_html(record))
    assert data["end"] == str(final.score_report()).rstrip("\n")


def test_a_seats_page_holds_nothing_that_seat_may_not_see(one_game: tw.Game) -> None:
    record = short_record(one_game, 7, moves=60)
    final = tw.replay(record)
    everything = page_data(tw.record_html(record))
    for seat in range(one_game.players):
        data = page_data(tw.record_html(record, seat))
        allowed = {tw.replay(record, k).to_svg(seat) for k in range(final.move_number + 1)}
        assert set(unpacked(data)) == allowed
        # No line of a picture the seat may not see is stored either.
        assert set(data["lines"]) == {line for svg in allowed for line in svg.split("\n")}
        assert [m["text"] for m in data["moves"]] == [text for _, _, text in final.log(seat)]
    if any(final.log(seat) != final.log(None) for seat in range(one_game.players)):
        assert any(page_data(tw.record_html(record, seat))["moves"] != everything["moves"]
                   for seat in range(one_game.players))


def test_the_page_is_self_contained_and_loads_nothing() -> None:
    page = tw.record_html(short_record(FIRST.load(), 1))
    elements = _Elements()
    elements.feed(page)
    for needed in ("picture", "moves", "first", "back", "forward", "last", "jump", "go", "counter", "told",
                   "replay-data"):
        assert needed in elements.ids, needed
    # Nothing that fetches: no external script, style sheet, image, frame or font.
    for name, value in elements.attrs:
        if name in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
            raise AssertionError(f"the page names a resource: {name}={value!r}")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert "@import" not in page and "url(" not in page
    assert not set(elements.tags) & {"link", "img", "iframe", "object", "embed", "base"}
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")


def test_the_data_block_cannot_end_the_script_element() -> None:
    text = "</script><script>alert(1)</script><!-- </SCRIPT "
    encoded = _script_json({"text": text})
    assert "</" not in encoded and "<!" not in encoded
    assert json.loads(encoded) == {"text": text}


def test_pictures_are_packed() -> None:
    # A whole game: every picture stored in a fraction of its own size.
    game = FIRST.load()
    record = short_record(game, 3, moves=10**9)
    final = tw.replay(record)
    plain = sum(len(tw.replay(record, k).to_svg()) for k in range(final.move_number + 1))
    page = tw.record_html(record)
    assert len(page) < plain / 4, (len(page), plain)


def test_bad_seats_and_records_are_refused() -> None:
    game = FIRST.load()
    record = short_record(game, 1)
    for seat in (-1, game.players, 10**30):
        with pytest.raises(ValueError, match="out of range"):
            tw.record_html(record, seat)
    for wrong in (True, 1.0, "0"):
        with pytest.raises(TypeError, match="seat must be"):
            tw.record_html(record, wrong)  # type: ignore[arg-type]
    with pytest.raises(tw.RecordError):
        tw.record_html('{"format": 1}')
    with pytest.raises(tw.RecordError):
        tw.record_html("not json")


def test_the_page_takes_a_record_as_text_dict_or_path(tmp_path: Path) -> None:
    record = short_record(FIRST.load(), 4)
    path = tmp_path / "game.json"
    path.write_text(record, encoding="utf-8")
    page = tw.record_html(record)
    assert tw.record_html(json.loads(record)) == page
    assert tw.record_html(path) == page


# ---- the command -------------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tradewinds", *args], capture_output=True, text=True, timeout=300)


def test_view_writes_the_page_beside_the_record(tmp_path: Path) -> None:
    game = FIRST.load()
    record = short_record(game, 6)
    path = tmp_path / "game.json"
    path.write_text(record + "\n", encoding="utf-8")
    r = run("view", str(path))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "game.html"
    assert out.read_text(encoding="utf-8") == tw.record_html(record)
    assert f"wrote {out}" in r.stdout and "everything" in r.stdout
    r = run("view", str(path), "--seat", "1", "--out", str(tmp_path / "p1.html"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "p1.html").read_text(encoding="utf-8") == tw.record_html(record, 1)
    assert "what P1 sees" in r.stdout
    r = run("view", str(path), "--all", "--out", str(tmp_path / "all.htm"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "all.htm").read_text(encoding="utf-8") == tw.record_html(record)


def test_view_errors_are_messages_with_the_commands_exit_statuses(tmp_path: Path) -> None:
    game = FIRST.load()
    path = tmp_path / "game.json"
    path.write_text(short_record(game, 6), encoding="utf-8")
    # Usage errors (2), naming the flag.
    r = run("view", str(path), "--seat", str(game.players))
    assert r.returncode == 2 and f"--seat must be in 0..{game.players - 1}" in r.stderr, r.stderr
    assert not (tmp_path / "game.html").exists()
    r = run("view", str(path), "--out", str(tmp_path / "page.txt"))
    assert r.returncode == 2 and "--out must name an .html file" in r.stderr, r.stderr
    same = tmp_path / "game.html"
    same.write_text(short_record(game, 6), encoding="utf-8")
    r = run("view", str(same))
    assert r.returncode == 2 and "is the record itself" in r.stderr, r.stderr
    r = run("view", str(path), "--seat", "0", "--all")
    assert r.returncode == 2 and "not allowed with" in r.stderr
    # Errors of the run (1): a file that is missing, not text or not a record; a page that cannot be written.
    for name, content in (("missing.json", None), ("binary.json", b"\xff\xfe\x00"), ("other.json", b'{"a": 1}'),
                          ("broken.json", b"{")):
        source = tmp_path / name
        if content is not None:
            source.write_bytes(content)
        r = run("view", str(source))
        assert r.returncode == 1, (name, r.stderr)
        assert r.stderr.startswith("tradewinds: error: ") and "Traceback" not in r.stderr and "[Errno" not in r.stderr
        assert not source.with_suffix(".html").exists()
    assert "no such file" in run("view", str(tmp_path / "missing.json")).stderr.lower()
    assert "not a" in run("view", str(tmp_path / "other.json")).stderr
    r = run("view", str(path), "--out", str(tmp_path / "no-such-dir" / "page.html"))
    assert r.returncode == 1 and "Traceback" not in r.stderr and "[Errno" not in r.stderr, r.stderr
