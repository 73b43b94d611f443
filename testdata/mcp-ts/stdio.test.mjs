// Drives the real `rypsok serve` over stdio with the TypeScript MCP SDK's
// client (Client + StdioClientTransport), as an MCP host built on it would.
// Run by `make test-ts` (after `make build`): `node --test` in this
// directory. The binary is ${RYPSOK_BIN:-../../bin}/rypsok; it starts its
// own rypsok-egress from beside itself. The server gets PATH and nothing
// else from the environment (no BRAVE_API_KEY, no HOME).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

// start spawns `rypsok serve` with args, connects the SDK's client to it
// (which sends initialize and notifications/initialized), and returns the
// client, the transport, the child process and its standard error so far.
async function start(args = []) {
  const transport = new StdioClientTransport({
    command: rypsok,
    args: ['serve', ...args],
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

// The two settings of [service] structured_content. With false the
// results carry the JSON text alone, so the tools must declare no output
// schema: the SDK's client refuses a successful result of a tool that
// declares one without structuredContent ("Tool engine_status has an
// output schema but did not return structured content", -32600), which is
// what every successful call met before (issue 16).
const settings = [
  { structured: true, args: () => [] },
  { structured: false, args: (dir) => ['--config', configFile(dir, '[service]\nstructured_content = false\n')] },
];

// configFile writes a configuration file into dir and returns its path.
function configFile(dir, body) {
  const file = path.join(dir, 'rypsok.toml');
  writeFileSync(file, `config_version = 1\n\n${body}`);
  return file;
}

// answer is the response object of a tool result: its structuredContent
// when there is one, which must then equal the JSON text (always there).
function answer(res, structured) {
  assert.equal(res.content[0]?.type, 'text');
  const text = JSON.parse(res.content[0].text);
  if (!structured) {
    assert.equal(res.structuredContent, undefined, 'structuredContent with structured_content = false');
    return text;
  }
  assert.deepEqual(text, res.structuredContent, 'the text carries the structured object');
  return res.structuredContent;
}

for (const { structured, args } of settings) {
  describe(`rypsok serve over stdio, TypeScript SDK client, structured_content = ${structured}`, () => {
    let s;
    let tools;
    let dir;

    before(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'rypsok-ts-'));
      s = await start(args(dir));
      // Listing the tools makes the client cache a validator per
      // outputSchema: every later callTool then checks structuredContent
      // against it and throws if it does not match, or is missing.
      tools = (await s.client.listTools()).tools;
    });

    after(async () => {
      if (s) await s.client.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
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

    test('tools/list: exactly engine_status, web_fetch and web_search, read-only, closed input schemas, an output schema only with structured content', () => {
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
        assert.equal(t.outputSchema?.type, structured ? 'object' : undefined, `outputSchema.type of ${t.name}`);
      }
    });

    test('engine_status: a successful result the SDK accepts, the expected object', async () => {
      const validates = typeof s.client.getToolOutputValidator('engine_status') === 'function';
      assert.equal(validates, structured, 'the client validates engine_status output exactly when it is structured');
      const res = await s.client.callTool({ name: 'engine_status', arguments: {} });
      assert.notEqual(res.isError, true);
      assert.deepEqual(answer(res, structured), {
        outcome: 'ok',
        notices: [],
        engines: [
          { id: 'wikipedia', state: 'closed', latency_ms: null },
          { id: 'brave', state: 'disabled', latency_ms: null, reason: 'no_credential' },
          { id: 'stackexchange', state: 'closed', latency_ms: null },
          { id: 'arxiv', state: 'closed', latency_ms: null },
          { id: 'marginalia', state: 'closed', latency_ms: null },
          { id: 'gdelt', state: 'closed', latency_ms: null },
          { id: 'hackernews', state: 'closed', latency_ms: null },
        ],
      });
    });

    test('web_search max_results 0: tool error invalid_request naming the parameter', async () => {
      const res = await s.client.callTool({ name: 'web_search', arguments: { query: 'q', max_results: 0 } });
      assert.equal(res.isError, true);
      const obj = answer(res, structured);
      assert.equal(obj.error?.kind, 'invalid_request');
      assert.equal(obj.error.detail?.parameter, 'max_results');
    });

    test('web_search no engine can serve (Wikipedia cannot filter by time): unavailable, no_engine', async () => {
      // The default set answers time_range in every category (GDELT,
      // Hacker News), so this runs a configuration of Wikipedia alone: no
      // request leaves, the only engine is skipped for time_range.
      const only = mkdtempSync(path.join(os.tmpdir(), 'rypsok-ts-wiki-'));
      const w = await start(['--config', configFile(only, `[service]\nstructured_content = ${structured}\n\n[engines.wikipedia]\ntype = "wikipedia"\n`)]);
      try {
        const res = await w.client.callTool({ name: 'web_search', arguments: { query: 'golang', time_range: 'day' } });
        assert.equal(res.isError, true);
        const obj = answer(res, structured);
        assert.equal(obj.error?.kind, 'unavailable');
        assert.equal(obj.error.detail?.reason, 'no_engine');
      } finally {
        await w.client.close();
        rmSync(only, { recursive: true, force: true });
      }
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
}

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
