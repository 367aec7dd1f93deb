-- Hiifuu cards: <value><suit>, values 1..18 (the deck in play depends on the seat count), suits
-- R G B Y; cards carry no points.
SELECT 'hiifuu' AS kind, concat(CAST(v.rank AS STRING), s.suit) AS card, s.suit, v.rank,
  false AS joker, 0 AS points
FROM (VALUES ('R'), ('G'), ('B'), ('Y')) AS s(suit)
CROSS JOIN (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14),
  (15), (16), (17), (18)) AS v(rank)
