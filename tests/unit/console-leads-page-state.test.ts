/**
 * The console's leads page (pages/_console/leads/index.tsx) filtered by state, as getServerSideProps
 * reads it over a real SQLite store and the page renders it: a code no lead can be stored in
 * (`?state=ZZ`, a hostile value) is said above the list, as the page's other bad values are,
 * rather than filtered by and shown as an empty list; a real code still finds its leads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GetServerSidePropsContext } from 'next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../engine/store/db';
import { analystCookie } from '../support/consoleForm';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'console-leads-state-'));
let db: Store;
let cookie = '';

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  cookie = await analystCookie(db);
  await db
    .insertInto('leads')
    .values([
      { id: 'ld_state_tx', ...leadRow() },
      { id: 'ld_state_nsw', ...leadRow({ brand: 'fastloansau', country: 'AU', region: 'NSW', state: 'nsw', city: '', zip: '2000', currency: 'AUD' }) },
    ])
    .execute();
}, 60_000);

afterAll(async () => {
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** The page as the operator's browser gets it for a query: its alert (or '') and the leads listed. */
async function leadsPage(query: Record<string, string>): Promise<{ alert: string; leads: string[]; stateField: string }> {
  const { getServerSideProps, default: LeadsPage } = await import('../../pages/_console/leads/index');
  const ctx = {
    req: { headers: { host: 'console.localhost:3000', cookie }, socket: { remoteAddress: '198.51.100.9' } },
    res: { setHeader: () => undefined, statusCode: 200 },
    query,
  } as unknown as GetServerSidePropsContext;
  const { props } = (await getServerSideProps(ctx)) as { props: Parameters<typeof LeadsPage>[0] };
  const html = renderToStaticMarkup(createElement(LeadsPage, props));
  const alert = /<div role="alert"[^>]*>(.*?)<\/div>/s.exec(html)?.[1]?.replace(/<[^>]*>/g, '') ?? '';
  return {
    alert,
    leads: [...html.matchAll(/href="\/leads\/(ld_[a-z_]+)"/g)].map((m) => m[1]!),
    stateField: /value="([^"]*)"/.exec(/<input[^>]*name="state"[^>]*>/.exec(html)?.[0] ?? '')?.[1] ?? '',
  };
}

describe('the leads page filtered by state', () => {
  it('says a code no lead can hold is not a state, province or territory, instead of showing an empty list', async () => {
    for (const state of ['ZZ', 'zz', 'XYZ']) {
      const page = await leadsPage({ state });
      expect(page.alert).toBe(`There is no state, province or territory ${state.toUpperCase()}; a state is its code, such as TX, ON or NSW.`);
      expect(page.leads).toEqual([]);
    }
    // a value that is not a code at all: the same place, its own sentence, nothing echoed back as markup
    const hostile = await leadsPage({ state: '"><script>alert(1)</script>' });
    expect(hostile.alert).toBe('A state is its two- or three-letter code, such as TX or NSW.');
    expect(hostile.stateField).toBe('');
  }, 60_000);

  it('finds the leads of a real state, province or territory, typed in either case', async () => {
    expect(await leadsPage({ state: 'tx' })).toEqual({ alert: '', leads: ['ld_state_tx'], stateField: 'TX' });
    expect(await leadsPage({ state: 'NSW' })).toEqual({ alert: '', leads: ['ld_state_nsw'], stateField: 'NSW' });
    expect((await leadsPage({})).leads.sort()).toEqual(['ld_state_nsw', 'ld_state_tx']);
  }, 60_000);
});
