#!/usr/bin/env python3
"""Runs the benchmarks and writes the README's table from what they print.

    run_benchmarks.py [--build DIR] [--set quick|long|all] [--only ID,…] [--readme README.md]
                      [--figures docs/benchmarks.json] [--cache DIR] [--table-only]

The quick set takes minutes (start-up on the sample and on 891 rows, invoke, flows,
templates, event log, contract sizes, the window behind 0 / 300 / 2,000 ms round trips);
the long set runs the 100,000-row and 10,000,000-receipt ones (start-up beside DB Browser
for SQLite, the open/filter/sort run, lint-all alone and in the window, the change feed,
a remote open over loopback, the Receipts dock). Every benchmark prints `figure NAME VALUE` lines; they are kept, with the date and
the machine's core count, in the figures file, so a quick run leaves the long set's last
figures standing and the table says when each set was measured. The table goes between
the README's `<!-- bench-table:begin -->` and `<!-- bench-table:end -->` markers; a
figure that misses its target says so.
"""

import argparse
import datetime
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading

FIGURE = re.compile(r"^figure ([A-Za-z0-9_.]+) (\S+)$")
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)(?::([^}]*))?\}")
BEGIN = "<!-- bench-table:begin -->"
END = "<!-- bench-table:end -->"


class Run:
    """One benchmark process; its figures are stored as ID.NAME."""

    def __init__(self, ident, benchmark_set, program, arguments=(), timeout=1800, before=None, warm_up=False,
                 preload=None):
        self.ident = ident
        self.set = benchmark_set
        self.program = program
        self.arguments = list(arguments)
        self.timeout = timeout
        self.before = before  # a command that prepares the run's input
        # Run once unmeasured first: the figures are then for a warm page cache.
        self.warm_up = warm_up
        self.preload = preload  # a shim of the build's tests/bench to LD_PRELOAD


def runs(top, cache, scratch):
    generated = os.path.join(scratch, "891.db")
    generate = [sys.executable, str(top / "tests" / "data" / "gen_directory.py"), "--rows", "891",
                "--out", generated]
    return [
        Run("startup", "quick", "bench_startup", ["--small", "--runs", "3"]),
        Run("invoke", "quick", "bench_invoke", [scratch]),
        Run("flows", "quick", "bench_flows"),
        # The disks the group-commit targets were set for, where a flush costs ~4 ms.
        Run("flows4ms", "quick", "bench_flows", preload="slow_flush.so"),
        Run("templates", "quick", "bench_templates"),
        Run("eventlog", "quick", "bench_eventlog"),
        Run("contract", "quick", "bench_contract", [generated], before=generate),
        Run("remote", "quick", "bench_remote_latency"),
        Run("startup100k", "long", "bench_startup", ["--runs", "5"]),
        Run("open", "long", "bench_directory_open"),
        Run("lint", "long", "bench_lint"),
        Run("lintgui", "long", "bench_lint_gui"),
        Run("changefeed", "long", "bench_change_feed"),
        Run("remoteopen", "long", "bench_remote_open"),
        # The first run builds the 10,000,000-receipt fixture (about an hour); a file that
        # size is read from disk on a first open, so the measured run is the second.
        Run("receipts10m", "long", "bench_receipt_viewer",
            ["--receipts", "10000000", "--cache", cache], timeout=6 * 3600, warm_up=True),
        Run("receipts10k", "long", "bench_receipt_viewer", ["--receipts", "10000", "--cache", cache]),
    ]


class Row:
    """A line of the table: what it is, how its figures read, and its target if any."""

    def __init__(self, what, shown, target=None, met=None):
        self.what = what
        self.shown = shown
        self.target = target
        self.met = met


ROWS = [
    Row("reference: a bare Qt 6 QMainWindow + QTableWidget, exec to settled · peak RSS",
        "{startup.bare.settled_ms:.0f} ms · {startup.bare.peak_rss_mib:.0f} MiB"),
    Row("reference: one SQLite durable commit on this disk (a receipt's INSERT, chain link, "
        "signed head and commit, p50)",
        "{invoke.disk.durable_commit_p50_us:.0f} µs"),
    Row("start-up, capdesk on the sample (44 rows): exec to settled · peak RSS",
        "{startup.sample.settled_ms:.0f} ms, {startup.sample.settled_per_bare:.2f}× the bare window · "
        "{startup.sample.peak_rss_mib:.0f} MiB",
        "≤ 1.5× the bare window", lambda f: f["startup.sample.settled_per_bare"] <= 1.5),
    Row("start-up, capdesk on 891 rows: exec to settled · peak RSS",
        "{startup.rows891.settled_ms:.0f} ms, {startup.rows891.settled_per_bare:.2f}× the bare window · "
        "{startup.rows891.peak_rss_mib:.0f} MiB",
        "≤ 1.5× the bare window", lambda f: f["startup.rows891.settled_per_bare"] <= 1.5),
    Row("start-up on 100,000 rows, capdesk / DB Browser for SQLite: exec to settled (one run, "
        "with its own bare window)",
        "{startup100k.big.settled_ms:.0f} / {startup100k.dbbrowser.settled_ms:.0f} ms; above the bare "
        "window, {startup100k.big.settled_above_floor_per_dbbrowser:.2f}× DB Browser's; capdesk's last "
        "change (the lint marks, then the registry total in the status bar) at {startup100k.big.last_change_ms:,.0f} ms",
        "≤ 0.5× DB Browser's, above the floor",
        lambda f: f["startup100k.big.settled_above_floor_per_dbbrowser"] <= 0.5),
    Row("the same, peak RSS within 4 s of exec (lint-all included)",
        "{startup100k.big.peak_rss_mib:.0f} / {startup100k.dbbrowser.peak_rss_mib:.0f} MiB; above the "
        "bare window, {startup100k.big.rss_above_floor_per_dbbrowser:.2f}× DB Browser's",
        "≤ 0.5× DB Browser's, above the floor",
        lambda f: f["startup100k.big.rss_above_floor_per_dbbrowser"] <= 0.5),
    Row("100,000 rows in-process (`bench_directory_open`): open to first painted table",
        "{open.first_paint_ms:.0f} ms", "≤ 150 ms", lambda f: f["open.first_paint_ms"] <= 150),
    Row("the same: all rows in and painted", "{open.all_rows_ms:.0f} ms"),
    Row("the same: one filter keystroke, repaint included (median / max)",
        "{open.filter_median_ms:.1f} / {open.filter_max_ms:.1f} ms", "≤ 16 ms",
        lambda f: f["open.filter_max_ms"] <= 16),
    Row("the same: sort by target", "{open.sort_ms:.0f} ms"),
    Row("the same: peak RSS while opening, filtering, sorting, scrolling",
        "{open.browsing_rss_mib:.0f} MiB", "≤ 90 MiB", lambda f: f["open.browsing_rss_mib"] <= 90),
    Row("lint-all of 100,000 rows, as the window runs it: read from the store in batches while "
        "they are linted (median of 3) · the read alone · the lint of rows in memory (median of 7)",
        "{lint.lint_all_streamed_ms:.0f} ms · {lint.read_all_ms:.0f} ms · {lint.lint_all_ms:.0f} ms",
        "≤ 1 s", lambda f: f["lint.lint_all_streamed_ms"] <= 1000),
    Row("`subVars` on a URL template", "{templates.url_per_s:,.0f}/s", "≥ 1,000,000/s",
        lambda f: f["templates.url_per_s"] >= 1e6),
    Row("local `fn` invoke with its durable signed receipt, on disk (p50 / p99)",
        "{invoke.disk.invoke_p50_us:.0f} / {invoke.disk.invoke_p99_us:.0f} µs", "p50 ≤ 1 ms",
        lambda f: f["invoke.disk.invoke_p50_us"] <= 1000),
    Row("the same with the directory on /dev/shm (p50 / p99)",
        "{invoke.ram.invoke_p50_us:.0f} / {invoke.ram.invoke_p99_us:.0f} µs", "p50 ≤ 1 ms",
        lambda f: f["invoke.ram.invoke_p50_us"] <= 1000),
    Row("10-step `fn` flow with 11 receipts on disk (p50), and per one `fn` invoke",
        "{flows.disk.flow_p50_ms:.2f} ms, {flows.disk.flow_per_invoke:.2f}×", "≤ 2× one invoke",
        lambda f: f["flows.disk.flow_per_invoke"] <= 2),
    Row("the same with 4 ms flushes (`slow_flush.so`, as on the disks the target was set for)",
        "{flows4ms.disk.flow_p50_ms:.2f} ms, {flows4ms.disk.flow_per_invoke:.2f}×", "≤ 2× one invoke",
        lambda f: f["flows4ms.disk.flow_per_invoke"] <= 2),
    Row("flow parser", "{flows.parser.flows_per_s:,.0f} flows/s", "≥ 100,000/s",
        lambda f: f["flows.parser.flows_per_s"] >= 1e5),
    Row("event log: verify every event of a 100,000-row import",
        "{eventlog.verify_ms:.0f} ms for {eventlog.verified_events:,.0f} events"),
    Row("GUI lint-all of 100,000 rows (`bench_lint_gui`): to the lint column painted (median) · "
        "longest GUI stall", "{lintgui.painted_median_ms:,.0f} ms · {lintgui.stall_max_ms:.0f} ms"),
    Row("contract document of a row, 891 generated rows (median / p90 / max)",
        "{contract.median_bytes:,.0f} / {contract.p90_bytes:,.0f} / {contract.max_bytes:,.0f} bytes, "
        "~{contract.median_tokens:.0f} tokens", "typical ≤ 2.2 KB",
        lambda f: f["contract.median_bytes"] <= 2200),
    Row("change feed, 100,000 rows, a poll (median): nothing changed / after a receipt's commit / "
        "one row changed elsewhere",
        "{changefeed.unchanged_median_ms:.3f} / {changefeed.receipt_commit_median_ms:.2f} / "
        "{changefeed.row_changed_median_ms:.2f} ms"),
    Row("the same: a complete listing (a cursor it cannot read)",
        "{changefeed.complete_listing_median_ms:,.0f} ms"),
    Row("remote 100,000 rows over loopback: first rows painted / all painted",
        "{remoteopen.first_painted_ms:,.0f} / {remoteopen.all_painted_ms:,.0f} ms"),
    Row("window behind a 0 / 300 / 2,000 ms round trip (891 rows): painted after show",
        "{remote.rtt0.window_painted_ms:.0f} / {remote.rtt300.window_painted_ms:.0f} / "
        "{remote.rtt2000.window_painted_ms:.0f} ms", "≤ 300 ms",
        lambda f: max(f[f"remote.rtt{r}.window_painted_ms"] for r in (0, 300, 2000)) <= 300),
    Row("the same: first rows painted after Connect (≈ the check's 2 round trips + 1)",
        "{remote.rtt0.first_rows_ms:,.0f} / {remote.rtt300.first_rows_ms:,.0f} / "
        "{remote.rtt2000.first_rows_ms:,.0f} ms"),
    Row("the same: largest GUI stall from the first frame on (connect, 10 selections and back, a save)",
        "{remote.rtt0.largest_stall_ms:.0f} / {remote.rtt300.largest_stall_ms:.0f} / "
        "{remote.rtt2000.largest_stall_ms:.0f} ms", "≤ 50 ms",
        lambda f: max(f[f"remote.rtt{r}.largest_stall_ms"] for r in (0, 300, 2000)) <= 50),
    Row("the same: a selection on screen", "{remote.rtt0.selection_shown_ms:.1f} / "
        "{remote.rtt300.selection_shown_ms:.1f} / {remote.rtt2000.selection_shown_ms:.1f} ms", "one frame (16 ms)",
        lambda f: max(f[f"remote.rtt{r}.selection_shown_ms"] for r in (0, 300, 2000)) <= 16),
    Row("Receipts dock on 10,000,000 receipts (SQLite, cached fixture, page cache warm): open to first "
        "painted page",
        "{receipts10m.open_ms:.0f} ms", "≤ 300 ms", lambda f: f["receipts10m.open_ms"] <= 300),
    Row("the same: key / status filter (median)",
        "{receipts10m.key_filter_median_ms:.0f} / {receipts10m.status_filter_median_ms:.0f} ms",
        "≤ 100 ms",
        lambda f: max(f["receipts10m.key_filter_median_ms"], f["receipts10m.status_filter_median_ms"]) <= 100),
    Row("the same: peak RSS · the same dock on 10,000 receipts",
        "{receipts10m.peak_rss_mib:.0f} MiB · {receipts10k.peak_rss_mib:.0f} MiB", "≤ 1.2× the 10,000's",
        lambda f: f["receipts10m.peak_rss_mib"] <= 1.2 * f["receipts10k.peak_rss_mib"]),
]


def run_one(build, run):
    """The run's figures, or None when its program was not built (bench_startup without
    libxdamage-dev)."""
    program = pathlib.Path(build) / "tests" / "bench" / run.program
    if not program.exists():
        print(f"== {run.ident} ({run.set}): {program} is not built; skipped", flush=True)
        return None
    if run.before:
        subprocess.run(run.before, check=True, stdout=subprocess.DEVNULL)
    command = [str(program)] + run.arguments
    print(f"== {run.ident} ({run.set}): {' '.join(command)}", flush=True)
    # The in-process GUI benchmarks draw offscreen; bench_startup gives its children a screen.
    environment = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    if run.preload:
        shim = program.parent / run.preload
        # ld.so only warns about a missing preload: the run would time ordinary flushes.
        if not shim.exists():
            print(f"== {run.ident} ({run.set}): {shim} is not built; skipped", flush=True)
            return None
        environment.update(LD_PRELOAD=str(shim), SLOW_FLUSH_MS="4")
    if run.warm_up:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment, timeout=run.timeout)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment)
    # The output is read until the program closes it, so only a kill ends a hung one.
    watchdog = threading.Timer(run.timeout, process.kill)
    watchdog.start()
    figures = {}
    try:
        for line in process.stdout:
            match = FIGURE.match(line.strip())
            if match:
                figures[f"{run.ident}.{match.group(1)}"] = float(match.group(2))
            else:
                print(line, end="", flush=True)
        process.wait()
    finally:
        watchdog.cancel()
    if process.returncode != 0:
        sys.exit(f"{run.program} failed with exit code {process.returncode} (after {run.timeout} s, "
                 "it is killed)")
    if not figures:
        sys.exit(f"{run.program} printed no figure lines")
    return figures


def table(stored):
    figures = {name: entry["value"] for name, entry in stored["figures"].items()}
    lines = []
    for benchmark_set in ("quick", "long"):
        done = [(ident.split("/", 1)[1], when) for ident, when in sorted(stored["runs"].items())
                if ident.startswith(benchmark_set + "/")]
        if done:
            cores = sorted({when["cores"] for _, when in done})
            listed = ", ".join(f"{ident} {when['date']} ({when['seconds']:.0f} s)" for ident, when in done)
            lines.append(f"The {benchmark_set} set, last run on {'/'.join(map(str, cores))} cores: {listed}.  ")
    lines += ["", "| what | measured | target |", "| --- | --- | --- |"]
    for row in ROWS:
        try:
            shown = render(row.shown, figures)
        except KeyError as missing:
            shown = f"not measured yet ({missing.args[0]})"
            verdict = ""
        else:
            verdict = ("met" if row.met(figures) else "**missed**") if row.met else ""
        target = f"{row.target}: {verdict}" if row.target and verdict else (row.target or "")
        lines.append(f"| {row.what} | {shown} | {target} |")
    return "\n".join(lines)


def render(template, figures):
    """Fills each `{dotted.figure.name:spec}` of `template`; a KeyError names a missing figure."""
    return PLACEHOLDER.sub(lambda match: format(figures[match.group(1)], match.group(2) or ""), template)


def write_readme(readme, text):
    content = pathlib.Path(readme).read_text()
    begin, end = content.find(BEGIN), content.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"{readme} has no {BEGIN} … {END} markers")
    content = content[: begin + len(BEGIN)] + "\n" + text + "\n" + content[end:]
    pathlib.Path(readme).write_text(content)


def main():
    top = pathlib.Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=str(top / "build"))
    parser.add_argument("--set", choices=("quick", "long", "all"), default="quick")
    parser.add_argument("--readme", default=str(top / "README.md"))
    parser.add_argument("--figures", default=str(top / "docs" / "benchmarks.json"))
    parser.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "capdesk-bench"))
    parser.add_argument("--only", default="", help="comma-separated run ids of the set, such as startup,open")
    parser.add_argument("--table-only", action="store_true", help="rewrite the table from the figures file")
    options = parser.parse_args()

    figures_path = pathlib.Path(options.figures)
    stored = json.loads(figures_path.read_text()) if figures_path.exists() else {"runs": {}, "figures": {}}
    if not options.table_only:
        sets = ("quick", "long") if options.set == "all" else (options.set,)
        only = set(filter(None, options.only.split(",")))
        known = {run.ident for run in runs(top, "", "") if run.set in sets}
        if only - known:
            sys.exit(f"no run {', '.join(sorted(only - known))} in the {options.set} set; "
                     f"its runs: {', '.join(sorted(known))}")
        os.makedirs(options.cache, exist_ok=True)
        figures_path.parent.mkdir(parents=True, exist_ok=True)
        # On the disk the build is on, not /tmp, which may be RAM.
        with tempfile.TemporaryDirectory(dir=options.build) as scratch:
            for run in runs(top, options.cache, scratch):
                if run.set not in sets or (only and run.ident not in only):
                    continue
                started = datetime.datetime.now()
                figures = run_one(options.build, run)
                if figures is None:
                    continue
                # A figure the run no longer prints must not stand beside its new ones.
                stored["figures"] = {name: entry for name, entry in stored["figures"].items()
                                     if not name.startswith(run.ident + ".")}
                today = started.date().isoformat()
                for name, value in figures.items():
                    stored["figures"][name] = {"value": value, "date": today, "set": run.set}
                stored["runs"][f"{run.set}/{run.ident}"] = {
                    "date": today, "cores": os.cpu_count(),
                    "seconds": (datetime.datetime.now() - started).total_seconds()}
                # After every run, so a failure later keeps what was measured.
                figures_path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    text = table(stored)
    write_readme(options.readme, text)
    print(text)


if __name__ == "__main__":
    main()
