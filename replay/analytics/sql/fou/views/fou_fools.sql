-- fou_fools: one row per Fool named in Fou!: the round, trick, seat and the card that made the
-- Fool, and how: a joker (a 1), a discard (a card of another colour) or a low card of the led
-- colour.
-- derived: true
SELECT f.game_id, g.gno, f.round, f.trick, f.player AS seat, f.card,
  CASE WHEN p.joker THEN 'joker' WHEN p.discarded THEN 'discard' ELSE 'low card' END AS how
FROM events f
LEFT JOIN game_starts g ON g.game_id = f.game_id
LEFT JOIN plays p ON p.game_id = f.game_id AND p.round = f.round AND p.trick = f.trick
  AND p.card = f.card
WHERE f.kind = 'fou' AND f.type = 'fool'
