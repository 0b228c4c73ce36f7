//! What every browser check shares: Chromium as Debian installs it, launched
//! with what a sandboxed, offline run needs (no sandbox, as CI runs as root;
//! no GPU; no calls home), and the tally of checks passed and failed.

import { chromium } from 'playwright-core';

const EXECUTABLE = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium, ready for pages. */
export function launch() {
  return chromium.launch({ executablePath: EXECUTABLE, args: FLAGS });
}

let passed = 0;
let failed = 0;

/** One check of a page: counted, and printed when it fails. */
export function check(what, ok, detail) {
  if (ok) {
    passed += 1;
  } else {
    failed += 1;
    console.log(`FAIL ${what}${detail ? `: ${detail}` : ''}`);
  }
}

/** Prints how many checks passed under `label` and exits, non-zero if any failed. */
export function finish(label) {
  console.log(`${label}: ${passed} checks passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
