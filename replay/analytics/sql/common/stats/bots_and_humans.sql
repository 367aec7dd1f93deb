-- title: Bots and humans
-- chart: rate
-- section: Players
-- words: hits=won, opportunities=seats held
-- Per game kind: seats held by bots and by humans, games they won (hits) out of seats held
-- (opportunities), and their average place.
SELECT kind, bot, sum(CASE WHEN won THEN 1 ELSE 0 END) AS hits, count(*) AS opportunities,
  avg(place) AS avg_place
FROM chosen_seats
GROUP BY kind, bot
ORDER BY kind, bot
