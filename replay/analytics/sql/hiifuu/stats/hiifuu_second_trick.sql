-- title: Hiifuu: the trick on which the second trick comes
-- chart: histogram
-- section: Rounds and scores
-- Per trick number: seat-rounds in which the seat won its second trick on that trick.
SELECT h.second_trick AS trick, count(*) AS rounds
FROM hiifuu_rounds h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
WHERE h.second_trick IS NOT NULL
GROUP BY h.second_trick
ORDER BY h.second_trick
