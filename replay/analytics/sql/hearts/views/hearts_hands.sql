-- hearts_hands: one row per Hearts hand x seat: points taken in tricks, hearts taken, whether the
-- seat took the queen of spades (and on which trick), the hand's score, whether it shot the moon
-- (took all 26 points), and what the pass brought it: the points in the three cards received and
-- whether the queen was among them, and whether it passed the queen away.
-- derived: true
WITH q AS (
  SELECT t.game_id, t.round, t.trick, t.winner
  FROM plays p
  JOIN tricks t ON t.game_id = p.game_id AND t.round = p.round AND t.trick = p.trick
  WHERE p.kind = 'hearts' AND p.card = 'QS'
), passes AS (
  SELECT game_id, round, player AS passer, target AS receiver, cards
  FROM events
  WHERE kind = 'hearts' AND type = 'pass'
), passed AS (
  SELECT game_id, round, passer, receiver, element_at(cards, 1) AS card FROM passes
  UNION ALL
  SELECT game_id, round, passer, receiver,
    CASE WHEN size(cards) >= 2 THEN element_at(cards, 2) END AS card
  FROM passes
  UNION ALL
  SELECT game_id, round, passer, receiver,
    CASE WHEN size(cards) >= 3 THEN element_at(cards, 3) END AS card
  FROM passes
), received AS (
  SELECT x.game_id, x.round, x.receiver AS seat, count(x.card) AS cards_received,
    CAST(sum(coalesce(f.points, 0)) AS INT) AS pass_points,
    max(CASE WHEN x.card = 'QS' THEN 1 ELSE 0 END) = 1 AS queen_received
  FROM passed x
  LEFT JOIN card_faces f ON f.kind = 'hearts' AND f.card = x.card
  GROUP BY x.game_id, x.round, x.receiver
), gave AS (
  SELECT game_id, round, passer AS seat,
    max(CASE WHEN card = 'QS' THEN 1 ELSE 0 END) = 1 AS queen_passed
  FROM passed
  GROUP BY game_id, round, passer
)
SELECT r.game_id, r.gno, r.round, r.seat, r.player, r.bot, r.score, r.points_taken,
  r.points_taken - CASE WHEN q.winner IS NOT NULL THEN 13 ELSE 0 END AS hearts_taken,
  q.winner IS NOT NULL AS took_queen,
  CASE WHEN q.winner IS NOT NULL THEN q.trick END AS queen_trick,
  r.points_taken = 26 AS moon,
  rc.cards_received IS NOT NULL AS passed_to,
  coalesce(rc.pass_points, 0) AS pass_points,
  coalesce(rc.queen_received, false) AS queen_received,
  coalesce(g.queen_passed, false) AS queen_passed
FROM rounds r
LEFT JOIN q ON q.game_id = r.game_id AND q.round = r.round AND q.winner = r.seat
LEFT JOIN received rc ON rc.game_id = r.game_id AND rc.round = r.round AND rc.seat = r.seat
LEFT JOIN gave g ON g.game_id = r.game_id AND g.round = r.round AND g.seat = r.seat
WHERE r.kind = 'hearts'
