#!/usr/bin/python3
"""names_check.py - no two different names print alike, anywhere (issue 25, item 5).

usage: tests/tools/names_check.py PROFREPORT PANEL_DUMP SAMPLES TRACES

For every input file under SAMPLES (README/.py files aside; a file profreport
cannot read is passed over) and every real trace under TRACES (tests/data/traces):
  summary --json   the console's name columns (top GPU ops, top spans,
                   collectives, phases by name), paired row by row with the
                   model's lists they print (the full names);
  report -o --json every table of the HTML page: per table and column, the
                   cells of class "name" (the text shown; the full name is
                   data-full when the cell is cut, else the text);
  panel_dump       the top-GPU-ops chart's axis labels as drawn (layout dump),
                   paired with the model's gpu_breakdown.kernels.top;
and for every pair under SAMPLES/compare the compare table (text and md) and
page, and the aggregate page of SAMPLES/ranks. Within one table, column or
chart, two rows whose full names differ must not show the same text.
The expectations come from the model's names and the rule itself, not from
what profreport printed before. Exits 1 with one line per collision, 77 when
TRACES is missing (a tree without tests/data/traces; after the samples passed).
"""
import glob
import html.parser
import json
import os
import subprocess
import sys
import tempfile

fails = []
checked = {"tables": 0, "rows": 0, "inputs": 0}


def collide(where, pairs):
    """pairs: (shown, full) of one column; records shown texts with two fulls."""
    seen = {}
    for shown, full in pairs:
        seen.setdefault(shown, set()).add(full)
    checked["tables"] += 1
    checked["rows"] += len(pairs)
    for shown, fulls in sorted(seen.items()):
        if len(fulls) > 1:
            fails.append("%s: %r shows %d different names: %s" % (
                where, shown, len(fulls), " | ".join(sorted(f[:90] for f in fulls))))


class Tables(html.parser.HTMLParser):
    """Each <table>'s name cells: tables[i][col] = [(shown, full), ...]."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.stack, self.cell, self.col = [], [], None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.stack.append({})
        elif tag == "tr":
            self.col = 0
        elif tag in ("td", "th") and self.stack:
            if tag == "td" and "name" in (a.get("class") or "").split():
                self.cell = [a.get("data-full"), ""]
            else:
                self.cell = None
            self.col += 1

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None and self.stack:
            full = self.cell[0] if self.cell[0] is not None else self.cell[1]
            self.stack[-1].setdefault(self.col, []).append((self.cell[1], full))
            self.cell = None
        elif tag == "table" and self.stack:
            self.tables.append(self.stack.pop())


def check_page(where, path):
    p = Tables()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    for t, cols in enumerate(p.tables):
        for col, pairs in sorted(cols.items()):
            collide("%s table %d column %d" % (where, t + 1, col), pairs)


def sections(text):
    """The console output split per run ("run N: ..." then a ==== line)."""
    lines = text.split("\n")
    starts = [i for i in range(len(lines) - 1)
              if lines[i].startswith("run ") and lines[i + 1].startswith("====")]
    if not starts:
        return [lines]
    return [lines[a:b] for a, b in zip(starts, starts[1:] + [len(lines)])]


def rows_after(lines, header, n):
    """The n lines after the first line that starts with header (stripped of the indent)."""
    for i, line in enumerate(lines):
        if line.startswith(header):
            return lines[i + 1:i + 1 + n]
    return None


def check_console(where, text, model):
    runs = model.get("runs", [])
    secs = sections(text)
    if len(secs) != len(runs):
        return  # a store of many runs printed otherwise: the page check covers it
    for run, lines in zip(runs, secs):
        tables = [
            ("top GPU ops", "  top GPU ops", 2, 42, 0,
             ((run.get("gpu_breakdown") or {}).get("kernels") or {}).get("top", [])[:5]),
            ("top spans", "  name                           count", 2, 29, 0,
             (run.get("bottlenecks") or {}).get("top_self", [])),
            ("collectives", "  name                layer", 2, 19, 0,
             (run.get("collectives") or {}).get("items", [])),
            ("phases by name", "  phase                 count", 2, 21, 0,
             (run.get("phases") or {}).get("totals", [])[:15]),
        ]
        for what, header, col, width, _, items in tables:
            if not items:
                continue
            rows = rows_after(lines, header, len(items))
            if rows is None and what == "phases by name":
                continue  # printed only when the occurrences are many (text_report.c, PHASE_ROWS)
            if rows is None:
                fails.append("%s: console: no %r table for %d items" % (where, what, len(items)))
                continue
            pairs = [(r[col:col + width].rstrip(), it.get("name", "")) for r, it in zip(rows, items)]
            collide("%s console %s" % (where, what), pairs)


def check_chart(where, dump, model, tmp):
    out = os.path.join(tmp, "panels")
    subprocess.run(["rm", "-rf", out])
    os.makedirs(out)
    r = subprocess.run([dump, model, out, "gpu_top_kernels"], capture_output=True, text=True)
    lay = os.path.join(out, "gpu_top_kernels.layout.txt")
    if r.returncode != 0 or not os.path.exists(lay):
        return
    with open(model) as f:
        top = ((json.load(f)["runs"][0].get("gpu_breakdown") or {}).get("kernels") or {}).get("top", [])
    labels = []
    with open(lay, encoding="utf-8") as f:
        for line in f:
            if line.startswith("text ytick "):
                labels.append(json.loads(line[line.index('"'):]))
    if len(labels) != min(len(top), 15):
        fails.append("%s: chart gpu_top_kernels draws %d labels for %d ops" % (where, len(labels), len(top)))
    collide("%s chart gpu_top_kernels" % where, [(l, t["name"]) for l, t in zip(labels, top)])


def check_input(P, dump, path, tmp):
    where = os.path.relpath(path, ROOT)
    model = os.path.join(tmp, "model.json")
    page = os.path.join(tmp, "page.html")
    r = subprocess.run([P, "summary", path, "--json", model], capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(model):
        return  # not a trace profreport reads alone (a phase log, a store part, ...)
    checked["inputs"] += 1
    with open(model) as f:
        check_console(where, r.stdout, json.load(f))
    r = subprocess.run([P, "report", path, "-o", page, "--json", model, "-q", "--no-cache"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fails.append("%s: report failed: %s" % (where, r.stderr.strip()[:200]))
        return
    check_page(where, page)
    check_chart(where, dump, model, tmp)
    os.unlink(model)
    os.unlink(page)


def check_compare(P, pair, tmp):
    where = os.path.relpath(pair, ROOT)
    files = sorted(glob.glob(os.path.join(pair, "base*"))) + sorted(glob.glob(os.path.join(pair, "new*")))
    if len(files) != 2:
        return
    js = os.path.join(tmp, "cmp.json")
    page = os.path.join(tmp, "cmp.html")
    r = subprocess.run([P, "compare", files[0], files[1], "--to", "json", "-o", js, "--html", page],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1) or not os.path.exists(js):
        return
    with open(js) as f:
        metrics = json.load(f).get("metrics", [])
    check_page(where + " compare", page)
    listed = [m for m in metrics if m.get("verdict") != "unchanged" or m.get("group") in ("step", "throughput", "peak")]
    r = subprocess.run([P, "compare", files[0], files[1], "--to", "text"], capture_output=True, text=True)
    rows = rows_after(r.stdout.split("\n"), "  metric ", len(listed)) or []
    collide(where + " compare text", [(row[2:28].rstrip(), m["id"]) for row, m in zip(rows, listed)])
    r = subprocess.run([P, "compare", files[0], files[1], "--to", "md"], capture_output=True, text=True)
    lines = r.stdout.split("\n")
    rows = rows_after(lines, "|:------:|-------:|", len(metrics)) or []
    collide(where + " compare md", [(row.split(" | ")[4], m["id"]) for row, m in zip(rows, metrics)])


def main():
    global ROOT
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    P, dump, samples, traces_dir = sys.argv[1:]
    ROOT = os.path.dirname(os.path.abspath(samples))
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for dirpath, dirs, files in os.walk(samples):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".md", ".py")):
                    continue
                inputs.append(os.path.join(dirpath, f))
        for path in inputs:
            check_input(P, dump, path, tmp)
        for pair in sorted(glob.glob(os.path.join(samples, "compare", "*"))):
            if os.path.isdir(pair):
                check_compare(P, pair, tmp)
        ranks = os.path.join(samples, "ranks")
        if os.path.isdir(ranks):
            page = os.path.join(tmp, "agg.html")
            subprocess.run([P, "aggregate", ranks, "-o", os.path.join(tmp, "agg.json"), "--html", page, "-q"],
                           capture_output=True, text=True)
            if os.path.exists(page):
                check_page("samples/ranks aggregate", page)
        traces = sorted(glob.glob(os.path.join(traces_dir, "**", "*.json.gz"), recursive=True))
        for path in traces:
            check_input(P, dump, path, tmp)
    for line in fails:
        print("names_check: " + line)
    print("names_check: %d inputs, %d tables/columns, %d rows, %d collisions" % (
        checked["inputs"], checked["tables"], checked["rows"], len(fails)))
    if fails:
        sys.exit(1)
    if not traces:
        if os.path.isdir(traces_dir):
            print("names_check: FAIL: no trace under %s" % traces_dir)
            sys.exit(1)
        print("names_check: SKIP: %s is missing" % traces_dir)
        sys.exit(77)


if __name__ == "__main__":
    main()
