"""Driving the dashboard in Debian's Chromium: the browser's flags, a dashboard served on a
free port, and waiting for a page to settle (tests/e2e and ``make screenshots``)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("REPLAY_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
#: Seconds a page may take to settle (the machine is shared; the first audit runs here).
SETTLE = 90


class NotServed(RuntimeError):
    """The dashboard did not answer its health check in time."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def dashboard(source: Path) -> Iterator[str]:
    """The URL of ``replay dashboard SOURCE`` on a free port, stopped on leaving."""
    port = free_port()
    replay = shutil.which("replay", path=str(Path(sys.executable).parent)) or "replay"
    process = subprocess.Popen(
        [replay, "dashboard", str(source), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield wait_healthy(f"http://127.0.0.1:{port}", source)
    finally:
        process.terminate()
        process.wait(10)


def wait_healthy(url: str, source: Path, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read() == b"ok":
                    return url
        except OSError:
            time.sleep(0.3)
    raise NotServed(f"the dashboard on {source} did not answer /_stcore/health in {seconds:.0f} s")


def settle(page: Any) -> None:
    """Wait until the app has finished running (no status widget, a title shown)."""
    page.wait_for_selector("h1", timeout=SETTLE * 1000)
    deadline = time.monotonic() + SETTLE
    quiet = 0
    while time.monotonic() < deadline and quiet < 3:
        running = page.locator('[data-testid="stStatusWidget"]').count()
        quiet = quiet + 1 if running == 0 else 0
        page.wait_for_timeout(400)
    page.wait_for_timeout(600)  # charts draw after the run
