-- Hearts cards: <rank><suit>, ranks 2..A (ace high), suits C D S H; a heart costs 1 point, the
-- queen of spades 13.
SELECT 'hearts' AS kind, concat(r.label, s.suit) AS card, s.suit, r.rank, false AS joker,
  CASE WHEN s.suit = 'H' THEN 1 WHEN s.suit = 'S' AND r.label = 'Q' THEN 13 ELSE 0 END AS points
FROM (VALUES ('C'), ('D'), ('S'), ('H')) AS s(suit)
CROSS JOIN (VALUES ('2', 2), ('3', 3), ('4', 4), ('5', 5), ('6', 6), ('7', 7), ('8', 8),
  ('9', 9), ('T', 10), ('J', 11), ('Q', 12), ('K', 13), ('A', 14)) AS r(label, rank)
