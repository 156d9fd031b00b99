-- Helpers shared by every report; run once by preflog.reports.db.connect().
-- rate(k, n): k / n as a double, NULL when n = 0.
-- wilson_lo / wilson_hi: Wilson score interval at 95 % (z = 1.959963984540054), clamped to [0, 1]
-- against rounding (k = 0 gives −1e−17):
--   centre = (p + z²/2n) / (1 + z²/n),  half = z / (1 + z²/n) · sqrt(p(1 − p)/n + z²/4n²).
CREATE OR REPLACE MACRO rate(k, n) AS CASE WHEN n > 0 THEN k * 1.0 / n END;
CREATE OR REPLACE MACRO wilson_lo(k, n) AS CASE WHEN n > 0 THEN GREATEST(0.0,
    ((k * 1.0 / n) + 1.920729410347062 / n
     - 1.959963984540054 * sqrt((k * 1.0 / n) * (1 - k * 1.0 / n) / n + 0.960364705173531 / (n * 1.0 * n)))
    / (1 + 3.841458820694124 / n)) END;
CREATE OR REPLACE MACRO wilson_hi(k, n) AS CASE WHEN n > 0 THEN LEAST(1.0,
    ((k * 1.0 / n) + 1.920729410347062 / n
     + 1.959963984540054 * sqrt((k * 1.0 / n) * (1 - k * 1.0 / n) / n + 0.960364705173531 / (n * 1.0 * n)))
    / (1 + 3.841458820694124 / n)) END;

-- Filtered row sets. Every filter is optional (NULL = no filter); dates are ISO text, inclusive.
-- The player filter means: player_deals / pulka_results — that player's rows; deals — he declared.
-- The filters every row set shares (preset, date range, pulka list).
CREATE OR REPLACE MACRO keep_row(preset, date, pulka, p_preset, p_from, p_to, p_pulkas) AS
    (p_preset IS NULL OR preset = p_preset)
    AND (p_from IS NULL OR date >= CAST(p_from AS DATE))
    AND (p_to IS NULL OR date <= CAST(p_to AS DATE))
    AND (p_pulkas IS NULL OR list_contains(p_pulkas, pulka));
CREATE OR REPLACE MACRO sel_player_deals(p_player, p_preset, p_from, p_to, p_pulkas) AS TABLE
    SELECT * FROM player_deals
    WHERE (p_player IS NULL OR player = p_player)
      AND keep_row(preset, date, pulka, p_preset, p_from, p_to, p_pulkas);
CREATE OR REPLACE MACRO sel_deals(p_player, p_preset, p_from, p_to, p_pulkas) AS TABLE
    SELECT * FROM deals
    WHERE (p_player IS NULL OR declarer_name = p_player)
      AND keep_row(preset, date, pulka, p_preset, p_from, p_to, p_pulkas);
CREATE OR REPLACE MACRO sel_pulka_results(p_player, p_preset, p_from, p_to, p_pulkas) AS TABLE
    SELECT * FROM pulka_results
    WHERE (p_player IS NULL OR player = p_player)
      AND keep_row(preset, date, pulka, p_preset, p_from, p_to, p_pulkas);
-- Pulka ids matching the filters; here the player filter means "pulkas he sat in".
CREATE OR REPLACE MACRO sel_pulkas(p_player, p_preset, p_from, p_to, p_pulkas) AS TABLE
    SELECT DISTINCT pulka FROM sel_pulka_results(p_player, p_preset, p_from, p_to, p_pulkas);
