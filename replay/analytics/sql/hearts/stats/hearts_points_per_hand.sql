-- title: Hearts: points per hand
-- chart: bar
-- section: Players
-- Per player: hands played, the average hand score (after the moon rule), the average points
-- taken in tricks, and clean hands (no point taken: hits) out of hands played (opportunities).
SELECT h.player, count(*) AS hands, avg(h.score) AS avg_score,
  avg(h.points_taken) AS avg_points_taken,
  sum(CASE WHEN h.points_taken = 0 THEN 1 ELSE 0 END) AS hits, count(*) AS opportunities
FROM hearts_hands h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
