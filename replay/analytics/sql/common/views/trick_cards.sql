-- trick_cards: one row per game x card played in a trick: the times it was played and the
-- tricks it won (it was the winner's card); the per-game counts the card statistics add up.
-- derived: true
WITH played AS (
  SELECT game_id, gno, kind, card, count(*) AS played
  FROM plays
  WHERE trick IS NOT NULL
  GROUP BY game_id, gno, kind, card
), won AS (
  SELECT game_id, winning_card AS card, count(*) AS won
  FROM tricks
  GROUP BY game_id, winning_card
)
SELECT p.game_id, p.gno, p.kind, p.card, CAST(p.played AS INT) AS played,
  CAST(coalesce(w.won, 0) AS INT) AS won
FROM played p
LEFT JOIN won w ON w.game_id = p.game_id AND w.card = p.card
