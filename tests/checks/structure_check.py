#!/usr/bin/env python3
"""The plain structure checks of the code base (CONTRIBUTING.md, docs/ARCHITECTURE.md).

    structure_check.py [ROOT]      check the tree at ROOT (default: this repository)
    structure_check.py --self-test check that each rule catches a tree that breaks it

Rules, each reported with the file and line that breaks it:
  layering        no include points up the layers (dispatch < remote, models < views < app)
  concrete-store  views/ and models/ name no concrete store (SQLite or remote), so they
                  cannot include its header or cast to it by any cast
  sql-outside     no QtSql class, QtSql header, sqlite3 call or a store's connection
                  (`.database()`) outside dispatch/
  include-folder  every project include names its path from the repository root
  include-root    every target exports the repository root as its only include path
  room-cycle      no include cycle between folders (rooms)
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE_SUFFIXES = ('.h', '.cpp')
LAYERS = ('dispatch', 'remote', 'models', 'views', 'server', 'app', 'resources', 'tests')
# What each layer may include besides itself (CONTRIBUTING.md, "Layers").
ALLOWED = {
    'dispatch': {'dispatch'},
    'remote': {'remote', 'dispatch'},
    'models': {'models', 'dispatch'},
    'server': {'server', 'dispatch'},
    'views': {'views', 'models', 'remote', 'dispatch'},
    'app': {'app', 'views', 'models', 'remote', 'server', 'dispatch'},
}
CONCRETE_STORES = re.compile(r'\b(SqlDirectoryStore|RemoteDirectoryStore)\b|'
                             r'"(dispatch/store/sqldirectorystore\.h|remote/remotedirectorystore\.h)"')
SQL_NAMES = re.compile(r'\bQSql\w*|\bsqlite3_\w+|<QtSql|<sqlite3\.h>|(?:\.|->)database\(\)')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
INCLUDE_DIRS = re.compile(r'\b(target_)?include_directories\s*\(([^)]*)\)', re.S)


def tracked_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files'], check=True, capture_output=True, text=True).stdout
        return sorted(f for f in out.split('\n') if f)
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(('.', 'build'))]
            found += [os.path.relpath(os.path.join(top, n), root) for n in names]
        return sorted(found)


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


def code_only(text):
    """The text with comments and string literals blanked, keeping offsets and includes."""
    def blank(m):
        s = m.group(0)
        if s.startswith('#'):
            return s
        return re.sub(r'[^\n]', ' ', s)
    return re.sub(r'^\s*#\s*include[^\n]*|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S | re.M)


def room_of(path):
    return os.path.dirname(path)


def check(root):
    files = tracked_files(root)
    sources = [f for f in files if f.endswith(SOURCE_SUFFIXES)]
    exists = set(files)
    problems = []
    edges = {}

    for f in sources:
        text = open(os.path.join(root, f), encoding='utf-8', errors='replace').read()
        layer = f.split('/')[0]
        code = code_only(text)
        for m in INCLUDE.finditer(text):
            target = m.group(1)
            where = f'{f}:{line_of(text, m.start())}'
            if target.endswith('.moc'):
                continue
            if '/' not in target or target.startswith('.') or target not in exists:
                problems.append(('include-folder', where, f'"{target}" does not name a file from the repository root'))
                continue
            target_layer = target.split('/')[0]
            if layer in ALLOWED and target_layer not in ALLOWED[layer]:
                problems.append(('layering', where, f'{layer}/ must not include {target}'))
            if room_of(target) != room_of(f):
                edges.setdefault(room_of(f), {}).setdefault(room_of(target), where)
        if layer in ('views', 'models'):
            for m in CONCRETE_STORES.finditer(code):
                problems.append(('concrete-store', f'{f}:{line_of(text, m.start())}',
                                 f'{m.group(0)}: ask the open directory for a capability instead'))
        if layer in ('models', 'views', 'remote', 'server', 'app'):
            for m in SQL_NAMES.finditer(code):
                problems.append(('sql-outside', f'{f}:{line_of(text, m.start())}',
                                 f'{m.group(0)}: SQL belongs to a repository class in dispatch/'))

    for f in files:
        if os.path.basename(f) != 'CMakeLists.txt':
            continue
        text = open(os.path.join(root, f), encoding='utf-8').read()
        for m in INCLUDE_DIRS.finditer(text):
            words = m.group(2).split()
            dirs = [w for w in words[1:] if w not in ('PUBLIC', 'PRIVATE', 'INTERFACE', 'SYSTEM', 'BEFORE', 'AFTER')]
            if not m.group(1) or dirs != ['${PROJECT_SOURCE_DIR}']:
                problems.append(('include-root', f'{f}:{line_of(text, m.start())}',
                                 f'exports {" ".join(dirs) or "nothing"}; a target exports only ${{PROJECT_SOURCE_DIR}}'))

    for cycle in room_cycles(edges):
        path = ' -> '.join(cycle + [cycle[0]])
        witness = '; '.join(edges[a][b] for a, b in zip(cycle, cycle[1:] + [cycle[0]]))
        problems.append(('room-cycle', witness, f'include cycle between rooms: {path}'))
    return problems


def room_cycles(edges):
    """One cycle per strongly connected group of rooms (Tarjan), each as a list of rooms."""
    index, low, stack, on, groups = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    cycles = []
    for group in groups:
        members = set(group)
        start = min(group)
        # A shortest way back to start inside the group, by breadth-first search.
        previous, frontier = {start: None}, [start]
        while frontier and start not in [w for v in frontier for w in edges.get(v, {})]:
            nxt = []
            for v in frontier:
                for w in sorted(edges.get(v, {})):
                    if w in members and w not in previous:
                        previous[w] = v
                        nxt.append(w)
            frontier = nxt
        last = next(v for v in frontier if start in edges.get(v, {}))
        cycle = [last]
        while previous[cycle[-1]] is not None:
            cycle.append(previous[cycle[-1]])
        cycles.append(list(reversed(cycle)))
    return cycles


def self_test():
    """Each rule against a small tree that breaks only it; a clean tree passes."""
    clean = {
        'CMakeLists.txt': 'target_include_directories(lib PUBLIC ${PROJECT_SOURCE_DIR})\n',
        'dispatch/store/directorystore.h': '#pragma once\n',
        'dispatch/row/row.h': '#pragma once\n#include "dispatch/store/directorystore.h"\n',
        'views/table/view.cpp': '#include "dispatch/row/row.h"\n#include "view.moc"\n// SqlDirectoryStore in a comment\n',
    }
    broken = {
        'layering': {'dispatch/row/up.cpp': '#include "views/shell/top.h"\n', 'views/shell/top.h': ''},
        'concrete-store': {'views/table/cast.cpp':
                           'void f(S s) { auto x = std::dynamic_pointer_cast<SqlDirectoryStore>(s); }\n'},
        'sql-outside': {'models/reader.cpp': '#include <QSqlQuery>\nvoid f() { QSqlQuery q; }\n',
                        'app/tool.cpp': 'void f(S &s) { TokenStore(s->database()).list(); }\n'},
        'include-folder': {'views/table/bare.cpp': '#include "row.h"\n'},
        'include-root': {'views/CMakeLists.txt': 'target_include_directories(v PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n'},
        'room-cycle': {'dispatch/store/directorystore.h': '#pragma once\n#include "dispatch/row/row.h"\n'},
    }
    failures = []
    for rule, change in [(None, {})] + list(broken.items()):
        with tempfile.TemporaryDirectory() as root:
            for path, text in {**clean, **change}.items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), 'w') as out:
                    out.write(text)
            found = {p[0] for p in check(root)}
            expected = {rule} if rule else set()
            if found != expected:
                failures.append(f'{rule or "clean tree"}: expected {sorted(expected)}, found {sorted(found)}')
    for failure in failures:
        print(f'structure_check self-test: {failure}', file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    problems = check(os.path.abspath(root))
    for rule, where, message in problems:
        print(f'{where}: [{rule}] {message}', file=sys.stderr)
    if problems:
        print(f'structure_check: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    print('structure_check: layering, concrete stores, SQL, include folders, include roots and room cycles are clean')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
