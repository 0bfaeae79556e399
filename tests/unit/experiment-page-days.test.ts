/**
 * The console's experiment page (pages/_console/experiments/[id].tsx), its data as
 * getServerSideProps gives it over a real SQLite store: unless other days are asked for, it
 * counts every visitor since the experiment's start, so its verdict (a sequential test valid read
 * every day over the whole experiment) and its minimum sample are not those of the last 7 days
 * alone; days asked for are shown as asked.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import type { Store } from '../../engine/store/db';
import { analystCookie } from '../support/consoleForm';
import { experimentPageProps } from '../support/experimentPage';
import { writeExposedVisitors } from '../support/experimentExposures';

const dir = mkdtempSync(join(tmpdir(), 'experiment-page-days-'));
const EXPERIMENT = 'payday-hero-headline';
const DAY = 86_400_000;
let db: Store;
let cookie = '';

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  cookie = await analystCookie(db);
  // 400 visitors a variant three weeks ago (after the experiment's start), the variant storing three times as many leads
  const when = new Date(Date.now() - 21 * DAY);
  for (const [variant, stored] of [
    ['control', 20],
    ['cash-before-payday', 60],
  ] as const) {
    await writeExposedVisitors(db, { variant, n: 400, stored, when, device: 'mobile' });
  }
}, 60_000);

afterAll(async () => {
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** The page's props for a query, as Next asks getServerSideProps for them. */
async function pageProps(query: Record<string, string>) {
  return (await fullProps(query)).found;
}

async function fullProps(query: Record<string, string>) {
  return experimentPageProps<{ found: { query: { from: string; to: string }; results: { verdict: unknown; rows: { totals: { visitors: number } }[] } } }>(
    cookie,
    EXPERIMENT,
    query,
  );
}

/** The variants table's cells as the page renders them. */
async function variantCells(query: Record<string, string>): Promise<string[][]> {
  const { default: ExperimentPage } = await import('../../pages/_console/experiments/[id]');
  const html = renderToStaticMarkup(createElement(ExperimentPage, (await fullProps(query)) as unknown as Parameters<typeof ExperimentPage>[0]));
  const body = /<tbody>(.*?)<\/tbody>/s.exec(html)![1]!;
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((tr) =>
    [...tr[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/gs)].map((td) => td[1]!.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<')),
  );
}

describe('an experiment’s page', () => {
  it('counts every visitor since the experiment’s start unless other days are asked for: its verdict is the whole experiment’s', async () => {
    const found = await pageProps({});
    const today = new Date().toISOString().slice(0, 10);
    // the experiment's start, or a year back (the console's longest range) when it began before that
    const start = (JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand).experiments!.find((e) => e.id === EXPERIMENT)!.start;
    const yearBack = new Date(Date.now() - 365 * DAY).toISOString().slice(0, 10);
    expect(found.query).toMatchObject({ from: start > yearBack ? start : yearBack, to: today });
    expect(found.results.rows.map((r) => r.totals.visitors)).toEqual([400, 400]);
    expect(found.results.verdict).toEqual({ kind: 'winner', variant: 'cash-before-payday' });
  }, 60_000);

  it('shows the days asked for as asked', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10);
    const found = await pageProps({ from: weekAgo, to: today });
    expect(found.query).toMatchObject({ from: weekAgo, to: today });
    expect(found.results.rows.map((r) => r.totals.visitors)).toEqual([0, 0]);
    expect(found.results.verdict).toMatchObject({ kind: 'collecting' });
  }, 60_000);

  it('falls back to the whole experiment, saying so, for one end alone or days that are not days — never to the last 7 days', async () => {
    const { default: ExperimentPage } = await import('../../pages/_console/experiments/[id]');
    const whole = (await pageProps({})).query;
    const weekAgo = new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10);
    for (const [asked, said] of [
      [{ from: weekAgo }, 'A range needs both a start and an end day; showing the whole experiment, from its start to today.'],
      [{ to: weekAgo }, 'A range needs both a start and an end day; showing the whole experiment, from its start to today.'],
      [{ from: '2025-02-30', to: weekAgo }, 'Dates must be real days written YYYY-MM-DD; showing the whole experiment, from its start to today.'],
      [{ from: weekAgo, to: '2025-01-01' }, 'The end is before the start; showing the whole experiment, from its start to today.'],
    ] as const) {
      const props = await fullProps(asked);
      expect(props.found.query).toMatchObject({ from: whole.from, to: whole.to });
      expect(props.found.results.rows.map((r) => r.totals.visitors)).toEqual([400, 400]);
      expect(props.found.results.verdict).toEqual({ kind: 'winner', variant: 'cash-before-payday' });
      const html = renderToStaticMarkup(createElement(ExperimentPage, props as unknown as Parameters<typeof ExperimentPage>[0]));
      expect(/<p role="alert"[^>]*>(.*?)<\/p>/.exec(html)?.[1]).toBe(said);
    }
  }, 60_000);

  it('shows no rate, interval or p for variants without visitors: nothing is known of them yet, not a rate of 0 %', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10);
    const [control, challenger] = await variantCells({ from: weekAgo, to: today });
    // variant, weight, visitors, conversions, rate (interval), lift (interval), p
    expect(control!.slice(2)).toEqual(['0', '0', '—', '—', '—']);
    expect(challenger!.slice(2)).toEqual(['0', '0', '—', 'not yet', '—']);
    // with visitors: the rate and its Wilson interval, the p of the rule
    const [withVisitors, other] = await variantCells({});
    expect(withVisitors![4]).toBe('5% (3.3% to 7.6%)');
    expect(other![6]).toMatch(/^(< 0\.001|0\.\d{3})$/);
  }, 60_000);
});
