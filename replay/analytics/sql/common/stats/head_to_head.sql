-- title: Head to head
-- chart: heatmap
-- section: Players
-- For each pair of players who met at a table: games together (opportunities), games the player
-- finished ahead of the opponent (a better place: hits), behind, and level. Pairs far from an
-- even split over many games are also a signal for arbiters looking at collusion.
SELECT a.kind, a.player, b.player AS opponent, count(*) AS opportunities,
  sum(CASE WHEN a.place < b.place THEN 1 ELSE 0 END) AS hits,
  sum(CASE WHEN a.place > b.place THEN 1 ELSE 0 END) AS behind,
  sum(CASE WHEN a.place = b.place THEN 1 ELSE 0 END) AS level
FROM chosen_seats a
JOIN seats b ON b.gno = a.gno AND b.seat <> a.seat
GROUP BY a.kind, a.player, b.player
ORDER BY a.kind, a.player, b.player
