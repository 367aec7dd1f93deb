"""A player: results per game kind with their 95% interval, the rating over time, head to
head against each opponent, the results with the luck of the deal taken out, the fair-play
signal, and the player's games (each opening its replay). The sidebar's
filters apply; the player is the sidebar's, or one picked here (``?player=NAME``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import altair as alt
import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from dashboards.charts import in_words, rate_chart
from dashboards.data import (
    Snapshot,
    analytics,
    chosen_games,
    csv_bytes,
    library,
    page_context,
    player_names,
    show_problems,
    warned,
)
from replay.analytics import Filters
from replay.analytics.words import value_words

#: The most opponents the head-to-head chart shows (the most games together first).
OPPONENTS = 25


@st.cache_resource(show_spinner="Reading the player's results…", max_entries=64)
def statistic(path: str, name: str, chosen: Filters, snap: Snapshot) -> pa.Table:
    """One statistic's rows of the chosen player (``player`` column) under the filters."""
    table: pa.Table = library(path, snap).statistic(name, chosen).table
    return table.filter(pc.equal(table.column("player"), pa.scalar(str(chosen.player))))


@st.cache_resource(show_spinner="Rating the players…", max_entries=32)
def rating_history(path: str, chosen: Filters, snap: Snapshot) -> pa.Table:
    table: pa.Table = library(path, snap).rating_history(chosen)
    return table


@st.cache_resource(max_entries=32)
def places(path: str, chosen: Filters, snap: Snapshot) -> dict[str, int]:
    """The player's place in each of the chosen games, by game id."""
    rows = library(path, snap).rating_results(chosen).to_pylist()
    return {r["game_id"]: r["place"] for r in rows if r["player"] == chosen.player}


def adopt() -> None:
    """The player picked here becomes the sidebar's (and the URL's)."""
    st.session_state["player"] = st.session_state["player_pick"]


def pick_player(path: str, chosen: Filters, snap: Snapshot) -> str | None:
    if chosen.player is not None:
        return chosen.player
    names = player_names(path, chosen.kind, snap)
    if not names:
        st.info("No player: the source is empty or the filters leave nothing.")
        return None
    st.selectbox("Player", names, index=None, placeholder="Choose a player", key="player_pick",
                 on_change=adopt)  # fmt: skip
    return None


def section(heading: str, table: pa.Table, nothing: str) -> bool:
    """A section's heading; whether it has rows (else it says ``nothing``)."""
    st.header(heading, anchor=heading.lower().replace(" ", "-"))
    if table.num_rows == 0:
        st.info(nothing)
    return table.num_rows > 0


def results(path: str, chosen: Filters, snap: Snapshot) -> None:
    table = statistic(path, "games_played", chosen, snap)
    if not section("Results", table, "No game of this player among the chosen ones."):
        return
    games = int(pc.sum(table.column("games")).as_py() or 0)
    wins = int(pc.sum(table.column("hits")).as_py() or 0)
    left, middle, right = st.columns(3)
    left.metric("Games", f"{games:,}")
    middle.metric("Wins", f"{wins:,}")
    right.metric("Game kinds", f"{table.num_rows}")
    st.altair_chart(rate_chart(table, ["kind"], "Games won, per game"))
    st.caption("A win is a first place. The line is the 95% interval of the rate; grey: too "
               "few games to read.")  # fmt: skip
    with st.expander("Table"):
        st.dataframe(in_words(table.drop_columns(["player"])), hide_index=True)


def rating(path: str, chosen: Filters, snap: Snapshot) -> None:
    table = rating_history(path, chosen, snap)
    if not section(
        "Rating over time", table, "No rated game of this player among the chosen ones."
    ):
        return
    data = table.to_pandas()
    data["top"] = data["mu"] + 3 * data["sigma"]
    data["kind"] = [value_words("kind", k) for k in data["kind"]]
    base = alt.Chart(data).encode(
        x=alt.X("day:T", title="day"), color=alt.Color("kind:N", title="game")
    )
    band = base.mark_area(opacity=0.15).encode(
        y=alt.Y("conservative:Q", title="rating (mu; band: mu ± 3 sigma)"), y2="top:Q"
    )
    line = base.mark_line(point=True).encode(
        y=alt.Y("mu:Q"),
        tooltip=[alt.Tooltip("kind:N", title="game"), alt.Tooltip("day:T", title="day"),
                 alt.Tooltip("games:Q", title="games rated"),
                 alt.Tooltip("mu:Q", format=".1f"), alt.Tooltip("sigma:Q", format=".1f"),
                 alt.Tooltip("conservative:Q", title="mu - 3 sigma", format=".1f")],
    )  # fmt: skip
    st.altair_chart((band + line).properties(height=260, description="Rating over time"))
    st.caption("OpenSkill (Plackett-Luce) over finishing places, one ladder per game, at the end "
               "of each day the player played; the band narrows as games are rated.")  # fmt: skip


def head_to_head(path: str, chosen: Filters, snap: Snapshot) -> None:
    table = statistic(path, "head_to_head", chosen, snap)
    if not section("Head to head", table, "No opponent among the chosen games."):
        return
    table = table.sort_by([("opportunities", "descending"), ("opponent", "ascending")])
    keys = ["opponent"] if chosen.kind is not None else ["opponent", "kind"]
    title = f"Finished ahead of each opponent (the {min(OPPONENTS, table.num_rows)} met most)"
    st.altair_chart(rate_chart(table.slice(0, OPPONENTS), keys, title))
    st.caption("Out of the games both played (a shared place is not ahead). The line is the 95% "
               "interval; grey: too few games together to read.")  # fmt: skip
    with st.expander(f"Table ({table.num_rows:,} opponents)"):
        st.dataframe(in_words(table.drop_columns(["player"])), hide_index=True)


def luck(path: str, chosen: Filters, snap: Snapshot) -> None:
    table = statistic(path, "luck_players", chosen, snap)
    if not section("Luck", table, "No luck stored for this player among the chosen games: "
                   "`replay reindex STORE --luck` computes it (docs/review.md)."):  # fmt: skip
        return
    rows = []
    for r in table.to_pylist():
        for measure, key in (("raw", "raw"), ("luck taken out", "adjusted")):
            rows.append({"kind": value_words("kind", r["kind"]), "result": measure,
                         "mean": r[f"{key}_mean"], "low": r[f"{key}_low"],
                         "high": r[f"{key}_high"], "units": r["units"]})  # fmt: skip
    base = alt.Chart(pa.Table.from_pylist(rows).to_pandas()).encode(
        y=alt.Y("result:N", title=None), color=alt.Color("result:N", legend=None)
    )
    tips = [alt.Tooltip("kind:N", title="game"), alt.Tooltip("result:N"),
            alt.Tooltip("mean:Q", format=".2f"), alt.Tooltip("low:Q", format=".2f"),
            alt.Tooltip("high:Q", format=".2f"), alt.Tooltip("units:Q")]  # fmt: skip
    rule = base.mark_rule().encode(x=alt.X("low:Q", title="mean result against the table"),
                                   x2="high:Q")  # fmt: skip
    point = base.mark_point(filled=True, size=80).encode(x="mean:Q", tooltip=tips)
    title = "Mean result per unit, raw and with the luck taken out"
    chart = (rule + point).properties(height=60).facet(row=alt.Row("kind:N", title=None))
    st.altair_chart(chart.properties(title=title, description=title))
    st.caption("Per hand (Hearts), round (Hiifuu, Fou!) or game (Hez2), the player's result "
               "minus the table's mean, in the game's own measure (lower is better for Hearts "
               "points and Hez2 places), with its 95% interval; the luck of the deals and draws "
               "taken out, the interval narrows where the luck explained the spread "
               "(docs/review.md, Luck).")  # fmt: skip
    with st.expander("Table"):
        st.dataframe(in_words(table.drop_columns(["player"])), hide_index=True)


def fair_play(path: str, chosen: Filters, snap: Snapshot) -> None:
    table = statistic(path, "fairplay_players", chosen, snap)
    if not section("Fair play", table, "No fair-play counts stored for this player among the "
                   "chosen games: `replay reindex STORE --fairplay` makes them "
                   "(docs/review.md)."):  # fmt: skip
        return
    past = [value_words("kind", r["kind"]) for r in table.to_pylist() if r["past_threshold"]]
    if past:
        st.warning(f"Past the threshold in {', '.join(past)}: this player played the card best "
                   "with every hand visible more often than an honest player of the same "
                   "agreement with the policy would. A signal for an arbiter to look further, "
                   "never proof.")  # fmt: skip
    st.dataframe(in_words(table.drop_columns(["player"])), hide_index=True)
    st.caption("At the plays near a unit's end where the card best with every hand visible is "
               "not the honest policy's: how often the player played it (rate) against what an "
               "honest player of the same agreement would (expected); past the threshold at z "
               ">= 3.09 (one-sided p < 0.001). A signal, never proof (docs/review.md, Fair "
               "play).")  # fmt: skip


def games(path: str, chosen: Filters, snap: Snapshot) -> None:
    st.header("Games", anchor="games")
    table = chosen_games(path, chosen, snap)
    placed = places(path, chosen, snap)
    ids = [str(g) for g in table.column("game_id").to_pylist()]
    shown: dict[str, Any] = {
        "game": [f"/replay?game={g}" for g in ids],
        "kind": table.column("kind").to_pylist(),
        "started": table.column("started").to_pylist(),
        "place": [placed.get(g) for g in ids],
        "players": [", ".join(p or []) for p in table.column("players").to_pylist()],
        "winners": [", ".join(w or []) for w in table.column("winners").to_pylist()],
    }
    st.dataframe(
        shown, hide_index=True,
        column_config={"game": st.column_config.LinkColumn(
            "game", display_text=r"/replay\?game=(.*)", help="Opens the replay")},
    )  # fmt: skip
    st.download_button(
        "Download the games (CSV)", csv_bytes(pa.table(shown)), f"games-{chosen.player}.csv",
        "text/csv", key="csv_player_games",
    )  # fmt: skip


def main() -> None:
    path, chosen, snap = page_context()
    st.title("Player")
    show_problems(path)
    player = pick_player(path, chosen, snap)
    if player is None or analytics(path, snap) is None:
        return
    chosen = dataclasses.replace(chosen, player=player)
    scope = f"{chosen.kind} games" if chosen.kind else "every game"
    st.subheader(player)
    st.caption(f"{scope}; the sidebar's filters apply. [Results](#results) · "
               "[Rating over time](#rating-over-time) · [Head to head](#head-to-head) · "
               "[Luck](#luck) · [Fair play](#fair-play) · [Games](#games)")  # fmt: skip
    with warned("The results could not be computed"):
        results(path, chosen, snap)
    with warned("The ratings could not be computed"):
        rating(path, chosen, snap)
    with warned("Head to head could not be computed"):
        head_to_head(path, chosen, snap)
    with warned("The luck could not be read"):
        luck(path, chosen, snap)
    with warned("The fair-play signal could not be read"):
        fair_play(path, chosen, snap)
    with warned("The games could not be listed"):
        games(path, chosen, snap)


main()
