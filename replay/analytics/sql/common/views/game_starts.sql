-- game_starts: one row per game_start event, its time, date, seat count and setup data, and
-- gno, the game's number in game id order (an integer key: joins on it are several times
-- faster than on the id).
SELECT game_id, CAST(dense_rank() OVER (ORDER BY game_id) AS INT) AS gno, kind, ts AS started, CAST(ts AS DATE) AS day,
  TRY_CAST(get_json_object(data, '$.players') AS INT) AS players, data
FROM events
WHERE type = 'game_start'
