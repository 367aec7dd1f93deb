-- chosen_seats: the seats of the chosen games, only :player's own seats when a player is
-- given: the rows that per-player and per-seat statistics count.
SELECT s.*
FROM seats s
JOIN chosen c ON c.gno = s.gno
WHERE :player IS NULL OR s.player = :player
