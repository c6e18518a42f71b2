#!/usr/bin/env python3
"""Runs tests/parity/chinook.sql directly on both engines, without the gateway.

For writing and checking parity statements before (or without) a gateway build:
SQLite through Python's sqlite3 module on the read-only shared file, PostgreSQL
through `psql --csv` on the test cluster (scripts/pg-test-cluster.sh start).
The comparison follows tests/integration/parity_test.cpp: same column count,
rows in order when the statement has a top-level ORDER BY, else as multisets;
numbers within 1e-9 relative; timestamps equal when they differ only in the
date/time separator. psql prints text, so booleans show as t/f here.

Each ordered statement is also run a second time on SQLite with
PRAGMA reverse_unordered_selects = ON: if that changes the answer, its ORDER BY
leaves ties to chance and must be made total.

  tests/parity/check_direct.py [--only ID[,ID...]] [--verbose]
Exit status 0 when every portable statement is equal and every exception differs.
"""
import argparse
import csv
import io
import math
import os
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("QG_SHARED_DATA_DIR", os.path.join(ROOT, "..", "shared", "data"))
NULL = "\x01NULL\x01"  # psql's null marker: text no Chinook cell holds


def read_entries(path):
    entries, cur, sql = [], None, []
    for line in open(path, encoding="utf-8"):
        s = line.rstrip("\n")
        m = re.match(r"--\s*id:\s*(\S+)", s)
        if m:
            cur = {"id": m.group(1), "meta": {}}
            sql = []
            continue
        if cur is None:
            continue
        if s.startswith("--") and not sql:
            m = None if s.startswith("--   ") else re.match(r"--\s*(\w+):\s*(.*)", s)  # "--   " continues
            if m:
                cur["meta"][m.group(1)] = m.group(2)
            continue
        if not s.strip() and not sql:
            continue
        sql.append(s)
        if s.rstrip().endswith(";"):
            cur["sql"] = "\n".join(sql).rstrip().rstrip(";").strip()
            entries.append(cur)
            cur = None
    return entries


def has_top_level_order_by(sql):
    depth, prev = 0, ""
    for tok in re.finditer(r"'(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*|[()]|\w+", sql):
        t = tok.group(0)
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif t[0] in "'\"-":
            continue
        else:
            if depth == 0 and prev == "ORDER" and t.upper() == "BY":
                return True
            prev = t.upper()
    return False


def as_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", v):
        return float(v)
    return None


TS = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}")


def cell_equal(a, b):
    if a is None or b is None:
        return a is None and b is None
    na, nb = as_number(a), as_number(b)
    if na is not None and nb is not None:
        return na == nb or abs(na - nb) <= 1e-9 * max(abs(na), abs(nb))
    sa, sb = str(a), str(b)
    if TS.match(sa) and TS.match(sb):
        return sa[:10] + " " + sa[11:] == sb[:10] + " " + sb[11:]
    return sa == sb


def sort_key(row):
    key = []
    for v in row:
        n = as_number(v)
        if v is None:
            key.append((0, ""))
        elif n is not None:
            key.append((1, "%.9e" % n))
        else:
            s = str(v)
            if TS.match(s):
                s = s[:10] + " " + s[11:]
            key.append((2, s))
    return key


def compare(a, b, ordered):
    (ca, ra), (cb, rb) = a, b
    if len(ca) != len(cb):
        return "columns: %d vs %d" % (len(ca), len(cb))
    if len(ra) != len(rb):
        return "rows: %d vs %d" % (len(ra), len(rb))
    if not ordered:
        ra, rb = sorted(ra, key=sort_key), sorted(rb, key=sort_key)
    for i, (x, y) in enumerate(zip(ra, rb)):
        for j, (u, v) in enumerate(zip(x, y)):
            if not cell_equal(u, v):
                return "row %d col %d: %r vs %r" % (i, j, u, v)
    return None


def run_sqlite(db, sql, reverse=False):
    # querygate's SQLite LIKE compares case, as PostgreSQL's does (case_sensitive_like); its ILIKE with an
    # ASCII pattern is lower(x) LIKE '<lower-case pattern>', which is SQLite's own case-insensitive LIKE.
    ilike = re.search(r"\bILIKE\b", sql, flags=re.I) is not None
    sql = re.sub(r"\bILIKE\b", "LIKE", sql, flags=re.I)
    db.execute("PRAGMA case_sensitive_like = %s" % ("OFF" if ilike else "ON"))
    db.execute("PRAGMA reverse_unordered_selects = %d" % (1 if reverse else 0))
    cur = db.execute(sql)
    return [d[0] for d in cur.description], [list(r) for r in cur.fetchall()]


def run_pg(sql, host, port):
    p = subprocess.run(
        ["psql", "-X", "-h", host, "-p", str(port), "-U", "qg_reader", "-d", "chinook", "--csv", "-v", "ON_ERROR_STOP=1",
         "-P", "null=" + NULL, "-c", sql],
        capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    rows = list(csv.reader(io.StringIO(p.stdout)))
    cols = rows[0] if rows else []
    return cols, [[None if v == NULL else v for v in r] for r in rows[1:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(HERE, "chinook.sql"))
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    host = os.environ.get("QG_TEST_PG_HOST", "127.0.0.1")
    port = os.environ.get("QG_TEST_PG_PORT", os.environ.get("QG_PG_PORT", "5499"))
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(DATA, "chinook", "Chinook_Sqlite.sqlite"), uri=True)
    entries = read_entries(args.file)
    only = set(filter(None, args.only.split(",")))
    ids = [e["id"] for e in entries]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        print("duplicate ids:", ", ".join(sorted(dupes)))
        return 1
    bad, equal, exceptions = 0, 0, 0
    for e in entries:
        if only and e["id"] not in only:
            continue
        exc = e["meta"].get("exception")
        ordered = has_top_level_order_by(e["sql"])
        try:
            s = run_sqlite(db, e["sql"])
        except Exception as ex:  # noqa: BLE001 - report every engine error the same way
            s = "error: %s" % ex
        try:
            p = run_pg(e["sql"], host, port)
        except Exception as ex:  # noqa: BLE001
            p = "error: %s" % ex
        why = s if isinstance(s, str) else p if isinstance(p, str) else compare(s, p, ordered)
        if why is None and ordered:
            why2 = compare(s, run_sqlite(db, e["sql"], reverse=True), True)
            if why2:
                why = "ORDER BY is not total (reverse_unordered_selects changes it: %s)" % why2
        rows = "%d rows" % len(s[1]) if not isinstance(s, str) else "-"
        if exc:
            exceptions += 1
            status = "exception (differs: %s)" % why if why else "STALE EXCEPTION (equal)"
            bad += 0 if why else 1
        elif why:
            status = "DIFF: " + why
            bad += 1
        else:
            status = "equal"
            equal += 1
        if args.verbose or status.startswith(("DIFF", "STALE")) or exc:
            print("%-32s %-8s %-9s %s" % (e["id"], "ordered" if ordered else "multiset", rows, status))
    print("%d statements: %d equal, %d documented exceptions, %d problems" % (
        len([e for e in entries if not only or e["id"] in only]), equal, exceptions, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
