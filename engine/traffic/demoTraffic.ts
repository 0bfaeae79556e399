/**
 * Realistic demo traffic (npm run demo:traffic, and the bench's overview row): seeded, so the
 * same options give the same data. Visits spread over the last `days` with a daily rhythm, over
 * the brands, a handful of campaigns and sources, landing pages and devices; each visit walks the
 * funnel with plausible drop-offs (page views, amount used, apply view, steps, refused states,
 * submitted), submitted visits become leads (fictional people: example.com mail, 555-01xx phones)
 * and most leads a sale to one of the buyers, with a price, some of them returned later. Written
 * through writeTraffic, so the rollups are the real ones; the sales are sale records (lead_sales,
 * sale_events, lead_returns) as the sale writes them, so every page reads demo money as it reads
 * real money.
 *
 * Demo rows are marked, so they can never pass for real ones and `--reset` can take exactly them
 * out: visit ids start "vdemo", lead ids "ld_demo", and a demo lead's environment is "demo" (a
 * test lead: only destinations that take test leads would get it). Every demo lead is stored with
 * its final sale in the same transaction, so a live server's sale never finds one to sell.
 */
import { randomBytes } from 'node:crypto';
import { sealText } from '../keys/sealing';
import type { Store } from '../store/db';
import { newId, type LeadsTable } from '../store/leads';
import { copyVisitDims } from '../store/leadVisitDims';
import { addToRollups, hourlyIncrements, writeTraffic, type TrafficBatch, type TrafficEventInput } from '../store/traffic';
import type { LeadReturnsTable, LeadSalesTable, SaleEventsTable } from '../store/saleTables';
import { deviceClass, visitRow, type VisitRow } from '../store/trafficRules';
import { bucketOf, variantByWeight, type LiveExperiment } from '../site/experiments/assign';
import { rebuildExperimentDaily, type ExposureInput } from '../store/experiments';
import { seededRandom } from './seededRandom';

/** A demo lead's environment (engine/leads/environment.ts: anything but "production" is a test lead). */
export const DEMO_ENVIRONMENT = 'demo';
export const DEMO_VISIT_PREFIX = 'vdemo';
export const DEMO_LEAD_PREFIX = 'ld_demo';

export interface DemoOptions {
  /** raw events to write (visits are not events; stored leads and sales are) */
  events: number;
  leads: number;
  days: number;
  seed: number;
  now?: Date;
  /** brand ids, each a brand of the catalog (the console's brand filter offers only those) */
  brands?: string[];
  /** buyer ids the sales go to, each a buyer the server knows (its documents, or the demo lender) */
  buyers?: string[];
  onProgress?: (done: { events: number; leads: number; visits: number }) => void;
  /** where the visit ids start (default: random, so distinct runs write distinct ids) */
  idBase?: number;
  /**
   * Experiments whose pages demo visits land on: each such visit is exposed to a variant (by the
   * weights, as the front door assigns), and every variant after the control converts a fifth
   * more often, so the console's experiment page has a story to tell.
   */
  experiments?: readonly { brand: string; paths: readonly string[]; experiment: LiveExperiment }[];
}

/** How much more often a demo visit shown a variant other than the control goes on to apply. */
export const DEMO_VARIANT_LIFT = 1.2;

/** The default brands and buyer: brands of the catalog and the built-in demo lender (tests/unit/demo-traffic.test.ts checks them). */
export const DEMO_BRANDS = ['ipaydayloans', 'ustitleloans', 'usinstallmentloans', 'personalloans', 'honestloans', 'unityloan'];
export const DEMO_BUYERS = ['demo-lender'];
const RETURN_REASONS = ['invalid-contact', 'duplicate', 'did-not-apply'];
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

const random = seededRandom;

/** One demo visit as the generator makes it: the visit, its events in order, its exposures and, when it became a lead, the lead's final sale. */
export interface DemoVisit {
  visit: VisitRow;
  events: TrafficEventInput[];
  exposures: ExposureInput[];
  sale?: DemoSale;
}

/** What the generator made in all: visits, raw events, leads, sales, returns and the revenue kept. */
export interface DemoTotals {
  visits: number;
  events: number;
  leads: number;
  sold: number;
  returned: number;
  revenueCents: number;
}

/**
 * The demo visits one after another (seeded: the same options give the same visits; `idBase`
 * makes the visit ids distinct between runs). writeDemoTraffic stores them through the traffic
 * writer; the overview bench loads the same visits in bulk (scripts/bench/trafficData.ts).
 * `totals` is updated as each visit is yielded.
 */
export function* demoVisits(o: DemoOptions, idBase: number, totals: DemoTotals): Generator<DemoVisit> {
  const rnd = random(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const brands = o.brands ?? DEMO_BRANDS;
  const buyers = o.buyers ?? DEMO_BUYERS;
  if (!brands.length || !buyers.length) throw new Error('demo traffic needs at least one brand and one buyer');
  const end = (o.now ?? new Date()).getTime();
  const start = end - o.days * 86_400_000;
  const hex = (n: number) => n.toString(16).padStart(32, '0');
  while (totals.events < o.events) {
    // A daily rhythm: fewer visits at night (US time).
    let at = start + rnd() * (end - start);
    const hour = new Date(at).getUTCHours();
    if ((hour >= 6 && hour < 13) || rnd() < 0.3) at = start + rnd() * (end - start);
    const id = `${DEMO_VISIT_PREFIX}${hex(idBase + totals.visits).slice(DEMO_VISIT_PREFIX.length - 1)}`;
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
    const tested = o.experiments?.find(
      (x) => x.brand === brand && x.paths.includes(landing) && x.experiment.status === 'running' && at >= x.experiment.startMs,
    );
    const variant = tested && variantByWeight(bucketOf(id, tested.experiment.id), tested.experiment.variants);
    const out: DemoVisit = {
      visit: visitRow(
        id,
        { path: landing, ...(source ? { referrerHost: `www.${source}.com` } : {}), params },
        { brand, host: `${brand}.com`, userAgent: ua, optedOut: rnd() < 0.04, now },
      ),
      events: [],
      exposures: [],
    };
    if (tested && variant) out.exposures.push({ visitId: id, brand, experiment: tested.experiment.id, variant, createdAt: now.toISOString() });
    const applies = 0.28 * (variant && variant !== tested.experiment.variants[0]!.id ? DEMO_VARIANT_LIFT : 1);
    totals.visits++;
    let t = at;
    const ev = (metric: string, extra: Partial<TrafficEventInput> = {}) => {
      t += 5_000 + rnd() * 60_000;
      out.events.push({
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
      totals.events++;
    };
    const views = 1 + Math.floor(rnd() * rnd() * 4);
    for (let i = 0; i < views; i++) ev('page_view');
    if (rnd() < 0.3) ev('amount_used');
    if (rnd() < applies) {
      ev('apply_view', { path: '/apply' });
      const state = pick(STATES);
      if (rnd() < 0.05) ev('state_refused', { path: '/apply', state: pick(['NY', 'VT', 'MD']) });
      else if (rnd() < 0.62) {
        ev('step_1', { path: '/apply' });
        if (rnd() < 0.72) {
          ev('step_2', { path: '/apply' });
          if (rnd() < 0.85) {
            ev('submitted', { path: '/apply' });
            if (totals.leads < o.leads * Math.min(1, totals.events / o.events) + 1 && totals.leads < o.leads) {
              totals.leads++;
              ev('stored', { path: '', state });
              const at = new Date(Math.min(t, end - 1));
              const lead = demoLead(id, brand, state, at, totals.leads, campaign, source, ua, rnd);
              const outcome = rnd() < 0.62 ? 'sold' : rnd() < 0.9 ? 'unsold' : 'returned';
              const price = outcome === 'unsold' ? 0 : Math.round(500 + rnd() * rnd() * 14_500);
              const decided = new Date(Math.min(at.getTime() + 2_000 + rnd() * 8_000, end - 1));
              // a return comes hours or days later (never after now)
              const back = new Date(Math.min(decided.getTime() + 3_600_000 * (1 + rnd() * 96), end - 1));
              out.sale = { lead, outcome, buyer: pick(buyers), priceCents: price, decided, returnedAt: back, reason: pick(RETURN_REASONS) };
              if (outcome !== 'unsold') {
                totals.sold++;
                totals.revenueCents += price;
              }
              if (outcome === 'returned') {
                totals.returned++;
                totals.revenueCents -= price;
              }
            }
          }
        }
      }
    }
    yield out;
  }
}

/** A random base for visit ids: distinct runs, distinct ids. */
export const demoIdBase = (): number => parseInt(randomBytes(3).toString('hex'), 16) * 2 ** 24;

export async function writeDemoTraffic(db: Store, o: DemoOptions): Promise<DemoTotals> {
  const totals: DemoTotals = { visits: 0, events: 0, leads: 0, sold: 0, returned: 0, revenueCents: 0 };
  let batch: TrafficBatch = { visits: [], events: [] };
  let sales: DemoSale[] = [];
  const flush = async () => {
    await writeTraffic(db, batch);
    if (sales.length) await writeDemoSales(db, sales);
    batch = { visits: [], events: [] };
    sales = [];
    o.onProgress?.({ events: totals.events, leads: totals.leads, visits: totals.visits });
  };
  for (const v of demoVisits(o, o.idBase ?? demoIdBase(), totals)) {
    batch.visits.push(v.visit);
    batch.events.push(...v.events);
    if (v.exposures.length) (batch.exposures ??= []).push(...v.exposures);
    if (v.sale) sales.push(v.sale);
    if (batch.events.length >= 2000) await flush();
  }
  await flush();
  return totals;
}

export interface DemoSale {
  lead: Omit<LeadsTable, 'id'>;
  outcome: 'sold' | 'unsold' | 'returned';
  buyer: string;
  priceCents: number;
  decided: Date;
  returnedAt: Date;
  reason: string;
}

/** The rows of demo leads with their final sales, as the sale records them (a ping, a bid or not, a post accepted; a return). */
export function demoSaleRows(sales: readonly DemoSale[]): {
  leads: LeadsTable[];
  rows: LeadSalesTable[];
  timeline: SaleEventsTable[];
  returns: LeadReturnsTable[];
} {
  const leads: LeadsTable[] = [];
  const rows: LeadSalesTable[] = [];
  const timeline: SaleEventsTable[] = [];
  const returns: LeadReturnsTable[] = [];
  for (const s of sales) {
    const id = `${DEMO_LEAD_PREFIX}${randomBytes(9).toString('hex')}`;
    leads.push({ ...s.lead, id });
    const decided = s.decided.toISOString();
    const event = (step: SaleEventsTable['step'], outcome: SaleEventsTable['outcome'], price: number | null, at = decided, detail = '') =>
      timeline.push({
        id: newId('se'),
        lead_id: id,
        at,
        buyer_id: s.buyer,
        step,
        outcome,
        price_cents: price,
        latency_ms: step === 'return' ? null : 120,
        detail,
      });
    rows.push({
      lead_id: id,
      status: s.outcome,
      duplicate: 0,
      buyer_id: s.outcome === 'unsold' ? null : s.buyer,
      price_cents: s.outcome === 'unsold' ? null : s.priceCents,
      redirect_url: null,
      buyer_lead_id: null,
      reason: s.outcome === 'unsold' ? 'demo data: no buyer bid' : null,
      buyer_day: null,
      buyer_month: null,
      claimed_by: null,
      claimed_until: null,
      runs: 1,
      created_at: s.lead.created_at,
      decided_at: decided,
    });
    if (s.outcome === 'unsold') {
      event('ping', 'no-bid', null);
      continue;
    }
    event('ping', 'bid', s.priceCents);
    event('post', 'accepted', s.priceCents);
    if (s.outcome === 'returned') {
      const at = s.returnedAt.toISOString();
      returns.push({ lead_id: id, buyer_id: s.buyer, reason: s.reason, note: 'demo data', price_cents: s.priceCents, created_at: at });
      event('return', 'returned', -s.priceCents, at, s.reason);
    }
  }
  return { leads, rows, timeline, returns };
}

async function writeDemoSales(db: Store, sales: DemoSale[]): Promise<void> {
  const { leads, rows, timeline, returns } = demoSaleRows(sales);
  // One transaction: a demo lead is never stored without its final sale (a pending or missing sale is what a live server would sell).
  await db.transaction().execute(async (trx) => {
    await inChunks(leads, 100, async (chunk) => {
      await trx.insertInto('leads').values(chunk).execute();
      // the visits are stored (writeDemoTraffic writes each batch's traffic first): the leads copy their dimensions, as insertLead's do
      await copyVisitDims(
        trx,
        'lead',
        chunk.map((l) => l.id),
      );
    });
    await inChunks(rows, 200, (chunk) => trx.insertInto('lead_sales').values(chunk).execute());
    await inChunks(timeline, 200, (chunk) => trx.insertInto('sale_events').values(chunk).execute());
    await inChunks(returns, 200, (chunk) => trx.insertInto('lead_returns').values(chunk).execute());
  });
}

/** Rows inserted `size` at a time: one statement per chunk keeps under the drivers' bound-parameter limits. */
async function inChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Takes the demo data out again (npm run demo:traffic -- --reset): its leads with their sales,
 * timelines, returns and deliveries, its visits and events, and what those added to the rollups
 * (recomputed from the demo rows and subtracted; rollup rows left at zero are deleted). Rows that
 * are not demo rows are not touched. Demo events already pruned (older than the retention) can no
 * longer be subtracted: reset soon after a demo run.
 */
export async function resetDemoTraffic(db: Store): Promise<{ leads: number; visits: number; events: number }> {
  return db.transaction().execute(async (trx) => {
    const visits = await trx.selectFrom('traffic_visits').selectAll().where('id', 'like', `${DEMO_VISIT_PREFIX}%`).execute();
    const events = await trx.selectFrom('traffic_events').selectAll().where('visit_id', 'like', `${DEMO_VISIT_PREFIX}%`).execute();
    const take = hourlyIncrements(visits, events).map((r) => ({ ...r, count: -r.count, value: -Number(r.value) }));
    await addToRollups(trx, take);
    for (const table of ['traffic_hourly', 'traffic_daily', 'traffic_daily_pairs'] as const)
      await trx.deleteFrom(table).where('count', '=', 0).where('value', '=', 0).execute();
    const like = `${DEMO_LEAD_PREFIX}%`;
    for (const table of ['sale_events', 'lead_returns', 'lead_sales', 'lead_deliveries', 'contact_hashes'] as const)
      await trx.deleteFrom(table).where('lead_id', 'like', like).execute();
    const leads = await trx.deleteFrom('leads').where('id', 'like', like).executeTakeFirst();
    await trx.deleteFrom('traffic_events').where('visit_id', 'like', `${DEMO_VISIT_PREFIX}%`).execute();
    await trx.deleteFrom('experiment_exposures').where('visit_id', 'like', `${DEMO_VISIT_PREFIX}%`).execute();
    await rebuildExperimentDaily(trx);
    await trx.deleteFrom('traffic_visits').where('id', 'like', `${DEMO_VISIT_PREFIX}%`).execute();
    return { leads: Number(leads.numDeletedRows ?? 0), visits: visits.length, events: events.length };
  });
}

function demoLead(
  visitId: string,
  brand: string,
  state: string,
  at: Date,
  n: number,
  campaign: string,
  source: string,
  userAgent: string,
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
    user_agent: userAgent,
    device: deviceClass(userAgent),
    // demo data is never a production lead: no destination that refuses test leads gets it
    host: `${brand}.localhost`,
    environment: DEMO_ENVIRONMENT,
    visit_id: visitId,
  };
}
