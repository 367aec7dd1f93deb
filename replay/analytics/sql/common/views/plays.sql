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
  SELECT gno, round, trick, min(seq) AS first_seq,
    min(CASE WHEN suit IS NOT NULL THEN seq END) AS led_seq
  FROM p
  WHERE trick IS NOT NULL
  GROUP BY gno, round, trick
), l AS (
  SELECT t.gno, t.round, t.trick, t.first_seq, s.suit AS led
  FROM t
  LEFT JOIN p s ON s.gno = t.gno AND s.seq = t.led_seq
)
SELECT p.game_id, p.gno, p.kind, p.round, p.trick, p.seq, p.seat, p.card, p.suit, p.rank,
  p.joker, p.points, CAST(p.seq - l.first_seq + 1 AS INT) AS position, l.led,
  CASE WHEN l.led IS NOT NULL THEN coalesce(p.suit = l.led, false) END AS followed,
  CASE WHEN l.led IS NOT NULL THEN NOT p.joker AND coalesce(p.suit <> l.led, true) END
    AS discarded
FROM p
LEFT JOIN l ON l.gno = p.gno AND l.round = p.round AND l.trick = p.trick
