#!/usr/bin/python3
"""model_keys.py - the key names of our JSON documents have one home: their
JSON Schemas (docs/schema/*.schema.json). Every key that a reader of the
model, agg.json or a comparison asks for by name in C - the second argument
of pr_mnum, pr_mll, pr_mstr or json_object_get given as a string literal in
render/*.c, cli/*.c and analyze's readers of those documents - must be named
by a schema (a property, a required key, or matched by a patternProperties
regex). A key read that no schema names is a typo or an undocumented field:
the test prints file:line and the key, and fails.

usage: model_keys.py ROOT
"""
import glob
import json
import re
import sys

root = sys.argv[1]
# C files that read our own documents (not trace inputs: ingest/ reads those): render/, cli/
# and analyze/multi/, the room of the consumers of many models
READERS = sorted(set(glob.glob(root + "/render/*.c") + glob.glob(root + "/cli/*.c") +
                     glob.glob(root + "/analyze/multi/*.c")))
# documents of their own, not models: the panel's data block (panel_data.c writes and
# templates/report.js reads it), the gate's config is checked by gate.c itself
EXEMPT = {"render/panel_data.c"}

# keys of run.meta, which the schema leaves open: each format writes its own (docs/formats.md)
META_KEYS = {"inferix_file"}

names, patterns = set(META_KEYS), []


def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "properties" and isinstance(v, dict):
                names.update(v)
            elif k == "patternProperties" and isinstance(v, dict):
                patterns.extend(re.compile(p) for p in v)
            elif k == "required" and isinstance(v, list):
                names.update(x for x in v if isinstance(x, str))
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)


for f in glob.glob(root + "/docs/schema/*.schema.json"):
    with open(f, encoding="utf-8") as fh:
        walk(json.load(fh))
# the schema's description allows `<list>_more` / `_omitted` in every object
patterns.append(re.compile(r"_(more|omitted)$"))

call = re.compile(r'\b(pr_mnum|pr_mll|pr_mstr|json_object_get)\(([^;]*?),\s*"([^"]+)"\)')
# render/tables.c describes the model's tables as data: the keys its columns read
# (`.key = "..."`, and `.in`, `.alt`, `.unit_key`, `.of`) are key reads too
table_key = re.compile(r'\.(key|in|alt|unit_key|of) = "([^"]+)"')
bad = 0
checked = 0
for path in READERS:
    rel = path[len(root) + 1:]
    if rel in EXEMPT:
        continue
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            found = [m.group(3) for m in call.finditer(line)]
            if rel == "render/tables.c":
                found += [m.group(2) for m in table_key.finditer(line)]
            for key in found:
                checked += 1
                if key in names or any(p.search(key) for p in patterns):
                    continue
                print(f"{rel}:{no}: key \"{key}\" is named by no schema in docs/schema/")
                bad += 1
print(f"model_keys: {checked} key reads in {len(READERS)} files, {bad} not in a schema")
sys.exit(1 if bad or checked < 100 else 0)
