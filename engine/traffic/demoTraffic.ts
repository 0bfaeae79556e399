/**
 * Realistic demo traffic (npm run demo:traffic, and the bench's overview row): seeded, so the
 * same options give the same data. Visits spread over the last `days` with a daily rhythm, over
 * the brands, a handful of campaigns and sources, landing pages and devices; each visit walks the
 * funnel with plausible drop-offs (page views, amount used, apply view, steps, refused states,
 * submitted), submitted visits become leads (fictional people: example.com mail, 555-01xx phones)
 * and most leads a sale with a price. Written through writeTraffic, so the rollups are the real ones.
 */
import { randomBytes } from 'node:crypto';
import { sealText } from '../leads/sealing';
import type { Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { writeTraffic, type TrafficBatch, type TrafficEventInput } from '../store/traffic';
import { visitRow } from './rules';

export interface DemoOptions {
  /** raw events to write (visits are not events; stored leads and sales are) */
  events: number;
  leads: number;
  days: number;
  seed: number;
  now?: Date;
  brands?: string[];
  onProgress?: (done: { events: number; leads: number; visits: number }) => void;
}

const BRANDS = [
  'ipaydayloans',
  'ustitleloans',
  'cashadvance',
  'quickloans',
  'easyloans',
  'loanfinder',
  'fastcash',
  'titlefunds',
  'moneynow',
  'unity',
  'paydayone',
  'lendright',
];
const CAMPAIGNS = ['', '', 'spring-search', 'brand-terms', 'tx-payday', 'fb-lookalike', 'tt-video', 'bing-generic', 'retarget-7d', 'ca-title'];
const SOURCES = ['', 'google', 'facebook', 'tiktok', 'bing', 'newsletter'];
const LANDINGS = [
  '/',
  '/payday-loans',
  '/payday-loans/texas',
  '/payday-loans/texas/houston',
  '/title-loans',
  '/title-loans/california',
  '/installment-loans',
  '/apply',
  '/blog/how-payday-loans-work',
  '/cash-advance',
];
const STATES = ['TX', 'CA', 'FL', 'OH', 'IL', 'MO', 'NV', 'TN', 'AL', 'SC', 'UT', 'WI'];
const DEVICE_UA = [
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 0.55],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile Safari/537.36', 0.2],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120', 0.2],
  ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 0.05],
] as const;

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function writeDemoTraffic(db: Store, o: DemoOptions): Promise<{ visits: number; events: number; leads: number; sold: number }> {
  const rnd = random(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const brands = o.brands ?? BRANDS;
  const end = (o.now ?? new Date()).getTime();
  const start = end - o.days * 86_400_000;
  const hex = (n: number) => n.toString(16).padStart(32, '0');
  const idBase = parseInt(randomBytes(3).toString('hex'), 16) * 2 ** 24; // distinct runs, distinct ids
  let visits = 0;
  let events = 0;
  let leads = 0;
  let sold = 0;
  let batch: TrafficBatch = { visits: [], events: [] };
  let leadRows: Omit<LeadsTable, 'id'>[] = [];
  const flush = async () => {
    await writeTraffic(db, batch);
    if (leadRows.length)
      await db
        .insertInto('leads')
        .values(leadRows.map((l) => ({ ...l, id: `ld_demo${randomBytes(9).toString('hex')}` })))
        .execute();
    batch = { visits: [], events: [] };
    leadRows = [];
    o.onProgress?.({ events, leads, visits });
  };
  while (events < o.events) {
    // A daily rhythm: fewer visits at night (US time).
    let at = start + rnd() * (end - start);
    const hour = new Date(at).getUTCHours();
    if ((hour >= 6 && hour < 13) || rnd() < 0.3) at = start + rnd() * (end - start);
    const id = `v${hex(idBase + visits)}`;
    const campaign = pick(CAMPAIGNS);
    const source = campaign ? pick(SOURCES.slice(1)) : pick(SOURCES);
    const params: Record<string, string> = {};
    if (campaign) params.utm_campaign = campaign;
    if (source) params.utm_source = source;
    if (source === 'google' && rnd() < 0.7) params.gclid = `Cj0K${id.slice(1, 20)}`;
    if (source === 'facebook' && rnd() < 0.7) params.fbclid = `IwAR${id.slice(1, 20)}`;
    if (source === 'tiktok' && rnd() < 0.7) params.ttclid = `E.C.P.${id.slice(1, 20)}`;
    let r = rnd();
    const ua = DEVICE_UA.find(([, p]) => (r -= p) < 0)?.[0] ?? DEVICE_UA[0][0];
    const brand = pick(brands);
    const landing = pick(LANDINGS);
    const now = new Date(at);
    batch.visits.push(
      visitRow(
        id,
        { path: landing, ...(source ? { referrerHost: `www.${source}.com` } : {}), params },
        { brand, host: `${brand}.com`, userAgent: ua, optedOut: rnd() < 0.04, now },
      ),
    );
    visits++;
    let t = at;
    const ev = (metric: string, extra: Partial<TrafficEventInput> = {}) => {
      t += 5_000 + rnd() * 60_000;
      batch.events.push({
        visitId: id,
        metric,
        path: landing,
        state: '',
        value: 0,
        brand,
        device: 'other',
        createdAt: new Date(Math.min(t, end - 1)).toISOString(),
        ...extra,
      });
      events++;
    };
    const views = 1 + Math.floor(rnd() * rnd() * 4);
    for (let i = 0; i < views; i++) ev('page_view');
    if (rnd() < 0.3) ev('amount_used');
    if (rnd() < 0.28) {
      ev('apply_view', { path: '/apply' });
      const state = pick(STATES);
      if (rnd() < 0.05) ev('state_refused', { path: '/apply', state: pick(['NY', 'VT', 'MD']) });
      else if (rnd() < 0.62) {
        ev('step_1', { path: '/apply' });
        if (rnd() < 0.72) {
          ev('step_2', { path: '/apply' });
          if (rnd() < 0.85) {
            ev('submitted', { path: '/apply' });
            if (leads < o.leads * Math.min(1, events / o.events) + 1 && leads < o.leads) {
              leads++;
              ev('stored', { path: '', state });
              leadRows.push(demoLead(id, brand, state, new Date(Math.min(t, end - 1)), leads, campaign, source, rnd));
              const outcome = rnd() < 0.62 ? 'sold' : rnd() < 0.9 ? 'unsold' : 'returned';
              if (outcome === 'sold') sold++;
              ev(`sale_${outcome}`, { path: '', state, value: outcome === 'sold' ? Math.round(500 + rnd() * rnd() * 14_500) : 0 });
            }
          }
        }
      }
    }
    if (batch.events.length >= 2000) await flush();
  }
  await flush();
  return { visits, events, leads, sold };
}

function demoLead(
  visitId: string,
  brand: string,
  state: string,
  at: Date,
  n: number,
  campaign: string,
  source: string,
  rnd: () => number,
): Omit<LeadsTable, 'id'> {
  const first = ['Ana', 'James', 'Maria', 'Robert', 'Linda', 'Michael', 'Sofia', 'David'][n % 8]!;
  const last = ['Garcia', 'Smith', 'Johnson', 'Brown', 'Lee', 'Martinez', 'Davis', 'Lopez'][Math.floor(n / 8) % 8]!;
  return {
    brand,
    idempotency_key: `demo-${visitId}`,
    created_at: at.toISOString(),
    loan_kind: brand.includes('title') ? 'title' : 'general',
    amount: 100 * Math.round(3 + rnd() * 47),
    zip: '78701',
    state: state.toLowerCase(),
    city: 'Austin',
    country: 'US',
    region: state.toUpperCase(),
    currency: 'USD',
    purpose: '',
    vehicle: '',
    first_name: first,
    last_name: last,
    email: `demo+${n}@example.com`,
    phone: `512555${String(100 + (n % 100)).padStart(4, '0')}`,
    income_source: 'employment',
    pay_frequency: 'biweekly',
    // Sealed like a real lead's, so every listing opens demo leads as it opens real ones.
    sealed: sealText(JSON.stringify({ dateOfBirth: '1990-04-12', monthlyIncome: 1500 + 100 * (n % 30) })),
    consent_version: 'demo',
    consent_text: 'Demo data: no consent was given by a person.',
    consent_hash: '',
    source: campaign || 'landing-page',
    source2: source,
    click_id: '',
    session_uuid: '',
    privacy_opt_out: 0,
    ip: '',
    user_agent: '',
    // demo data is never a production lead: no destination that refuses test leads gets it
    host: `${brand}.localhost`,
    environment: 'development',
    visit_id: visitId,
  };
}
