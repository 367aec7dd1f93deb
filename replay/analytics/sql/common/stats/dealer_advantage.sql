-- title: Wins by position from the dealer
-- chart: rate
-- section: Seats and the deal
-- For the kinds with a dealer, per seat count and position clockwise from the first dealer
-- (0 = the dealer): games won (hits) out of games played (opportunities), average place.
SELECT kind, players, from_dealer, sum(CASE WHEN won THEN 1 ELSE 0 END) AS hits,
  count(*) AS opportunities, avg(place) AS avg_place
FROM chosen_seats
WHERE from_dealer IS NOT NULL
GROUP BY kind, players, from_dealer
ORDER BY kind, players, from_dealer
