//! A bounded load test of `broadside serve`, on this machine only: many
//! requests at once, good and bad, and streamed runs cancelled halfway; every
//! request must get its answer (nothing lost, nothing but the statuses the
//! API promises), every good answer must equal the first one of its kind,
//! and afterwards the server must still answer and have every run slot free.
//!
//! Usage: node load-serve.mjs BINARY [--requests N] [--concurrency C]
//! Prints one line per kind of request: count, statuses, median and 95th
//! percentile latency. Exits non-zero if any check fails.

import { spawn } from 'node:child_process';
import { once } from 'node:events';

const args = process.argv.slice(2);
const bin = args[0];
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const REQUESTS = option('--requests', 1000);
const CONCURRENCY = option('--concurrency', 32);

/** The kinds of request sent, in turn, and the statuses each may get. */
const KINDS = [
  { name: 'compare 200 trials', path: '/api/compare', body: '{"trials": 200, "seed": 7}', ok: [200, 429] },
  {
    name: 'battle 500 trials',
    path: '/api/battle',
    body: '{"system": "percentile", "a": "3xfrigate", "b": "heavy-cruiser", "trials": 500, "seed": 3}',
    ok: [200, 429],
  },
  {
    name: 'resolve, scripted dice',
    path: '/api/resolve',
    body: '{"system": "percentile", "attacker": "frigate", "target": "destroyer", "options": {"weapon": "laser-cannon", "range": 3}, "dice": [11, 63]}',
    ok: [200],
  },
  { name: 'systems', path: '/api/systems', ok: [200] },
  { name: 'bad JSON', path: '/api/battle', body: '{"system": ', ok: [400] },
  {
    name: 'unknown ship',
    path: '/api/battle',
    body: '{"system": "percentile", "a": "frigat", "b": "destroyer", "trials": 10}',
    ok: [400],
  },
  { name: 'too many trials', path: '/api/compare', body: '{"trials": 50000000}', ok: [413] },
  { name: 'body too large', path: '/api/compare', body: `{"scenario": "${'#'.repeat(70000)}"}`, ok: [413] },
  { name: 'streamed run, cancelled', path: '/api/compare', body: '{"trials": 200000, "seed": 5}', ok: [200, 429], cancel: true },
];

let failed = 0;
function check(what, ok, detail) {
  if (!ok) {
    failed += 1;
    console.log(`FAIL ${what}${detail ? `: ${detail}` : ''}`);
  }
}

async function startServer() {
  const server = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  for await (const chunk of server.stdout) {
    text += chunk;
    const found = text.match(/http:\/\/127\.0\.0\.1:\d+/);
    if (found) return { server, base: found[0] };
  }
  throw new Error(`broadside serve printed no address: ${text}`);
}

/** One request; for a cancelled run, the stream is dropped at its first
 * progress event. Resolves to [status, body text or null]. */
async function send(base, kind) {
  const controller = new AbortController();
  const init = kind.body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(kind.cancel ? { Accept: 'text/event-stream' } : {}) },
    body: kind.body,
  };
  const response = await fetch(base + kind.path, { ...init, signal: controller.signal });
  if (kind.cancel && response.ok) {
    const reader = response.body.getReader();
    let seen = '';
    while (!seen.includes('event: progress')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    controller.abort();
    return [response.status, null];
  }
  return [response.status, await response.text()];
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const { server, base } = await startServer();
const stats = KINDS.map(() => ({ statuses: {}, times: [], first: null }));
let next = 0;
let answered = 0;
const started = performance.now();
async function worker() {
  while (next < REQUESTS) {
    const i = next;
    next += 1;
    const k = i % KINDS.length;
    const kind = KINDS[k];
    const t0 = performance.now();
    let status;
    let body;
    try {
      [status, body] = await send(base, kind);
    } catch (error) {
      status = `error ${error.message}`;
    }
    const ms = performance.now() - t0;
    answered += 1;
    const s = stats[k];
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    s.times.push(ms);
    check(`${kind.name}: status`, kind.ok.includes(status), String(status));
    if (status === 200 && body !== null) {
      // Every good answer equals the first of its kind: the same seed,
      // the same numbers, however busy the server.
      if (s.first === null) s.first = body;
      else check(`${kind.name}: same answer`, body === s.first);
    }
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const seconds = (performance.now() - started) / 1000;
check('every request answered', answered === REQUESTS, `${answered} of ${REQUESTS}`);

// Afterwards: the server answers, and the cancelled runs gave back their slots.
let free = false;
for (let attempt = 0; attempt < 200 && !free; attempt += 1) {
  const [status] = await send(base, KINDS[0]);
  free = status === 200;
  if (!free) await new Promise((r) => setTimeout(r, 100));
}
check('a run is played after the load', free);

console.log(`${REQUESTS} requests, ${CONCURRENCY} at a time, in ${seconds.toFixed(1)} s`);
console.log('| request | sent | answers | median ms | 95th percentile ms |');
console.log('| --- | --- | --- | --- | --- |');
KINDS.forEach((kind, k) => {
  const s = stats[k];
  const times = s.times.sort((a, b) => a - b);
  const statuses = Object.entries(s.statuses).map(([code, n]) => `${n}× ${code}`).join(', ');
  console.log(`| ${kind.name} | ${times.length} | ${statuses} | ${quantile(times, 0.5).toFixed(0)} | ${quantile(times, 0.95).toFixed(0)} |`);
});

server.kill('SIGINT');
const [code] = await once(server, 'exit');
check('Ctrl-C stops the server cleanly', code === 0, `exit ${code}`);
console.log(failed === 0 ? 'load test passed' : `load test: ${failed} checks failed`);
process.exit(failed === 0 ? 0 : 1);
