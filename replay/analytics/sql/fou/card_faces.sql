-- Fou! cards: <colour><value>, G2..G27, R2..R23, Y2..Y21, B2..B15, and the six colourless 1s
-- 1a..1f (jokers: they belong to no colour and count as the led colour's lowest card).
SELECT 'fou' AS kind, concat(c.suit, CAST(v.rank AS STRING)) AS card, c.suit, v.rank,
  false AS joker, 0 AS points
FROM (VALUES ('G', 27), ('R', 23), ('Y', 21), ('B', 15)) AS c(suit, top)
CROSS JOIN (VALUES (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15),
  (16), (17), (18), (19), (20), (21), (22), (23), (24), (25), (26), (27)) AS v(rank)
WHERE v.rank <= c.top
UNION ALL
SELECT 'fou' AS kind, concat('1', j.letter) AS card, CAST(NULL AS STRING) AS suit, 1 AS rank,
  true AS joker, 0 AS points
FROM (VALUES ('a'), ('b'), ('c'), ('d'), ('e'), ('f')) AS j(letter)
