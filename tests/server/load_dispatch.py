#!/usr/bin/env python3
"""Load check for `capdeskctl serve` (issue 7): N dispatches of one fn row from C
concurrent keep-alive clients on loopback. Fails (exit 1) on any non-200 answer, any
response without a receipt, or a receipt count other than N afterwards.

    tests/server/load_dispatch.py --capdeskctl build/app/capdeskctl/capdeskctl \
        [--requests 2000] [--clients 16] [--dir /dev/shm/capdesk-load]
        [--postgres postgresql://USER@:PORT/EMPTY_DB?host=SOCKET_DIR [--instances 2]]

It starts its own server on a free 127.0.0.1 port with a throwaway directory and owner
key, and stops it with SIGTERM (which must exit 0). Loopback only, bounded by --requests.
With --postgres the directory is that (empty) PostgreSQL database, and --instances N
starts N servers on it sharing one --signing-key file; the clients take them in turn, and
the receipts are counted with psql.
"""
import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

KEY = "ZZ_LOAD_ECHO"
ROW = {
    "key": KEY,
    "type": "fn",
    "target": "echo",
    "category": "testing",
    "content": "# WHAT: Echo the body, for the load check.\n"
               "# WHEN_TO_USE: measuring the server, never in production.\n"
               "# ARGS: $1+=text\n"
               "# EX: [ZZ_LOAD_ECHO]hello[/ZZ_LOAD_ECHO]\n"
               "# OUTPUT: the text.\n"
               "[\"$1+\"]",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(conn, method, path, body, owner_key):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"x-terminal-key": owner_key, "content-type": "application/json"})
    response = conn.getresponse()
    return response.status, response.read()


def wait_ready(port, deadline):
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/directory?q=none")
            if conn.getresponse().status == 200:
                return True
        except OSError:
            time.sleep(0.05)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--capdeskctl", required=True)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--dir", help="where the throwaway directory file goes (default: a temp dir)")
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL to use instead of a file")
    parser.add_argument("--instances", type=int, default=1, help="servers on the one directory (with --postgres)")
    args = parser.parse_args()
    if not 1 <= args.requests <= 100000 or not 1 <= args.clients <= 256:
        sys.exit("--requests is 1..100000 and --clients 1..256")
    if not 1 <= args.instances <= 8 or (args.instances > 1 and not args.postgres):
        sys.exit("--instances is 1..8, and above 1 only with --postgres")

    workdir = args.dir or tempfile.mkdtemp(prefix="capdesk-load-")
    os.makedirs(workdir, exist_ok=True)
    db = args.postgres or os.path.join(workdir, "load-%d.db" % os.getpid())
    env = dict(os.environ, CAPDESK_TERMINAL_KEY=secrets.token_urlsafe(32))
    owner_key = env["CAPDESK_TERMINAL_KEY"]
    subprocess.run([args.capdeskctl, "init", "--db", db], check=True, capture_output=True, env=env)
    key_file = os.path.join(workdir, "load-%d.pem" % os.getpid())
    ports = [free_port() for _ in range(args.instances)]
    servers = [subprocess.Popen([args.capdeskctl, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port,
                                 "--signing-key", key_file],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for port in ports[:1]]
    failures = []
    latencies = []
    exit_codes = []
    lock = threading.Lock()
    try:
        # The first server makes the signing key; the others then find it there.
        if not wait_ready(ports[0], time.monotonic() + 20):
            sys.exit("the server did not answer within 20 s")
        status, body = request(http.client.HTTPConnection("127.0.0.1", ports[0]), "POST", "/api/directory", ROW, owner_key)
        if status != 201:
            sys.exit("creating the row failed: %d %s" % (status, body[:300]))

        status, body = request(http.client.HTTPConnection("127.0.0.1", ports[0]), "POST", "/api/dispatch",
                               {"key": KEY, "body": "warm-up"}, owner_key)
        if status != 200:
            sys.exit("the first dispatch failed: %d %s" % (status, body[:300]))
        for port in ports[1:]:
            servers.append(subprocess.Popen([args.capdeskctl, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port,
                                             "--signing-key", key_file],
                                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            if not wait_ready(port, time.monotonic() + 20):
                sys.exit("a further server did not answer within 20 s")

        share, extra = divmod(args.requests, args.clients)

        def client(index):
            port = ports[index % len(ports)]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            mine = []
            for n in range(share + (1 if index < extra else 0)):
                started = time.perf_counter()
                try:
                    status, body = request(conn, "POST", "/api/dispatch",
                                           {"key": KEY, "body": "client %d call %d" % (index, n)}, owner_key)
                    answer = json.loads(body)
                    ok = status == 200 and answer.get("ok") and answer["proof"]["ok"]
                except Exception as error:  # a dropped connection counts as a failure
                    ok, status, body = False, -1, repr(error).encode()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                mine.append(time.perf_counter() - started)
                if not ok:
                    with lock:
                        failures.append((status, body[:200]))
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        wall = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - wall
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        exit_codes = [server.wait(timeout=60) for server in servers]
    exit_code = next((code for code in exit_codes if code != 0), 0)

    count = "SELECT count(*) FROM receipts WHERE key = '%s'" % KEY
    if args.postgres:
        receipts = int(subprocess.run(["psql", "-tAc", count, db], check=True, capture_output=True,
                                      text=True).stdout.strip())
    else:
        with sqlite3.connect(db) as conn:
            receipts = conn.execute(count).fetchone()[0]
    receipts -= 1  # the warm-up call
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(json.dumps({
        "db": db, "instances": args.instances, "requests": len(latencies), "clients": args.clients, "failed": len(failures),
        "receipts": receipts, "seconds": round(wall, 3), "requests_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(p(0.50), 2), "p99_ms": round(p(0.99), 2), "max_ms": round(latencies[-1] * 1000, 2),
        "server_exit": exit_code,
    }))
    for failure in failures[:5]:
        print("failed:", failure, file=sys.stderr)
    if failures or receipts != args.requests or exit_code != 0:
        sys.exit(1)
    if not args.dir:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)


if __name__ == "__main__":
    main()
