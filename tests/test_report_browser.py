"""The balance report (`tradewinds balance`) in a real browser: the system's headless Chromium,
driven by Selenium through the system's chromedriver, as for the replay viewer
(`tests/test_viewer_browser.py`). The page opens from a file with no error on the console
(its content security policy would report any load from outside it), and shows its tables and
its figures; a screenshot is saved.

Nothing is downloaded: the browser and its driver are the installed ones, named by path, and
Selenium Manager is told to stay offline. The test skips where Chromium or chromedriver is not
installed (Debian: `apt-get install chromium chromium-driver`)."""

from __future__ import annotations

import subprocess
import time
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()),
    reason=f"the system's Chromium ({CHROMIUM}) and chromedriver ({CHROMEDRIVER}) are not both installed "
           "(Debian: apt-get install chromium chromium-driver)",
)

pytest.importorskip("matplotlib")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    patch = pytest.MonkeyPatch()
    patch.setenv("SE_OFFLINE", "true")
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


def severe(driver: WebDriver) -> list[dict[str, Any]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_report_opens_in_a_browser_without_errors(browser: WebDriver, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    r = subprocess.run([sys.executable, "-m", "tradewinds", "balance", "nauticus", "--players", "3", "--games", "60",
                        "--seed", "1", "--set", "rules.duplicate_price=2,6", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    severe(browser)  # the console of any page before
    browser.get(out.as_uri())
    assert severe(browser) == [], "the page loads without an error on the console"
    assert browser.title == "nauticus: balance report"
    figures = browser.find_elements(By.CSS_SELECTOR, "figure > svg")
    assert len(figures) == 3
    for svg in figures:
        assert svg.size["width"] > 200 and svg.size["height"] > 100, svg.size  # drawn, not empty
    tables = browser.find_elements(By.TAG_NAME, "table")
    assert len(tables) == 3  # the metrics, and one per variant
    rows = tables[0].find_elements(By.TAG_NAME, "tr")
    assert len(rows) > 10 and rows[1].text.startswith("win rate seat 0")
    assert "tradewinds balance nauticus" in browser.find_element(By.ID, "command").text
    browser.save_screenshot(str(tmp_path / "report.png"))
    assert severe(browser) == []


def test_a_load_from_outside_the_page_would_show_on_the_console(browser: WebDriver, tmp_path: Path) -> None:
    """The check above can fail: the report's content security policy turns any load from
    outside the page into an error on the console (here an image the page does not hold)."""
    import tradewinds as tw
    from tradewinds.report import balance_report

    page = balance_report(tw.simulate("nauticus", 20, players=3, seed=1, metrics=True), command="x")
    page = page.replace("</body>", '<img src="http://127.0.0.1:9/outside.png"></body>')
    path = tmp_path / "outside.html"
    path.write_text(page, encoding="utf-8")
    severe(browser)
    browser.get(path.as_uri())
    # The browser reports the refused load when it has tried it, which may come after the page's load.
    errors, deadline = severe(browser), time.monotonic() + 10
    while not errors and time.monotonic() < deadline:
        time.sleep(0.1)
        errors = severe(browser)
    assert errors, "the load from outside shows as an error"
