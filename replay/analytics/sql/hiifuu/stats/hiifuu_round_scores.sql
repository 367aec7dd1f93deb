-- title: Hiifuu: token values earned per round
-- chart: bar
-- section: Rounds and scores
-- Per round number: seat-rounds, the average score (the value of the uncovered token kept, or
-- 0), and seat-rounds that scored (hits) out of seat-rounds (opportunities).
SELECT h.round, count(*) AS opportunities, avg(h.score) AS avg_score,
  sum(CASE WHEN h.score > 0 THEN 1 ELSE 0 END) AS hits
FROM hiifuu_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.round
ORDER BY h.round
