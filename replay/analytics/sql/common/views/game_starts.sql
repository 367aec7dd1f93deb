-- game_starts: one row per game_start event, its time, date, seat count and setup data.
SELECT game_id, kind, ts AS started, CAST(ts AS DATE) AS day,
  TRY_CAST(get_json_object(data, '$.players') AS INT) AS players, data
FROM events
WHERE type = 'game_start'
