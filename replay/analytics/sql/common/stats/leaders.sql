-- title: Who wins most
-- chart: rate
-- section: Players
-- words: hits=won, opportunities=played
-- Per game kind: the three players with the most games won (hits) out of games played
-- (opportunities), ties broken by fewer games, then by name; the first figures a club looks at.
SELECT kind, player, hits, opportunities
FROM (
  SELECT kind, player, hits, opportunities,
    row_number() OVER (PARTITION BY kind ORDER BY hits DESC, opportunities, player) AS place
  FROM (
    SELECT kind, player, sum(CASE WHEN won THEN 1 ELSE 0 END) AS hits, count(*) AS opportunities
    FROM chosen_seats
    GROUP BY kind, player
  ) played
) ranked
WHERE place <= 3
ORDER BY kind, hits DESC, opportunities, player
