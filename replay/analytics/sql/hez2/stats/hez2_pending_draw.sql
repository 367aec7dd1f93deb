-- title: Hez2: longest pending draw
-- chart: histogram
-- section: Rounds and scores
-- Per game's longest pending draw served (the largest forced_draw amount; 0: no draw served):
-- how many games.
SELECT h.longest_draw, count(*) AS games
FROM hez2_games h
JOIN chosen c ON c.gno = h.gno
GROUP BY h.longest_draw
ORDER BY h.longest_draw
