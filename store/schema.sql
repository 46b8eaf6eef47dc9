-- profreport event store, schema version 5 (PRAGMA user_version = 5).
-- Version 2 added op_cover, version 3 span_up, version 4 model_cache,
-- version 5 run_meta (a version 4 store is read as one with no run_meta
-- rows, and gets the table from the first command that writes to it).
-- Times are int64 nanoseconds on the run's clock; run.time_origin_ns maps
-- clock 0 to absolute Unix epoch nanoseconds when the source says so.
CREATE TABLE run(
  id INTEGER PRIMARY KEY,
  format TEXT NOT NULL,
  collector TEXT,
  label TEXT,
  source TEXT NOT NULL,
  content_hash TEXT NOT NULL UNIQUE,
  bytes INTEGER NOT NULL,
  rank INTEGER,
  world_size INTEGER,
  time_origin_ns INTEGER,
  time_synthetic INTEGER NOT NULL DEFAULT 0,
  ts_min INTEGER,
  ts_max INTEGER,
  span_count INTEGER NOT NULL DEFAULT 0,
  sample_count INTEGER NOT NULL DEFAULT 0,
  instant_count INTEGER NOT NULL DEFAULT 0,
  meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE string(
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);
-- Event args are stored split: argkeys holds each distinct key list once
-- (a JSON array of names); a row's args is then the JSON array of values
-- in that order. Rows whose args are not a JSON object keep args as given
-- and args_keys NULL. The views below rebuild the original JSON objects.
CREATE TABLE argkeys(
  id INTEGER PRIMARY KEY,
  keys TEXT NOT NULL
);
CREATE TABLE track(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  kind TEXT NOT NULL,
  pid TEXT,
  tid TEXT,
  name TEXT,
  process_name TEXT,
  sort_index INTEGER
);
CREATE TABLE span(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  track_id INTEGER NOT NULL REFERENCES track(id),
  kind TEXT NOT NULL,
  name_id INTEGER NOT NULL REFERENCES string(id),
  cat_id INTEGER REFERENCES string(id),
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  self INTEGER,
  depth INTEGER,
  parent_id INTEGER,
  args_keys INTEGER REFERENCES argkeys(id),
  args TEXT
);
CREATE TABLE series(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  name TEXT NOT NULL,
  device TEXT NOT NULL DEFAULT '',
  unit TEXT NOT NULL,
  orig_unit TEXT,
  count INTEGER NOT NULL DEFAULT 0,
  min REAL,
  max REAL,
  ts_min INTEGER,
  ts_max INTEGER
);
-- Clustered by series and time (no separate index to build after a load);
-- seq is the sample's arrival order within its series.
CREATE TABLE sample(
  series_id INTEGER NOT NULL REFERENCES series(id),
  ts INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY(series_id, ts, seq)
) WITHOUT ROWID;
CREATE TABLE instant(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  track_id INTEGER REFERENCES track(id),
  name_id INTEGER NOT NULL REFERENCES string(id),
  cat_id INTEGER REFERENCES string(id),
  ts INTEGER NOT NULL,
  scope TEXT,
  args_keys INTEGER REFERENCES argkeys(id),
  args TEXT
);
CREATE TABLE flow(
  run_id INTEGER NOT NULL REFERENCES run(id),
  flow_id TEXT NOT NULL,
  phase TEXT NOT NULL,
  track_id INTEGER REFERENCES track(id),
  ts INTEGER NOT NULL,
  name_id INTEGER REFERENCES string(id),
  cat_id INTEGER REFERENCES string(id),
  bind TEXT
);
-- Where the run's CPU ops (span kind 'op') ran: intervals whose union is
-- exactly the union of the ops' [ts, ts + dur], written as the spans
-- arrive (an op starting inside the track's current interval extends it),
-- so far fewer rows than ops. The step breakdown reads this instead of
-- every op. Rows may overlap and are in no particular order.
CREATE TABLE op_cover(
  run_id INTEGER NOT NULL REFERENCES run(id),
  ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL
);
-- The parent and grandparent of every device activity and runtime call
-- (span kinds kernel, memcpy, memset, runtime) that has a parent: the
-- kind, name, start and parent of span.parent_id, and the kind, name and
-- parent of that span's parent (q_* NULL when there is none), as the
-- span table links them. The writer knows them when it nests a span (for
-- tracks re-nested after load: after re-nesting), so the GPU analyses read
-- them here instead of joining each call to its ancestors.
CREATE TABLE span_up(
  span_id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  p_kind TEXT NOT NULL,
  p_name_id INTEGER NOT NULL,
  p_ts INTEGER NOT NULL,
  p_parent_id INTEGER,
  q_kind TEXT,
  q_name_id INTEGER,
  q_parent_id INTEGER
);
CREATE TABLE metric(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id),
  name TEXT NOT NULL,
  value REAL,
  unit TEXT,
  span_id INTEGER,
  origin TEXT NOT NULL,
  detail TEXT
);
CREATE TABLE diag(
  run_id INTEGER NOT NULL REFERENCES run(id),
  code TEXT NOT NULL,
  count INTEGER NOT NULL,
  line INTEGER,
  col INTEGER,
  offset INTEGER,
  message TEXT NOT NULL
);
-- Version 4: the model cache. One row per run and set of model options:
-- the run's object of the analysis model (JSON text) and its digest (the
-- part an archive's index page reads), as built by the analyser named in
-- `analyzer` from the run whose content hash is `content_hash`. A row is
-- used only when all three still match (run.content_hash, this build's
-- analyser version, the options), so it is never stale; `report` on a
-- store writes it (analyze/model.c, store/model_cache.c). The digest comes
-- before the model: a row's columns are stored in order, and reading the
-- small digest must not walk the model's overflow pages.
CREATE TABLE model_cache(
  run_id INTEGER NOT NULL REFERENCES run(id),
  options TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  analyzer TEXT NOT NULL,
  digest TEXT NOT NULL,
  model TEXT NOT NULL,
  UNIQUE(run_id, options)
);
-- Version 5: the user's metadata of a run (ingest/report/compare --meta
-- key=value, --meta-from-env): commit, branch, build, time, ... One row per
-- run and key; written in the run's own transaction. Not the source's own
-- metadata, which is run.meta.
CREATE TABLE run_meta(
  run_id INTEGER NOT NULL REFERENCES run(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(run_id, key)
) WITHOUT ROWID;
CREATE VIEW span_v AS
  SELECT s.id, s.run_id, s.track_id, t.pid, t.tid, t.name AS track, s.kind, n.value AS name,
         c.value AS cat, s.ts, s.dur, s.self, s.depth, s.parent_id,
         CASE WHEN s.args_keys IS NULL THEN s.args ELSE
           (SELECT json_group_object(k.value, json(s.args -> ('$[' || k.key || ']')))
            FROM argkeys a, json_each(a.keys) k WHERE a.id = s.args_keys) END AS args
  FROM span s JOIN string n ON n.id = s.name_id
  LEFT JOIN string c ON c.id = s.cat_id
  LEFT JOIN track t ON t.id = s.track_id;
CREATE VIEW instant_v AS
  SELECT i.id, i.run_id, t.pid, t.tid, n.value AS name, c.value AS cat, i.ts, i.scope,
         CASE WHEN i.args_keys IS NULL THEN i.args ELSE
           (SELECT json_group_object(k.value, json(i.args -> ('$[' || k.key || ']')))
            FROM argkeys a, json_each(a.keys) k WHERE a.id = i.args_keys) END AS args
  FROM instant i JOIN string n ON n.id = i.name_id
  LEFT JOIN string c ON c.id = i.cat_id
  LEFT JOIN track t ON t.id = i.track_id;
CREATE VIEW sample_v AS
  SELECT se.run_id, se.name, se.device, se.unit, sa.ts, sa.value
  FROM sample sa JOIN series se ON se.id = sa.series_id;
