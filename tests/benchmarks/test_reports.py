"""The benchmark's synthetic tables follow the projection schemas and the reports run on them."""

from __future__ import annotations

from benchmarks import reports as bench
from preflog.projections.build import SCHEMAS
from tests.synthetic import synthesize


def test_synthesize_shapes_and_run(tmp_path):
    """3000 deals → 120 pulkas of 25; player_deals has 3 rows per deal, pulka_results 3 per pulka;
    the players report over them counts every non-out row once (all 3-player: 9000 deals played), plus
    the bench's refreshed extra pulka: two raspasy deals, then changed to one → 3 more player rows."""
    t = synthesize(3000, seed=7)
    assert {k: v.num_rows for k, v in t.items()} == {"deals": 3000, "player_deals": 9000, "pulka_results": 360}
    assert all(t[k].schema == SCHEMAS[k] for k in t)
    timings = bench.run(3000, str(tmp_path), repeat=1)
    assert timings["players_warm"] > 0 and timings["contracts_warm"] > 0
    assert timings["refresh_new_pulka"] > 0 and timings["refresh_changed_pulka"] > 0
    from preflog.reports import connect
    from preflog.reports import players

    assert players(connect(tmp_path))["deals_played"].sum() == 9000 + 3
