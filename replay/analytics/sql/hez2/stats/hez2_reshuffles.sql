-- title: Hez2: reshuffles
-- chart: rate
-- section: Rounds and scores
-- Per seat count: games (opportunities), reshuffles of the discard pile into the stock, and
-- games with at least one reshuffle (hits).
SELECT h.players, count(*) AS opportunities, sum(h.reshuffles) AS reshuffles,
  sum(CASE WHEN h.reshuffles > 0 THEN 1 ELSE 0 END) AS hits
FROM hez2_games h
JOIN chosen c ON c.gno = h.gno
GROUP BY h.players
ORDER BY h.players
