-- title: Which cards win tricks
-- chart: rate
-- For the kinds with tricks, per card: times played in a trick (opportunities) and tricks it
-- won (hits).
SELECT p.kind, p.card, count(*) AS opportunities,
  sum(CASE WHEN p.seat = t.winner THEN 1 ELSE 0 END) AS hits
FROM plays p
JOIN chosen c ON c.game_id = p.game_id
JOIN tricks t ON t.game_id = p.game_id AND t.round = p.round AND t.trick = p.trick
GROUP BY p.kind, p.card
ORDER BY p.kind, p.card
