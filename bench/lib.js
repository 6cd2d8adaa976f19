// Shared pieces of the benchmarks: where things are, statistics, child processes, tables.

import { fork, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '..');
/**
 * A file of one workspace package's compiled output (packages/PKG/dist).
 * @param {string} pkg
 * @param {...string} parts
 */
export const dist = (pkg, ...parts) => join(ROOT, 'packages', pkg, 'dist', ...parts);
/** byhand's client as Node loads it: the "node" condition of its package.json, the bundle of packages/client/bundle-node.mjs (test/bundle-node.test.ts holds that Node resolves it here). */
export const BYHAND_CLIENT = dist('client', 'node', 'index.js');
/** The same client as the unbundled dist/ of about twenty ES modules (what Deno, Bun and browsers' bundlers start from). */
export const BYHAND_CLIENT_MODULES = dist('client', 'index.js');
export const BYHAND_SERVE = dist('servers', 'edge', 'serve.js');
/** The SDK client's ESM entry, resolved the way an application importing it resolves it. */
export const SDK_CLIENT = fileURLToPath(import.meta.resolve('@modelcontextprotocol/client'));

export function requireDist() {
  for (const file of [BYHAND_CLIENT, BYHAND_CLIENT_MODULES, BYHAND_SERVE]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
}

/** @param {string} path */
export const fileUrl = (path) => pathToFileURL(path).href;

// ---- statistics -------------------------------------------------------------

/**
 * @param {number[]} values
 * @param {number} q between 0 and 1
 */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
/** @param {number[]} values */
export const median = (values) => quantile(values, 0.5);
/** @param {number[]} values */
export const p95 = (values) => quantile(values, 0.95);

/**
 * Microseconds of CPU (user + system) this process has used since `start` (a process.cpuUsage() value).
 * @param {NodeJS.CpuUsage} start
 */
export function cpuSince(start) {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

// ---- child processes ----------------------------------------------------------

/**
 * Runs `node args…` to completion; resolves with wall time (ms), exit code, stdout. Bounded by timeoutMs.
 * @param {string[]} args
 * @param {{ timeoutMs?: number, cwd?: string, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<{ ms: number, stdout: string }>}
 */
export function runNode(args, { timeoutMs = 20_000, cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`node ${args.join(' ').slice(0, 120)} exited ${code ?? signal}: ${stderr.slice(0, 500)}`));
      resolvePromise({ ms, stdout });
    });
  });
}

/**
 * A message over a child's IPC channel: the parent's carry a `type`, a child's answer carries the `id`
 * of the call it answers (and `error` if that failed); the rest is each message's own JSON.
 * @typedef {{ type?: string, id?: number, error?: string, [key: string]: any }} ChildMessage
 */

/** A running child, as startChild returns it. @typedef {ReturnType<typeof startChild>} Child */

/**
 * A long-lived child (a server or the load generator) spoken to over IPC: `call(message)` sends
 * `{id, ...message}` and resolves with the child's `{id, ...}` answer. Every call has a deadline.
 * @param {string} script a file in bench/
 * @param {string[]} [args]
 * @param {{ name?: string, execArgv?: string[] }} [options]
 */
export function startChild(script, args = [], { name = script, execArgv = [] } = {}) {
  const child = fork(join(BENCH_DIR, script), args, { cwd: ROOT, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json' });
  let nextId = 0;
  /** @type {Map<number, { resolve: (answer: ChildMessage) => void, reject: (error: Error) => void, timer: NodeJS.Timeout }>} */
  const pending = new Map();
  /** @type {{ res: (message: ChildMessage) => void, rej: (error: Error) => void }} */
  let ready;
  /** @type {Promise<ChildMessage>} */
  const readyPromise = new Promise((res, rej) => (ready = { res, rej }));
  child.on('message', (data) => {
    const message = /** @type {ChildMessage} */ (data);
    if (message.type === 'ready') return ready.res(message);
    if (message.id === undefined) return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.error) waiter.reject(new Error(`${name}: ${message.error}`));
    else waiter.resolve(message);
  });
  child.once('exit', (code, signal) => {
    const error = new Error(`${name} exited (${code ?? signal})`);
    ready.rej(error);
    for (const waiter of pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    pending.clear();
  });
  const readyTimer = setTimeout(() => ready.rej(new Error(`${name} did not start within 15 s`)), 15_000);
  readyPromise.finally(() => clearTimeout(readyTimer)).catch(() => undefined);
  return {
    child,
    ready: readyPromise,
    /**
     * @param {ChildMessage & { type: string }} message
     * @returns {Promise<ChildMessage>}
     */
    call(message, timeoutMs = 30_000) {
      const id = ++nextId;
      return new Promise((res, rej) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          rej(new Error(`${name}: no answer to ${message.type} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve: res, reject: rej, timer });
        child.send({ id, ...message });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((res) => child.once('exit', res));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---- formatting -------------------------------------------------------------------

/** @param {number} v milliseconds */
export const ms = (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ms` : 'n/a');
/** @param {number} v microseconds */
export const us = (v) => (Number.isFinite(v) ? `${v.toFixed(0)} µs` : 'n/a');
/** @param {number} v */
export const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
/** @param {number} bytes */
export const kb = (bytes) => `${int(bytes / 1024)} KB`;
/** @param {number} bytes */
export const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

/**
 * A measured figure: its value and how it is printed. run.js repeats every benchmark and prints a figure as the
 * median over the runs, with the lowest and highest in brackets.
 * @typedef {{ value: number, format: (value: number) => string }} Figure
 */
/** A table cell: a fixed label or a figure. @typedef {string | Figure} Cell */
/**
 * A target a benchmark checks: read on the median of `figure` over the runs.
 * @typedef {{ label: string, figure: Figure, met: (value: number) => boolean, note?: string }} Goal
 */
/**
 * A benchmark's part of the report (run.js prints it and writes it to results.md): a table, the targets
 * it checks, how it was measured, how long it took, and its figures unformatted (`raw`, for debugging).
 * @typedef {{ title: string, header: string[], rows: Cell[][], goals?: Goal[], notes?: string[], seconds: number, raw?: unknown }} Section
 */

/**
 * A figure; a value that is not a finite number (a variant without this measure) prints as an empty cell.
 * @param {number | undefined} value
 * @param {(value: number) => string} format
 * @returns {Figure}
 */
export const fig = (value, format) => ({ value: value ?? NaN, format });

/** @param {number} value a ratio */
export const times = (value) => `${value.toFixed(2)}x`;

/** What run.js passes every benchmark: `quick` asks for a smoke-test size. @typedef {{ quick: boolean }} BenchOptions */

/**
 * A plain-text table: columns padded, first column left-aligned, the others right-aligned.
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function textTable(header, rows) {
  const all = [header, ...rows].map((r) => header.map((_, i) => String(r[i] ?? '')));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  /** @param {string[]} r */
  const line = (r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/**
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function markdownTable(header, rows) {
  /** @param {string} c */
  const esc = (c) => String(c).replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((r) => `| ${header.map((_, i) => esc(r[i] ?? '')).join(' | ')} |`),
  ].join('\n');
}
