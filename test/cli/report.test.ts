/**
 * The HTML report: self-contained (no network, no external file), and drawn by a real
 * browser: headless Chromium (Debian package `chromium`) dumps the DOM after its check
 * script ran and takes a screenshot whose pixels show the charts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERED_TITLE_PREFIX } from '../../src/cli/report/html.js';
import { COLORS } from '../../src/cli/report/svg.js';
import { Scratch } from './dedupe-helpers.js';
import { countColor, decodePng, distinctColors } from './report-png.js';
import { REPO } from './spawn.js';

const s = new Scratch();
afterAll(() => s.remove());

const FEBRL = ['--id', 'rec_id', '--rules', 'linkage', '--gates', 'address-file', '--country', 'AU', '--progress', 'none'];

/** The Chromium binary, or null. CI installs the Debian package `chromium`. */
function chromium(): string | null {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim().length > 0) return found.stdout.trim();
  }
  return null;
}

function chromiumArgs(extra: string[], url: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${mkdtempSync(join(tmpdir(), 'matchbook-chromium-'))}`,
    ...extra,
    url,
  ];
}

let html = '';
let linkHtml = '';
beforeAll(async () => {
  const run = await s.cli(['dedupe', join(REPO, 'data/febrl/dataset3.csv'), '-o', 'out.csv', '--report', 'report.html', ...FEBRL]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/report: report\.html/);
  html = s.read('report.html');
  const link = await s.cli([
    'link',
    join(REPO, 'data/febrl/dataset4a.csv'),
    join(REPO, 'data/febrl/dataset4b.csv'),
    '-o',
    'links.csv',
    '--report',
    'link.html',
    ...FEBRL,
  ]);
  expect(link.code, link.stderr).toBe(0);
  linkHtml = s.read('link.html');
}, 120_000);

describe('report content', () => {
  it('is one self-contained page: no network, no external file', () => {
    for (const page of [html, linkHtml]) {
      expect(page).toMatch(/^<!doctype html>/);
      expect(page).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
      expect(page).not.toMatch(/<link\b|<script\s+src|@import|url\(/i);
      expect(page.match(/<svg data-chart="/g)?.length).toBe(2);
    }
  }, 120_000);

  it('shows the figures, thresholds, fields, clusters and borderline pairs with explanations', () => {
    expect(html).toMatch(/<b>5,000<\/b><span>records<\/span>/);
    expect(html).toMatch(/review ≥ 6/);
    expect(html).toMatch(/match ≥ 10/);
    expect(html).toMatch(/>dateOfBirth</);
    expect(html).toMatch(/cluster rec-\d+-[a-z0-9-]+: [4-9] rows/);
    expect(html.match(/class="card pair"/g)?.length).toBe(20);
    expect(html).toMatch(/dates of birth equal|postal codes equal/);
    expect(html).toMatch(/<pre>matchbook dedupe: /);
    expect(linkHtml).toMatch(/Linkage of dataset4b\.csv to dataset4a\.csv/);
    expect(linkHtml).toMatch(/L rec-\d+-org ↔ R rec-\d+-dup-0/);
  }, 120_000);
});

describe('report in headless Chromium', () => {
  const bin = chromium();

  it('chromium is installed (CI: apt-get install -y chromium)', () => {
    expect(bin, 'install the Debian package "chromium" (apt-get install -y chromium)').not.toBeNull();
  }, 120_000);

  it.each([['report.html'], ['link.html']])(
    '%s: the check script finds every chart drawn',
    (name) => {
      if (bin === null) return;
      const dom = execFileSync(bin, chromiumArgs(['--dump-dom', '--virtual-time-budget=5000'], pathToFileURL(s.path(name)).href), {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 60_000,
      });
      expect(dom).toContain(`<title>${RENDERED_TITLE_PREFIX} (2)</title>`);
      expect(dom).toMatch(/<body data-rendered="2\/2">/);
      expect(dom.match(/data-drawn="yes"/g)?.length).toBe(2);
    },
    120_000,
  );

  it("report.html: the screenshot is not blank and shows the charts' colours", () => {
    if (bin === null) return;
    const png = s.path('shot.png');
    execFileSync(bin, chromiumArgs([`--screenshot=${png}`, '--window-size=1200,2000', '--hide-scrollbars'], pathToFileURL(s.path('report.html')).href), {
      stdio: 'ignore',
      timeout: 60_000,
    });
    const img = decodePng(readFileSync(png));
    expect(img.width).toBe(1200);
    expect(img.height).toBe(2000);
    expect(distinctColors(img)).toBeGreaterThan(50);
    // Bars of the score histogram and of the field chart: thousands of pixels of each colour.
    expect(countColor(img, COLORS.matched)).toBeGreaterThan(5000);
    expect(countColor(img, COLORS.possible)).toBeGreaterThan(200);
    expect(countColor(img, COLORS.threshold, 30)).toBeGreaterThan(100);
  }, 120_000);
});
