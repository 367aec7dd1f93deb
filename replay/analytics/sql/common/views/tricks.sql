-- tricks: one row per trick won (trick_won): leader, led suit or colour, winner, winning card,
-- points (the trick's amount, where tricks score), cards played, jokers and discards among them,
-- and whether the lead held (the leader won).
-- derived: true
WITH t AS (
  SELECT e.game_id, g.gno, e.kind, e.round, e.trick, e.player AS winner, e.amount AS points
  FROM events e
  LEFT JOIN game_starts g ON g.game_id = e.game_id
  WHERE e.type = 'trick_won'
), a AS (
  SELECT gno, round, trick, max(CASE WHEN position = 1 THEN seat END) AS leader,
    max(led) AS led, CAST(count(*) AS INT) AS cards,
    CAST(sum(CASE WHEN joker THEN 1 ELSE 0 END) AS INT) AS jokers,
    CAST(sum(CASE WHEN discarded THEN 1 ELSE 0 END) AS INT) AS discards
  FROM plays
  WHERE trick IS NOT NULL
  GROUP BY gno, round, trick
)
SELECT t.game_id, t.gno, t.kind, t.round, t.trick, a.leader, a.led, t.winner,
  w.card AS winning_card, t.points, coalesce(a.cards, 0) AS cards, coalesce(a.jokers, 0) AS jokers,
  coalesce(a.discards, 0) AS discards, t.winner = a.leader AS lead_held
FROM t
LEFT JOIN a ON a.gno = t.gno AND a.round = t.round AND a.trick = t.trick
LEFT JOIN plays w ON w.gno = t.gno AND w.round = t.round AND w.trick = t.trick
  AND w.seat = t.winner
