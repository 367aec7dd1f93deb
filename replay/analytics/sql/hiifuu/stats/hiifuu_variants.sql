-- title: Hiifuu: normal and random-token variants
-- chart: rate
-- section: Rounds and scores
-- Per variant: seat-rounds (opportunities), rounds with exactly two tricks (hits), and the
-- average round score.
SELECT h.variant, count(*) AS opportunities,
  sum(CASE WHEN h.tricks_won = 2 THEN 1 ELSE 0 END) AS hits, avg(h.score) AS avg_score
FROM hiifuu_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.variant
ORDER BY h.variant
