// The page of `broadside serve`: forms filled from the server's data, runs
// sent to its JSON API, progress read from server-sent events, and the whole
// set-up kept in the address, so that a link gives the same result again.
'use strict';

const $ = (id) => document.getElementById(id);
let setup = null;
let mode = 'compare';
let running = null;
let lastBattle = null;

/** Text for an element, never HTML: ids come from users' data files. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function system(id) {
  return setup.systems.find((s) => s.id === id) || setup.systems[0];
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => el('option', { value: v }, v)));
  if (chosen !== undefined && values.includes(chosen)) select.value = chosen;
}

/** One input per option of a system, named by the option. */
function fillOptions(box, specs, prefix) {
  box.replaceChildren();
  for (const spec of specs) {
    const id = `${prefix}-${spec.name}`;
    let input;
    if (spec.kind === 'flag') {
      input = el('input', { type: 'checkbox', id });
    } else if (spec.kind === 'choice') {
      input = el('select', { id });
      input.append(el('option', { value: '' }, spec.required ? 'choose…' : 'default'));
      for (const c of spec.choices) input.append(el('option', { value: c }, c));
    } else {
      input = el('input', { id, placeholder: spec.kind === 'number' ? `${spec.min}–${spec.max}` : spec.value_name });
      if (spec.kind === 'number') input.setAttribute('inputmode', 'numeric');
    }
    input.dataset.option = spec.name;
    input.dataset.kind = spec.kind;
    const label = el('label', { for: id, title: spec.help }, spec.name + (spec.required ? ' *' : ''));
    box.append(el('div', { class: 'option' }, label, input));
  }
}

/** The options a box's inputs give, as JSON; what is left empty is not sent. */
function readOptions(box) {
  const options = {};
  for (const input of box.querySelectorAll('[data-option]')) {
    const name = input.dataset.option;
    if (input.dataset.kind === 'flag') {
      if (input.checked) options[name] = true;
    } else if (input.value.trim() !== '') {
      const text = input.value.trim();
      // A number that is not a whole number is sent as typed, so the server
      // says what is wrong with it.
      options[name] = input.dataset.kind === 'number' && /^-?\d+$/.test(text) ? Number(text) : text;
    }
  }
  return options;
}

function writeOptions(box, options) {
  for (const input of box.querySelectorAll('[data-option]')) {
    const value = options[input.dataset.option];
    if (input.dataset.kind === 'flag') input.checked = value === true || value === 'true';
    else input.value = value === undefined ? '' : String(value);
  }
}

function showMode(next) {
  mode = next;
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.setAttribute('aria-selected', String(tab.dataset.mode === mode));
  }
  for (const name of ['compare', 'battle', 'resolve']) $(`pane-${name}`).hidden = name !== mode;
  $('run-settings').querySelector('.trials').hidden = mode === 'resolve';
  $('run-settings').querySelector('.max-turns').hidden = mode === 'resolve';
}

function battleSystemChanged(keep) {
  const s = system($('battle-system').value);
  for (const side of ['a', 'b']) fillSelect($(`pick-${side}`), s.ships);
  fillOptions($('battle-options'), s.battle_options, 'battle');
  fillOptions($('side-a-options'), s.side_options, 'side-a');
  fillOptions($('side-b-options'), s.side_options, 'side-b');
  if (!keep) {
    $('side-a').value = s.ships.includes('destroyer') ? 'destroyer' : s.ships[0];
    $('side-b').value = s.ships.includes('frigate') ? 'frigate' : s.ships[s.ships.length - 1];
  }
}

function resolveSystemChanged() {
  const s = system($('resolve-system').value);
  fillSelect($('attacker'), s.ships, s.ships.includes('frigate') ? 'frigate' : s.ships[0]);
  fillSelect($('target'), s.ships, s.ships.includes('destroyer') ? 'destroyer' : s.ships[0]);
  fillOptions($('resolve-options'), s.resolve_options, 'resolve');
  attackerChanged();
}

/** The weapons a ship's sheet lists, under any key named `weapons`: each
 * system writes its sheet its own way (a list, a list per mount, a line). */
function weaponsOf(sheet) {
  const found = new Set();
  const visit = (value, key) => {
    if (key === 'weapons') {
      const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
      for (const item of items) {
        // An id is one kebab-case word: `rocket-battery x8` and
        // `heavy-laser bank 2` are the rocket-battery and the heavy-laser.
        if (typeof item === 'string') found.add(item.trim().split(/\s+/)[0]);
      }
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
    }
  };
  visit(sheet, '');
  return [...found].filter((w) => w !== '');
}

/** The attacker's weapons, offered for a weapon option typed as text. */
async function attackerChanged() {
  const input = $('resolve-weapon');
  if (!input || input.tagName !== 'INPUT') return;
  const id = $('resolve-system').value;
  const attacker = $('attacker').value;
  const ships = await (await fetch(`/api/ships/${encodeURIComponent(id)}`)).json();
  // The form may have moved on while the sheets were on their way.
  if ($('resolve-weapon') !== input || $('attacker').value !== attacker) return;
  const sheet = (ships.ships || []).find((ship) => ship.id === attacker);
  const list = el('datalist', { id: 'weapon-list' }, ...weaponsOf(sheet || {}).map((w) => el('option', { value: w })));
  $('weapon-list')?.remove();
  document.body.append(list);
  input.setAttribute('list', 'weapon-list');
}

/** A whole number typed in a field, as JSON: digits are sent as they are, so
 * a seed above 2^53 keeps every digit; anything else is sent as text, for
 * the server to refuse with its message. */
function rawNumber(text) {
  return /^\d+$/.test(text) ? { raw: text } : text;
}

/** JSON text of a request, with raw numbers written out digit by digit. */
function bodyText(request) {
  const raws = [];
  const text = JSON.stringify(request, (key, value) => {
    if (value && typeof value === 'object' && 'raw' in value) {
      raws.push(value.raw);
      return `@@raw${raws.length - 1}@@`;
    }
    return value;
  });
  return text.replace(/"@@raw(\d+)@@"/g, (_, i) => raws[Number(i)]);
}

/** The seed of a run: the one typed, or a new one, shown in the field. */
function seedText() {
  let text = $('seed').value.trim();
  if (text === '') {
    text = String(Math.floor(Math.random() * 2 ** 48));
    $('seed').value = text;
  }
  return text;
}

function runSettings(request) {
  const trials = $('trials').value.trim();
  const maxTurns = $('max-turns').value.trim();
  if (trials !== '') request.trials = rawNumber(trials);
  if (maxTurns !== '') request.max_turns = rawNumber(maxTurns);
  request.seed = rawNumber(seedText());
  return request;
}

function battleRequest() {
  return runSettings({
    system: $('battle-system').value,
    a: $('side-a').value.trim(),
    b: $('side-b').value.trim(),
    options: readOptions($('battle-options')),
    side_options: { a: readOptions($('side-a-options')), b: readOptions($('side-b-options')) },
  });
}

function compareRequest() {
  const request = {};
  const text = $('scenario').value;
  if (text !== setup.default_scenario) request.scenario = text;
  return runSettings(request);
}

function resolveRequest() {
  const request = {
    system: $('resolve-system').value,
    attacker: $('attacker').value,
    target: $('target').value,
    options: readOptions($('resolve-options')),
  };
  const dice = document.querySelector('input[name=dice-mode]:checked').value;
  if (dice === 'exact') request.exact = true;
  else if (dice === 'dice') {
    request.dice = $('dice').value.split(',').map((d) => d.trim()).filter((d) => d !== '')
      .map((d) => (/^\d+$/.test(d) ? Number(d) : d));
  } else request.seed = rawNumber(seedText());
  return request;
}

// ---- the address: every field of the set-up, so a link reproduces a run.

function toAddress() {
  const q = new URLSearchParams();
  q.set('mode', mode);
  const put = (key, value) => { if (value !== undefined && value !== '') q.set(key, value); };
  const putOptions = (prefix, box) => {
    for (const [k, v] of Object.entries(readOptions(box))) q.set(`${prefix}.${k}`, String(v));
  };
  if (mode === 'compare') {
    if ($('scenario').value !== setup.default_scenario) put('scenario', $('scenario').value);
  } else if (mode === 'battle') {
    put('system', $('battle-system').value);
    put('a', $('side-a').value.trim());
    put('b', $('side-b').value.trim());
    putOptions('o', $('battle-options'));
    putOptions('sa', $('side-a-options'));
    putOptions('sb', $('side-b-options'));
  } else {
    put('system', $('resolve-system').value);
    put('attacker', $('attacker').value);
    put('target', $('target').value);
    putOptions('o', $('resolve-options'));
    const dice = document.querySelector('input[name=dice-mode]:checked').value;
    if (dice !== 'seed') put('dice-mode', dice);
    if (dice === 'dice') put('dice', $('dice').value);
  }
  if (mode !== 'resolve') {
    put('trials', $('trials').value.trim());
    put('max-turns', $('max-turns').value.trim());
  }
  put('seed', $('seed').value.trim());
  return `${location.pathname}?${q}`;
}

function fromAddress() {
  const q = new URLSearchParams(location.search);
  if (!q.has('mode')) return false;
  const options = (prefix) => {
    const out = {};
    for (const [k, v] of q) if (k.startsWith(`${prefix}.`)) out[k.slice(prefix.length + 1)] = v;
    return out;
  };
  showMode(['compare', 'battle', 'resolve'].includes(q.get('mode')) ? q.get('mode') : 'compare');
  if (mode === 'compare') {
    $('scenario').value = q.get('scenario') ?? setup.default_scenario;
  } else if (mode === 'battle') {
    $('battle-system').value = system(q.get('system')).id;
    battleSystemChanged(true);
    $('side-a').value = q.get('a') ?? '';
    $('side-b').value = q.get('b') ?? '';
    writeOptions($('battle-options'), options('o'));
    writeOptions($('side-a-options'), options('sa'));
    writeOptions($('side-b-options'), options('sb'));
  } else {
    $('resolve-system').value = system(q.get('system')).id;
    resolveSystemChanged();
    if (q.has('attacker')) $('attacker').value = q.get('attacker');
    if (q.has('target')) $('target').value = q.get('target');
    writeOptions($('resolve-options'), options('o'));
    const dice = q.get('dice-mode') || 'seed';
    const radio = document.querySelector(`input[name=dice-mode][value="${dice}"]`);
    if (radio) radio.checked = true;
    $('dice').value = q.get('dice') ?? '';
  }
  $('trials').value = q.get('trials') ?? '';
  $('max-turns').value = q.get('max-turns') ?? '';
  $('seed').value = q.get('seed') ?? '';
  return q.has('seed');
}

// ---- talking to the server.

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = false;
}

function busy(on) {
  $('go').disabled = on;
  $('cancel').disabled = !on;
  $('progress').hidden = !on;
  if (on) {
    $('progress').removeAttribute('value');
    $('status').textContent = 'running…';
  }
}

/** Posts a request and reads its server-sent events: progress, then the
 * result or the failure. Aborting the fetch closes the stream, which
 * cancels the run on the server. */
async function stream(path, request, signal, onProgress) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: bodyText(request),
    signal,
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the server closed the run without an answer');
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      const payload = JSON.parse(data.join('\n'));
      if (event === 'progress') onProgress(payload);
      else if (event === 'result') return payload;
      else if (event === 'failure') throw new Error(payload.error);
    }
  }
}

async function post(path, request, signal) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: bodyText(request),
    signal,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error);
  return answer;
}

async function run() {
  if (running) return;
  $('error').hidden = true;
  const request = mode === 'compare' ? compareRequest() : mode === 'battle' ? battleRequest() : resolveRequest();
  history.replaceState(null, '', toAddress());
  $('link').href = location.href;
  const controller = new AbortController();
  running = controller;
  busy(true);
  try {
    if (mode === 'resolve') {
      showResolve(await post('/api/resolve?view=page', request, controller.signal));
    } else {
      const result = await stream(`/api/${mode}`, request, controller.signal, ({ done, total }) => {
        $('progress').max = total;
        $('progress').value = done;
        $('status').textContent = `${done.toLocaleString('en')} of ${total.toLocaleString('en')} trials`;
      });
      showRun(result, request);
    }
    $('status').textContent = 'done';
    $('link').hidden = false;
  } catch (error) {
    if (error.name === 'AbortError') {
      $('status').textContent = 'cancelled';
    } else {
      $('status').textContent = '';
      showError(error.message);
    }
  } finally {
    running = null;
    busy(false);
  }
}

// ---- results.

const ENDINGS = ['a_wins', 'b_wins', 'undecided', 'draws'];
// Escapes are counted only for systems that declare them (`escapes` in the
// report); the others cannot have one, which a dash says rather than a 0.
const ESCAPES = ['a_escapes', 'b_escapes'];

function showRun(result, request) {
  const report = result.report;
  const rows = report.rows || [report];
  const box = $('result');
  const heading = report.scenario || `${report.system}: ${report.a} (A) against ${report.b} (B)`;
  const trials = report.trials ?? rows[0].trials;
  box.replaceChildren(
    el('h2', {}, heading),
    el('p', { class: 'run', id: 'run-line' },
      `${trials} trials${report.rows ? ' each' : ''}, seed `, el('span', { id: 'run-seed' }, String(request.seed.raw ?? request.seed)),
      ` (${report.generator}), at most ${report.max_turns} turns`),
  );
  const figures = el('div', { id: 'figures' });
  // The figures are the HTML report's own tables and charts, escaped by it.
  figures.innerHTML = result.figures;
  box.append(figures);
  const table = el('table', { id: 'numbers' });
  const shown = rows.some((row) => row.escapes) ? [...ENDINGS, ...ESCAPES] : ENDINGS;
  table.append(el('tr', {}, ...['system', 'trials', ...shown].map((h) => el('th', {}, h))));
  for (const row of rows) {
    const tr = el('tr', { 'data-system': row.system });
    tr.append(el('td', {}, row.system), el('td', { class: 'n', 'data-field': 'trials' }, String(row.trials)));
    for (const o of shown) {
      if (ESCAPES.includes(o) && !row.escapes) {
        tr.append(el('td', { class: 'n' }, '—'));
      } else {
        tr.append(el('td', { class: 'n', 'data-field': o }, String(row.outcomes[o].count)));
      }
    }
    table.append(tr);
  }
  box.append(el('h2', {}, 'Counts of each ending'), el('div', { class: 'table-wrap' }, table));
  if (shown.length > ENDINGS.length && rows.some((row) => !row.escapes)) {
    box.append(el('p', { class: 'note' }, '— : the system has no escapes.'));
  }
  lastBattle = { rows, request, trials, maxTurns: report.max_turns };
  const pick = el('select', { id: 'replay-system', 'aria-label': 'which battle' },
    ...rows.map((row) => el('option', { value: row.system }, row.system)));
  const trial = el('input', { id: 'replay-trial', inputmode: 'numeric', value: '0', 'aria-label': 'trial' });
  const show = el('button', { type: 'button', id: 'replay-go' }, 'Show its log');
  show.addEventListener('click', () => replay(pick.value, trial.value.trim()));
  box.append(el('h2', {}, 'Replay one trial'),
    el('div', { class: 'row' }, el('label', {}, 'Battle ', pick), el('label', {}, 'Trial ', trial), show),
    el('div', { id: 'replay' }));
}

async function replay(id, trial) {
  const row = lastBattle.rows.find((r) => r.system === id);
  const request = {
    system: id,
    a: row.a,
    b: row.b,
    options: row.options,
    side_options: row.side_options,
    trials: { raw: String(lastBattle.trials) },
    max_turns: lastBattle.maxTurns,
    seed: lastBattle.request.seed,
    trial: /^\d+$/.test(trial) ? { raw: trial } : trial,
  };
  $('error').hidden = true;
  try {
    const answer = await post('/api/replay?view=page', request);
    const log = answer.report;
    const list = el('ol', { id: 'replay-events' }, ...answer.explained.map((line) => el('li', {}, line)));
    $('replay').replaceChildren(
      el('p', {}, `${id}, trial ${log.trial} of seed ${log.seed}: ${verdict(log.outcome.verdict)} after ${log.outcome.turns} turns`),
      list);
  } catch (error) {
    showError(error.message);
  }
}

/** A trial's verdict in words, from its JSON. */
function verdict(v) {
  const words = {
    winner: `side ${v.side} wins`,
    escaped: `side ${v.side} escaped`,
    draw: 'a draw: neither side can fight on',
    undecided: 'undecided at the turn limit',
  };
  return words[v.verdict] ?? JSON.stringify(v);
}

function showResolve(answer) {
  const box = $('result');
  if (answer.exact) {
    const exact = answer.exact;
    const table = el('table', { id: 'exact' }, el('tr', {}, el('th', {}, 'hull damage'), el('th', {}, 'p')));
    for (const [damage, p] of exact.hull_damage) {
      table.append(el('tr', {}, el('td', {}, String(damage)), el('td', { class: 'n' }, `${(100 * p).toFixed(2)}%`)));
    }
    box.replaceChildren(
      el('h2', {}, `${answer.system}, exact: ${answer.attacker} against ${answer.target}`),
      el('p', { id: 'p-hit' }, `P(hit) = ${(100 * exact.p_hit).toFixed(2)}% (${exact.fractions.p_hit}), over ${exact.paths} dice paths`),
      el('div', { class: 'table-wrap' }, table));
    return;
  }
  const report = answer.report;
  const source = report.dice ? `scripted dice ${report.dice.join(',')}` : `seed ${report.seed} (${report.generator})`;
  const events = el('ol', { id: 'events' }, ...answer.explained.map((line) => el('li', {}, line)));
  const lines = el('pre', { id: 'resolve-lines' }, answer.lines.join('\n'));
  box.replaceChildren(el('h2', {}, `${report.system}, ${source}`), events, lines);
  if (report.dice_unused) box.append(el('p', {}, `scripted dice not needed: ${report.dice_unused.join(',')}`));
}

// ---- start.

async function start() {
  try {
    const response = await fetch('/api/setup');
    setup = await response.json();
  } catch (error) {
    showError(`the server did not answer: ${error.message}`);
    return;
  }
  const ids = setup.systems.map((s) => s.id);
  fillSelect($('battle-system'), ids);
  fillSelect($('resolve-system'), ids);
  $('scenario').value = setup.default_scenario;
  $('trials').placeholder = String(setup.default_trials);
  $('max-turns').placeholder = String(setup.default_max_turns);
  battleSystemChanged(false);
  resolveSystemChanged();
  $('battle-system').addEventListener('change', () => battleSystemChanged(false));
  $('resolve-system').addEventListener('change', resolveSystemChanged);
  $('attacker').addEventListener('change', attackerChanged);
  for (const side of ['a', 'b']) {
    $(`add-${side}`).addEventListener('click', () => {
      const count = Number($(`count-${side}`).value) || 1;
      const ship = (count > 1 ? `${count}x` : '') + $(`pick-${side}`).value;
      const input = $(`side-${side}`);
      input.value = input.value.trim() === '' ? ship : `${input.value.trim()},${ship}`;
    });
  }
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => showMode(tab.dataset.mode));
  }
  $('new-seed').addEventListener('click', () => { $('seed').value = ''; seedText(); });
  $('setup').addEventListener('submit', (event) => { event.preventDefault(); run(); });
  $('cancel').addEventListener('click', () => running && running.abort());
  document.body.dataset.ready = 'true';
  // A link with a seed is a result to show again: run it.
  if (fromAddress()) run();
}

start();
