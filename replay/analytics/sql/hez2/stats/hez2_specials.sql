-- title: Hez2: aces, 2s and 7s played and answered
-- chart: rate
-- section: Cards
-- Per rank (1 = ace: skip, 2: draw two, 7: choose the suit): cards played, cards faced by the
-- next player (opportunities) and answered by a card of the same rank (hits).
SELECT h.rank, count(*) AS played, sum(CASE WHEN h.faced THEN 1 ELSE 0 END) AS opportunities,
  sum(CASE WHEN h.answered THEN 1 ELSE 0 END) AS hits
FROM hez2_specials h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.rank
ORDER BY h.rank
