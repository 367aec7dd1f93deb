-- game_ends: one row per game_end event: the winners' seats and the time.
SELECT game_id, "values" AS winner_seats, ts AS ended_at
FROM events
WHERE type = 'game_end'
