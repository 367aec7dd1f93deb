-- title: Wins by seat
-- chart: rate
-- section: Seats and the deal
-- Per game kind, seat count and seat number: games won by the seat (hits) out of games played
-- (opportunities), and its average place; equal rates mean no seat is favoured.
SELECT kind, players, seat, sum(CASE WHEN won THEN 1 ELSE 0 END) AS hits,
  count(*) AS opportunities, avg(place) AS avg_place
FROM chosen_seats
GROUP BY kind, players, seat
ORDER BY kind, players, seat
