-- Per player: activity, declarer and whist success, miser, raspasy, results.
-- Parameters: $player $preset $date_from $date_to $pulkas (see macros.sql).
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
           sum(value)                                                              AS deal_value_total
    FROM sel_player_deals($player, $preset, $date_from, $date_to, $pulkas)
    GROUP BY player
), r AS (
    SELECT player,
           count(*)    AS pulkas,
           avg(result) AS avg_result,
           sum(result) AS total_visty,
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
       a.deal_value_total, r.avg_result, r.total_visty, r.total_money
FROM a LEFT JOIN r ON r.player = a.player
ORDER BY r.total_visty DESC NULLS LAST, a.player;
