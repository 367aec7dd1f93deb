-- title: Which cards win tricks
-- chart: rate
-- section: Cards
-- For the kinds with tricks, per card: times played in a trick (opportunities) and tricks it
-- won (hits: it was the winner's card).
SELECT t.kind, t.card, sum(t.played) AS opportunities, sum(t.won) AS hits
FROM trick_cards t
JOIN chosen c ON c.gno = t.gno
GROUP BY t.kind, t.card
ORDER BY t.kind, t.card
