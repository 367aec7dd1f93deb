-- fou_rounds: one row per Fou! game x round x seat: the round's score, whether it was a +10
-- round (the hand emptied), the penalty for cards left (a negative score), cards and jokers
-- (1s) played, and the Fools named, in all and made by a joker.
-- derived: true
WITH f AS (
  SELECT game_id, round, seat, count(*) AS fools,
    sum(CASE WHEN how = 'joker' THEN 1 ELSE 0 END) AS joker_fools
  FROM fou_fools
  GROUP BY game_id, round, seat
), p AS (
  SELECT game_id, round, seat, count(*) AS cards_played,
    sum(CASE WHEN joker THEN 1 ELSE 0 END) AS jokers_played
  FROM plays
  WHERE kind = 'fou'
  GROUP BY game_id, round, seat
)
SELECT r.game_id, r.gno, r.round, r.seat, r.player, r.bot, r.players, r.score, r.total,
  r.score = 10 AS plus_ten, CASE WHEN r.score < 0 THEN r.score END AS penalty,
  CAST(coalesce(p.cards_played, 0) AS INT) AS cards_played,
  CAST(coalesce(p.jokers_played, 0) AS INT) AS jokers_played,
  CAST(coalesce(f.fools, 0) AS INT) AS fools,
  CAST(coalesce(f.joker_fools, 0) AS INT) AS joker_fools
FROM rounds r
LEFT JOIN f ON f.game_id = r.game_id AND f.round = r.round AND f.seat = r.seat
LEFT JOIN p ON p.game_id = r.game_id AND p.round = r.round AND p.seat = r.seat
WHERE r.kind = 'fou'
