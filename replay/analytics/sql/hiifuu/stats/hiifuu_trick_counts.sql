-- title: Hiifuu: tricks won per round
-- chart: rate
-- section: Players
-- Per player: rounds played (opportunities), rounds ended with exactly two tricks (the game's
-- aim: hits), and with zero, one, three or more tricks.
SELECT h.player, count(*) AS opportunities,
  sum(CASE WHEN h.tricks_won = 2 THEN 1 ELSE 0 END) AS hits,
  sum(CASE WHEN h.tricks_won = 0 THEN 1 ELSE 0 END) AS zero,
  sum(CASE WHEN h.tricks_won = 1 THEN 1 ELSE 0 END) AS one,
  sum(CASE WHEN h.tricks_won >= 3 THEN 1 ELSE 0 END) AS three_or_more
FROM hiifuu_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
