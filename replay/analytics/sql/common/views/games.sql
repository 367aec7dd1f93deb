-- games: one row per game: kind, start time and date, seat count, names (the JSON list of
-- game_start, in seat order), bots, events, rounds, whether it ended, and its winners (names in
-- alphabetical order, comma-separated) and their number.
-- derived: true
WITH e AS (
  SELECT game_id, CAST(count(*) AS INT) AS events, CAST(coalesce(max(round), 0) AS INT) AS rounds,
    max(CASE WHEN type = 'game_end' THEN 1 ELSE 0 END) = 1 AS ended
  FROM events
  GROUP BY game_id
), b AS (
  SELECT game_id, CAST(sum(CASE WHEN bot THEN 1 ELSE 0 END) AS INT) AS bots,
    CAST(sum(CASE WHEN won THEN 1 ELSE 0 END) AS INT) AS winners
  FROM seats
  GROUP BY game_id
), w AS (
  SELECT game_id, array_join(array_sort(array_agg(player)), ', ') AS winner_names
  FROM seats
  WHERE won AND player IS NOT NULL
  GROUP BY game_id
)
SELECT g.game_id, g.gno, g.kind, g.started, g.day, g.players,
  get_json_object(g.data, '$.names') AS names, b.bots, e.events, e.rounds, e.ended,
  b.winners, w.winner_names
FROM game_starts g
JOIN e ON e.game_id = g.game_id
LEFT JOIN b ON b.game_id = g.game_id
LEFT JOIN w ON w.game_id = g.game_id
