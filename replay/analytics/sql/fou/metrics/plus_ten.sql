-- title: Fou!: +10 round
-- unit: seat in a round
-- A seat in a Fou! round (opportunity) that scored +10 (hit).
SELECT gno, seat, CASE WHEN plus_ten THEN 1 ELSE 0 END AS hit
FROM fou_rounds
