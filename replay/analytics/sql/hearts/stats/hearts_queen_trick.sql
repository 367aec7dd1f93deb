-- title: Hearts: the trick on which the queen of spades falls
-- chart: histogram
-- section: Cards
-- Per trick number (1-13): hands in which the queen of spades was taken on that trick.
SELECT h.queen_trick AS trick, count(*) AS hands
FROM hearts_hands h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.took_queen
GROUP BY h.queen_trick
ORDER BY h.queen_trick
