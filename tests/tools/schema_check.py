#!/usr/bin/python3
"""schema_check.py SCHEMA FILE... - validate JSON files against a JSON Schema
(draft 2020-12, python3-jsonschema). Prints one line per problem (file, JSON
path, message) and exits 1 if any file fails, 77 without python3-jsonschema.

--negative FILE: FILE must validate, and three corruptions of it must not
(an unknown key in the first run, a string where a number is, a required key
removed): the schema can fail, so a pass means something."""
import copy
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("schema_check: python3-jsonschema is missing (apt-get install python3-jsonschema); skipped")
    sys.exit(77)


def problems(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))


def first_number_path(node, path=()):
    """The path of the first non-boolean number in node (depth first)."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return path if isinstance(node, (int, float)) and not isinstance(node, bool) else None
    for k, v in items:
        p = first_number_path(v, path + (k,))
        if p is not None:
            return p
    return None


def negative(validator, doc):
    """Corruptions of a valid doc that the schema must reject: [(what, doc)]."""
    out = []
    runs = doc.get("runs") if isinstance(doc, dict) else None
    target = runs[0] if runs else doc
    d = copy.deepcopy(doc)
    (d["runs"][0] if runs else d)["no_such_section"] = {}
    out.append(("an unknown key", d))
    p = first_number_path(target)
    if p is not None:
        d = copy.deepcopy(doc)
        node = d["runs"][0] if runs else d
        for k in p[:-1]:
            node = node[k]
        node[p[-1]] = "12"
        out.append(("a string for the number at " + "/".join(map(str, p)), d))
    d = copy.deepcopy(doc)
    del (d["runs"][0] if runs else d)["format" if runs else "schema"]
    out.append(("a required key removed", d))
    return out


def main(argv):
    neg = None
    if len(argv) > 1 and argv[1] == "--negative":
        neg = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 2:
        sys.exit("usage: schema_check.py [--negative FILE] SCHEMA FILE...")
    with open(argv[1]) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    v = Draft202012Validator(schema)
    failed = 0
    bad_files = set()
    files = argv[2:] + ([neg] if neg else [])
    for name in files:
        try:
            with open(name) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: unreadable: %s" % (name, e))
            failed += 1
            bad_files.add(name)
            continue
        errs = problems(v, doc)
        for e in errs[:5]:
            print("%s: /%s: %s" % (name, "/".join(map(str, e.absolute_path)), e.message[:200]))
        if errs:
            failed += 1
            bad_files.add(name)
        if name == neg and not errs:
            for what, bad in negative(v, doc):
                if not problems(v, bad):
                    print("%s: the schema accepts %s" % (name, what))
                    failed += 1
    print("schema_check: %d of %d files valid against %s" % (len(files) - len(bad_files), len(files), argv[1]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
