"""The dashboard's screenshots in docs/screenshots/: every page at desktop width (1400 px) and
at a phone's (390 px), in Debian's Chromium driven by Playwright (``executable_path``: never
Playwright's own browser download), as ``make screenshots`` runs it.

Serves ``replay dashboard`` on the sample store and on a dispute file (free ports), opens each
view below, waits for the app to settle (doing what :data:`ACTIONS` names for it) and saves
``<view>.png`` (desktop) and ``<view>-phone.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.browser import ARGS, CHROMIUM, dashboard, settle  # noqa: E402

SAMPLE = ROOT / "sample_logs" / "store"
DISPUTE = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-TRICK.jsonl"
#: (file name, source, URL path and query): every page, a replay of each game kind.
VIEWS = (
    ("overview", SAMPLE, "/"),
    ("statistics", SAMPLE, "/statistics"),
    ("player", SAMPLE, "/player?player=Ada"),
    ("replay-trick", SAMPLE, "/replay?game=hearts-2026-03-03-t1&step=12"),
    ("replay-hez2", SAMPLE, "/replay?game=hez2-2026-03-06-t4&step=116"),
    ("replay-hiifuu", SAMPLE, "/replay?game=hiifuu-2026-03-03-t2&step=14"),
    ("replay-fou", SAMPLE, "/replay?game=fou-2026-03-06-t1&step=13"),
    ("replay-review", SAMPLE, "/replay?game=hearts-2026-03-03-t1&step=0"),
    ("audit-finding", DISPUTE, "/audit?finding=0"),
)
WIDTHS = {"": 1400, "-phone": 390}


def reviewed(tab: Any) -> None:
    """The game reviewed with 4 samples (the page's button), then on to its first mistake."""
    samples = tab.get_by_role("spinbutton", name="Samples")
    samples.fill("4")
    samples.press("Enter")
    settle(tab)
    tab.get_by_role("button", name="Review this game").click()
    tab.wait_for_selector("text=decisions reviewed", timeout=300_000)
    tab.get_by_role("button", name="mistake").last.click()
    tab.mouse.move(0, 0)  # no tooltip over the pane
    tab.wait_for_timeout(500)
    settle(tab)


#: What is done on a view's page before its screenshot.
ACTIONS = {"replay-review": reviewed}


#: The tallest screenshot taken (pixels).
TALLEST = 16000


def whole_page(tab: Any, width: int, path: Path) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside its main block, so the window
    is made as tall as that block's content first."""
    height = tab.evaluate(
        "Math.max(...[...document.querySelectorAll('[data-testid=stMain], section')]"
        ".map(e => e.scrollHeight), document.body.scrollHeight)"
    )
    tab.set_viewport_size({"width": width, "height": min(int(height) + 40, TALLEST)})
    tab.wait_for_timeout(800)  # charts redraw at the new size
    tab.screenshot(path=str(path), full_page=True)
    tab.set_viewport_size({"width": width, "height": 900})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--only", help="views whose name contains this text")
    args = parser.parse_args()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("screenshots: playwright is not installed (pip install -e '.[e2e]')")
    if not Path(CHROMIUM).is_file():
        sys.exit(f"screenshots: no Chromium at {CHROMIUM} (apt-get install chromium)")

    args.out.mkdir(parents=True, exist_ok=True)
    views = [v for v in VIEWS if not args.only or args.only in v[0]]
    with dashboard(SAMPLE) as sample, dashboard(DISPUTE) as dispute, sync_playwright() as p:
        urls = {SAMPLE: sample, DISPUTE: dispute}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for suffix, width in WIDTHS.items():
            tab = browser.new_page(viewport={"width": width, "height": 900})
            for name, source, where in views:
                tab.goto(urls[source] + where)
                settle(tab)
                if name in ACTIONS:
                    ACTIONS[name](tab)
                path = args.out / f"{name}{suffix}.png"
                whole_page(tab, width, path)
                print(f"{path}: {width} px", flush=True)
            tab.close()
        browser.close()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
