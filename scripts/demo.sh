#!/usr/bin/env bash
# The main job on sample_logs/: a short look from the terminal, then the dashboard, served until
# Ctrl-C at the URL it prints (opened in a browser when there is a display).
#   DEMO_CHECK=1  start it, check that it is the dashboard that answers (Streamlit's health
#                 endpoint says ok, the page's app bundle is served, the app script runs without
#                 error), print the URL, stop (for scripts and CI)
#   PORT=N HOST=H where to serve (default 8501, or the next free port; 127.0.0.1)
set -u
BIN=${BIN:-.venv/bin}
STORE=sample_logs/store
HOST=${HOST:-127.0.0.1}
# Commands in bold on a terminal only: piped or logged, the escape codes would show as text.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then BOLD=$'\033[1m' PLAIN=$'\033[0m'; else BOLD='' PLAIN=''; fi
step() { printf '\n%s$ %s%s\n' "$BOLD" "$*" "$PLAIN"; "$@"; }

step "$BIN/replay" info "$STORE"
step "$BIN/replay" audit "$STORE" --jobs 2 >/dev/null && echo "audit: every game of $STORE is clean"
DISPUTE=sample_logs/disputes/hearts/HEARTS-FOLLOW
step "$BIN/replay" explain "$DISPUTE.jsonl" --game hearts-HEARTS-FOLLOW --step 10 | tail -3

# The first free port from PORT (8501) on.
PORT=$("$BIN/python" - "${PORT:-8501}" "$HOST" <<'EOF'
import socket, sys
port, host = int(sys.argv[1]), sys.argv[2]
for candidate in range(port, port + 100):
    with socket.socket() as s:
        try:
            s.bind((host, candidate))
        except OSError:
            continue
        print(candidate)
        break
EOF
)
URL="http://$HOST:$PORT"
printf '\n%s$ %s%s\n' "$BOLD" "$BIN/replay dashboard $STORE --port $PORT --host $HOST" "$PLAIN"
# DEMO_CHECK: Streamlit's /_stcore/script-health-check, which runs the app script once.
[ "${DEMO_CHECK:-0}" = 1 ] && export STREAMLIT_SERVER_SCRIPT_HEALTH_CHECK_ENABLED=true
"$BIN/replay" dashboard "$STORE" --port "$PORT" --host "$HOST" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 120); do
    curl -sf "$URL/_stcore/health" >/dev/null 2>&1 && break
    kill -0 $SERVER 2>/dev/null || { echo "the dashboard did not start"; exit 1; }
    sleep 0.5
done
curl -sf "$URL/_stcore/health" >/dev/null || { echo "the dashboard did not answer at $URL"; exit 1; }
echo
echo "The dashboard is at $URL  (pages: Overview, Statistics, Player, Replay, Audit)"
echo "  a replay at one step (game and step in the URL): $URL/replay?game=hearts-2026-03-03-t1&step=12"
if [ "${DEMO_CHECK:-0}" = 1 ]; then
    # Any path gets the page's HTML (the pages are routes of one app), so look for what only
    # a running Streamlit app serves: its health word, the app bundle the page loads, and the
    # verdict of running the app script (dashboards/app.py, its first page) on the store.
    fault() { echo "check failed: $*"; exit 1; }
    [ "$(curl -sf "$URL/_stcore/health")" = ok ] || fault "$URL/_stcore/health is not ok"
    BUNDLE=$(curl -sf "$URL/" | grep -o 'src="\./static/js/[^"]*\.js"' | head -1 | cut -d'"' -f2)
    [ -n "$BUNDLE" ] || fault "the page at $URL/ loads no Streamlit app bundle"
    curl -sf -o /dev/null "$URL/${BUNDLE#./}" || fault "the app bundle $URL/${BUNDLE#./} is missing"
    RAN=$(curl -s --max-time 60 "$URL/_stcore/script-health-check")
    [ "$RAN" = ok ] || fault "the app script does not run: ${RAN:-no answer}"
    echo "check: the dashboard is healthy, serves its app and runs it on $STORE; stopping it"
    exit 0
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
    "$BIN/python" -m webbrowser "$URL" >/dev/null 2>&1 || true
fi
echo "Serving until Ctrl-C."
wait $SERVER
