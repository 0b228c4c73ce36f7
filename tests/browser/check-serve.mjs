//! Drives the page of `broadside serve` in headless Chromium, as a user would,
//! and holds its answers to the command line's:
//! - the default comparison with a fixed seed shows the counts
//!   `broadside compare --format json` gives for that seed, with its charts;
//! - a trial's replay shows the events `battle --replay K` gives;
//! - one attack with scripted dice shows the rolls `resolve --explain` gives;
//! - the page's own link, opened afresh, gives the same result again;
//! - bad input shows the message the command line gives;
//! - a long run can be cancelled, and the page asks for nothing beyond the
//!   server and logs no error;
//! - Ctrl-C (SIGINT) stops the server cleanly.
//!
//! Usage: node check-serve.mjs BINARY [--shot FILE.png]
//! With --shot, a desktop screenshot of the comparison is written to FILE.

import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { check, finish, launch } from './chromium.mjs';


/** The comparison every check runs: small enough for a debug build. */
const TRIALS = 2000;
const SEED = 7;
const ENDINGS = ['a_wins', 'b_wins', 'undecided', 'draws'];
const ESCAPES = ['a_escapes', 'b_escapes'];


const args = process.argv.slice(2);
const bin = args[0];
const shotAt = args.indexOf('--shot');
const shot = shotAt >= 0 ? args[shotAt + 1] : null;

/** The command line's answer, and its error line when it fails. */
function cli(...argv) {
  try {
    return { out: execFileSync(bin, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    return { err: String(error.stderr).trim().replace(/^error: /, '') };
  }
}

/** Starts the server on a free port and reads its address from its first line. */
async function startServer() {
  const server = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  for await (const chunk of server.stdout) {
    text += chunk;
    const found = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (found) return { server, base: found[0] };
  }
  throw new Error(`broadside serve printed no address: ${text}`);
}

/** The counts of each ending by system, as the page's table shows them. */
async function pageCounts(page) {
  return page.$$eval('#numbers tr[data-system]', (rows) => rows.map((row) => ({
    system: row.dataset.system,
    counts: Object.fromEntries([...row.querySelectorAll('td[data-field]')]
      .map((td) => [td.dataset.field, Number(td.textContent)])),
  })));
}

function cliCounts(report) {
  return report.rows.map((row) => ({
    system: row.system,
    // Escapes are counted only for a system that declares them; the page
    // shows a dash for the others.
    counts: Object.fromEntries([['trials', row.trials],
      ...[...ENDINGS, ...(row.escapes ? ESCAPES : [])].map((o) => [o, row.outcomes[o].count])]),
  }));
}

async function runAndWait(page) {
  await page.click('#go');
  await page.waitForFunction(() => document.querySelector('#status').textContent === 'done'
    || !document.querySelector('#error').hidden, null, { timeout: 120000 });
}

const { server, base } = await startServer();
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  const outside = [];
  context.on('request', (request) => {
    if (!request.url().startsWith(base)) outside.push(request.url());
  });
  const watch = (page) => {
    // A 400 answer is logged by the browser as a failed load: the checks
    // of bad input ask for those.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 400 \(Bad Request\)/.test(m.text())) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
  };
  const page = await context.newPage();
  watch(page);
  await page.goto(base);
  await page.waitForSelector('body[data-ready=true]');

  // The default comparison, seeded, against the command line's JSON.
  await page.fill('#trials', String(TRIALS));
  await page.fill('#seed', String(SEED));
  await runAndWait(page);
  const expected = cliCounts(JSON.parse(cli('compare', '--trials', String(TRIALS), '--seed', String(SEED), '--format', 'json').out));
  const shown = await pageCounts(page);
  check('the comparison shows the command line\'s counts', JSON.stringify(shown) === JSON.stringify(expected),
    `page ${JSON.stringify(shown)} cli ${JSON.stringify(expected)}`);
  check('the seed is shown', (await page.textContent('#run-seed')) === String(SEED));
  for (const id of ['wins', 'decided', 'hull-a', 'hull-b']) {
    const shapes = await page.$$eval(`#figures figure#${id} svg *`, (nodes) => nodes.length).catch(() => 0);
    check(`the ${id} chart is drawn`, shapes >= 10, `${shapes} shapes`);
  }
  if (shot) {
    // The form, the odds at a glance and the first row of charts.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.screenshot({ path: shot });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // One trial's log, against battle --replay.
  const report = JSON.parse(cli('compare', '--trials', String(TRIALS), '--seed', String(SEED), '--format', 'json').out);
  const row = report.rows[0];
  const flags = [
    ...Object.entries(row.options).flatMap(([k, v]) => (v === true ? [`--${k}`] : [`--${k}`, String(v)])),
    ...['a', 'b'].flatMap((side) => Object.entries(row.side_options[side])
      .flatMap(([k, v]) => (v === true ? [`--${side}-${k}`] : [`--${side}-${k}`, String(v)]))),
  ];
  const replayed = JSON.parse(cli('battle', row.system, row.a, row.b, ...flags, '--trials', String(TRIALS),
    '--seed', String(SEED), '--replay', '3', '--format', 'json').out);
  await page.selectOption('#replay-system', row.system);
  await page.fill('#replay-trial', '3');
  await page.click('#replay-go');
  await page.waitForSelector('#replay-events li');
  const replayText = cli('battle', row.system, row.a, row.b, ...flags, '--trials', String(TRIALS),
    '--seed', String(SEED), '--replay', '3').out.split('\n').slice(1, 1 + replayed.events.length);
  const replayLines = await page.$$eval('#replay-events li', (items) => items.map((li) => li.textContent));
  check('a replay shows every event of battle --replay', replayLines.length === replayed.events.length
    && JSON.stringify(replayLines) === JSON.stringify(replayText),
    `page ${replayLines.length} lines, cli ${replayText.length}: ${replayLines[0]} / ${replayText[0]}`);

  // The page's own link, opened afresh, runs the same comparison again.
  const link = page.url();
  check('the address holds the seed', new URL(link).searchParams.get('seed') === String(SEED), link);
  const again = await context.newPage();
  watch(again);
  await again.goto(link);
  await again.waitForFunction(() => document.querySelector('#status').textContent === 'done', null, { timeout: 120000 });
  check('a shared link gives the same result', JSON.stringify(await pageCounts(again)) === JSON.stringify(expected));
  await again.close();

  // One attack with scripted dice, every roll explained as resolve --explain.
  await page.click('#tab-resolve');
  await page.selectOption('#resolve-system', 'percentile');
  await page.selectOption('#attacker', 'frigate');
  await page.selectOption('#target', 'destroyer');
  await page.fill('#resolve-weapon', 'laser-cannon');
  await page.fill('#resolve-range', '3');
  await page.check('input[name=dice-mode][value=dice]');
  await page.fill('#dice', '11,63');
  await runAndWait(page);
  const explained = cli('resolve', 'percentile', '--attacker', 'frigate', '--target', 'destroyer',
    '--weapon', 'laser-cannon', '--range', '3', '--dice', '11,63', '--explain').out
    .split('\n').filter((line) => /^\s*\d+\. /.test(line)).map((line) => line.replace(/^\s*\d+\. /, ''));
  const rolls = await page.$$eval('#events li', (items) => items.map((li) => li.textContent));
  check('the attack shows the rolls resolve --explain gives', rolls.length > 3 && JSON.stringify(rolls) === JSON.stringify(explained),
    `page ${JSON.stringify(rolls)} cli ${JSON.stringify(explained)}`);

  // Bad input: the command line's message.
  await page.click('#tab-battle');
  await page.selectOption('#battle-system', 'percentile');
  await page.fill('#side-a', 'frigat');
  await page.fill('#side-b', 'destroyer');
  await page.fill('#trials', '100');
  await runAndWait(page);
  const message = (await page.textContent('#error')).trim();
  const cliMessage = cli('battle', 'percentile', 'frigat', 'destroyer').err;
  check('bad input shows the command line\'s message', message === cliMessage, `page '${message}' cli '${cliMessage}'`);
  await page.fill('#seed', 'seven');
  await page.fill('#side-a', 'frigate');
  await runAndWait(page);
  const seedMessage = (await page.textContent('#error')).trim();
  check('a bad seed is refused with where it is wrong', /^request body: line 1, column \d+: invalid type: string "seven", expected u64$/.test(seedMessage), seedMessage);

  // A long run cancelled from the page; the page answers the next run.
  await page.click('#tab-compare');
  await page.fill('#trials', '1000000');
  await page.fill('#seed', '11');
  await page.click('#go');
  await page.waitForFunction(() => Number(document.querySelector('#progress').value) > 0, null, { timeout: 120000 });
  await page.click('#cancel');
  await page.waitForFunction(() => document.querySelector('#status').textContent === 'cancelled');
  check('a cancelled run says so', true);
  await page.fill('#trials', '200');
  await runAndWait(page);
  check('the next run after a cancel answers', (await page.textContent('#status')) === 'done');

  // A phone: nothing runs off the side.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const small = await phone.newPage();
  watch(small);
  await small.goto(link);
  await small.waitForFunction(() => document.querySelector('#status').textContent === 'done', null, { timeout: 120000 });
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check('on a phone nothing runs off the side', overflow <= 1, `${overflow}px too wide`);
  await phone.close();

  check('the page logs no error', errors.length === 0, errors.join(' | '));
  check('the page asks for nothing beyond the server', outside.length === 0, outside.join(' '));
} catch (error) {
  check('the checks ran to their end', false, error.stack);
} finally {
  await browser.close();
}

// Ctrl-C stops the server, and it says nothing went wrong.
server.kill('SIGINT');
const timer = setTimeout(() => server.kill('SIGKILL'), 10000);
const [code, signal] = await once(server, 'exit');
clearTimeout(timer);
check('Ctrl-C stops the server cleanly', code === 0, `exit ${code} ${signal ?? ''}`);

finish('broadside serve in Chromium');
