-- hez2_games: one row per Hez2 game: turns (decisions that start a turn), reshuffles of the
-- discard pile, and the longest pending draw served (the largest forced_draw amount, 0 if none).
-- derived: true
SELECT g.game_id, g.gno, g.players,
  CAST(sum(CASE WHEN e.type IN ('play', 'draw', 'accept_skip', 'accept_draw') THEN 1 ELSE 0 END)
    AS INT) AS turns,
  CAST(sum(CASE WHEN e.type = 'reshuffle' THEN 1 ELSE 0 END) AS INT) AS reshuffles,
  CAST(coalesce(max(CASE WHEN e.type = 'forced_draw' THEN e.amount END), 0) AS INT)
    AS longest_draw
FROM game_starts g
JOIN events e ON e.game_id = g.game_id
WHERE g.kind = 'hez2' AND e.kind = 'hez2'
GROUP BY g.game_id, g.gno, g.players
