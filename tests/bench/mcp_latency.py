#!/usr/bin/env python3
"""MCP latency on a directory file: tools/list (every page) and tools/call p50, over
capdeskctl mcp (stdio) and serve's /mcp (HTTP), as README's numbers are measured.

    mcp_latency.py CAPDESKCTL DB [--calls N] [--key KEY]

Prints one JSON object. A benchmark, not a test: nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

OWNER_KEY = 'bench-mcp-owner-key-0123456789'


def stdio_session(ctl, db):
    proc = subprocess.Popen([ctl, 'mcp', '--db', db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    next_id = [0]

    def call(method, params):
        next_id[0] += 1
        message = {'jsonrpc': '2.0', 'id': next_id[0], 'method': method, 'params': params}
        proc.stdin.write((json.dumps(message) + '\n').encode())
        proc.stdin.flush()
        while True:
            reply = json.loads(proc.stdout.readline())
            if reply.get('id') == next_id[0]:
                return reply
    call('initialize', {'protocolVersion': '2025-11-25', 'capabilities': {}, 'clientInfo': {'name': 'bench'}})
    return proc, call


def http_session(base):
    def call(method, params):
        body = json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': method, 'params': params}).encode()
        request = urllib.request.Request(base + '/mcp', data=body, method='POST', headers={
            'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
            'x-terminal-key': OWNER_KEY})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read())
    return call


def list_all(call):
    started = time.perf_counter()
    first = None
    cursor, pages, tools = None, 0, 0
    while True:
        result = call('tools/list', {'cursor': cursor} if cursor else {})['result']
        pages += 1
        tools += len(result['tools'])
        if first is None:
            first = time.perf_counter() - started
        cursor = result.get('nextCursor')
        if not cursor:
            break
    return {'tools': tools, 'pages': pages, 'first_page_ms': round(first * 1000, 1),
            'all_pages_ms': round((time.perf_counter() - started) * 1000, 1)}


def call_p50(call, key, count):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        reply = call('tools/call', {'name': key, 'arguments': {'body': 'bench'}})
        times.append((time.perf_counter() - started) * 1000)
        assert 'result' in reply, reply
    return {'calls': count, 'p50_ms': round(statistics.median(times), 2),
            'p90_ms': round(sorted(times)[int(count * 0.9) - 1], 2)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('ctl')
    parser.add_argument('db')
    parser.add_argument('--calls', type=int, default=50)
    parser.add_argument('--key', default=None)
    args = parser.parse_args()
    key = args.key
    if key is None:
        tools = json.loads(subprocess.run([args.ctl, 'mcp-tools', '--db', args.db], capture_output=True,
                                          check=True).stdout)['tools']
        key = next(t['name'] for t in tools if t['inputSchema'].get('required') == ['body']
                   and t['annotations']['readOnlyHint'])
    report = {'db': os.path.basename(args.db), 'key': key}
    proc, call = stdio_session(args.ctl, args.db)
    report['stdio_list'] = list_all(call)
    report['stdio_list_again'] = list_all(call)
    report['stdio_call'] = call_p50(call, key, args.calls)
    proc.stdin.close()
    proc.wait(timeout=60)

    env = dict(os.environ, CAPDESK_TERMINAL_KEY=OWNER_KEY)
    serve = subprocess.Popen([args.ctl, 'serve', '--db', args.db, '--listen', '127.0.0.1:0'],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    lines = b''
    while b'}' not in lines:
        lines += serve.stdout.readline()
    base = json.loads(lines)['listening']
    try:
        call = http_session(base)
        report['http_list'] = list_all(call)
        report['http_list_again'] = list_all(call)
        report['http_call'] = call_p50(call, key, args.calls)
    finally:
        serve.terminate()
        serve.wait(timeout=60)
    json.dump(report, sys.stdout, indent=2)
    print()


if __name__ == '__main__':
    main()
