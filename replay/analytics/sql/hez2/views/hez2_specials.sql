-- hez2_specials: one row per ace, 2 or 7 played in Hez2: the seat, the rank, whether it was
-- faced (not the player's last card: going out clears a pending skip or draw; a 7 is never
-- faced) and, for a faced ace or 2, whether the next player answered it with a card of the same
-- rank (instead of accept_skip, accept_draw).
-- derived: true
WITH d AS (
  SELECT game_id, seq, player, type, card
  FROM events
  WHERE kind = 'hez2' AND type IN ('play', 'draw', 'accept_skip', 'accept_draw', 'player_out')
), n AS (
  SELECT d.*, lead(type) OVER (PARTITION BY game_id ORDER BY seq) AS next_type,
    lead(card) OVER (PARTITION BY game_id ORDER BY seq) AS next_card
  FROM d
)
SELECT n.game_id, g.gno, n.seq, n.player AS seat, f.rank,
  f.rank IN (1, 2) AND n.next_type IS NOT NULL AND n.next_type <> 'player_out' AS faced,
  CASE WHEN f.rank IN (1, 2) AND n.next_type IS NOT NULL AND n.next_type <> 'player_out'
    THEN n.next_type = 'play' AND coalesce(nf.rank = f.rank, false) END AS answered
FROM n
LEFT JOIN game_starts g ON g.game_id = n.game_id
JOIN card_faces f ON f.kind = 'hez2' AND f.card = n.card
LEFT JOIN card_faces nf ON nf.kind = 'hez2' AND nf.card = n.next_card
WHERE n.type = 'play' AND f.rank IN (1, 2, 7)
