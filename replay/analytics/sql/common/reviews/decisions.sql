-- decisions: one row per reviewed decision with its game and player: kind, start time, day and
-- month (YYYY-MM, of the game's start), seat, player, bot, the decision (seq, type, the move
-- played, the best, the legal moves), the expected loss of the move played against the best in the
-- game's own unit with its 95% interval, whether that loss is significant (its interval excludes
-- 0), the label, the card's loss with all cards visible (NULL where not solved), the payout loss
-- with its 95% interval (NULL where the seat is not paid), whether the move played is the
-- policy's own (agrees) and its cost beyond the policy's move with its 95% interval, the samples
-- and the review's settings. Mean loss per decision by player and month, one query: SELECT kind,
-- player, month, avg(loss) FROM decisions GROUP BY kind, player, month.
SELECT r.game_id, s.gno, r.kind, s.started, s.day, substr(CAST(s.day AS STRING), 1, 7) AS month,
  s.players, r.seat, s.player, s.bot, r.seq, r.type, r.played, r.best, r.legal,
  r.loss, r.loss_low, r.loss_high, (r.loss_low > 0 OR r.loss_high < 0) AS significant, r.label,
  r.visible_loss, r.payout_loss, r.payout_loss_low, r.payout_loss_high, r.agrees,
  r.beyond_policy, r.beyond_policy_low, r.beyond_policy_high, r.samples, r.settings
FROM reviews r
JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
