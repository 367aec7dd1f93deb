#!/usr/bin/env bash
# The main job on sample_logs/: what is stored, an audit of everything, a dispute explained, a replay.
set -u
BIN=${BIN:-.venv/bin}
STORE=sample_logs/store
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

step "$BIN/replay" --version
step "$BIN/replay" info "$STORE"
step "$BIN/replay" games "$STORE" --kind hearts --limit 5
step "$BIN/replay" audit "$STORE" --jobs 2 || exit 1

DISPUTE=sample_logs/disputes/hearts/HEARTS-FOLLOW
read -r GAME SEQ < <("$BIN/python" -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['game_id'], d['seq'])" "$DISPUTE.expected.json")
step "$BIN/replay" audit "$DISPUTE.jsonl"
step "$BIN/replay" explain "$DISPUTE.jsonl" --game "$GAME" --step "$SEQ"
GAME=hearts-2026-03-03-t1
step "$BIN/replay" show "$STORE" --game "$GAME" --step 60
exit 0
