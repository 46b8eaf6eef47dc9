#!/usr/bin/env python3
"""metrics_check.py - validates `profreport metrics` outputs against the formats' own rules.

    metrics_check.py csv|bmf|openmetrics FILE

Prints what it read, one value a line ("RUN METRIC VALUE"; openmetrics:
"FAMILY{LABELS} VALUE"), or one line "metrics_check: ..." and exits 1.

csv          as Apache Otava's CsvImporter (otava/importer.py) reads a test
             `type: csv, time_column: time, attributes: [...], metrics: [...]`:
             csv.reader with ',' and '"', the header row, every row at least
             as long as the header, the time column parsed as a date-time,
             every metric column (each column but time, run, label and the
             attributes, i.e. the metadata columns) converted with float().
bmf          Bencher Metric Format: the JSON schema of bencher.dev/bmf.json
             (draft-07; checked with jsonschema, and Bencher's own example
             document must pass it too), finite values, lower <= value <= upper.
openmetrics  the OpenMetrics 1.0 text format, by its ABNF and rules: "# TYPE"
             before a family's samples, "# UNIT" only with a name ending in
             _UNIT, valid metric and label names, label values with only \\\\,
             \\" and \\n escapes, no family split or repeated, no duplicate
             label set, "# EOF" the last line; then, when prometheus_client is
             installed (python3-prometheus-client), its OpenMetrics parser
             must read the file and give the same samples.
"""
import csv
import datetime
import json
import math
import re
import os
import sys

BMF_SCHEMA = {
    "$id": "https://bencher.dev/bmf.json",
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "patternProperties": {".+": {"type": "object", "patternProperties": {".+": {
        "type": "object",
        "properties": {"value": {"type": "number"}, "lower_value": {"type": "number"},
                       "upper_value": {"type": "number"}},
        "required": ["value"]}}}},
}
BMF_EXAMPLE = {
    "benchmark_name": {"latency": {"value": 88.0, "lower_value": 87.42, "upper_value": 88.88},
                       "throughput": {"value": 5.55, "lower_value": 3.14, "upper_value": 6.30}},
    "/bin/sh -c ./my_build_script.sh": {"build-time": {"value": 87.0}},
    "my_binary": {"file-size": {"value": 42.0}},
}


def die(msg):
    print("metrics_check: " + msg)
    sys.exit(1)


def check_csv(text):
    rows = list(csv.reader(text.splitlines(), delimiter=",", quotechar='"'))
    if not rows:
        die("csv: empty")
    head = rows[0]
    for col in ("time", "run", "label"):
        if col not in head:
            die("csv: no column " + col)
    known = {"step_time", "steps_per_s", "tokens_per_s", "fps", "gpu_busy", "peak_memory",
             "duration"}
    metrics = [c for c in head if c in known]
    attrs = [c for c in head if c not in known and c != "time"]
    if head[3:3 + len(attrs) - 2] != attrs[2:] or not metrics:
        die("csv: columns not time, run, label, attributes, metrics: %r" % head)
    out = []
    for r in rows[1:]:
        if len(r) < len(head):
            die("csv: a row shorter than the header: %r" % r)
        try:
            datetime.datetime.strptime(r[head.index("time")], "%Y-%m-%d %H:%M:%S %z")
        except ValueError as e:
            die("csv: time: %s" % e)
        for m in metrics:
            try:
                v = float(r[head.index(m)])
            except ValueError as e:
                die("csv: column %s: %s" % (m, e))
            out.append("%s %s %r" % (r[head.index("run")], m, v))
    return out


def check_bmf(text):
    import jsonschema
    doc = json.loads(text)
    jsonschema.Draft7Validator.check_schema(BMF_SCHEMA)
    jsonschema.validate(BMF_EXAMPLE, BMF_SCHEMA)
    try:
        jsonschema.validate(doc, BMF_SCHEMA)
    except jsonschema.ValidationError as e:
        die("bmf: " + e.message)
    out = []
    for bench, measures in doc.items():
        if not measures:
            die("bmf: benchmark %r has no measure" % bench)
        for m, v in measures.items():
            if len(m) > 64:
                die("bmf: measure name over 64 characters")
            vals = [v[k] for k in ("lower_value", "value", "upper_value") if k in v]
            if not all(math.isfinite(x) for x in vals):
                die("bmf: not finite")
            if vals != sorted(vals):
                die("bmf: lower <= value <= upper fails for %s %s" % (bench, m))
            out.append("%s %s %r" % (bench, m, v["value"]))
    return out


NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LNAME = r"[a-zA-Z_][a-zA-Z0-9_]*"
LVAL = r'"(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r"^(%s)(\{(?:%s=%s(?:,%s=%s)*)?\})? (\S+)$" % (NAME, LNAME, LVAL, LNAME,
                                                                   LVAL))
UNITS = {"seconds", "bytes", "ratio", "celsius", "volts", "amperes", "joules", "grams", "meters"}


def check_openmetrics(text):
    if not text.endswith("# EOF\n"):
        die("openmetrics: the last line is not '# EOF'")
    lines = text[:-len("# EOF\n")].split("\n")[:-1]
    families, cur, out = {}, None, []
    for ln in lines:
        if ln.startswith("#"):
            m = re.match(r"^# (TYPE|UNIT|HELP) (%s)(?: (.*))?$" % NAME, ln)
            if not m:
                die("openmetrics: bad comment line %r" % ln)
            kind, name, rest = m.groups()
            if name != cur:
                if name in families:
                    die("openmetrics: family %s split" % name)
                families[name] = {"samples": set()}
                cur = name
            fam = families[name]
            if kind in fam:
                die("openmetrics: # %s twice for %s" % (kind, name))
            fam[kind] = rest or ""
            if kind == "TYPE" and rest not in ("gauge", "counter", "unknown", "info",
                                               "stateset", "histogram", "gaugehistogram",
                                               "summary"):
                die("openmetrics: bad type %r" % rest)
            if kind == "UNIT" and (not name.endswith("_" + rest) or rest not in UNITS):
                die("openmetrics: unit %r for %s" % (rest, name))
            continue
        m = SAMPLE.match(ln)
        if not m:
            die("openmetrics: bad sample line %r" % ln)
        name, labels, value = m.group(1), m.group(2) or "", m.group(3)
        if name != cur or "TYPE" not in families.get(name, {}):
            die("openmetrics: sample %s outside its family (after # TYPE)" % name)
        names = re.findall(r"(%s)=%s" % (LNAME, LVAL), labels)
        if len(set(names)) != len(names):
            die("openmetrics: a label twice in %r" % ln)
        if labels in families[name]["samples"]:
            die("openmetrics: label set repeated in %s" % name)
        families[name]["samples"].add(labels)
        v = float(value)
        out.append("%s%s %r" % (name, labels, v))
    try:
        sys.path.append("/usr/lib/python3/dist-packages")
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    except ImportError:
        # .ci/run installs python3-prometheus-client; PR_REQUIRE_ALL=1 makes its absence fail
        if os.environ.get("PR_REQUIRE_ALL") == "1":
            die("openmetrics: prometheus_client is not installed (python3-prometheus-client)")
        sys.stderr.write("metrics_check: prometheus_client not installed: its parser not run\n")
        return out
    got = []
    for fam in text_string_to_metric_families(text):
        if fam.type != families.get(fam.name + ("_" + fam.unit if fam.unit and not
                                                fam.name.endswith(fam.unit) else ""),
                                     {}).get("TYPE", fam.type):
            die("openmetrics: prometheus_client reads another type for " + fam.name)
        for s in fam.samples:
            got.append((s.name, tuple(sorted(s.labels.items())), s.value))
    if len(got) != len(out):
        die("openmetrics: prometheus_client read %d samples, this checker %d" % (len(got),
                                                                                len(out)))
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("csv", "bmf", "openmetrics"):
        die("usage: metrics_check.py csv|bmf|openmetrics FILE")
    with open(sys.argv[2], encoding="utf-8") as f:
        text = f.read()
    out = {"csv": check_csv, "bmf": check_bmf, "openmetrics": check_openmetrics}[sys.argv[1]](text)
    print("\n".join(out))


main()
