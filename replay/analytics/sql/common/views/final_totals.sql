-- final_totals: each seat's last running total (the round_scored of its highest seq).
SELECT game_id, kind, player AS seat, max_by(total, seq) AS total
FROM events
WHERE type = 'round_scored'
GROUP BY game_id, kind, player
