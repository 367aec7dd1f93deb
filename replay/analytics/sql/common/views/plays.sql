-- plays: one row per card played: seat, card and what it is (card_faces: suit, rank, joker,
-- points), its position in the trick (1 = the lead), the trick's led suit or colour (that of the
-- first card with a suit), and whether the card followed it, was discarded (a card of another
-- suit) or was a joker. Games without tricks (trick null) have no position and no led suit.
-- derived: true
WITH p AS (
  SELECT e.game_id, g.gno, e.kind, e.round, e.trick, e.seq, e.player AS seat, e.card, f.suit,
    f.rank, coalesce(f.joker, false) AS joker, f.points
  FROM events e
  LEFT JOIN game_starts g ON g.game_id = e.game_id
  LEFT JOIN card_faces f ON f.kind = e.kind AND f.card = e.card
  WHERE e.type = 'play'
), w AS (
  SELECT p.*,
    row_number() OVER (PARTITION BY game_id, round, trick ORDER BY seq) AS nth,
    min(CASE WHEN suit IS NOT NULL THEN seq END)
      OVER (PARTITION BY game_id, round, trick) AS led_seq
  FROM p
), l AS (
  SELECT w.*,
    max(CASE WHEN seq = led_seq AND trick IS NOT NULL THEN suit END)
      OVER (PARTITION BY game_id, round, trick) AS led
  FROM w
)
SELECT game_id, gno, kind, round, trick, seq, seat, card, suit, rank, joker, points,
  CASE WHEN trick IS NOT NULL THEN nth END AS position,
  led,
  CASE WHEN led IS NOT NULL THEN coalesce(suit = led, false) END AS followed,
  CASE WHEN led IS NOT NULL THEN NOT joker AND coalesce(suit <> led, true) END AS discarded
FROM l
