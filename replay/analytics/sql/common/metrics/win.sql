-- title: Game won
-- unit: seat in a game
-- A seat in a game (opportunity) that won it (hit).
SELECT gno, seat, CASE WHEN won THEN 1 ELSE 0 END AS hit
FROM seats
