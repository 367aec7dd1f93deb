-- title: Games, rounds and wins per player
-- chart: rate
-- section: Players
-- words: hits=won, opportunities=played
-- Per game kind and player: games played, rounds played, games won (hits) out of games played
-- (opportunities), the average place (1 = best) and the average final score.
SELECT s.kind, s.player, count(*) AS games, sum(g.rounds) AS rounds,
  sum(CASE WHEN s.won THEN 1 ELSE 0 END) AS hits, count(*) AS opportunities,
  avg(s.place) AS avg_place, avg(s.score) AS avg_score
FROM chosen_seats s
JOIN games g ON g.gno = s.gno
GROUP BY s.kind, s.player
ORDER BY s.kind, s.player
