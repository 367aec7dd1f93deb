-- title: Reviewed decisions per player
-- chart: rate
-- section: Players
-- needs: reviews
-- words: hits=without a significant loss, opportunities=decisions
-- Per game kind and player, over the decisions `replay reindex STORE --reviews` reviewed: games
-- and decisions reviewed, the mean loss per decision (in the game's own unit) with its 95%
-- interval (normal approximation over the decisions), the inaccuracies, mistakes and blunders,
-- the accuracy: decisions without a significant loss (hits) out of those reviewed
-- (opportunities), and where the player was paid (a staked table) the decisions with a payout
-- and their mean payout loss with its 95% interval (NULL where none was); the share of decisions
-- where the player played the policy's own move (agreement) and the mean cost beyond the
-- policy's move with its 95% interval (docs/review.md: it tells a player from the policy's play
-- with far fewer decisions than the mean loss).
SELECT d.kind, d.player, count(DISTINCT d.game_id) AS games, count(*) AS decisions,
  avg(d.loss) AS mean_loss,
  avg(d.loss) - 1.96 * coalesce(stddev_samp(d.loss), 0) / sqrt(count(*)) AS loss_low,
  avg(d.loss) + 1.96 * coalesce(stddev_samp(d.loss), 0) / sqrt(count(*)) AS loss_high,
  sum(CASE WHEN d.label = 'inaccuracy' THEN 1 ELSE 0 END) AS inaccuracies,
  sum(CASE WHEN d.label = 'mistake' THEN 1 ELSE 0 END) AS mistakes,
  sum(CASE WHEN d.label = 'blunder' THEN 1 ELSE 0 END) AS blunders,
  sum(CASE WHEN d.significant THEN 0 ELSE 1 END) AS hits, count(*) AS opportunities,
  count(d.payout_loss) AS paid_decisions, avg(d.payout_loss) AS mean_payout_loss,
  avg(d.payout_loss) - 1.96 * coalesce(stddev_samp(d.payout_loss), 0)
    / sqrt(nullif(count(d.payout_loss), 0)) AS payout_loss_low,
  avg(d.payout_loss) + 1.96 * coalesce(stddev_samp(d.payout_loss), 0)
    / sqrt(nullif(count(d.payout_loss), 0)) AS payout_loss_high,
  avg(CASE WHEN d.agrees THEN 1.0 ELSE 0.0 END) AS agreement,
  avg(d.beyond_policy) AS mean_beyond_policy,
  avg(d.beyond_policy) - 1.96 * coalesce(stddev_samp(d.beyond_policy), 0) / sqrt(count(*))
    AS beyond_policy_low,
  avg(d.beyond_policy) + 1.96 * coalesce(stddev_samp(d.beyond_policy), 0) / sqrt(count(*))
    AS beyond_policy_high
FROM decisions d
JOIN chosen_seats c ON c.gno = d.gno AND c.seat = d.seat
GROUP BY d.kind, d.player
ORDER BY d.kind, d.player
