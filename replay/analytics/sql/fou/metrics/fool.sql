-- title: Fou!: Fool in a round
-- unit: seat in a round
-- A seat in a Fou! round (opportunity) that was Fool at least once in it (hit).
SELECT gno, seat, CASE WHEN fools > 0 THEN 1 ELSE 0 END AS hit
FROM fou_rounds
