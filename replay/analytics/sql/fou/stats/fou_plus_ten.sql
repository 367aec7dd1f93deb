-- title: Fou!: +10 rounds
-- chart: rate
-- section: Players
-- Per player: rounds played (opportunities) and rounds scored +10 (the hand emptied: hits).
SELECT h.player, count(*) AS opportunities, sum(CASE WHEN h.plus_ten THEN 1 ELSE 0 END) AS hits
FROM fou_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
