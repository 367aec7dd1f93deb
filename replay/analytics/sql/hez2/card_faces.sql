-- Hez2 cards: <rank><suit>, ranks 1..7, S (Sota), C (Caballo), R (Rey), suits O C E B (Spanish
-- deck); cards carry no points.
SELECT 'hez2' AS kind, concat(r.label, s.suit) AS card, s.suit, r.rank, false AS joker,
  0 AS points
FROM (VALUES ('O'), ('C'), ('E'), ('B')) AS s(suit)
CROSS JOIN (VALUES ('1', 1), ('2', 2), ('3', 3), ('4', 4), ('5', 5), ('6', 6), ('7', 7),
  ('S', 8), ('C', 9), ('R', 10)) AS r(label, rank)
