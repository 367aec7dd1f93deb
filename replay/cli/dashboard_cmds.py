"""``replay dashboard``: the Streamlit dashboard on a store, a JSON Lines file or a folder."""

from __future__ import annotations

import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated

import typer

from replay.cli.app import app
from replay.cli.common import fail

#: Streamlit settings of every start: no browser opened, no usage statistics sent, no file
#: watcher (the dashboard serves, it is not being edited), uploads refused.
STREAMLIT_FLAGS = (
    "--server.headless=true",
    "--browser.gatherUsageStats=false",
    "--server.fileWatcherType=none",
    "--server.runOnSave=false",
    "--server.maxUploadSize=0",
    "--global.developmentMode=false",
    "--client.toolbarMode=viewer",
)


def app_script() -> Path:
    """The dashboard's entry script (``dashboards/app.py``, installed with the package), found
    without importing the dashboard: the command line stays below it."""
    spec = find_spec("dashboards")
    if spec is None or spec.origin is None:
        raise RuntimeError("the dashboards package is not installed")
    return Path(spec.origin).parent / "app.py"


def streamlit_command(source: Path, host: str, port: int) -> list[str]:
    """The command line that serves the dashboard on ``source``."""
    return [
        sys.executable, "-m", "streamlit", "run", str(app_script()),
        f"--server.address={host}", f"--server.port={port}", *STREAMLIT_FLAGS,
        "--", str(source),
    ]  # fmt: skip


def unusable(source: Path) -> str | None:
    """Why ``source`` names nothing the dashboard can read, in the words of every reading
    command (:mod:`replay.sources`); None when it can be read."""
    from replay.sources import expand, not_json_lines

    found, problems = expand([source])
    if not found:
        return problems[0]
    try:
        return not_json_lines(source) if source.is_file() else None
    except OSError as exc:
        return f"{source}: {exc.strerror or exc}"


@app.command()
def dashboard(
    source: Annotated[
        Path,
        typer.Argument(
            metavar="INPUT",
            help="An event store, a JSON Lines file or a folder (searched recursively for both).",
        ),
    ],
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8501,
    host: Annotated[
        str, typer.Option("--host", help="Address to bind (default: this machine only).")
    ] = "127.0.0.1",
) -> None:
    """Serve the dashboard (overview, statistics, player, replay, audit) on INPUT, read-only,
    until Ctrl-C. Binds 127.0.0.1 unless --host says otherwise."""
    refusal = unusable(source)
    if refusal:
        fail(refusal)
    shown = "localhost" if host in ("127.0.0.1", "localhost") else host
    typer.echo(f"replay dashboard on {source}: http://{shown}:{port}  (Ctrl-C stops it)")
    sys.stdout.flush()
    env = {**os.environ, "REPLAY_DASHBOARD_SOURCE": str(source.resolve())}
    command = streamlit_command(source.resolve(), host, port)
    # Streamlit takes this process's place: a signal that stops it (Ctrl-C, kill) stops it all.
    os.execve(command[0], command, env)
