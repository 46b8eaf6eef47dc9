#!/usr/bin/env python3
"""many_runs.py STORE N: makes STORE's one run into N runs, cheaply, by SQL copies.

Run 1 of STORE (one small ingested trace, with its model_cache rows) is copied
to runs 2..N: every row of every table that belongs to a run, with its ids
moved past the originals' (copy k: id + k * (max id of the table)), its own
content hash (run 1's with the copy number folded in), label r<k>.json, and
its model_cache rows re-keyed to the copy's hash (so `report STORE` serves
them from the cache, as it would after analysing each run once). Used by
bench/many_runs.sh; the copies are the same run N times over, which is all a
per-run cost against the store's size needs.
"""
import json
import re
import sqlite3
import sys


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    db = sqlite3.connect(path)
    c = db.cursor()
    c.execute("PRAGMA temp_store=MEMORY")
    c.execute("PRAGMA cache_size=-262144")
    if c.execute("SELECT count(*) FROM run").fetchone()[0] != 1:
        sys.exit("many_runs.py: the store must hold exactly one run")

    def top(table, col="id"):
        return c.execute("SELECT ifnull(max(%s), 0) FROM %s" % (col, table)).fetchone()[0]

    S, T, E, M = top("span"), top("track"), top("series"), top("metric")
    # The cached texts start with the run's id, label, source and content hash (the model's
    # and the digest's first keys, analyze/model.c): a copy's are its own, so that its rows
    # are served from the cache (a row whose id is not its run's is not). Where they do not
    # start so, the texts are copied as they are (and the copies analysed again when read).
    rid, label, source, rhash = c.execute(
        "SELECT id, label, source, content_hash FROM run").fetchone()
    head = '{"id":%d,"label":%s,"source":%s,"content_hash":%s' % (
        rid, json.dumps(label), json.dumps(source), json.dumps(rhash))
    ok = all(t.startswith(head) for row in c.execute("SELECT digest, model FROM model_cache")
             for t in row)

    def fix(col):
        if not ok:
            return col
        return ("'{\"id\":' || (m.run_id + k.n) || ',\"label\":\"r' || (k.n + 1) || '.json\","
                "\"source\":\"r' || (k.n + 1) || '.json\",\"content_hash\":\"' || %s || '\"' "
                "|| substr(%s, %d)" % (h.replace("r.", "m."), col, len(head) + 1))

    c.execute("CREATE TEMP TABLE k(n INTEGER PRIMARY KEY)")
    c.executemany("INSERT INTO k VALUES(?)", ((i,) for i in range(1, n)))
    # content_hash stays 32 hex digits: run 1's first 24, then the copy number
    h = "substr(r.content_hash, 1, 24) || printf('%08x', k.n)"
    sql = [
        "INSERT INTO run SELECT r.id + k.n, format, collector, 'r' || (k.n + 1) || '.json', "
        "'r' || (k.n + 1) || '.json', " + h + ", bytes, rank, world_size, time_origin_ns, "
        "time_synthetic, ts_min, ts_max, span_count, sample_count, instant_count, meta "
        "FROM run r, k",
        "INSERT INTO track SELECT id + k.n * %d, run_id + k.n, kind, pid, tid, name, "
        "process_name, sort_index FROM track, k" % T,
        "INSERT INTO span SELECT id + k.n * %d, run_id + k.n, track_id + k.n * %d, kind, name_id, "
        "cat_id, ts, dur, self, depth, parent_id + k.n * %d, args_keys, args FROM span, k"
        % (S, T, S),
        "INSERT INTO series SELECT id + k.n * %d, run_id + k.n, name, device, unit, orig_unit, "
        "count, min, max, ts_min, ts_max FROM series, k" % E,
        "INSERT INTO sample SELECT series_id + k.n * %d, ts, seq, value FROM sample, k" % E,
        "INSERT INTO instant(run_id, track_id, name_id, cat_id, ts, scope, args_keys, args) "
        "SELECT run_id + k.n, track_id + k.n * %d, name_id, cat_id, ts, scope, args_keys, args "
        "FROM instant, k" % T,
        "INSERT INTO flow SELECT run_id + k.n, flow_id, phase, track_id + k.n * %d, ts, name_id, "
        "cat_id, bind FROM flow, k" % T,
        "INSERT INTO op_cover SELECT run_id + k.n, ts, end_ts FROM op_cover, k",
        "INSERT INTO span_up SELECT span_id + k.n * %d, run_id + k.n, p_kind, p_name_id, p_ts, "
        "p_parent_id + k.n * %d, q_kind, q_name_id, q_parent_id + k.n * %d FROM span_up, k"
        % (S, S, S),
        "INSERT INTO metric SELECT id + k.n * %d, run_id + k.n, name, value, unit, "
        "span_id + k.n * %d, origin, detail FROM metric, k" % (M, S),
        "INSERT INTO diag SELECT run_id + k.n, code, count, line, col, offset, message "
        "FROM diag, k",
        "INSERT INTO run_meta SELECT run_id + k.n, key, value FROM run_meta, k",
        "INSERT INTO model_cache SELECT m.run_id + k.n, options, " + h.replace("r.", "m.")
        + ", analyzer, " + fix("digest") + ", " + fix("model") + " FROM model_cache m, k",
    ]
    # Each table's rows of run 1 are read from a temporary copy: an INSERT that reads its own
    # table has SQLite materialize the whole SELECT first (at 100 000 copies, 7 GB of model
    # cache through a temporary file, twice).
    for s in sql:
        m = re.search(r" FROM (\w+)( \w)?, k$", s)
        if m:
            t = m.group(1)
            c.execute("CREATE TEMP TABLE src_%s AS SELECT * FROM main.%s" % (t, t))
            # k outermost: each copy's rows in id order, appended (the other way round
            # every insert lands in another page of a table larger than the cache)
            s = s[:m.start()] + " FROM k CROSS JOIN src_%s %s" % (t, (m.group(2) or " " + t).strip())
        c.execute(s)
    db.commit()
    # the run_id indexes a store gets from its second run (the writer makes them then)
    for t in ("span", "track", "series", "metric", "op_cover", "span_up", "diag"):
        c.execute("CREATE INDEX IF NOT EXISTS %s_run ON %s(run_id)" % (t, t))
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
