-- title: Results with the luck taken out, per player
-- section: Players
-- needs: luck
-- Per game kind and player, over the scoring units `replay reindex STORE --luck` valued: the
-- units played, the mean result relative to the table (raw) and the mean luck-adjusted result
-- (adjusted: the luck of the deals and draws taken out, weighted as luck_units says), each in
-- the game's own measure with its 95% interval (normal approximation over the units: read it
-- only from 30 units), the mean luck, and the variance of the adjusted results as a share of
-- the raw ones' (below 1: fewer units tell players apart). Lower is better for Hearts points
-- and Hez2 places.
SELECT l.kind, l.player, count(DISTINCT l.game_id) AS games, count(*) AS units,
  avg(l.relative) AS raw_mean,
  avg(l.relative) - 1.96 * coalesce(stddev_samp(l.relative), 0) / sqrt(count(*)) AS raw_low,
  avg(l.relative) + 1.96 * coalesce(stddev_samp(l.relative), 0) / sqrt(count(*)) AS raw_high,
  avg(l.adjusted) AS adjusted_mean,
  avg(l.adjusted) - 1.96 * coalesce(stddev_samp(l.adjusted), 0) / sqrt(count(*))
    AS adjusted_low,
  avg(l.adjusted) + 1.96 * coalesce(stddev_samp(l.adjusted), 0) / sqrt(count(*))
    AS adjusted_high,
  avg(l.luck) AS mean_luck,
  var_samp(l.adjusted) / nullif(var_samp(l.relative), 0) AS variance_share
FROM luck_units l
JOIN chosen_seats c ON c.gno = l.gno AND c.seat = l.seat
GROUP BY l.kind, l.player
ORDER BY l.kind, l.player
