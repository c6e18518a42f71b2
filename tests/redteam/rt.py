#!/usr/bin/env python3
"""Red-team harness for issue #11 (a record, not a CI test).

Talks only to 127.0.0.1. Expects two gateways already running:
  SQLite demo:      querygate --demo-dir DIR --listen 127.0.0.1:$RT_SQLITE_PORT   (default 18961)
  PostgreSQL demo:  QG_DEMO_PG_DSN=postgresql://qg_reader:qg_reader@127.0.0.1:5499/demo \
                    querygate --config config/demo-postgres.yaml --listen 127.0.0.1:$RT_PG_PORT (default 18962)
and psql access to the same demo database as qg_reader (read-only) for the oracle.
"""
import http.client, json, os, re, subprocess, sys, math, datetime

SQLITE = int(os.environ.get("RT_SQLITE_PORT", "18961"))
PG = int(os.environ.get("RT_PG_PORT", "18962"))
PSQL = ["psql", "-X", "-h", "127.0.0.1", "-p", os.environ.get("RT_PSQL_PORT", "5499"), "-U", "qg_reader", "-d", "demo",
        "-At", "-F", "\x1f", "-R", "\x1e", "-P", "null=\x01NULL"]


def post(port, body, headers=None, raw=None, path="/v1/query", method="POST", timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Content-Type": "application/json"}
    if headers is not None:
        h = headers
    data = raw if raw is not None else json.dumps(body)
    c.request(method, path, body=data, headers=h)
    r = c.getresponse()
    txt = r.read().decode("utf-8", "replace")
    try:
        j = json.loads(txt)
    except Exception:
        j = {"_raw": txt}
    return r.status, j, dict(r.getheaders())


def query(port, sql, **extra):
    body = {"sql": sql}
    body.update(extra)
    return post(port, body)[:2]


# ---------- untrusted sources for the leak detector (16-char windows) ----------
def psql(sql, env_extra=None):
    env = dict(os.environ, PGOPTIONS="-c TimeZone=UTC")
    p = subprocess.run(PSQL + ["-c", sql], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return None, p.stderr.strip()
    out = p.stdout
    if out.endswith("\n"):
        out = out[:-1]
    if out.endswith("\x1e"):
        out = out[:-1]
    rows = [] if out == "" else [r.split("\x1f") for r in out.split("\x1e")]
    rows = [[None if v == "\x01NULL" else v for v in r] for r in rows]
    return rows, None


_grams = None


def grams():
    global _grams
    if _grams is None:
        vals = [r[0] for r in psql("select distinct explanation from span_annotations where explanation is not null")[0]]
        vals += [r[0] for r in psql("select distinct v from spans, jsonb_each_text(attributes) e(k, v) where length(v) >= 16")[0]]
        g = set()
        for v in vals:
            for i in range(0, max(0, len(v) - 15)):
                g.add(v[i:i + 16])
        _grams = g
    return _grams


MODEL_NAMES = {"claude-3-5-sonnet", "claude-3-5-haiku", "gemini-1.5-flash"}  # >= 16 chars


def leaks(resp):
    """Cells in unflagged columns that carry 16+ chars of an untrusted value."""
    out = []
    cols = resp.get("columns") or []
    g = grams()
    for row in resp.get("rows") or []:
        for i, v in enumerate(row):
            if i < len(cols) and cols[i].get("untrusted"):
                continue
            if not isinstance(v, str):
                continue
            s = v
            hit = any(s[j:j + 16] in g for j in range(0, max(0, len(s) - 15))) or any(m in s for m in MODEL_NAMES)
            if hit:
                out.append((cols[i]["name"] if i < len(cols) else i, s[:120]))
    return out


# ---------- normalisation for the wrong-answer oracle ----------
TS = re.compile(r"^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d(?::?\d\d)?)?$")


def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "t" if v else "f"
    if v in ("t", "f"):
        return 1 if v == "t" else 0  # SQLite has no booleans: 1/0 (documented), compare as numbers
    if isinstance(v, (int, float)):
        return v
    s = str(v)
    m = TS.match(s)
    if m:
        frac = m.group(2)
        base, _, ms = frac.partition(".")
        ms = (ms + "000000")[:6]
        tz = m.group(3) or ""
        tz = "+00" if tz in ("Z", "+00", "+00:00", "+0000") else tz
        return f"{m.group(1)} {base}.{ms}{tz}"
    return s


def same_value(a, b):
    a, b = norm(a), norm(b)
    if a in ("t", "f"):
        a = 1 if a == "t" else 0
    if b in ("t", "f"):
        b = 1 if b == "t" else 0
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        try:
            fa, fb = float(a), float(b)
        except Exception:
            return str(a) == str(b)
        if math.isnan(fa) and math.isnan(fb):
            return True
        if fa == fb:
            return True
        return abs(fa - fb) <= 1e-5 * max(abs(fa), abs(fb))
    return str(a) == str(b)


def same_rows(gw_rows, pg_rows, ordered):
    if len(gw_rows) != len(pg_rows):
        return False
    if not ordered:
        key = lambda r: json.dumps([str(norm(x)) for x in r])
        gw_rows = sorted(gw_rows, key=key)
        pg_rows = sorted(pg_rows, key=key)
    for a, b in zip(gw_rows, pg_rows):
        if len(a) != len(b) or not all(same_value(x, y) for x, y in zip(a, b)):
            return False
    return True
