-- luck_units: the stored luck (luck) with each seat's game and player: kind, start time, day,
-- seats at the table, seat, player, bot, unit, result, relative result, luck, the luck's weight
-- and the luck-adjusted result, relative - weight * luck. The weight, per kind and seat count
-- over every stored unit, is the least-squares slope of the relative results on the luck, kept
-- within [0, 1] (1 where the luck does not vary): the luck has mean 0 whatever its weight, and
-- this one leaves the adjusted results the least variance (replay.review.luck.luck_weight; the
-- stored `adjusted` of `luck` is relative - luck). Mean luck-adjusted result by player, one
-- query: SELECT kind, player, avg(adjusted) FROM luck_units GROUP BY kind, player.
WITH weights AS (
  SELECT kind, players,
    greatest(0.0, least(1.0,
      coalesce(covar_samp(relative, luck) / nullif(var_samp(luck), 0), 1.0))) AS weight
  FROM luck
  GROUP BY kind, players
)
SELECT l.game_id, s.gno, l.kind, s.started, s.day, s.players, l.seat, s.player, s.bot, l.unit,
  l.result, l.relative, l.luck, w.weight, l.relative - w.weight * l.luck AS adjusted
FROM luck l
JOIN weights w ON w.kind = l.kind AND w.players = l.players
JOIN seats s ON s.game_id = l.game_id AND s.seat = l.seat
