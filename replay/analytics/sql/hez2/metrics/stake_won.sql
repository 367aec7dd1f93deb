-- title: Hez2: money won
-- unit: staked seat in a game
-- A staked seat in a Hez2 game (opportunity) paid out more than its stake (hit).
SELECT gno, seat, CASE WHEN score > 0 THEN 1 ELSE 0 END AS hit
FROM hez2_seats
WHERE stake IS NOT NULL
