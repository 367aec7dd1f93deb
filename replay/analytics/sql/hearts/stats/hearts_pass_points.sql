-- title: Hearts: points received in passes
-- chart: bar
-- section: Players
-- Per player: hands in which the player received a pass, the points in the cards received
-- (a heart 1, the queen of spades 13), their average, and how often the queen came with them.
SELECT h.player, count(*) AS passes, sum(h.pass_points) AS points,
  avg(h.pass_points) AS avg_points,
  sum(CASE WHEN h.queen_received THEN 1 ELSE 0 END) AS queens
FROM hearts_hands h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.passed_to
GROUP BY h.player
ORDER BY h.player
