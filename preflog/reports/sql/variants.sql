-- Per preset: raspasy / refe frequency, deals per pulka, spread of per-pulka results,
-- declarer edge (mean deal value in visty for the declarer) and declarer success.
-- The player filter keeps the pulkas he sat in.
WITH p AS (
    SELECT pulka FROM sel_pulkas($player, $preset, $date_from, $date_to, $pulkas)
), d AS (
    SELECT preset,
           count(DISTINCT pulka) AS pulkas,
           count(*) AS deals,
           count(*) FILTER (WHERE kind = 'raspasy') AS raspasy,
           count(*) FILTER (WHERE kind = 'all_pass') AS refe,
           count(*) FILTER (WHERE declarer IS NOT NULL) AS declared,
           count(*) FILTER (WHERE made) AS made,
           avg(declarer_value) AS declarer_edge,
           stddev_samp(declarer_value) AS declarer_value_stddev
    FROM deals WHERE pulka IN (SELECT pulka FROM p)
    GROUP BY preset
), r AS (
    SELECT preset, stddev_samp(result) AS result_stddev, max(abs(result)) AS result_max_abs
    FROM pulka_results WHERE pulka IN (SELECT pulka FROM p)
    GROUP BY preset
)
SELECT d.preset, d.pulkas, d.deals, d.deals * 1.0 / d.pulkas AS deals_per_pulka,
       d.raspasy, rate(d.raspasy, d.deals) AS raspasy_rate,
       wilson_lo(d.raspasy, d.deals) AS raspasy_rate_lo, wilson_hi(d.raspasy, d.deals) AS raspasy_rate_hi,
       d.refe, rate(d.refe, d.deals) AS refe_rate,
       wilson_lo(d.refe, d.deals) AS refe_rate_lo, wilson_hi(d.refe, d.deals) AS refe_rate_hi,
       d.declared, d.made, rate(d.made, d.declared) AS declarer_success,
       wilson_lo(d.made, d.declared) AS declarer_success_lo, wilson_hi(d.made, d.declared) AS declarer_success_hi,
       d.declarer_edge, d.declarer_value_stddev,
       r.result_stddev, r.result_max_abs
FROM d LEFT JOIN r ON r.preset = d.preset
ORDER BY d.preset;
