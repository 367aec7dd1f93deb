-- title: Hearts: shooting the moon
-- chart: rate
-- section: Players
-- Per player: hands played, moon attempts (hands in which the player took 20 points or more:
-- opportunities), moons shot (all 26 points: hits) and moons stopped (20 or more, not all).
SELECT h.player, count(*) AS hands,
  sum(CASE WHEN h.points_taken >= 20 THEN 1 ELSE 0 END) AS opportunities,
  sum(CASE WHEN h.moon THEN 1 ELSE 0 END) AS hits,
  sum(CASE WHEN h.points_taken >= 20 AND NOT h.moon THEN 1 ELSE 0 END) AS stopped
FROM hearts_hands h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
