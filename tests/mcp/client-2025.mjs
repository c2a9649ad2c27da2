#!/usr/bin/env node
// Drives an MCP server with the official 1.x TypeScript client
// (@modelcontextprotocol/sdk, protocol 2025-11-25: initialize handshake).
//
//   node client-2025.mjs CONFIG.json
//
// CONFIG.json (keys and the report are described in README.md beside this file):
//   {"transport":"stdio","command":"…/capdeskctl","args":["mcp","--db","x.db"],"env":{…},"cwd":"…",
//    or "transport":"http","url":"http://127.0.0.1:PORT/mcp","headers":{"Authorization":"Bearer …"},
//    "clientName":"tst-client","calls":[{"name":"tool","arguments":{…}}],
//    "trigger":{"command":"…","args":[…],"stdin":"…","env":{…}},"waitMs":3000,
//    "stepMs":20000,"wire":false}
//
// Prints one JSON report on stdout and exits 0 when the sequence ran (calls
// that failed are recorded in it); exits 2 with a message on stderr on a
// transport or protocol failure.
import process from 'node:process';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { childEnv, Counter, loadConfig, runSequence, tapTransport, WireLog } from './driver-common.mjs';

const cfg = loadConfig(process.argv.slice(2));

const wire = new WireLog(cfg.wire === true);
const counter = new Counter();
const clientErrors = [];
let closing = false;
let closedUnexpectedly = false;

const client = new Client({ name: cfg.clientName, version: cfg.clientVersion }, { capabilities: {} });
client.onerror = error => {
    if (clientErrors.length < 50) clientErrors.push(error instanceof Error ? error.message : String(error));
};
client.onclose = () => {
    if (!closing) closedUnexpectedly = true;
};
// 2025 era: list_changed arrives unsolicited (stdio: on the one pipe; HTTP:
// on the standalone GET SSE stream or a POST's SSE response).
client.setNotificationHandler(ToolListChangedNotificationSchema, () => counter.hit());

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

await runSequence(cfg, {
    wire,
    counter,
    clientErrors,
    closedUnexpectedly: () => closedUnexpectedly,

    connect: () => client.connect(transport, requestOptions),

    describe: () => {
        const init = wire.firstResultFor('initialize');
        return {
            protocolVersion: init?.protocolVersion ?? transport.protocolVersion ?? null,
            serverInfo: client.getServerVersion() ?? null,
            capabilities: client.getServerCapabilities() ?? null,
            instructions: client.getInstructions() ?? null
        };
    },

    listPage: cursor => client.listTools(cursor === undefined ? undefined : { cursor }, requestOptions),

    // listTools() caches output-schema validators for the page it fetched
    // only; give callTool() the validators of every page.
    prepareCalls: tools => client.cacheToolMetadata(tools),

    callTool: (name, args) => client.callTool({ name, arguments: args }, undefined, requestOptions),

    // McpError codes the SDK itself raises when no answer came (the server's
    // own JSON-RPC errors are told apart by the wire log before this is asked).
    isFatal: error => error?.code === ErrorCode.RequestTimeout || error?.code === ErrorCode.ConnectionClosed,

    // Nothing to send: the handler registered above already receives them.
    subscribe: async () => ({ info: { mode: 'unsolicited' }, close: async () => {} }),

    close: async () => {
        closing = true;
        await client.close();
    },

    abort: () => {
        closing = true;
        const pid = transport.pid;
        if (pid) process.kill(pid, 'SIGKILL');
    }
});
