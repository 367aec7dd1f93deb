-- title: Hearts: queen of spades taken
-- unit: seat in a hand
-- A seat in a Hearts hand (opportunity) that took the queen of spades (hit).
SELECT gno, seat, CASE WHEN took_queen THEN 1 ELSE 0 END AS hit
FROM hearts_hands
