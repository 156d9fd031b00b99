-- Per player: activity, declarer and whist success, miser, raspasy, results.
-- Parameters: $player $preset $date_from $date_to $pulkas (see macros.sql).
-- Results are summed per unit, never across: visty (Russian pulkas) and points (Croatian ones), by
-- result_unit(family) (generated from the families' sheet terms); NULL when the player has none.
-- total_money adds money, which both families settle in.
WITH a AS (
    SELECT player,
           count(*) FILTER (WHERE role <> 'out')                                   AS deals_played,
           count(*) FILTER (WHERE role = 'declarer')                               AS declared,
           count(*) FILTER (WHERE role = 'declarer' AND made)                      AS declared_made,
           count(*) FILTER (WHERE role IN ('whister', 'passer', 'half_whister'))   AS whist_chances,
           count(*) FILTER (WHERE role = 'whister')                                AS whisted,
           count(*) FILTER (WHERE role = 'whister' AND obligation > 0)             AS whist_obliged,
           count(*) FILTER (WHERE role = 'whister' AND obligation > 0 AND obligation_met) AS whist_met,
           count(*) FILTER (WHERE role = 'declarer' AND is_miser)                  AS misers,
           count(*) FILTER (WHERE role = 'declarer' AND is_miser AND made)         AS misers_made,
           count(*) FILTER (WHERE role = 'raspasy')                                AS raspasy_deals,
           avg(tricks) FILTER (WHERE role = 'raspasy')                             AS raspasy_tricks_per_deal,
           sum(value) FILTER (WHERE result_unit(family) = 'visty')                 AS deal_value_visty,
           sum(value) FILTER (WHERE result_unit(family) = 'points')                AS deal_value_points
    FROM sel_player_deals($player, $preset, $date_from, $date_to, $pulkas)
    GROUP BY player
), r AS (
    SELECT player,
           count(*)    AS pulkas,
           avg(result) FILTER (WHERE result_unit(family) = 'visty')  AS avg_visty,
           sum(result) FILTER (WHERE result_unit(family) = 'visty')  AS total_visty,
           avg(result) FILTER (WHERE result_unit(family) = 'points') AS avg_points,
           sum(result) FILTER (WHERE result_unit(family) = 'points') AS total_points,
           sum(money)  AS total_money
    FROM sel_pulka_results($player, $preset, $date_from, $date_to, $pulkas)
    GROUP BY player
)
SELECT a.player, r.pulkas, a.deals_played,
       a.declared, rate(a.declared, a.deals_played) AS declared_share,
       wilson_lo(a.declared, a.deals_played) AS declared_share_lo,
       wilson_hi(a.declared, a.deals_played) AS declared_share_hi,
       a.declared_made, rate(a.declared_made, a.declared) AS declarer_success,
       wilson_lo(a.declared_made, a.declared) AS declarer_success_lo,
       wilson_hi(a.declared_made, a.declared) AS declarer_success_hi,
       a.whist_chances, a.whisted, rate(a.whisted, a.whist_chances) AS whist_rate,
       wilson_lo(a.whisted, a.whist_chances) AS whist_rate_lo,
       wilson_hi(a.whisted, a.whist_chances) AS whist_rate_hi,
       a.whist_obliged, a.whist_met, rate(a.whist_met, a.whist_obliged) AS whist_success,
       wilson_lo(a.whist_met, a.whist_obliged) AS whist_success_lo,
       wilson_hi(a.whist_met, a.whist_obliged) AS whist_success_hi,
       a.misers, a.misers_made, rate(a.misers_made, a.misers) AS miser_success,
       wilson_lo(a.misers_made, a.misers) AS miser_success_lo,
       wilson_hi(a.misers_made, a.misers) AS miser_success_hi,
       a.raspasy_deals, a.raspasy_tricks_per_deal,
       a.deal_value_visty, a.deal_value_points, r.avg_visty, r.total_visty, r.avg_points, r.total_points,
       r.total_money
FROM a LEFT JOIN r ON r.player = a.player
ORDER BY r.total_visty DESC NULLS LAST, r.total_points DESC NULLS LAST, a.player;
