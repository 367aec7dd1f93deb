-- title: Fou!: Fools per player per round
-- chart: rate
-- section: Players
-- Per player: rounds played (opportunities), rounds in which the player was Fool at least once
-- (hits), Fools in all, and Fools per round.
SELECT h.player, count(*) AS opportunities, sum(CASE WHEN h.fools > 0 THEN 1 ELSE 0 END) AS hits,
  sum(h.fools) AS fools, avg(h.fools) AS fools_per_round
FROM fou_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.player
ORDER BY h.player
