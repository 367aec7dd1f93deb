-- plays: one row per card played: seat, card and what it is (card_faces: suit, rank, joker,
-- points), its position in the trick (1 = the lead; a trick's plays are consecutive events), the
-- trick's led suit or colour (that of its first card with a suit), and whether the card followed
-- it, was discarded (a card of another suit) or was a joker. Games without tricks (trick null)
-- have no position and no led suit.
-- derived: true
WITH p AS (
  SELECT e.game_id, g.gno, e.kind, e.round, e.trick, e.seq, e.player AS seat, e.card, f.suit,
    f.rank, coalesce(f.joker, false) AS joker, f.points
  FROM events e
  LEFT JOIN game_starts g ON g.game_id = e.game_id
  LEFT JOIN card_faces f ON f.kind = e.kind AND f.card = e.card
  WHERE e.type = 'play'
), t AS (
  -- the events read again, not p: DuckDB materialises a CTE read twice, in memory whatever its
  -- memory limit, which the plays of a million hands outgrow
  SELECT g.gno, e.round, e.trick, min(e.seq) AS first_seq,
    min_by(f.suit, CASE WHEN f.suit IS NOT NULL THEN e.seq END) AS led
  FROM events e
  JOIN game_starts g ON g.game_id = e.game_id
  LEFT JOIN card_faces f ON f.kind = e.kind AND f.card = e.card
  WHERE e.type = 'play' AND e.trick IS NOT NULL
  GROUP BY g.gno, e.round, e.trick
)
SELECT p.game_id, p.gno, p.kind, p.round, p.trick, p.seq, p.seat, p.card, p.suit, p.rank,
  p.joker, p.points, CAST(p.seq - t.first_seq + 1 AS INT) AS position, t.led,
  CASE WHEN t.led IS NOT NULL THEN coalesce(p.suit = t.led, false) END AS followed,
  CASE WHEN t.led IS NOT NULL THEN NOT p.joker AND coalesce(p.suit <> t.led, true) END
    AS discarded
FROM p
LEFT JOIN t ON t.gno = p.gno AND t.round = p.round AND t.trick = p.trick
