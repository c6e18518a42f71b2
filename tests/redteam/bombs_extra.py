import sys
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
import probes
from probes import *
probes.BOMBS = [
    ("sqlite-window-sort-crossjoin", "s", "SELECT max(n) FROM (SELECT row_number() OVER (ORDER BY a.attributes || b.attributes) AS n FROM spans a, spans b) t", 4000),
    ("pg-window-sort-crossjoin", "p", "SELECT max(n) FROM (SELECT row_number() OVER (ORDER BY CAST(a.attributes AS text) || CAST(b.attributes AS text)) AS n FROM spans a, spans b) t", 4000),
    ("pg-generate_series-numeric", "p", "SELECT length(max(CAST(g AS text))) FROM generate_series(1e131071, 1e131071 + 2000) g", 4000),
    ("pg-array_agg-crossjoin", "p", "SELECT length(CAST(array_agg(a.explanation) AS text)) FROM span_annotations a, span_annotations b", 4000),
]
bombs()
