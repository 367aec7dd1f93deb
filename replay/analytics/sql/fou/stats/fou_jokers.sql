-- title: Fou!: 1s played and the Fool
-- chart: rate
-- For jokers (the 1s) and for colour cards: cards played (opportunities) and how often the card
-- made its player the Fool of the trick (hits).
WITH played AS (
  SELECT p.joker, count(*) AS n
  FROM plays p
  JOIN chosen_seats s ON s.game_id = p.game_id AND s.seat = p.seat
  WHERE p.kind = 'fou'
  GROUP BY p.joker
), fooled AS (
  SELECT h.how = 'joker' AS joker, count(*) AS n
  FROM fou_fools h
  JOIN chosen_seats s ON s.game_id = h.game_id AND s.seat = h.seat
  GROUP BY h.how = 'joker'
)
SELECT CASE WHEN p.joker THEN 'joker' ELSE 'colour card' END AS card, p.n AS opportunities,
  coalesce(f.n, 0) AS hits
FROM played p
LEFT JOIN fooled f ON f.joker = p.joker
ORDER BY card
