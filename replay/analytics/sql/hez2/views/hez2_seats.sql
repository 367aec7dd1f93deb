-- hez2_seats: one row per Hez2 game x seat: turns taken (decisions that start a turn: play,
-- draw, accept_skip, accept_draw), cards played, cards drawn, and the cards the seat held when
-- the first player went out (dealt + drawn - played before that moment; null if no one did).
-- derived: true
WITH first_out AS (
  SELECT game_id, min(seq) AS seq
  FROM events
  WHERE kind = 'hez2' AND type = 'player_out'
  GROUP BY game_id
), moves AS (
  SELECT e.game_id, e.player AS seat,
    sum(CASE WHEN e.type IN ('play', 'draw', 'accept_skip', 'accept_draw') THEN 1 ELSE 0 END)
      AS turns,
    sum(CASE WHEN e.type = 'play' THEN 1 ELSE 0 END) AS cards_played,
    sum(CASE WHEN e.type = 'card_drawn' THEN 1 ELSE 0 END) AS cards_drawn,
    sum(CASE WHEN f.seq IS NULL OR e.seq > f.seq THEN 0
      WHEN e.type = 'deal' THEN size(e.cards) WHEN e.type = 'card_drawn' THEN 1
      WHEN e.type = 'play' THEN -1 ELSE 0 END) AS held,
    max(f.seq) AS first_out
  FROM events e
  LEFT JOIN first_out f ON f.game_id = e.game_id
  WHERE e.kind = 'hez2' AND e.player IS NOT NULL
  GROUP BY e.game_id, e.player
)
SELECT s.game_id, s.gno, s.seat, s.player, s.bot, s.players, s.place, s.payout, s.stake, s.score,
  CAST(coalesce(m.turns, 0) AS INT) AS turns, CAST(coalesce(m.cards_played, 0) AS INT)
  AS cards_played, CAST(coalesce(m.cards_drawn, 0) AS INT) AS cards_drawn,
  CAST(CASE WHEN m.first_out IS NOT NULL THEN m.held END AS INT) AS held_at_first_out
FROM seats s
LEFT JOIN moves m ON m.game_id = s.game_id AND m.seat = s.seat
WHERE s.kind = 'hez2'
