-- hearts_tricks: one row per Hearts trick: hearts played in it and whether it was the hand's
-- first trick with a heart (hearts broken).
-- derived: true
WITH h AS (
  SELECT game_id, gno, round, trick,
    CAST(sum(CASE WHEN suit = 'H' THEN 1 ELSE 0 END) AS INT) AS hearts
  FROM plays
  WHERE kind = 'hearts'
  GROUP BY game_id, gno, round, trick
), first_heart AS (
  SELECT game_id, round, min(trick) AS trick FROM h WHERE hearts > 0 GROUP BY game_id, round
)
SELECT h.game_id, h.gno, h.round, h.trick, h.hearts, f.trick IS NOT NULL AS breaks_hearts
FROM h
LEFT JOIN first_heart f ON f.game_id = h.game_id AND f.round = h.round AND f.trick = h.trick
