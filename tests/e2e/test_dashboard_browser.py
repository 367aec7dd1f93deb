"""The dashboard in a real headless browser: Debian's Chromium driven by Playwright.

Starts ``replay dashboard`` on the sample store and on a dispute file, each on a free port,
waits for ``/_stcore/health``, loads every page, steps through a replay (next trick, next
round, a seat's view), downloads the games as CSV, follows a finding from the audit to the
replay and on to the next finding, and saves a screenshot of each view under
``build/e2e-screenshots/`` (or ``$REPLAY_E2E_SCREENSHOTS``). Skipped, saying why, where
Chromium or Playwright is missing. Playwright's own browser download is never used:
``executable_path`` is the system Chromium.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import ARGS, CHROMIUM, SETTLE, NotServed, dashboard, settle

ROOT = Path(__file__).parent.parent.parent
SAMPLE = ROOT / "sample_logs" / "store"
DISPUTE = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-FOLLOW.jsonl"
SHOTS = Path(os.environ.get("REPLAY_E2E_SCREENSHOTS", ROOT / "build" / "e2e-screenshots"))

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install '.[e2e]')"
)
if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def serve() -> Iterator[Any]:
    """``serve(source)``: the URL of a dashboard started on ``source`` (stopped at the end)."""
    with ExitStack() as started:

        def start(source: Path) -> str:
            try:
                return started.enter_context(dashboard(source))
            except NotServed as exc:
                pytest.fail(str(exc))

        yield start


#: Requests the pages made to anywhere but the dashboard itself (there must be none).
OUTSIDE: list[str] = []


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 1800})
        tab.on("request", lambda r: None if r.url.startswith(LOCAL) else OUTSIDE.append(r.url))
        yield tab
        browser.close()
    assert not OUTSIDE, f"the dashboard made requests outside this machine: {OUTSIDE[:5]}"


LOCAL = ("http://127.0.0.1:", "data:", "blob:", "about:")


def shot(page: Any, name: str) -> Path:
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def text(page: Any) -> str:
    return str(page.locator('[data-testid="stMain"]').inner_text())


def click(page: Any, key: str) -> None:
    page.locator(f".st-key-{key} button:visible").first.click()
    page.wait_for_timeout(300)
    settle(page)


def test_every_page_loads_and_a_replay_steps(serve: Any, page: Any) -> None:
    url = serve(SAMPLE)
    for path, title in (("", "Overview"), ("statistics", "Statistics"), ("audit", "Audit")):
        page.goto(f"{url}/{path}")
        settle(page)
        assert page.locator("h1").first.inner_text() == title
        assert "Traceback" not in text(page) and "Error" not in text(page)
        if title == "Statistics":
            assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 2
        shot(page, title.lower())
    page.goto(f"{url}/replay")
    settle(page)
    click(page, "jump_next_trick")
    assert "step=" in page.url and "game=" in page.url
    cards = page.locator(".played img[alt]")
    assert cards.count() >= 2, "a complete trick has its cards in front of the seats"
    shot(page, "replay-trick")
    click(page, "jump_next_round")
    assert "total" in text(page)
    shot(page, "replay-round-end")


def test_filters_are_in_the_url(serve: Any, page: Any) -> None:
    url = serve(SAMPLE)
    page.goto(f"{url}/?kind=hez2")
    settle(page)
    games = page.locator('[data-testid="stMetricValue"]').first.inner_text()
    page.goto(f"{url}/")
    settle(page)
    every = page.locator('[data-testid="stMetricValue"]').first.inner_text()
    assert int(games.replace(",", "")) < int(every.replace(",", ""))


def test_the_games_csv_is_made_on_the_click_and_is_the_table(serve: Any, page: Any) -> None:
    """The Overview's download is deferred (Streamlit runs the page's callable when the button
    is pressed): the file the browser gets is the games table, list columns joined by spaces."""
    import pyarrow.csv as pacsv

    from replay.store import EventStore

    url = serve(SAMPLE)
    page.goto(f"{url}/?kind=hez2")
    settle(page)
    with page.expect_download(timeout=SETTLE * 1000) as download:
        page.locator(".st-key-csv_games button").first.click()
    assert download.value.suggested_filename == "games.csv"
    table = pacsv.read_csv(download.value.path())
    games = EventStore.open(SAMPLE).list_games_table(kind="hez2")
    assert table.column("game_id").to_pylist() == games.column("game_id").to_pylist()
    players = [[str(n) for n in p or []] for p in games.column("players").to_pylist()]
    assert table.column("players").to_pylist() == [" ".join(p) for p in players]


def test_a_finding_opens_the_replay_and_the_next_finding(serve: Any, page: Any) -> None:
    url = serve(DISPUTE)
    page.goto(f"{url}/audit?finding=0")
    settle(page)
    shown = text(page)  # the event as recorded and the rules' verdict, cards as the faces show them
    assert "HEARTS-FOLLOW" in shown and "seat 0 played 2♦ while holding 4♣" in shown
    shot(page, "audit-finding")
    click(page, "open_replay")
    assert "/replay" in page.url and "step=10" in page.url
    assert "HEARTS-FOLLOW" in text(page)
    shot(page, "replay-finding")
    click(page, "jump_first")
    assert "step=0" in page.url or "step" not in page.url
    click(page, "jump_next_finding")
    assert "step=10" in page.url
    page.goto(f"{url}/replay?game=hearts-HEARTS-FOLLOW&step=10&seat=0")
    settle(page)
    assert page.locator('img[alt="face down"]').count() > 0
    shot(page, "replay-seat-view")
