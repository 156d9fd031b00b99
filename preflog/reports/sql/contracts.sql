-- Success rate per contract, grouped by {group_cols} (chosen by preflog.reports.queries.contracts
-- from a fixed list of column names). Only deals with a declarer; "made" counts no-play deals
-- (both passed, half-whist) as made, "played" counts deals that were played or checked.
SELECT {group_cols},
       count(*) AS n,
       count(*) FILTER (WHERE made) AS made,
       rate(count(*) FILTER (WHERE made), count(*)) AS success,
       wilson_lo(count(*) FILTER (WHERE made), count(*)) AS success_lo,
       wilson_hi(count(*) FILTER (WHERE made), count(*)) AS success_hi,
       count(*) FILTER (WHERE kind IN ('game', 'miser')) AS played,
       avg(undertricks) FILTER (WHERE NOT made) AS mean_undertricks,
       avg(declarer_value) AS mean_declarer_value
FROM sel_deals($player, $preset, $date_from, $date_to, $pulkas)
WHERE declarer IS NOT NULL
GROUP BY {group_cols}
ORDER BY {order_cols};
