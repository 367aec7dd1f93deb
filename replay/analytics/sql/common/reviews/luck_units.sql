-- luck_units: the stored luck (luck) with each seat's game and player: kind, start time, day,
-- seats at the table, seat, player, bot, unit, result, relative result, luck and luck-adjusted
-- result. Mean luck-adjusted result by player, one query: SELECT kind, player, avg(adjusted)
-- FROM luck_units GROUP BY kind, player.
SELECT l.game_id, s.gno, l.kind, s.started, s.day, s.players, l.seat, s.player, s.bot, l.unit,
  l.result, l.relative, l.luck, l.adjusted
FROM luck l
JOIN seats s ON s.game_id = l.game_id AND s.seat = l.seat
