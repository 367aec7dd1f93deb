-- title: Points per round
-- chart: histogram
-- section: Rounds and scores
-- Per game kind: how many seat-rounds ended with each round score (round_scored amount).
SELECT r.kind, r.score, count(*) AS rounds
FROM rounds r
JOIN chosen_seats s ON s.gno = r.gno AND s.seat = r.seat
WHERE r.score IS NOT NULL
GROUP BY r.kind, r.score
ORDER BY r.kind, r.score
