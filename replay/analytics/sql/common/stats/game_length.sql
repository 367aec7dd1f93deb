-- title: Game length
-- chart: bar
-- section: Rounds and scores
-- Per game kind and seat count: games, and the shortest, average and longest game in rounds
-- and in events.
SELECT g.kind, g.players, count(*) AS games, min(g.rounds) AS min_rounds,
  avg(g.rounds) AS avg_rounds, max(g.rounds) AS max_rounds, min(g.events) AS min_events,
  avg(g.events) AS avg_events, max(g.events) AS max_events
FROM games g
JOIN chosen c ON c.gno = g.gno
GROUP BY g.kind, g.players
ORDER BY g.kind, g.players
