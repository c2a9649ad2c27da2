#!/usr/bin/env node
// Drives an MCP server with the official 2.x TypeScript client
// (@modelcontextprotocol/client, protocol 2026-07-28: no initialize; the
// client probes with server/discover and then sends the per-request `_meta`
// envelope on every request; change notifications need subscriptions/listen).
//
//   node client-2026.mjs CONFIG.json
//
// CONFIG.json is the same as for client-2025.mjs, plus:
//   "negotiation": "pin" (default: the server must offer 2026-07-28 through
//                  server/discover, no fallback) or "auto" (the client falls
//                  back to the 2025 initialize handshake when it gets no
//                  modern evidence; the report then shows the legacy version).
//
// Prints one JSON report on stdout and exits 0 when the sequence ran (calls
// that failed are recorded in it); exits 2 with a message on stderr on a
// transport or protocol failure.
import process from 'node:process';

import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { childEnv, Counter, describeError, loadConfig, runSequence, tapTransport, WireLog } from './driver-common.mjs';

const MODERN = '2026-07-28';

const cfg = loadConfig(process.argv.slice(2));
if (cfg.negotiation !== undefined && cfg.negotiation !== 'pin' && cfg.negotiation !== 'auto') {
    process.stderr.write('config: "negotiation" must be "pin" or "auto"\n');
    process.exit(2);
}

const wire = new WireLog(cfg.wire === true);
const counter = new Counter();
const clientErrors = [];
let closing = false;
let closedUnexpectedly = false;

const client = new Client(
    { name: cfg.clientName, version: cfg.clientVersion },
    {
        capabilities: {},
        versionNegotiation: {
            mode: cfg.negotiation === 'auto' ? 'auto' : { pin: MODERN },
            probe: { timeoutMs: cfg.stepMs }
        }
    }
);
client.onerror = error => {
    if (clientErrors.length < 50) clientErrors.push(error instanceof Error ? error.message : String(error));
};
client.onclose = () => {
    if (!closing) closedUnexpectedly = true;
};
// On the modern era these arrive on the subscriptions/listen stream; the
// client routes them to the ordinary notification handlers.
client.setNotificationHandler('notifications/tools/list_changed', () => counter.hit());

// Note: on stdio the client runs the server/discover probe on a short-lived
// SIBLING process spawned from these same parameters (stderr discarded), then
// starts this transport's process for the session. The probe exchange is
// therefore not in the wire log; the discover result is reported instead.
const transport =
    cfg.transport === 'stdio'
        ? new StdioClientTransport({
              command: cfg.command,
              args: cfg.args,
              env: childEnv(cfg.env),
              cwd: cfg.cwd,
              stderr: cfg.stderr ?? 'inherit'
          })
        : new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers ?? {} } });
tapTransport(transport, (direction, message) => wire.record(direction, message));

const requestOptions = { timeout: cfg.stepMs };

// SDK-side outcomes that mean no answer came or the connection is gone.
const FATAL_SDK_CODES = new Set([
    SdkErrorCode.RequestTimeout,
    SdkErrorCode.ConnectionClosed,
    SdkErrorCode.SendFailed,
    SdkErrorCode.NotConnected
]);

await runSequence(cfg, {
    wire,
    counter,
    clientErrors,
    closedUnexpectedly: () => closedUnexpectedly,

    connect: () => client.connect(transport, requestOptions),

    describe: () => ({
        protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
        serverInfo: client.getServerVersion() ?? null,
        capabilities: client.getServerCapabilities() ?? null,
        instructions: client.getInstructions() ?? null,
        era: client.getProtocolEra() ?? null,
        discover: client.getDiscoverResult() ?? null
    }),

    // One wire request per page (listTools() without a cursor would walk and
    // merge every page itself, hiding the page count). The result is the
    // page with `resultType` consumed by the client's 2026 decoder (a page
    // without it is rejected there); ttlMs/cacheScope/nextCursor stay.
    listPage: cursor => client.request({ method: 'tools/list', ...(cursor !== undefined && { params: { cursor } }) }, requestOptions),

    // toolDefinition: validate structuredContent against the listed
    // outputSchema (what the client does after its own listTools()).
    callTool: (name, args, tools) =>
        client.callTool({ name, arguments: args }, { ...requestOptions, toolDefinition: tools.find(tool => tool.name === name) }),

    isFatal: error => error instanceof SdkError && FATAL_SDK_CODES.has(error.code),

    subscribe: async () => {
        const subscription = await client.listen({ toolsListChanged: true }, requestOptions);
        const info = { mode: 'subscriptions/listen', honoredFilter: subscription.honoredFilter, endedBy: null };
        subscription.closed.then(cause => {
            if (info.endedBy === null && !closing) info.endedBy = cause;
        });
        return {
            info,
            close: async () => {
                if (info.endedBy === null) info.endedBy = 'local';
                await subscription.close();
            }
        };
    },

    close: async () => {
        closing = true;
        await client.close();
    },

    abort: () => {
        closing = true;
        const pid = transport.pid;
        if (pid) process.kill(pid, 'SIGKILL');
    }
}).catch(error => {
    process.stderr.write(`driver error: ${JSON.stringify(describeError(error))}\n`);
    process.exit(2);
});
