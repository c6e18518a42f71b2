import sys, time, socket
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from probes import *
P = SQLITE
socks = []
for i in range(66):
    s = socket.create_connection(("127.0.0.1", P), timeout=5)
    s.sendall(req(method="GET", path="/healthz", port=P).replace(b"Connection: close\r\n", b""))
    s.recv(4096)
    socks.append(s)
t0 = time.time()
for wait in (15, 30, 60):
    time.sleep(wait - (time.time() - t0))
    r = raw(P, req(headers=[CT], body=OK1, port=P), wait=2.5)
    print(wait, statuses(r), codes(r), flush=True)
for s in socks: s.close()
