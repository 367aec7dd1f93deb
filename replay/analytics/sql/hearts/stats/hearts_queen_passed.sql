-- title: Hearts: where a passed queen of spades ends
-- chart: rate
-- section: Cards
-- Over the hands in which the queen of spades was passed (opportunities): how often it was taken
-- by the seat that received it, by the seat that passed it, or by another seat (hits).
WITH passed AS (
  SELECT h.gno, h.round,
    max(CASE WHEN h.queen_received THEN h.seat END) AS receiver,
    max(CASE WHEN h.queen_passed THEN h.seat END) AS passer,
    max(CASE WHEN h.took_queen THEN h.seat END) AS taker
  FROM hearts_hands h
  JOIN chosen c ON c.gno = h.gno
  GROUP BY h.gno, h.round
), outcome AS (
  SELECT CASE WHEN taker = receiver THEN 'receiver' WHEN taker = passer THEN 'passer'
    ELSE 'other seat' END AS taken_by
  FROM passed
  WHERE receiver IS NOT NULL
)
SELECT o.taken_by, count(*) AS hits, max(t.n) AS opportunities
FROM outcome o
CROSS JOIN (SELECT count(*) AS n FROM outcome) t
GROUP BY o.taken_by
ORDER BY o.taken_by
