-- title: Hiifuu: exactly two tricks
-- unit: seat in a round
-- A seat in a Hiifuu round (opportunity) that ended it with exactly two tricks (hit).
SELECT gno, seat, CASE WHEN tricks_won = 2 THEN 1 ELSE 0 END AS hit
FROM hiifuu_rounds
