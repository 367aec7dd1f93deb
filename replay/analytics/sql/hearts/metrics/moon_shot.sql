-- title: Hearts: moon shot
-- unit: seat in a hand
-- A seat in a Hearts hand (opportunity) that took all 26 points (hit).
SELECT gno, seat, CASE WHEN moon THEN 1 ELSE 0 END AS hit
FROM hearts_hands
