-- title: Fou!: 1s played and the Fool
-- chart: rate
-- section: Cards
-- For jokers (the 1s) and for colour cards: cards played (opportunities) and how often the card
-- made its player the Fool of the trick (hits).
SELECT 'colour card' AS card, sum(h.cards_played - h.jokers_played) AS opportunities,
  sum(h.fools - h.joker_fools) AS hits
FROM fou_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
HAVING count(*) > 0
UNION ALL
SELECT 'joker' AS card, sum(h.jokers_played) AS opportunities, sum(h.joker_fools) AS hits
FROM fou_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
HAVING count(*) > 0
