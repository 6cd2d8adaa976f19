// `byhand bridge URL --listen 127.0.0.1:0` in its own process, as the CLI runs it (the bundle in
// packages/byhand/dist/bin/), started with --expose-gc by bench/bridge-bench.js. Over IPC: 'ready' with the URL the
// bridge prints, 'stats' with its CPU time and its heap after a full collection, 'stop'.

import { dist, fileUrl } from './lib.js';
/** @import { ChildMessage } from './lib.js' */

if (!process.send) throw new Error('bridge-child.js runs as a child of the benchmark (lib.js startChild), with an IPC channel');
const send = process.send.bind(process);
const target = process.argv[2];
if (!target) throw new Error('usage: bridge-child.js SERVER_URL');

// The bridge prints the URL it listens on as its one stdout line.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = /** @type {typeof process.stdout.write} */ ((chunk, ...rest) => {
  const text = String(chunk).trim();
  if (text.startsWith('http://')) send({ type: 'ready', urls: { simple: text } });
  return write(chunk, .../** @type {[]} */ (rest));
});

process.on('message', (data) => {
  const message = /** @type {ChildMessage} */ (data);
  if (message.type === 'stats') {
    /** @type {() => void} */ (globalThis.gc)();
    const used = process.cpuUsage();
    send({ id: message.id, cpuUs: used.user + used.system, heapUsed: process.memoryUsage().heapUsed });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage();
    send({ id: message.id, cpuUs: used.user + used.system });
  } else if (message.type === 'stop') {
    process.kill(process.pid, 'SIGTERM');
  }
});
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

const { main } = /** @type {typeof import('../packages/byhand/src/cli.ts')} */ (await import(fileUrl(dist('byhand', 'bin/cli.js'))));
process.exitCode = await main(['bridge', target, '--listen', '127.0.0.1:0', '--timeout', '30000']);
process.exit();
