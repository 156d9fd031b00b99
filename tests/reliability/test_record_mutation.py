"""Hypothesis-driven record mutation, text and JSON, through the streaming file reader the commands use.

Each case is a documented or shipped example record (``tests/mutations.py``'s seeds) changed by 1–6 drawn
edits (noise inserted, spans deleted or copied, lines swapped or repeated; for JSON also a node replaced
by a value of another type), read from a byte stream as a file is (:func:`~preflog.record.api.iter_records`:
the chunked cut into pulkas, comment blanking, the scanner, the parser), then every pulka read is
audited and written back. It must end as accepted (the written text reads back to the same events) or
refused with a located :class:`~preflog.record.RecordError` naming the file, in bounded CPU time: never
another exception, never a hang.

Short run: 150 text and 100 JSON mutations. ``PREFLOG_RELIABILITY=long``: 100,000 text and 25,000 JSON
(issue 31's scale, ≥ 125,000; ``benchmarks/fuzz.py`` runs the same edits on several processes).
"""

from __future__ import annotations

import io
import json
import time

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.record import RecordError
from preflog.record import read_records
from preflog.record import write_json
from preflog.record import write_text
from preflog.record.api import iter_records
from tests import mutations

from .conftest import COUNTS
from .conftest import LONG

SEEDS = mutations.seeds()
TEXT_CASES = 100_000 if LONG else 150
JSON_CASES = 25_000 if LONG else 100
CPU_LIMIT = 5.0  # seconds for one case of a few kilobytes: a hang, not a slow read


def _read(data: bytes, name: str) -> None:
    start = time.process_time()
    try:
        records = list(iter_records(io.BytesIO(data), name))
    except RecordError as err:
        assert str(err).startswith(name), str(err)
        records = []
    for r in records:
        audit(r.events)  # findings, never an exception
    if records:
        back = write_text(records)
        assert [r.events for r in read_records(back)] == [r.events for r in records]
    assert time.process_time() - start < CPU_LIMIT, f"{name}: {time.process_time() - start:.1f} s"


@settings(max_examples=TEXT_CASES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), which=st.integers(0, len(SEEDS) - 1), n=st.integers(1, 6))
def test_mutated_text_records_read_or_refuse_in_bounded_time(data: st.DataObject, which: int, n: int) -> None:
    text = mutations.mutate(lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label), SEEDS[which], n)
    COUNTS["text mutation"] += 1
    _read(text.encode("utf-8", "surrogatepass"), "mutated.pref")


def _json_base(which: int) -> str | None:
    try:
        return write_json(read_records(SEEDS[which]))
    except RecordError:
        return None  # a seed that is itself refused (an example of an error) has no JSON form


@settings(max_examples=JSON_CASES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(data=st.data(), which=st.integers(0, len(SEEDS) - 1), n=st.integers(1, 4), structural=st.booleans())
def test_mutated_json_records_read_or_refuse_in_bounded_time(data: st.DataObject, which: int, n: int,
                                                            structural: bool) -> None:
    base = _json_base(which)
    if base is None:
        return
    pick = lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label)  # noqa: E731
    if not structural:
        doc = mutations.mutate(pick, base, n)
    else:
        tree = json.loads(base)
        for _ in range(n):
            node, key, cur = None, None, tree
            for _depth in range(pick("depth", 1, 8)):
                if isinstance(cur, dict) and cur:
                    k: object = list(cur)[pick("key", 0, len(cur) - 1)]
                elif isinstance(cur, list) and cur:
                    k = pick("index", 0, len(cur) - 1)
                else:
                    break
                node, key, cur = cur, k, cur[k]  # type: ignore[index]
            if node is not None:
                node[key] = json.loads(json.dumps(mutations.VALUES[pick("value", 0, len(mutations.VALUES) - 1)]))
        doc = json.dumps(tree)
    COUNTS["JSON mutation"] += 1
    _read(doc.encode("utf-8", "surrogatepass"), "mutated.json")
