-- title: Hearts: clean hand
-- unit: seat in a hand
-- A seat in a Hearts hand (opportunity) that took no point (hit).
SELECT gno, seat, CASE WHEN points_taken = 0 THEN 1 ELSE 0 END AS hit
FROM hearts_hands
