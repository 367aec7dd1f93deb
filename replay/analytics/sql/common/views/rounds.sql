-- rounds: one row per game x round x seat (a round: one in which cards were dealt): the round's
-- score and running total (round_scored), tricks won, points taken in tricks (0 where tricks
-- carry none) and the round's dealer.
-- derived: true
WITH r AS (
  SELECT DISTINCT game_id, round FROM events WHERE type = 'deal' AND round IS NOT NULL
), sc AS (
  SELECT game_id, round, player AS seat, amount AS score, total
  FROM events
  WHERE type = 'round_scored'
), tw AS (
  SELECT game_id, round, winner AS seat, CAST(count(*) AS INT) AS tricks_won,
    CAST(sum(coalesce(points, 0)) AS INT) AS points_taken
  FROM tricks
  GROUP BY game_id, round, winner
)
SELECT s.game_id, s.gno, s.kind, r.round, s.seat, s.player, s.bot, s.players, sc.score, sc.total,
  coalesce(tw.tricks_won, 0) AS tricks_won, coalesce(tw.points_taken, 0) AS points_taken,
  d.dealer
FROM seats s
JOIN r ON r.game_id = s.game_id
LEFT JOIN sc ON sc.game_id = s.game_id AND sc.round = r.round AND sc.seat = s.seat
LEFT JOIN tw ON tw.game_id = s.game_id AND tw.round = r.round AND tw.seat = s.seat
LEFT JOIN round_dealers d ON d.game_id = s.game_id AND d.round = r.round
