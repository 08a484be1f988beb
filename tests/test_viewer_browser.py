"""The replay viewer (`tw.record_html`) in a real browser: the system's headless Chromium,
driven by Selenium through the system's chromedriver. For a record of every registered game the
page loads from a file with no error on the console, and the arrow keys, the buttons, a click
on a move and a typed move number step through it, the move list's highlight, the sentence
and the picture following; a screenshot of each is saved.

Nothing is downloaded: the browser and its driver are the installed ones, named by path (so
Selenium Manager never runs), and Selenium Manager is told to stay offline besides. The test
skips only where Chromium or chromedriver is not installed (Debian: `apt-get install chromium
chromium-driver`; `.ci/run` installs them where it can)."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tradewinds as tw
from conftest import ONE_CONFIG, Config, ids

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()),
    reason=f"the system's Chromium ({CHROMIUM}) and chromedriver ({CHROMEDRIVER}) are not both installed "
           "(Debian: apt-get install chromium chromium-driver)",
)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

#: Moves in each game's record: a short game (or the whole game, where it is shorter).
MOVES = 40


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    patch = pytest.MonkeyPatch()
    patch.setenv("SE_OFFLINE", "true")  # Selenium Manager, were it ever asked, downloads nothing
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                     "--disable-gpu", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        patch.undo()


def record_of(game: tw.Game, seed: int, moves: int = MOVES) -> str:
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal and state.move_number < moves:
        state.apply(state.agent_action("random", seed=rng.randrange(2**32)))
    return state.record()


def severe(driver: WebDriver) -> list[dict[str, Any]]:
    """The console's errors since it was last read (uncaught exceptions included)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def state_of(driver: WebDriver) -> dict[str, Any]:
    """What the page shows: the position, the picture (its index, text and element count), the
    highlighted move, the counter and the sentence."""
    shown: dict[str, Any] = driver.execute_script("""
        const picture = document.getElementById("picture");
        const svg = picture.querySelector("svg");
        const current = document.querySelectorAll("#moves li.current");
        const box = svg ? svg.getBoundingClientRect() : null;
        return {
          position: Number(picture.dataset.position),
          picture: Number(picture.dataset.picture),
          svgText: svg ? svg.textContent : null,
          svgElements: svg ? svg.querySelectorAll("*").length : 0,
          svgWidth: box ? box.width : 0,
          svgHeight: box ? box.height : 0,
          highlighted: Array.from(current, li => Number(li.dataset.position)),
          highlightedText: current.length ? current[0].querySelector(".text").textContent : null,
          counter: document.getElementById("counter").textContent,
          told: document.getElementById("told").textContent,
          jump: document.getElementById("jump").value,
          endShown: !document.getElementById("end").hidden,
          endText: document.getElementById("end").textContent,
        };
    """)
    return shown


def page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def expected_picture(record: str, k: int, seat: int | None) -> tuple[str, int]:
    """The text and the number of elements (the root's descendants) of the picture after `k`
    moves, as the browser reads them from the SVG document."""
    root = ET.fromstring(tw.replay(record, k).to_svg(seat))
    return "".join(root.itertext()), sum(1 for _ in root.iter()) - 1


def check_position(driver: WebDriver, record: str, data: dict[str, Any], k: int, seat: int | None) -> dict[str, Any]:
    """The page shows position `k` in every part: counter, highlight, sentence, picture."""
    total = len(data["moves"])
    shown = state_of(driver)
    assert shown["position"] == k
    assert shown["counter"] == f"move {k} of {total}"
    assert shown["highlighted"] == [k], "exactly the current move is highlighted"
    assert shown["jump"] == str(k)
    if k == 0:
        assert shown["told"] == "The start of the game."
    else:
        move = data["moves"][k - 1]
        assert shown["highlightedText"] == move["text"]
        assert shown["told"] == ("Chance: " if move["chance"] else f"P{move['actor']}: ") + move["text"]
    assert shown["picture"] == data["positions"][k]
    text, elements = expected_picture(record, k, seat)
    assert (shown["svgText"], shown["svgElements"]) == (text, elements), f"the picture after {k} moves"
    assert shown["svgWidth"] > 100 and shown["svgHeight"] > 100, "the picture is drawn at a visible size"
    assert shown["endShown"] == (k == total and data["end"] is not None)
    return shown


def open_page(driver: WebDriver, tmp_path: Path, record: str, seat: int | None, name: str) -> dict[str, Any]:
    page = tw.record_html(record, seat)
    path = tmp_path / f"{name}.html"
    path.write_text(page, encoding="utf-8")
    severe(driver)  # the console of any page before
    driver.get(path.as_uri())
    assert driver.title.startswith(tw.replay(record).game.title)
    assert severe(driver) == [], "the page loads without an error on the console"
    return page_data(page)


def press(driver: WebDriver, key: str) -> None:
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_stepping_through_a_record_in_the_browser(browser: WebDriver, config: Config, tmp_path: Path) -> None:
    game = config.load()
    record = record_of(game, 11)
    data = open_page(browser, tmp_path, record, None, config.id)
    total = len(data["moves"])
    assert total >= 2
    check_position(browser, record, data, 0, None)

    # Forward with the arrow key, move by move, up to a change of the picture (the first
    # moves of a game may leave the table as it was).
    first_change = next((k for k in range(1, total + 1) if data["positions"][k] != data["positions"][0]), None)
    assert first_change is not None, "some move of the record changes the picture"
    before = state_of(browser)
    for k in range(1, first_change + 1):
        press(browser, Keys.ARROW_RIGHT)
        check_position(browser, record, data, k, None)
    after = state_of(browser)
    assert after["picture"] != before["picture"]
    assert (after["svgText"], after["svgElements"]) != (before["svgText"], before["svgElements"]) or \
        data["lines"] and expected_picture(record, first_change, None) != expected_picture(record, 0, None)

    # Back with the arrow key, and with the buttons.
    press(browser, Keys.ARROW_LEFT)
    check_position(browser, record, data, first_change - 1, None)
    browser.find_element(By.ID, "forward").click()
    check_position(browser, record, data, first_change, None)
    browser.find_element(By.ID, "back").click()
    check_position(browser, record, data, first_change - 1, None)

    # Jump to a move by its number, then to the end, and back.
    target = min(total, 25)
    jump = browser.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys(str(target), Keys.ENTER)
    check_position(browser, record, data, target, None)
    press(browser, Keys.END)
    check_position(browser, record, data, total, None)
    press(browser, Keys.ARROW_RIGHT)  # nothing after the end
    check_position(browser, record, data, total, None)
    assert browser.find_element(By.ID, "forward").get_attribute("disabled") is not None
    press(browser, Keys.ARROW_LEFT)
    check_position(browser, record, data, total - 1, None)

    # A click on a move in the list, then the start.
    middle = total // 2
    row = browser.find_element(By.CSS_SELECTOR, f'#moves li[data-position="{middle}"]')
    browser.execute_script("arguments[0].scrollIntoView()", row)
    row.click()
    check_position(browser, record, data, middle, None)
    browser.find_element(By.ID, "first").click()
    check_position(browser, record, data, 0, None)
    assert browser.find_element(By.ID, "back").get_attribute("disabled") is not None

    # Every chance event is marked in the list.
    chance_rows = browser.find_elements(By.CSS_SELECTOR, "#moves li.chance")
    assert [int(li.get_attribute("data-position") or -1) for li in chance_rows] == \
        [k + 1 for k, move in enumerate(data["moves"]) if move["chance"]]
    assert all("chance" in li.find_element(By.CSS_SELECTOR, ".who").text for li in chance_rows)

    assert severe(browser) == [], "no error on the console while stepping"
    press(browser, Keys.ARROW_RIGHT)
    shot = tmp_path / f"{config.id}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


def test_a_seats_view_and_the_end_of_a_game_in_the_browser(browser: WebDriver, tmp_path: Path) -> None:
    # The shortest whole game among one configuration of each game with more than one seat,
    # as seat 0 saw it.
    records = [record_of(c.load(), 3, moves=10**9) for c in ONE_CONFIG if c.players > 1]
    record = min(records, key=lambda r: len(json.loads(r)["moves"]))
    data = open_page(browser, tmp_path, record, 0, "seat-0")
    assert "what P0 sees" in browser.find_element(By.TAG_NAME, "h1").text
    total = len(data["moves"])
    check_position(browser, record, data, 0, 0)
    press(browser, Keys.ARROW_RIGHT)
    check_position(browser, record, data, 1, 0)
    press(browser, Keys.END)
    shown = check_position(browser, record, data, total, 0)
    assert shown["endShown"] and shown["endText"] == str(tw.replay(record).score_report()).rstrip("\n")
    press(browser, Keys.HOME)
    check_position(browser, record, data, 0, 0)
    assert severe(browser) == []
    assert browser.save_screenshot(str(tmp_path / "seat-0.png"))
