-- title: Hearts: the trick at which hearts are broken
-- chart: histogram
-- section: Rounds and scores
-- Per trick number: hands whose first heart was played on that trick (null: no heart played).
WITH hands AS (
  SELECT t.gno, t.round, max(CASE WHEN t.breaks_hearts THEN t.trick END) AS trick
  FROM hearts_tricks t
  JOIN chosen c ON c.gno = t.gno
  GROUP BY t.gno, t.round
)
SELECT trick, count(*) AS hands
FROM hands
GROUP BY trick
ORDER BY trick
