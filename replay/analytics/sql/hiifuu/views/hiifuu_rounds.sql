-- hiifuu_rounds: one row per Hiifuu game x round x seat: the variant (normal or random-tokens),
-- tricks won, the trick on which the seat won its second trick, the token it took (its position
-- in the layout, from 0, and value), whether its third trick covered it, and the round's score.
-- derived: true
WITH v AS (
  SELECT game_id, get_json_object(data, '$.variant') AS variant
  FROM game_starts
  WHERE kind = 'hiifuu'
), second AS (
  SELECT game_id, round, player AS seat, min(trick) AS trick
  FROM events
  WHERE kind = 'hiifuu' AND type = 'trick_won' AND total = 2
  GROUP BY game_id, round, player
), taken AS (
  SELECT game_id, round, player AS seat, target AS position, amount AS value
  FROM events
  WHERE kind = 'hiifuu' AND type = 'token_taken'
), covered AS (
  SELECT game_id, round, target AS position
  FROM events
  WHERE kind = 'hiifuu' AND type = 'token_covered'
)
SELECT r.game_id, r.gno, r.round, r.seat, r.player, r.bot, r.players, v.variant, r.tricks_won,
  sc.trick AS second_trick, t.position AS token_position, t.value AS token_value,
  t.position IS NOT NULL AND c.position IS NOT NULL AS token_covered, r.score
FROM rounds r
JOIN v ON v.game_id = r.game_id
LEFT JOIN second sc ON sc.game_id = r.game_id AND sc.round = r.round AND sc.seat = r.seat
LEFT JOIN taken t ON t.game_id = r.game_id AND t.round = r.round AND t.seat = r.seat
LEFT JOIN covered c ON c.game_id = r.game_id AND c.round = r.round AND c.position = t.position
WHERE r.kind = 'hiifuu'
