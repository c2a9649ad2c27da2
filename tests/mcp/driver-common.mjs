// Shared plumbing for client-2025.mjs and client-2026.mjs: config loading,
// bounded steps, the trigger process, the optional wire tap and the single
// JSON report on stdout. Nothing here speaks MCP itself; the official client
// packages do that in the two driver scripts.
import { spawn } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import process from 'node:process';

/** Raised for a transport/protocol failure: the driver exits 2. */
export class DriverFailure extends Error {}

export const DEFAULT_STEP_MS = 20_000;
export const DEFAULT_WAIT_MS = 3_000;
export const QUIET_WINDOW_MS = 1_000;
export const MAX_PAGES = 1_000;

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** Reads and checks the one config argument; exits 2 on a bad invocation. */
export function loadConfig(argv) {
    if (argv.length !== 1) {
        fail(`usage: node ${process.argv[1]} CONFIG.json`);
    }
    let cfg;
    try {
        cfg = JSON.parse(readFileSync(argv[0], 'utf8'));
    } catch (error) {
        fail(`cannot read config ${argv[0]}: ${error.message}`);
    }
    if (cfg.transport === 'stdio') {
        if (typeof cfg.command !== 'string') fail('config: stdio transport needs "command"');
    } else if (cfg.transport === 'http') {
        if (typeof cfg.url !== 'string') fail('config: http transport needs "url"');
    } else {
        fail('config: "transport" must be "stdio" or "http"');
    }
    if (cfg.calls !== undefined && !Array.isArray(cfg.calls)) fail('config: "calls" must be an array');
    if (cfg.trigger !== undefined && cfg.trigger !== null && typeof cfg.trigger.command !== 'string') {
        fail('config: "trigger" needs "command"');
    }
    return {
        ...cfg,
        args: cfg.args ?? [],
        calls: cfg.calls ?? [],
        clientName: cfg.clientName ?? 'capdesk-mcp-test',
        clientVersion: cfg.clientVersion ?? '0.0.0',
        stepMs: cfg.stepMs ?? DEFAULT_STEP_MS,
        waitMs: cfg.waitMs ?? DEFAULT_WAIT_MS
    };
}

/** The environment for a spawned process: this process's environment plus the config's extras. */
export function childEnv(extra) {
    const env = {};
    for (const [key, value] of Object.entries(process.env)) {
        if (typeof value === 'string') env[key] = value;
    }
    for (const [key, value] of Object.entries(extra ?? {})) {
        env[key] = String(value);
    }
    return env;
}

/** Rejects with a DriverFailure when `promise` does not settle within `ms`. */
export function bounded(promise, ms, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new DriverFailure(`${what}: no answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Wire tap: records every JSON-RPC message the client transport sends or
 * receives. The transport's `onmessage` becomes an accessor so the tap stays
 * in front of whatever handler the SDK installs (and re-installs) there.
 */
export function tapTransport(transport, onMessage) {
    let inner;
    const wrapper = (message, extra) => {
        try {
            onMessage('in', message);
        } catch {
            // the tap must never disturb the client
        }
        return inner?.(message, extra);
    };
    Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        enumerable: true,
        get() {
            return inner === undefined ? undefined : wrapper;
        },
        set(fn) {
            if (fn !== wrapper) inner = fn;
        }
    });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        try {
            onMessage('out', message);
        } catch {
            // see above
        }
        return send(message, options);
    };
}

/** Keeps the raw wire traffic: the ids sent per method, and each raw response by id. */
export class WireLog {
    constructor(keepAll) {
        this.keepAll = keepAll;
        this.messages = [];
        this.idsByMethod = new Map();
        this.responses = new Map();
    }

    record(direction, message) {
        if (this.keepAll) this.messages.push({ direction, message });
        if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
        if (direction === 'out' && typeof message.method === 'string' && message.id !== undefined) {
            if (!this.idsByMethod.has(message.method)) this.idsByMethod.set(message.method, []);
            this.idsByMethod.get(message.method).push(message.id);
        }
        if (direction === 'in' && message.method === undefined && message.id !== undefined) {
            this.responses.set(message.id, message);
        }
    }

    /** How many requests of `method` have been sent so far. */
    sent(method) {
        return this.idsByMethod.get(method)?.length ?? 0;
    }

    /** The raw response to the `index`-th request of `method` (0-based), if it arrived. */
    responseTo(method, index) {
        const id = this.idsByMethod.get(method)?.[index];
        return id === undefined ? undefined : this.responses.get(id);
    }

    /** The raw result of the first successful response to `method` (e.g. the initialize result). */
    firstResultFor(method) {
        for (const id of this.idsByMethod.get(method) ?? []) {
            const result = this.responses.get(id)?.result;
            if (result !== undefined) return result;
        }
        return undefined;
    }
}

/** Plain-data form of a thrown error for the report. */
export function describeError(error, source) {
    const out = { message: error instanceof Error ? error.message : String(error) };
    if (error && typeof error === 'object') {
        if (error.code !== undefined) out.code = error.code;
        if (error.data !== undefined) out.data = error.data;
        if (error.name && error.name !== 'Error') out.name = error.name;
    }
    if (source !== undefined) out.source = source;
    return out;
}

/**
 * Runs the trigger process: spawns it, writes `stdin` (a string, or any other
 * JSON value which is serialised), waits for it to exit within `stepMs`.
 * Returns { exit, stdout, stderr }; `exit` is the exit code, or "SIGNAME" when
 * it died by a signal.
 */
export function runTrigger(trigger, stepMs) {
    return new Promise((resolve, reject) => {
        let child;
        try {
            child = spawn(trigger.command, trigger.args ?? [], {
                cwd: trigger.cwd,
                env: childEnv(trigger.env),
                stdio: ['pipe', 'pipe', 'pipe']
            });
        } catch (error) {
            reject(new DriverFailure(`trigger: cannot start ${trigger.command}: ${error.message}`));
            return;
        }
        const out = [];
        const err = [];
        child.stdout.on('data', chunk => out.push(chunk));
        child.stderr.on('data', chunk => err.push(chunk));
        child.stdin.on('error', () => {}); // a trigger that ignores stdin may close it early
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new DriverFailure(`trigger: ${trigger.command} did not exit within ${stepMs} ms`));
        }, stepMs);
        child.on('error', error => {
            clearTimeout(timer);
            reject(new DriverFailure(`trigger: cannot start ${trigger.command}: ${error.message}`));
        });
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            const clip = chunks => {
                const text = Buffer.concat(chunks).toString('utf8');
                return text.length > 4096 ? `${text.slice(0, 4096)}…` : text;
            };
            resolve({ exit: code ?? signal, stdout: clip(out), stderr: clip(err) });
        });
        if (trigger.stdin !== undefined && trigger.stdin !== null) {
            child.stdin.end(typeof trigger.stdin === 'string' ? trigger.stdin : JSON.stringify(trigger.stdin));
        } else {
            child.stdin.end();
        }
    });
}

/** Counts notifications; `mark()` starts a new window and returns the count seen since the last mark. */
export class Counter {
    constructor() {
        this.total = 0;
        this.marked = 0;
    }

    hit() {
        this.total++;
    }

    mark() {
        const since = this.total - this.marked;
        this.marked = this.total;
        return since;
    }
}

/** Prints the report (one JSON object, one line) and exits 0 once stdout has drained. */
export function succeed(report) {
    process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
}

/** Prints `message` (and the partial report, if any) on stderr and exits 2. */
export function fail(message, partial) {
    let text = `${String(message).replace(/\s*\n\s*/g, ' ')}\n`;
    if (partial !== undefined) {
        text += `partial report: ${JSON.stringify(partial)}\n`;
    }
    try {
        writeSync(2, text);
    } catch {
        // nothing more can be said
    }
    process.exit(2);
}

/** A hard upper bound on the whole run, so a wedged SDK can never hang a test. */
export function armWatchdog(cfg, getPartial, onAbort) {
    const steps = 6 + cfg.calls.length + (cfg.trigger ? 4 : 0);
    const ms = cfg.totalTimeoutMs ?? steps * cfg.stepMs + cfg.waitMs + QUIET_WINDOW_MS;
    const timer = setTimeout(() => {
        try {
            onAbort?.();
        } catch {
            // best effort
        }
        fail(`driver: the whole sequence did not finish within ${ms} ms`, getPartial());
    }, ms);
    timer.unref();
}

/**
 * The sequence both drivers run, over an era-specific adapter:
 *   connect() · describe() → {protocolVersion, serverInfo, capabilities, ...extra}
 *   listPage(cursor) → raw page {tools, nextCursor?, ...}
 *   prepareCalls(tools) · callTool(name, args, tools) → result
 *   isFatal(error) → true for SDK-side transport failures (timeout, closed)
 *   subscribe() → {info, close()} (called only when a trigger is configured)
 *   close() · abort() (kill whatever is still running; best effort)
 * `adapter.counter` counts tools/list_changed notifications; `adapter.wire`
 * is the WireLog of its tapped transport; `adapter.closedUnexpectedly()`
 * reports a transport that went away on its own.
 */
export async function runSequence(cfg, adapter) {
    const report = {
        protocolVersion: null,
        serverInfo: null,
        capabilities: null,
        pages: 0,
        tools: [],
        calls: [],
        quietNotifications: null,
        triggerExit: null,
        listChanged: null,
        toolsAfter: null
    };
    armWatchdog(cfg, () => report, () => adapter.abort?.());
    const step = (promise, what) => bounded(promise, cfg.stepMs + 1_000, what);
    const checkAlive = what => {
        if (adapter.closedUnexpectedly()) throw new DriverFailure(`${what}: the connection closed unexpectedly`);
    };

    const listAll = async what => {
        const tools = [];
        const pageInfo = [];
        const seen = new Set();
        let cursor;
        for (;;) {
            let page;
            try {
                page = await step(adapter.listPage(cursor), what);
            } catch (error) {
                if (error instanceof DriverFailure) throw error;
                throw new DriverFailure(`${what} (page ${pageInfo.length + 1}) failed: ${describeError(error).message}`);
            }
            const items = Array.isArray(page?.tools) ? page.tools : [];
            tools.push(...items);
            pageInfo.push({
                count: items.length,
                nextCursor: page?.nextCursor ?? null,
                ...(page?.ttlMs !== undefined && { ttlMs: page.ttlMs }),
                ...(page?.cacheScope !== undefined && { cacheScope: page.cacheScope })
            });
            if (page?.nextCursor === undefined) break;
            if (seen.has(page.nextCursor)) throw new DriverFailure(`${what}: the server repeated cursor ${JSON.stringify(page.nextCursor)}`);
            if (pageInfo.length >= MAX_PAGES) throw new DriverFailure(`${what}: more than ${MAX_PAGES} pages`);
            seen.add(page.nextCursor);
            cursor = page.nextCursor;
        }
        return { tools, pageInfo };
    };

    try {
        try {
            await step(adapter.connect(), 'connect');
        } catch (error) {
            if (error instanceof DriverFailure) throw error;
            throw new DriverFailure(`connect failed: ${describeError(error).message}`);
        }
        Object.assign(report, adapter.describe());

        const listed = await listAll('tools/list');
        report.pages = listed.pageInfo.length;
        report.pageInfo = listed.pageInfo;
        report.tools = listed.tools;
        adapter.prepareCalls?.(listed.tools);

        for (const call of cfg.calls) {
            const entry = { name: call.name, arguments: call.arguments ?? {} };
            const before = adapter.wire.sent('tools/call');
            try {
                entry.result = await step(adapter.callTool(call.name, entry.arguments, listed.tools), `tools/call ${call.name}`);
            } catch (error) {
                if (error instanceof DriverFailure) throw error;
                checkAlive(`tools/call ${call.name}`);
                const sent = adapter.wire.sent('tools/call') > before;
                const raw = sent ? adapter.wire.responseTo('tools/call', adapter.wire.sent('tools/call') - 1) : undefined;
                if (raw?.error !== undefined) {
                    entry.error = { code: raw.error.code, message: raw.error.message, source: 'server' };
                    if (raw.error.data !== undefined) entry.error.data = raw.error.data;
                } else if (adapter.isFatal(error)) {
                    throw new DriverFailure(`tools/call ${call.name}: ${describeError(error).message}`);
                } else {
                    entry.error = describeError(error, 'client');
                }
            }
            report.calls.push(entry);
        }

        if (cfg.trigger) {
            let subscription;
            try {
                subscription = await step(adapter.subscribe(), 'subscribe');
                report.subscription = subscription.info;
            } catch (error) {
                if (error instanceof DriverFailure) throw error;
                report.subscription = { error: describeError(error) };
            }
            checkAlive('subscribe');
            adapter.counter.mark();
            await sleep(QUIET_WINDOW_MS);
            report.quietNotifications = adapter.counter.mark();
            const trigger = await runTrigger(cfg.trigger, cfg.stepMs);
            report.triggerExit = trigger.exit;
            report.triggerStdout = trigger.stdout;
            report.triggerStderr = trigger.stderr;
            await sleep(cfg.waitMs);
            report.listChanged = adapter.counter.mark();
            checkAlive('after the trigger');
            const after = await listAll('tools/list after the trigger');
            report.toolsAfter = after.tools.length;
            report.pagesAfter = after.pageInfo.length;
            report.toolsAfterNames = after.tools.map(tool => tool.name);
            if (subscription) {
                try {
                    await step(subscription.close(), 'unsubscribe');
                } catch (error) {
                    if (error instanceof DriverFailure) throw error;
                    report.subscription = { ...report.subscription, closeError: describeError(error) };
                }
            }
        }

        checkAlive('before close');
        try {
            await step(adapter.close(), 'close');
        } catch (error) {
            if (error instanceof DriverFailure) throw error;
            throw new DriverFailure(`close failed: ${describeError(error).message}`);
        }
    } catch (error) {
        report.clientErrors = adapter.clientErrors;
        if (adapter.wire.keepAll) report.wire = adapter.wire.messages;
        try {
            adapter.abort?.();
        } catch {
            // best effort
        }
        if (error instanceof DriverFailure) fail(error.message, report);
        else fail(`driver error: ${error instanceof Error ? error.stack : String(error)}`, report);
        return;
    }
    report.clientErrors = adapter.clientErrors;
    if (adapter.wire.keepAll) report.wire = adapter.wire.messages;
    succeed(report);
}
