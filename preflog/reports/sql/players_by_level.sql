-- Per player and contract level: success as declarer ('miser' groups miser and Bettel).
WITH d AS (
    SELECT player, family,
           CASE WHEN is_miser THEN 'miser' ELSE CAST(level AS VARCHAR) END AS level,
           CASE WHEN is_miser THEN 100 ELSE level END AS level_order,
           made
    FROM sel_player_deals($player, $preset, $date_from, $date_to, $pulkas)
    WHERE role = 'declarer'
)
SELECT player, family, level,
       count(*) AS n, count(*) FILTER (WHERE made) AS made,
       rate(count(*) FILTER (WHERE made), count(*)) AS success,
       wilson_lo(count(*) FILTER (WHERE made), count(*)) AS success_lo,
       wilson_hi(count(*) FILTER (WHERE made), count(*)) AS success_hi
FROM d
GROUP BY player, family, level, level_order
ORDER BY player, family, level_order;
