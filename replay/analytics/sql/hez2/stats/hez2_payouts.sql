-- title: Hez2: stakes, payouts and return on stake
-- chart: bar
-- section: Players
-- Per player, over the games the player staked: games, total staked, total paid out, net
-- winnings (paid out less staked), games won money (net > 0) and lost money, and the return on
-- stake (net / staked).
SELECT h.player, count(*) AS games, sum(h.stake) AS staked, sum(h.payout) AS paid_out,
  sum(h.score) AS net, sum(CASE WHEN h.score > 0 THEN 1 ELSE 0 END) AS won_money,
  sum(CASE WHEN h.score < 0 THEN 1 ELSE 0 END) AS lost_money,
  CAST(sum(h.score) AS DOUBLE) / sum(h.stake) AS roi
FROM hez2_seats h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.stake IS NOT NULL
GROUP BY h.player
ORDER BY h.player
