-- title: Hiifuu: tokens by position in the layout
-- chart: rate
-- section: Rounds and scores
-- Per token position (0 = first in the layout): tokens taken (opportunities), kept uncovered
-- to the end of the round (hits: they score), and their average value.
SELECT h.token_position AS position, count(*) AS opportunities,
  sum(CASE WHEN h.token_covered THEN 0 ELSE 1 END) AS hits, avg(h.token_value) AS avg_value
FROM hiifuu_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.token_position IS NOT NULL
GROUP BY h.token_position
ORDER BY h.token_position
