#!/usr/bin/python3
"""checks.py CHECKS [--model FILE] [--summary FILE] [--dump FILE] [--error FILE]
[--store DB] - the facts of a golden case, derived without profreport, checked
against what profreport wrote.

A golden file records what the program said; the `checks` file next to it says
what must be true whatever the program says, each fact with its derivation
(by hand, or a short script over the input). The golden runners call this on
the actual output before comparing or rewriting, so PR_UPDATE_GOLDEN=1 cannot
bless an output that breaks a fact.

A line is blank, a comment (`#` first), or a fact:

    KIND SUBJECT OP VALUE [TOL] # DERIVATION

  KIND     model (the model JSON), summary, dump, error (text files) or sql (the
           store after ingest).
  SUBJECT  model: a path, segments joined by '/': a key, a list index, or
           [key=value] (the first list item whose key is value), e.g.
           runs/0/peaks/[series=mem.rss]/value; text kinds: - (the whole text);
           sql: a query returning one value. A subject with spaces is written
           as a JSON string.
  OP       == (equal; numbers as numbers), ~ (|got - VALUE| <= TOL), >=, <=,
           has (the text or string contains VALUE), len (a list or object has
           VALUE items), absent (the path does not exist; no VALUE).
  VALUE    a JSON value: 42, 2.5, "text", true, null.
  DERIVATION  required: how the value was found without profreport.

Exit status 0 when every fact holds, 1 when one does not (each printed with
got/want), 2 for a malformed checks file or a missing output it names.
"""
import json
import sqlite3
import sys

OPS = ("==", "~", ">=", "<=", "has", "len", "absent")
KINDS = ("model", "summary", "dump", "error", "sql")
_dec = json.JSONDecoder()


class Malformed(Exception):
    pass


def token(line, pos):
    """The next token from pos: a JSON string or a run of non-blanks; (value, end, quoted)."""
    while pos < len(line) and line[pos] in " \t":
        pos += 1
    if pos >= len(line):
        return None, pos, False
    if line[pos] == '"':
        try:
            v, end = _dec.raw_decode(line, pos)
        except ValueError as e:
            raise Malformed("bad JSON string at column %d: %s" % (pos + 1, e))
        return v, end, True
    end = pos
    while end < len(line) and line[end] not in " \t":
        end += 1
    return line[pos:end], end, False


def parse(line):
    kind, pos, _ = token(line, 0)
    if kind not in KINDS:
        raise Malformed("unknown kind %r (one of %s)" % (kind, ", ".join(KINDS)))
    subject, pos, _ = token(line, pos)
    op, pos, _ = token(line, pos)
    if subject is None or op not in OPS:
        raise Malformed("expected 'KIND SUBJECT OP VALUE # DERIVATION', op one of %s" % " ".join(OPS))
    value = tol = None
    if op != "absent":
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        try:
            value, pos = _dec.raw_decode(line, pos)
        except ValueError:
            raise Malformed("the value at column %d is not a JSON value" % (pos + 1))
        if op == "~":
            t, pos, _ = token(line, pos)
            try:
                tol = float(t)
            except (TypeError, ValueError):
                raise Malformed("'~' needs a tolerance after the value")
    rest = line[pos:].strip()
    if not rest.startswith("#") or not rest[1:].strip():
        raise Malformed("a fact needs '# DERIVATION' after its value")
    return kind, subject, op, value, tol


MISSING = object()


def walk(doc, path):
    cur = doc
    for seg in path.split("/"):
        if seg == "":
            continue
        if seg.startswith("[") and seg.endswith("]") and "=" in seg:
            k, want = seg[1:-1].split("=", 1)
            if not isinstance(cur, list):
                return MISSING
            cur = next((x for x in cur if isinstance(x, dict) and str(x.get(k)) == want), MISSING)
        elif isinstance(cur, list):
            try:
                cur = cur[int(seg)]
            except (ValueError, IndexError):
                return MISSING
        elif isinstance(cur, dict):
            cur = cur.get(seg, MISSING)
        else:
            return MISSING
        if cur is MISSING:
            return MISSING
    return cur


def holds(op, got, want, tol):
    num = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
    if op == "absent":
        return got is MISSING
    if got is MISSING:
        return False
    if op == "==":
        if num(got) and num(want):
            if isinstance(got, int) and isinstance(want, int):
                return got == want  # exactly: epoch ns do not fit a double
            return float(got) == float(want)
        return got == want
    if op == "~":
        return num(got) and abs(float(got) - float(want)) <= tol
    if op == ">=":
        return num(got) and got >= want
    if op == "<=":
        return num(got) and got <= want
    if op == "has":
        return isinstance(got, str) and str(want) in got
    if op == "len":
        return isinstance(got, (list, dict)) and len(got) == want
    return False


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    files = {}
    args = argv[2:]
    while args:
        if len(args) < 2 or not args[0].startswith("--") or args[0][2:] not in ("model", "summary", "dump", "error", "store"):
            print("checks.py: bad arguments %r" % args, file=sys.stderr)
            return 2
        files[args[0][2:]] = args[1]
        args = args[2:]
    cache = {}

    def subject_of(kind, subject):
        src = "store" if kind == "sql" else kind
        if src not in files:
            raise Malformed("a %s fact, but no --%s output was given" % (kind, src))
        if kind == "sql":
            db = cache.get("db")
            if db is None:
                db = cache["db"] = sqlite3.connect("file:%s?mode=ro" % files["store"], uri=True)
            row = db.execute(subject).fetchone()
            return MISSING if row is None else row[0]
        if kind not in cache:
            with open(files[kind], encoding="utf-8", errors="replace") as f:
                cache[kind] = json.load(f) if kind == "model" else f.read()
        return walk(cache[kind], subject) if kind == "model" else (
            cache[kind] if subject == "-" else MISSING)

    failed = facts = 0
    try:
        with open(argv[1], encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        print("checks.py: %s" % e, file=sys.stderr)
        return 2
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            kind, subject, op, want, tol = parse(line)
            got = subject_of(kind, subject)
        except (Malformed, sqlite3.Error, OSError, ValueError) as e:
            print("%s:%d: %s" % (argv[1], n, e), file=sys.stderr)
            return 2
        facts += 1
        if not holds(op, got, want, tol):
            failed += 1
            shown = "(absent)" if got is MISSING else json.dumps(got)[:300]
            print("%s:%d: FAIL %s %s %s: got %s, want %s%s" % (
                argv[1], n, kind, subject, op, shown,
                "(absent)" if op == "absent" else json.dumps(want),
                "" if tol is None else " +- %g" % tol))
    if facts == 0:
        print("%s: no facts" % argv[1], file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
