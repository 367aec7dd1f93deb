-- fou_rounds: one row per Fou! game x round x seat: the round's score, whether it was a +10
-- round (the hand emptied), the penalty for cards left (a negative score), and Fools named.
-- derived: true
WITH f AS (
  SELECT game_id, round, seat, count(*) AS fools FROM fou_fools GROUP BY game_id, round, seat
)
SELECT r.game_id, r.round, r.seat, r.player, r.bot, r.players, r.score, r.total,
  r.score = 10 AS plus_ten, CASE WHEN r.score < 0 THEN r.score END AS penalty,
  CAST(coalesce(f.fools, 0) AS INT) AS fools
FROM rounds r
LEFT JOIN f ON f.game_id = r.game_id AND f.round = r.round AND f.seat = r.seat
WHERE r.kind = 'fou'
