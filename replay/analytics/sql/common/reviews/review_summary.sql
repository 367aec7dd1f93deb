-- review_summary: one row per game kind x player over the reviewed decisions (losses are in
-- each game's own unit, so kinds are not mixed): games and decisions reviewed, the mean loss
-- per decision with its 95% interval (normal approximation over the decisions: read it only from
-- 30 decisions), the decisions without a significant loss (accurate) and their share
-- (accuracy), the inaccuracies, mistakes and blunders, and where the player was paid (a staked
-- table) the decisions with a payout and their mean payout loss with its 95% interval (NULL
-- where none was); the share of decisions where the player played the policy's own move
-- (agreement) and the mean cost beyond the policy's move with its 95% interval.
SELECT kind, player, count(DISTINCT game_id) AS games, count(*) AS decisions,
  avg(loss) AS mean_loss,
  avg(loss) - 1.96 * coalesce(stddev_samp(loss), 0) / sqrt(count(*)) AS loss_low,
  avg(loss) + 1.96 * coalesce(stddev_samp(loss), 0) / sqrt(count(*)) AS loss_high,
  sum(CASE WHEN significant THEN 0 ELSE 1 END) AS accurate,
  CAST(sum(CASE WHEN significant THEN 0 ELSE 1 END) AS DOUBLE) / count(*) AS accuracy,
  sum(CASE WHEN label = 'inaccuracy' THEN 1 ELSE 0 END) AS inaccuracies,
  sum(CASE WHEN label = 'mistake' THEN 1 ELSE 0 END) AS mistakes,
  sum(CASE WHEN label = 'blunder' THEN 1 ELSE 0 END) AS blunders,
  count(payout_loss) AS paid_decisions, avg(payout_loss) AS mean_payout_loss,
  avg(payout_loss) - 1.96 * coalesce(stddev_samp(payout_loss), 0)
    / sqrt(nullif(count(payout_loss), 0)) AS payout_loss_low,
  avg(payout_loss) + 1.96 * coalesce(stddev_samp(payout_loss), 0)
    / sqrt(nullif(count(payout_loss), 0)) AS payout_loss_high,
  avg(CASE WHEN agrees THEN 1.0 ELSE 0.0 END) AS agreement,
  avg(beyond_policy) AS mean_beyond_policy,
  avg(beyond_policy) - 1.96 * coalesce(stddev_samp(beyond_policy), 0) / sqrt(count(*))
    AS beyond_policy_low,
  avg(beyond_policy) + 1.96 * coalesce(stddev_samp(beyond_policy), 0) / sqrt(count(*))
    AS beyond_policy_high
FROM decisions
GROUP BY kind, player
