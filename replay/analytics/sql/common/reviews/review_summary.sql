-- review_summary: one row per game kind x player over the reviewed decisions (losses are in
-- each game's own unit, so kinds are not mixed): games and decisions reviewed, the mean loss
-- per decision with its 95% interval (normal approximation over the decisions: read it only from
-- 30 decisions), the decisions without a significant loss (accurate) and their share
-- (accuracy), and the inaccuracies, mistakes and blunders.
SELECT kind, player, count(DISTINCT game_id) AS games, count(*) AS decisions,
  avg(loss) AS mean_loss,
  avg(loss) - 1.96 * coalesce(stddev_samp(loss), 0) / sqrt(count(*)) AS loss_low,
  avg(loss) + 1.96 * coalesce(stddev_samp(loss), 0) / sqrt(count(*)) AS loss_high,
  sum(CASE WHEN significant THEN 0 ELSE 1 END) AS accurate,
  CAST(sum(CASE WHEN significant THEN 0 ELSE 1 END) AS DOUBLE) / count(*) AS accuracy,
  sum(CASE WHEN label = 'inaccuracy' THEN 1 ELSE 0 END) AS inaccuracies,
  sum(CASE WHEN label = 'mistake' THEN 1 ELSE 0 END) AS mistakes,
  sum(CASE WHEN label = 'blunder' THEN 1 ELSE 0 END) AS blunders
FROM decisions
GROUP BY kind, player
