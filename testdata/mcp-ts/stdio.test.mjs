// Drives the real `rypsok serve` over stdio with the TypeScript MCP SDK's
// client (Client + StdioClientTransport), as an MCP host built on it would.
// Run by `make test-ts` (after `make build`): `node --test` in this
// directory. The binary is ${RYPSOK_BIN:-../../bin}/rypsok; it starts its
// own rypsok-egress from beside itself. The server gets PATH and nothing
// else from the environment (no BRAVE_API_KEY, no HOME).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  DEFAULT_INHERITED_ENV_VARS,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const binDir = process.env.RYPSOK_BIN
  ? path.resolve(process.env.RYPSOK_BIN)
  : path.resolve(here, '../../bin');
const rypsok = path.join(binDir, 'rypsok');

// How long the process may take to exit once its standard input ends.
const exitBound = 10_000;

// The environment of the server: PATH only. The transport adds HOME,
// LOGNAME, SHELL, TERM and USER from ours unless we name them; an
// undefined value keeps a variable out of the child's environment.
function cleanEnv() {
  const env = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) env[name] = undefined;
  env.PATH = process.env.PATH ?? '/usr/bin:/bin';
  return env;
}

// start spawns `rypsok serve`, connects the SDK's client to it (which
// sends initialize and notifications/initialized), and returns the client,
// the transport, the child process and its standard error so far.
async function start() {
  const transport = new StdioClientTransport({
    command: rypsok,
    args: ['serve'],
    env: cleanEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.setEncoding('utf8');
  transport.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'rypsok-ts-test', version: '0.0.0' });
  await client.connect(transport);
  // The transport keeps its child process to itself; the exit test needs
  // its exit status. (The SDK is pinned exactly, so this cannot move
  // under us unnoticed: the assertion says so if it does.)
  const child = transport._process;
  assert.ok(child && typeof child.once === 'function', 'StdioClientTransport._process is not a ChildProcess any more');
  return { client, transport, child, stderr: () => stderr };
}

// exited resolves with {code, signal} when child has exited (at once if
// it already has).
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('rypsok serve over stdio, TypeScript SDK client', () => {
  let s;
  let tools;

  before(async () => {
    s = await start();
    // Listing the tools makes the client cache a validator per
    // outputSchema: every later callTool then checks structuredContent
    // against it and throws if it does not match.
    tools = (await s.client.listTools()).tools;
  });

  after(async () => {
    if (s) await s.client.close();
  });

  test('initialize succeeds and the instructions mark external data', () => {
    const info = s.client.getServerVersion();
    assert.equal(info?.name, 'rypsok');
    const caps = s.client.getServerCapabilities();
    assert.ok(caps?.tools, 'the server announces tools');
    const instructions = s.client.getInstructions();
    assert.equal(typeof instructions, 'string');
    assert.match(instructions, /external data/);
  });

  test('tools/list: exactly engine_status, web_fetch and web_search, read-only, closed input schemas', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), ['engine_status', 'web_fetch', 'web_search']);
    const openWorld = { engine_status: false, web_fetch: true, web_search: true };
    for (const t of tools) {
      assert.deepEqual(
        {
          readOnlyHint: t.annotations?.readOnlyHint,
          destructiveHint: t.annotations?.destructiveHint,
          idempotentHint: t.annotations?.idempotentHint,
          openWorldHint: t.annotations?.openWorldHint,
        },
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld[t.name] },
        `annotations of ${t.name}`,
      );
      assert.equal(t.inputSchema.type, 'object', `inputSchema.type of ${t.name}`);
      assert.equal(t.inputSchema.additionalProperties, false, `inputSchema.additionalProperties of ${t.name}`);
      assert.equal(t.outputSchema?.type, 'object', `outputSchema.type of ${t.name}`);
    }
  });

  test('engine_status: structuredContent passes the SDK output-schema check and is the expected object', async () => {
    assert.equal(typeof s.client.getToolOutputValidator('engine_status'), 'function', 'the client validates engine_status output');
    const res = await s.client.callTool({ name: 'engine_status', arguments: {} });
    assert.notEqual(res.isError, true);
    assert.deepEqual(res.structuredContent, {
      outcome: 'ok',
      notices: [],
      engines: [
        { id: 'wikipedia', state: 'closed', latency_ms: null },
        { id: 'brave', state: 'disabled', latency_ms: null, reason: 'no_credential' },
        { id: 'stackexchange', state: 'closed', latency_ms: null },
        { id: 'arxiv', state: 'closed', latency_ms: null },
        { id: 'marginalia', state: 'closed', latency_ms: null },
      ],
    });
    // The text content carries the same object, for clients without
    // structured content.
    assert.equal(res.content[0]?.type, 'text');
    assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent);
  });

  test('web_search max_results 0: tool error invalid_request naming the parameter', async () => {
    assert.equal(typeof s.client.getToolOutputValidator('web_search'), 'function', 'the client validates web_search output');
    const res = await s.client.callTool({ name: 'web_search', arguments: { query: 'q', max_results: 0 } });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent?.error?.kind, 'invalid_request');
    assert.equal(res.structuredContent.error.detail?.parameter, 'max_results');
  });

  test('web_search no engine can serve (Wikipedia cannot filter by time): unavailable, no_engine', async () => {
    // No request leaves: the only active engine is skipped for time_range.
    const res = await s.client.callTool({ name: 'web_search', arguments: { query: 'golang', time_range: 'day' } });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent?.error?.kind, 'unavailable');
    assert.equal(res.structuredContent.error.detail?.reason, 'no_engine');
  });

  test('an unknown tool is a protocol error', async () => {
    await assert.rejects(
      s.client.callTool({ name: 'no_such_tool', arguments: {} }),
      (err) => {
        assert.ok(err instanceof McpError, `expected an McpError, got ${err}`);
        assert.equal(err.code, ErrorCode.InvalidParams);
        return true;
      },
    );
  });
});

test('closing the client ends stdin and rypsok exits 0 without being signalled', { timeout: exitBound + 5_000 }, async () => {
  const s = await start();
  await s.client.listTools(); // a live session, not just a handshake
  const t0 = performance.now();
  const status = exited(s.child);
  // close() ends the child's stdin, waits up to 2 s for it to exit, and
  // only then sends SIGTERM (then SIGKILL): `killed` says if it had to.
  await s.client.close();
  let timer;
  const bound = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`rypsok did not exit within ${exitBound} ms of stdin EOF`)), exitBound);
  });
  try {
    const { code, signal } = await Promise.race([status, bound]);
    const ms = performance.now() - t0;
    assert.equal(s.child.killed, false, `the SDK had to signal rypsok (it did not exit within the SDK's grace after EOF); stderr:\n${s.stderr()}`);
    assert.equal(signal, null, `rypsok ended by ${signal}; stderr:\n${s.stderr()}`);
    assert.equal(code, 0, `rypsok exited ${code}; stderr:\n${s.stderr()}`);
    assert.ok(ms < exitBound, `exit took ${ms} ms`);
  } finally {
    clearTimeout(timer);
  }
});
