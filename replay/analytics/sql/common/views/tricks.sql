-- tricks: one row per trick won (trick_won): leader, led suit or colour, winner, winning card,
-- points (the trick's amount, where tricks score), cards played, jokers and discards among them,
-- and whether the lead held (the leader won).
-- derived: true
WITH t AS (
  SELECT e.game_id, g.gno, e.kind, e.round, e.trick, e.player AS winner, e.amount AS points
  FROM events e
  LEFT JOIN game_starts g ON g.game_id = e.game_id
  WHERE e.type = 'trick_won'
), j AS (
  SELECT t.game_id, t.gno, t.kind, t.round, t.trick, t.winner, t.points,
    max(CASE WHEN p.position = 1 THEN p.seat END) AS leader,
    max(p.led) AS led,
    max(CASE WHEN p.seat = t.winner THEN p.card END) AS winning_card,
    CAST(count(p.seq) AS INT) AS cards,
    CAST(sum(CASE WHEN p.joker THEN 1 ELSE 0 END) AS INT) AS jokers,
    CAST(sum(CASE WHEN p.discarded THEN 1 ELSE 0 END) AS INT) AS discards
  FROM t
  LEFT JOIN plays p ON p.game_id = t.game_id AND p.round = t.round AND p.trick = t.trick
  GROUP BY t.game_id, t.gno, t.kind, t.round, t.trick, t.winner, t.points
)
SELECT game_id, gno, kind, round, trick, leader, led, winner, winning_card, points, cards, jokers,
  discards, winner = leader AS lead_held
FROM j
