-- seat_numbers: the seat numbers 0..15, to turn a game's seat count into one row per seat.
SELECT seat FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12),
  (13), (14), (15)) AS t(seat)
