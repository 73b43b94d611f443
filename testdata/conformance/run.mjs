// Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned
// in package-lock.json) against `rypsok serve --transport http`, on the
// server scenarios that apply to a server with tools only. Run by
// `make conformance` (after `make build` and `npm ci` here): `node run.mjs`.
//
// It writes a temporary config whose [service] listen is 127.0.0.1:0 (the
// kernel picks a free port; rypsok names it in its "serving" log line),
// starts ${RYPSOK_BIN:-../../bin}/rypsok (which starts rypsok-egress from
// beside itself) with PATH and TMPDIR only from the environment, waits until
// the listener answers, runs the conformance CLI once per scenario against
// http://127.0.0.1:PORT/mcp, prints a summary, stops rypsok with SIGTERM and
// checks that it exits 0. The exit status is 1 if any scenario failed or
// rypsok did not start or stop cleanly. On failure the temporary directory
// (config, rypsok's log, each scenario's checks.json) is kept and named.
//
// Usage: node run.mjs [scenario ...]   (default: the five below)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const binDir = process.env.RYPSOK_BIN
  ? path.resolve(process.env.RYPSOK_BIN)
  : path.resolve(here, '../../bin');
const rypsok = path.join(binDir, 'rypsok');
const cli = path.join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// Node 20 lacks fs.globSync, which the CLI imports (see node20/register.mjs).
const preload = path.join(here, 'node20/register.mjs');

const defaultScenarios = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const startBound = 20_000; // ms for rypsok to log "serving" and answer
const scenarioBound = 120_000; // ms for one run of the CLI
const stopBound = 30_000; // ms for rypsok to exit after SIGTERM (its drain is at most ~17 s)

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : defaultScenarios;

function log(line) {
  process.stdout.write(`${line}\n`);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// startRypsok spawns the server and resolves with its port once its
// "serving" line has named the bound address.
function startRypsok(tmp) {
  const config = path.join(tmp, 'config.toml');
  fs.writeFileSync(config, 'config_version = 1\n[service]\nlisten = "127.0.0.1:0"\n');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  const logFile = fs.createWriteStream(path.join(tmp, 'rypsok.log'));
  const child = spawn(rypsok, ['serve', '--transport', 'http', '--config', config], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  child.stdout.pipe(logFile, { end: false });
  const port = new Promise((resolve, reject) => {
    child.on('error', reject);
    exited.then(({ code, signal }) =>
      reject(new Error(`rypsok exited before serving (code ${code}, signal ${signal})`)),
    );
    readline.createInterface({ input: child.stderr }).on('line', (line) => {
      logFile.write(`${line}\n`);
      let ev;
      try {
        ev = JSON.parse(line);
      } catch {
        return;
      }
      if (ev.event === 'serving' && ev.transport === 'http') {
        const m = /:(\d+)$/.exec(ev.listen ?? '');
        if (m) resolve(Number(m[1]));
        else reject(new Error(`cannot read the port from ${line}`));
      }
    });
  });
  port.catch(() => {}); // awaited in main; a late rejection is not unhandled
  return { child, exited, port, logFile };
}

// waitAnswering resolves once the listener gives any HTTP answer on /mcp.
async function waitAnswering(url, deadline) {
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${url} does not answer: ${err.message}`);
      await sleep(100);
    }
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    }),
  ]);
}

// runScenario runs the CLI for one scenario; its checks.json goes under out.
function runScenario(scenario, url, out) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      ['--import', preload, cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', out],
      { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[run.mjs] no result within ${scenarioBound} ms: killed\n`;
      child.kill('SIGKILL');
    }, scenarioBound);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, ms: Date.now() - started });
    });
  });
}

// readChecks returns the checks of the scenario's (only) result directory.
function readChecks(out, scenario) {
  const prefix = `server-${scenario}-`;
  const dirs = fs.existsSync(out) ? fs.readdirSync(out).filter((d) => d.startsWith(prefix)) : [];
  if (dirs.length !== 1) return null;
  try {
    return JSON.parse(fs.readFileSync(path.join(out, dirs[0], 'checks.json'), 'utf8'));
  } catch {
    return null;
  }
}

async function main() {
  for (const f of [rypsok, cli]) {
    if (!fs.existsSync(f)) {
      log(`missing ${f} (make build; npm ci in ${here})`);
      return 1;
    }
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rypsok-conformance-'));
  const results = [];
  let failed = false;
  const server = startRypsok(tmp);
  let stopped = false;
  const stopOnSignal = () => {
    if (!stopped) server.child.kill('SIGTERM');
    process.exit(130);
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);
  try {
    const deadline = Date.now() + startBound;
    const port = await withTimeout(server.port, startBound, 'rypsok "serving" line');
    const url = `http://127.0.0.1:${port}/mcp`;
    const status = await waitAnswering(url, deadline);
    log(`rypsok serving ${url} (GET answered ${status}); conformance ${cliVersion()}, node ${process.version}`);

    for (const scenario of scenarios) {
      const out = path.join(tmp, 'results', scenario);
      const run = await runScenario(scenario, url, out);
      const checks = readChecks(out, scenario);
      const count = (s) => (checks ?? []).filter((c) => c.status === s).length;
      const r = {
        scenario,
        exit: run.signal ?? run.code,
        ms: run.ms,
        success: count('SUCCESS'),
        failure: count('FAILURE'),
        warning: count('WARNING'),
        total: checks?.length ?? 0,
      };
      // Passed: the CLI exited 0, nothing failed, and something succeeded (a
      // scenario that gives up early reports only a WARNING).
      r.pass = run.code === 0 && r.failure === 0 && r.success > 0;
      results.push(r);
      log(`${r.pass ? 'PASS' : 'FAIL'} ${scenario} (${r.success}/${r.total} checks, ${r.failure} failed, ${r.warning} warnings, exit ${r.exit}, ${(r.ms / 1000).toFixed(1)} s)`);
      for (const c of checks ?? []) {
        if (c.status === 'SUCCESS' || c.status === 'INFO') continue;
        log(`  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
        if (c.details) log(`    details: ${JSON.stringify(c.details).slice(0, 2000)}`);
      }
      if (!r.pass) {
        failed = true;
        log(`  --- conformance output (${scenario}) ---`);
        log(run.output.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().replace(/^/gm, '  '));
      }
    }
  } catch (err) {
    log(`error: ${err.message}`);
    failed = true;
  }

  // Stop rypsok: SIGTERM, and it must exit 0 within stopBound.
  const running = server.child.exitCode === null && server.child.signalCode === null;
  if (running) server.child.kill('SIGTERM');
  const exit = await withTimeout(server.exited, stopBound, 'rypsok exit').catch(() => null);
  stopped = true;
  if (exit === null) {
    server.child.kill('SIGKILL');
    await server.exited;
    log(`rypsok did not exit within ${stopBound} ms of SIGTERM (killed)`);
    failed = true;
  } else if (exit.code !== 0) {
    const when = running ? 'after SIGTERM (want 0)' : 'before it was stopped';
    log(`rypsok exited with code ${exit.code}, signal ${exit.signal} ${when}`);
    failed = true;
  } else {
    log('rypsok stopped on SIGTERM, exit 0');
  }
  await new Promise((resolve) => server.logFile.end(resolve));

  const passed = results.filter((r) => r.pass).length;
  const notPassed = scenarios.length - passed;
  log('');
  log('scenario                         checks  result');
  for (const s of scenarios) {
    const r = results.find((x) => x.scenario === s);
    const checks = r ? `${r.success}/${r.total}` : '-';
    log(`${s.padEnd(32)} ${checks.padEnd(7)} ${r ? (r.pass ? 'pass' : 'FAIL') : 'not run'}`);
  }
  if (failed) {
    log(`kept ${tmp} (config.toml, rypsok.log, results/*/*/checks.json)`);
    const tail = fs.readFileSync(path.join(tmp, 'rypsok.log'), 'utf8').trimEnd().split('\n').slice(-20);
    log('--- rypsok.log (last lines) ---');
    log(tail.join('\n'));
  } else {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  log(`conformance: ${passed} passed, ${notPassed} failed`);
  return failed || notPassed > 0 ? 1 : 0;
}

function cliVersion() {
  const pkg = path.join(here, 'node_modules/@modelcontextprotocol/conformance/package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

process.exitCode = await main();
