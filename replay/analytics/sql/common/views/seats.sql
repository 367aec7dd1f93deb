-- seats: one row per game x seat: the player (the seat's name in game_start: a player id across
-- games), bot or human, the seat's result (score, place, payout, stake, won) and its position
-- counted clockwise from the first dealer (0 = the dealer), where the game has a dealer.
-- derived: true
SELECT g.game_id, g.gno, g.kind, g.started, g.day, g.players, n.seat,
  get_json_object(g.data, concat('$.names[', CAST(n.seat AS STRING), ']')) AS player,
  coalesce(get_json_object(g.data, concat('$.bots[', CAST(n.seat AS STRING), ']')) = 'true',
    false) AS bot,
  r.score, r.place, r.payout, r.stake,
  coalesce(array_contains(e.winner_seats, n.seat), false) AS won,
  CASE WHEN d.dealer IS NOT NULL THEN (n.seat - d.dealer + g.players) % g.players END
    AS from_dealer
FROM game_starts g
JOIN seat_numbers n ON n.seat < g.players
LEFT JOIN seat_results r ON r.game_id = g.game_id AND r.seat = n.seat
LEFT JOIN game_ends e ON e.game_id = g.game_id
LEFT JOIN round_dealers d ON d.game_id = g.game_id AND d.round = 1
