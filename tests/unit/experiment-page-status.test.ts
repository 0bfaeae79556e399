/**
 * The console's experiment page (pages/_console/experiments/[id].tsx) of an experiment that
 * assigns no one any more, rendered from getServerSideProps over a real SQLite store and the
 * brand as published: a paused or stopped experiment shares no new visitor by its written weights
 * (the front door shows everyone the control, or a stopped experiment's winner), so the page says
 * whom they are shown instead; and a stopped one's verdict is what its run gave, never "Keep it running".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Experiment } from '../../schemas/brand.types';
import type { Store } from '../../engine/store/db';
import { setBrandRevisionSource, type BrandRevisionSource } from '../../engine/site/catalog';
import { analystCookie } from '../support/consoleForm';
import { experimentPageProps } from '../support/experimentPage';
import { writeExposedVisitors } from '../support/experimentExposures';

const dir = mkdtempSync(join(tmpdir(), 'experiment-page-status-'));
const EXPERIMENT = 'payday-hero-headline';
const DAY = 86_400_000;
let db: Store;
let cookie = '';

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  cookie = await analystCookie(db);
  // 400 visitors a variant, storing leads at the same rate: past the minimum sample, no winner
  const when = new Date(Date.now() - 3 * DAY);
  for (const variant of ['control', 'cash-before-payday']) {
    await writeExposedVisitors(db, { variant, n: 400, stored: 40, when, device: 'desktop' });
  }
}, 60_000);

afterEach(() => setBrandRevisionSource(undefined));

afterAll(async () => {
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** Publishes the brand with the experiment changed (the catalog the page reads then carries it). */
function publish(change: Partial<Experiment>) {
  const doc = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
  Object.assign(
    doc.experiments!.find((e) => e.id === EXPERIMENT)!,
    change,
  );
  const revisions = new Map<string, BrandRevisionSource>([
    ['ipaydayloans', { key: 'ipaydayloans', version: 2, document: doc, savedAt: new Date().toISOString() }],
  ]);
  setBrandRevisionSource(() => revisions);
}

/** The page as it renders for the analyst, as text: the facts (dt: dd), the verdict and the variants table's rows. */
async function page() {
  const mod = await import('../../pages/_console/experiments/[id]');
  const props = await experimentPageProps<Parameters<typeof mod.default>[0]>(cookie, EXPERIMENT);
  const html = renderToStaticMarkup(createElement(mod.default, props));
  const text = (s: string) =>
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const facts = Object.fromEntries([...html.matchAll(/<dt[^>]*>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/gs)].map((m) => [text(m[1]!), text(m[2]!)]));
  const verdict = text(/data-testid="verdict"[^>]*>(.*?)<\/p>/s.exec(html)![1]!);
  const head = [.../<thead>(.*?)<\/thead>/s.exec(html)![1]!.matchAll(/<th[^>]*>(.*?)<\/th>/gs)].map((m) => text(m[1]!));
  const rows = [.../<tbody>(.*?)<\/tbody>/s.exec(html)![1]!.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((tr) =>
    [...tr[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/gs)].map((td) => text(td[1]!)),
  );
  return { facts, verdict, head, rows };
}

describe('the page of an experiment that assigns no one', () => {
  it('while running: new visitors are shared by the written weights, and without a winner it says to keep it running', async () => {
    const p = await page();
    expect(p.facts['New visitors shared by']).toBe('The written weights');
    expect(p.head[1]).toBe('Weight');
    expect(p.rows.map((r) => r[1])).toEqual(['50 %', '50 %']);
    expect(p.verdict).toBe('No winner yet: the differences are within what chance gives. Keep it running.');
  }, 60_000);

  it('paused: says every new visitor is shown the control, shows no weight as sharing them, and says to resume it rather than keep it running', async () => {
    publish({ status: 'paused' });
    const p = await page();
    expect(p.facts.State).toBe('paused');
    expect(p.facts['New visitors shared by']).toBeUndefined();
    expect(p.facts['New visitors']).toBe('Shown the control while paused, as everyone is; nothing is counted, and visitors keep their variants for a resume');
    expect(p.head).not.toContain('Weight');
    expect(p.rows.map((r) => [r[0], r[1]])).toEqual([
      ['control (control)', 'everyone'],
      ['cash-before-payday', 'no one'],
    ]);
    expect(p.verdict).not.toContain('Keep it running');
    expect(p.verdict).toContain('Resume it');
  }, 60_000);

  it('stopped: says the winner is the page for every new visitor, and its verdict is what its run gave, never to keep it running', async () => {
    publish({ status: 'stopped', winner: 'cash-before-payday' });
    const p = await page();
    expect(p.facts.State).toBe('stopped, cash-before-payday for everyone');
    expect(p.facts['New visitors shared by']).toBeUndefined();
    expect(p.facts['New visitors']).toMatch(/^Shown cash-before-payday, now the page itself for everyone/);
    expect(p.head).not.toContain('Weight');
    expect(p.rows.map((r) => [r[0], r[1]])).toEqual([
      ['control (control)', 'no one'],
      ['cash-before-payday', 'everyone'],
    ]);
    expect(p.verdict).toBe('No winner over its run: the differences stayed within what chance gives.');
    expect(p.verdict).not.toContain('Keep it running');
  }, 60_000);
});
