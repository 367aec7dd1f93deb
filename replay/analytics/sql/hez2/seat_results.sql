-- Hez2: the place is that of player_out or placed; a staked seat's score is its net winnings
-- (payout less stake), null for a seat without a stake.
WITH places AS (
  SELECT game_id, player AS seat, amount AS place
  FROM events
  WHERE kind = 'hez2' AND type IN ('player_out', 'placed')
), pays AS (
  SELECT game_id, player AS seat, amount AS payout
  FROM events
  WHERE kind = 'hez2' AND type = 'payout'
), stakes AS (
  SELECT g.game_id, n.seat,
    TRY_CAST(get_json_object(g.data, concat('$.stakes[', CAST(n.seat AS STRING), ']')) AS INT)
      AS stake
  FROM game_starts g
  JOIN seat_numbers n ON n.seat < g.players
  WHERE g.kind = 'hez2'
)
SELECT st.game_id, st.seat, pays.payout - st.stake AS score, places.place, pays.payout, st.stake
FROM stakes st
LEFT JOIN places ON places.game_id = st.game_id AND places.seat = st.seat
LEFT JOIN pays ON pays.game_id = st.game_id AND pays.seat = st.seat
