-- title: Hez2: cards left when the first player goes out
-- chart: histogram
-- section: Rounds and scores
-- Per seat count and number of cards held by a seat still in play at the moment the first
-- player went out: how many seats held that many.
SELECT h.players, h.held_at_first_out AS cards, count(*) AS seats
FROM hez2_seats h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.held_at_first_out > 0
GROUP BY h.players, h.held_at_first_out
ORDER BY h.players, h.held_at_first_out
