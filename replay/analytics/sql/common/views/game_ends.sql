-- game_ends: one row per game_end event: the winners' seats and the time (the column `values`
-- is named through its table, e.values: a bare values is a keyword in both engines).
SELECT e.game_id, e.values AS winner_seats, e.ts AS ended_at
FROM events e
WHERE e.type = 'game_end'
