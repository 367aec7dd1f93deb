-- title: Hez2: game length in turns
-- chart: bar
-- section: Rounds and scores
-- Per seat count: games and the shortest, average and longest game in turns (decisions that
-- start a turn: play, draw, accept_skip, accept_draw).
SELECT h.players, count(*) AS games, min(h.turns) AS min_turns, avg(h.turns) AS avg_turns,
  max(h.turns) AS max_turns
FROM hez2_games h
JOIN chosen c ON c.gno = h.gno
GROUP BY h.players
ORDER BY h.players
