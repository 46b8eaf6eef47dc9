#!/usr/bin/python3
"""model_keys.py - the key names of our JSON documents have one home: their
JSON Schemas (docs/schema/*.schema.json). Every key that a reader of the
model, agg.json or a comparison asks for by name in C - the second argument
of pr_mnum, pr_mll, pr_mstr or json_object_get given as a string literal in
render/*.c, cli/*.c and analyze's readers of those documents - must be named
by a schema (a property, a required key, or matched by a patternProperties
regex). A key read that no schema names is a typo or an undocumented field:
the test prints file:line and the key, and fails.

Files in CONVERTED name every key by the macro of its whole path, generated
from the schemas into schema/model_keys.h (cmake/model_keys.cmake): a key
removed from a schema makes the macro vanish and the reader fail to compile.
In them a read with a literal key fails this test (unless its line says
"keys: page data": a document of the file's own, not the model), and every
PRK_/PRA_/PRC_ name they use must be a macro of the generated header. The
paths must fit together, within one function: every key read from one
variable is a key of one object (pr_mstr(s, PRK_SERIES_NAME) and
pr_mnum(s, PRK_PEAKS_VALUE) on one s fail), and a variable set to an
object read by macro (x = json_object_get(y, PRK_A_B), or the items of
json_array_foreach over it) is read only for that object's keys
(PRK_A_B_*). A variable that holds two objects in one function is two
variables. render/tables.c's columns name their keys by macro as well, and one
table's columns must read one object (its items; `.in`: an object of the items).
A literal key is allowed only under a marker on its line or the line above:
"keys: page data" (a document of the file's own), "keys: run meta" (the run's
meta, open in the schema) or "keys: digest" (a key only pr_model_digest writes).
The other readers keep the bag-of-names check above.

usage: model_keys.py ROOT [BUILD/gen/schema/model_keys.h]
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
# readers converted to the generated macros (docs/development.md, "Adding a model key")
CONVERTED = {p[len(root) + 1:] for p in glob.glob(root + "/render/*.c")} - EXEMPT | {
    p[len(root) + 1:] for p in glob.glob(root + "/cli/*.c") + glob.glob(root + "/analyze/multi/*.c")}
HEADER = sys.argv[2] if len(sys.argv) > 2 else None

# keys of run.meta, which the schema leaves open: each format writes its own (docs/formats.md)
META_KEYS = {"inferix_file"}

names, patterns = set(META_KEYS), []
bad = 0


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

macros = {}
if HEADER:
    with open(HEADER, encoding="utf-8") as fh:
        for m in re.finditer(r'^#define (PR[KAC]_\w+) "([^"]*)" /\* (\S+) \*/', fh.read(), re.M):
            macros[m.group(1)] = m.group(3)
    if len(macros) < 1000:
        print(f"model_keys: {HEADER} holds {len(macros)} macros, expected the schemas' key paths")
        sys.exit(1)

READ = re.compile(r'\b(pr_mnum|pr_mll|pr_mstr|json_object_get)\(')


def second_arg(text, i):
    """The text of the second argument of the call whose '(' ends at i, or None."""
    depth, start, args, j, instr = 0, i, [], i, False
    while j < len(text):
        c = text[j]
        if instr:
            if c == "\\":
                j += 2
                continue
            instr = c != '"'
        elif c == '"':
            instr = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(text[start:j])
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:j])
            start = j + 1
        j += 1
    return args[1].strip() if len(args) == 2 else None


via_macro = 0
for path in sorted(CONVERTED):
    with open(root + "/" + path, encoding="utf-8") as fh:
        text = fh.read()
    lines = text.split("\n")
    for m in READ.finditer(text):
        key = second_arg(text, m.end())
        if key is None:
            continue
        no = text.count("\n", 0, m.start()) + 1
        if re.fullmatch(r'"[^"]*"', key):
            # a document of the file's own, a run's meta (open in the schema: each format writes
            # its own keys) or a key only the model's digest has (pr_model_digest's "history");
            # the marker is on the line or the line above
            if any(mk in lines[no - 1] + lines[no - 2]
                   for mk in ("keys: page data", "keys: run meta", "keys: digest")):
                continue
            print(f"{path}:{no}: key {key} read by a literal: name it by its path's macro "
                  f"(PRK_/PRA_/PRC_, schema/model_keys.h)")
            bad += 1
        elif re.fullmatch(r"PR[KAC]_\w+", key):
            via_macro += 1
    if HEADER:
        for no, line in enumerate(lines, 1):
            for name in re.findall(r"\bPR[KAC]_[A-Z0-9_]+\b", line):
                if name not in macros:
                    print(f"{path}:{no}: {name} is no key path of docs/schema/ (model_keys.h)")
                    bad += 1



def object_of(mac):
    """The object path holding mac's key ("PRK:gpu_breakdown"; a run is the root of PRK)."""
    p = macros[mac].replace("[]", "")
    if mac.startswith("PRK_") and (p == "runs" or p.startswith("runs.")):
        p = p[5:]
    return mac[:3] + ":" + p


def parent_of(mac):
    o = object_of(mac)
    pre, p = o.split(":", 1)
    return pre + ":" + (p.rsplit(".", 1)[0] if "." in p else "")


BY_VAR = re.compile(r"\b(?:pr_mnum|pr_mll|pr_mstr|json_object_get)\(\s*(\w+)\s*,\s*(PR[KAC]_\w+)\s*\)")
SET_VAR = re.compile(r"\b(\w+)\s*=\s*json_object_get\(\s*\w+\s*,\s*(PR[KAC]_\w+)\s*\)")
EACH_VAR = re.compile(r"json_array_foreach\s*\(\s*json_object_get\(\s*\w+\s*,\s*(PR[KAC]_\w+)\s*\)"
                      r"\s*,\s*\w+\s*,\s*(\w+)\s*\)")
paths_checked = 0
for path in sorted(CONVERTED) if HEADER else []:
    with open(root + "/" + path, encoding="utf-8") as fh:
        text = fh.read()
    # functions: the text between two lines that are a lone "}"
    at = 0
    for part in re.split(r"(?<=\n}\n)", text):
        holds, first = {}, {}
        for m in SET_VAR.finditer(part):
            if m.group(2) in macros:
                holds.setdefault(m.group(1), set()).add(object_of(m.group(2)))
        for m in EACH_VAR.finditer(part):
            if m.group(1) in macros:
                holds.setdefault(m.group(2), set()).add(object_of(m.group(1)))
        for m in BY_VAR.finditer(part):
            var, mac = m.groups()
            if mac not in macros:
                continue
            paths_checked += 1
            no = at + part.count("\n", 0, m.start()) + 1
            obj = parent_of(mac)
            if var in holds:
                if obj not in holds[var]:
                    print(f"{path}:{no}: {mac} is a key of {obj}, but {var} holds "
                          f"{' or '.join(sorted(holds[var]))}")
                    bad += 1
            elif var in first and first[var][0] != obj:
                print(f"{path}:{no}: {mac} is a key of {obj}, but {var} was read for "
                      f"{first[var][1]}, a key of {first[var][0]}")
                bad += 1
            first.setdefault(var, (obj, mac))
        at += part.count("\n")

# render/tables.c describes the model's tables as data: each column's keys (`.key`, `.alt`, `.of`,
# `.unit_key`: keys of the table's item; `.in`: an object of the item, holding `.key` and `.alt`)
# are path macros too, and one table's paths fit together: every column reads the same object (the
# table's items), a column with `.in` reads the object `.in` names, a key of the items.
COL_FIELD = re.compile(r'\.(key|in|alt|unit_key|of) = (PR[KAC]_\w+|"[^"]*")')
tables_checked = 0
if HEADER:
    with open(root + "/render/tables.c", encoding="utf-8") as fh:
        ttext = fh.read()
    for tm in re.finditer(r"static const struct pr_table_col (\w+)\[\] = \{(.*?)\n\};", ttext, re.S):
        table, items = tm.group(1), None
        base = ttext.count("\n", 0, tm.start(2)) + 1
        for em in re.finditer(r"\{ \.(?:[^{}]|\{[^{}]*\})*\}", tm.group(2)):
            no = base + tm.group(2).count("\n", 0, em.start())
            fields = dict(COL_FIELD.findall(em.group(0)))
            rest = tm.group(2)[em.end():].split("\n", 1)[0]  # a comment after the entry
            for f, v in fields.items():
                if v.startswith('"') and "keys: page data" not in em.group(0) + rest:
                    print(f"render/tables.c:{no}: {table} .{f} = {v}: name it by its path's macro")
                    bad += 1
            fields = {f: v for f, v in fields.items() if not v.startswith('"') and v in macros}
            inner = fields.pop("in", None)
            if inner:
                if items is None:
                    items = parent_of(inner)
                if parent_of(inner) != items:
                    print(f"render/tables.c:{no}: {table} .in = {inner} is a key of "
                          f"{parent_of(inner)}, not of the table's items {items}")
                    bad += 1
            for f, v in fields.items():
                tables_checked += 1
                want = object_of(inner) if inner and f in ("key", "alt") else items
                if want is None:
                    items = want = parent_of(v)
                if parent_of(v) != want:
                    print(f"render/tables.c:{no}: {table} .{f} = {v} is a key of {parent_of(v)}, "
                          f"not of {want}")
                    bad += 1

call = re.compile(r'\b(pr_mnum|pr_mll|pr_mstr|json_object_get)\(([^;]*?),\s*"([^"]+)"\)')
# render/tables.c describes the model's tables as data: the keys its columns read
# (`.key = "..."`, and `.in`, `.alt`, `.unit_key`, `.of`) are key reads too
table_key = re.compile(r'\.(key|in|alt|unit_key|of) = "([^"]+)"')
checked = 0
for path in READERS:
    rel = path[len(root) + 1:]
    if rel in EXEMPT or rel in CONVERTED:
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
print(f"model_keys: {via_macro} key reads by path macro in {len(CONVERTED)} files "
      f"({paths_checked} checked against their object, {tables_checked} table columns against "
      f"their table's items), "
      f"{checked} by name in {len(READERS) - len(CONVERTED)} others, {bad} wrong")
# floors: the reads are still found (every reader is converted: none is left by name)
sys.exit(1 if bad or via_macro < 1800 or tables_checked < 100 else 0)
