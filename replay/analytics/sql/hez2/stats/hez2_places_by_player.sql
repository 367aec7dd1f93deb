-- title: Hez2: places by player
-- chart: rate
-- section: Players
-- Per player: games, the average place, first places (hits) out of games (opportunities), and
-- last places.
SELECT h.player, count(*) AS opportunities, avg(h.place) AS avg_place,
  sum(CASE WHEN h.place = 1 THEN 1 ELSE 0 END) AS hits,
  sum(CASE WHEN h.place = h.players THEN 1 ELSE 0 END) AS last
FROM hez2_seats h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
