-- card_faces: what a card code is, per game kind (each kind's card_faces.sql adds its rows):
-- suit (or colour; null for a joker), rank (a number, ace high where the game ranks it so),
-- joker (a card that belongs to no suit), points (what taking it costs, where cards score).
SELECT CAST(NULL AS STRING) AS kind, CAST(NULL AS STRING) AS card, CAST(NULL AS STRING) AS suit,
  CAST(NULL AS INT) AS rank, CAST(NULL AS BOOLEAN) AS joker, CAST(NULL AS INT) AS points
WHERE 1 = 0
