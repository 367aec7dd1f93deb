-- title: Tricks won by seat
-- chart: bar
-- section: Seats and the deal
-- For the kinds with tricks, per seat count and seat: rounds played, tricks won, and tricks won
-- per round.
WITH by_seat AS (
  SELECT r.kind, r.players, r.seat, count(*) AS rounds, sum(r.tricks_won) AS tricks,
    avg(r.tricks_won) AS tricks_per_round
  FROM rounds r
  JOIN chosen_seats s ON s.gno = r.gno AND s.seat = r.seat
  GROUP BY r.kind, r.players, r.seat
)
SELECT kind, players, seat, rounds, tricks, tricks_per_round
FROM by_seat
WHERE kind IN (SELECT DISTINCT kind FROM trick_cards)
ORDER BY kind, players, seat
