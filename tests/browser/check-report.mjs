//! Opens HTML reports of broadside in headless Chromium, on a desktop and on
//! a phone, and checks that a reader sees them drawn: every chart's SVG is
//! laid out with shapes in it, the screenshot is not blank, the page logs no
//! error and asks for nothing beyond itself, and on the phone nothing runs
//! off the side of the screen.
//!
//! Usage: node check-report.mjs [--shots DIR] PAGE.html...
//! With --shots, each page's screenshots are written to DIR as
//! NAME-desktop.png and NAME-phone.png. Exits non-zero if any check fails.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { check, finish, launch } from './chromium.mjs';

/** The screens every page is read on. */
const SCREENS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** The charts every report draws, by the id of their figure. */
const CHARTS = ['wins', 'decided', 'hull-a', 'hull-b'];

/** The charts of a sweep over ships, whose page is named `sweep*.html`. */
const SWEEP_CHARTS = ['heat'];

/** The fewest shapes a chart may draw and still be a chart. */
const MIN_SHAPES = 10;

/**
 * The share of a screenshot's pixels that must differ from the white
 * background, and the fewest distinct colours: a blank or unstyled page has
 * almost none of either.
 */
const MIN_INKED = 0.03;
const MIN_COLOURS = 50;


/** Counts the inked pixels and distinct colours of a PNG, decoded by the browser. */
async function inkOf(context, png) {
  const page = await context.newPage();
  try {
    return await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      const colours = new Set();
      for (let i = 0; i < pixels.length; i += 4) {
        const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
        if (r < 245 || g < 245 || b < 245) {
          inked += 1;
        }
        colours.add((r << 16) | (g << 8) | b);
      }
      return { share: inked / (pixels.length / 4), colours: colours.size };
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

/** What the page shows, measured inside it. */
function measure(charts) {
  const svgs = [...document.querySelectorAll('svg')];
  const figures = charts.map((id) => {
    const svg = document.querySelector(`figure#${id} svg`);
    if (!svg) {
      return { id, found: false };
    }
    const box = svg.getBoundingClientRect();
    const shapes = [...svg.querySelectorAll('rect, path, polyline, circle, line')];
    const drawn = shapes.filter((shape) => {
      const b = shape.getBBox();
      return b.width > 0 || b.height > 0;
    });
    return {
      id,
      found: true,
      width: box.width,
      height: box.height,
      shapes: shapes.length,
      drawn: drawn.length,
      labelled: Boolean(svg.querySelector('title')) && svg.getAttribute('role') === 'img',
    };
  });
  return {
    svgs: svgs.length,
    figures,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}

async function checkPage(browser, file, shots) {
  const name = basename(file, '.html');
  const url = pathToFileURL(resolve(file)).href;
  for (const screen of SCREENS) {
    const what = `${name} (${screen.name} ${screen.width}x${screen.height})`;
    const context = await browser.newContext({
      viewport: { width: screen.width, height: screen.height },
      deviceScaleFactor: 1,
      javaScriptEnabled: true,
    });
    const problems = [];
    const requests = [];
    // The page is one file: anything else it asks for is a fault, and is
    // refused rather than fetched.
    await context.route('**/*', (route) => {
      const asked = route.request().url();
      if (asked === url) {
        return route.continue();
      }
      requests.push(asked);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') {
        problems.push(`console ${message.type()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url, { waitUntil: 'load' });
    const charts = name.startsWith('sweep') ? SWEEP_CHARTS : CHARTS;
    const facts = await page.evaluate(measure, charts);
    check(`${what}: an SVG per chart`, facts.svgs === charts.length, `${facts.svgs} SVGs`);
    for (const figure of facts.figures) {
      check(`${what}: chart ${figure.id} present`, figure.found);
      if (!figure.found) {
        continue;
      }
      check(
        `${what}: chart ${figure.id} laid out`,
        figure.width > 200 && figure.height > 100,
        `${figure.width}x${figure.height}`,
      );
      check(
        `${what}: chart ${figure.id} draws shapes`,
        figure.drawn >= MIN_SHAPES,
        `${figure.drawn} of ${figure.shapes} shapes have a size`,
      );
      check(`${what}: chart ${figure.id} labelled`, figure.labelled);
    }
    check(
      `${what}: no horizontal overflow`,
      facts.scrollWidth <= facts.innerWidth,
      `the page is ${facts.scrollWidth} px wide on a ${facts.innerWidth} px screen`,
    );
    const png = await page.screenshot({ fullPage: true });
    const ink = await inkOf(context, png);
    check(
      `${what}: screenshot not blank`,
      ink.share >= MIN_INKED && ink.colours >= MIN_COLOURS,
      `${(100 * ink.share).toFixed(1)}% of pixels inked, ${ink.colours} colours`,
    );
    check(`${what}: no console errors`, problems.length === 0, problems.join('; '));
    check(`${what}: nothing fetched`, requests.length === 0, requests.join(', '));
    if (shots) {
      mkdirSync(shots, { recursive: true });
      writeFileSync(`${shots}/${name}-${screen.name}.png`, png);
    }
    console.log(
      `${what}: ${facts.figures.map((f) => `${f.id} ${f.drawn} shapes`).join(', ')}; ` +
        `${(100 * ink.share).toFixed(1)}% inked, ${ink.colours} colours; ` +
        `width ${facts.scrollWidth}/${facts.innerWidth}`,
    );
    await context.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  let shots = null;
  const files = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--shots') {
      shots = args[i + 1];
      i += 1;
    } else {
      files.push(args[i]);
    }
  }
  if (files.length === 0) {
    console.error('usage: node check-report.mjs [--shots DIR] PAGE.html...');
    process.exit(2);
  }
  for (const file of files) {
    // A missing or empty page fails here, before a browser starts.
    const text = readFileSync(file, 'utf8');
    check(`${file}: not empty`, text.length > 0);
  }
  const browser = await launch();
  try {
    for (const file of files) {
      await checkPage(browser, file, shots);
    }
  } finally {
    await browser.close();
  }
  finish('HTML reports in Chromium');
}

await main();
