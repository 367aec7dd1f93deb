-- title: Fou!: what made the Fool
-- chart: rate
-- section: Rounds and scores
-- Over all Fools named (opportunities): how many were made by a joker (a 1), a discard (a card
-- of another colour) or a low card of the led colour (hits).
WITH f AS (
  SELECT h.how FROM fou_fools h JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
)
SELECT f.how, count(*) AS hits, max(t.n) AS opportunities
FROM f
CROSS JOIN (SELECT count(*) AS n FROM f) t
GROUP BY f.how
ORDER BY f.how
