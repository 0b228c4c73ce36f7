//! Chromium as Debian installs it, launched with what a sandboxed, offline
//! run needs: no sandbox (CI runs as root), no GPU, and no calls home. Every
//! browser check launches it from here.

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
