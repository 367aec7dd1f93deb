-- title: Hearts: who takes the queen of spades
-- chart: rate
-- section: Players
-- Per player: hands played (opportunities) and hands in which the player took the queen of
-- spades (hits).
SELECT h.player, count(*) AS opportunities,
  sum(CASE WHEN h.took_queen THEN 1 ELSE 0 END) AS hits
FROM hearts_hands h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
