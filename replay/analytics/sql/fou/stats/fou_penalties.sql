-- title: Fou!: remaining-card penalties
-- chart: histogram
-- section: Rounds and scores
-- Per penalty (a negative round score: minus the cards left, a 1 counting 5): how many
-- seat-rounds ended with it.
SELECT h.penalty, count(*) AS rounds
FROM fou_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.penalty IS NOT NULL
GROUP BY h.penalty
ORDER BY h.penalty
