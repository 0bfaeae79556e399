/**
 * First-party visit and funnel rules, as pure functions: what a landing becomes as a stored visit
 * (no IP address, the referrer's host only, click ids dropped for a visitor who opted out), the
 * device class from the user agent, and which rollup metric each funnel event counts under.
 */

/** The click-id parameters a visit keeps (and drops when the visitor opted out). */
export const VISIT_CLICK_IDS = ['gclid', 'ttclid', 'fbclid', 'msclkid'] as const;
export type VisitClickId = (typeof VISIT_CLICK_IDS)[number];

/** Funnel events a browser may send (schemas/api/events.schema.json). */
export const BROWSER_EVENT_TYPES = ['page_view', 'amount_used', 'apply_view', 'step_completed', 'submitted', 'state_refused'] as const;
export type BrowserEventType = (typeof BROWSER_EVENT_TYPES)[number];

/**
 * Funnel events only the server records: a lead stored, and the sale's outcome. A browser must
 * not be able to claim either, so they are not in the events API's schema.
 */
export type ServerEventType = 'stored' | 'sale';
export type SaleOutcome = 'sold' | 'unsold' | 'returned';

export type DeviceClass = 'mobile' | 'tablet' | 'desktop' | 'bot' | 'other';

/**
 * What marks a user agent as a crawler or a script, lower case. Most crawlers say "bot", "crawl"
 * or "spider"; the rest are named as their owners publish them. Several come with a phone's or a
 * desktop browser's user agent in front (Google-InspectionTool, GoogleOther and Google-Read-Aloud
 * as a Nexus 5X, BingPreview and MicrosoftPreview as Chrome on Windows), which is why they are
 * looked for before the device.
 */
const BOT_MARKS = [
  'bot',
  'crawl',
  'spider',
  'slurp',
  'headless',
  'lighthouse',
  'curl/',
  'wget',
  'python-',
  'go-http',
  'node-fetch',
  'axios',
  // Google's crawlers and fetchers not named ...bot: Google-InspectionTool, Google-Read-Aloud,
  // Google-Site-Verification, Google-Safety; APIs-Google, Mediapartners-Google,
  // FeedFetcher-Google, DuplexWeb-Google; GoogleOther (-Image, -Video); Google Favicon
  'google-',
  '-google',
  'googleother',
  'google favicon',
  // Bing's link previews
  'bingpreview',
  'microsoftpreview',
  // Meta's: link previews (facebookexternalhit), the catalog, the AI and index crawlers
  'facebookexternalhit',
  'facebookcatalog',
  'meta-external',
  'meta-webindexer',
  // SEO auditors not named ...bot
  'screaming frog',
  'sitebulb',
];
// Literal alternatives only: the scan is linear in the user agent's length.
const BOT_RE = new RegExp(BOT_MARKS.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));

/** The device class of a user agent: bots first, then tablets (iPad, Android without "Mobile"), then phones. */
export function deviceClass(userAgent: string): DeviceClass {
  const ua = userAgent.toLowerCase();
  if (!ua) return 'other';
  // CUBOT makes phones and tablets: its name is no crawler's "bot" (replaceAll is one pass)
  if (BOT_RE.test(ua.includes('cubot') ? ua.replaceAll('cubot', 'cu') : ua)) return 'bot';
  // Android with no "mobile" after it: its last "android" decides, found in one pass (a lookahead
  // per "android" would rescan the rest each time: quadratic in a long user agent)
  const android = ua.lastIndexOf('android');
  if (/ipad|tablet|kindle|silk|playbook/.test(ua) || (android >= 0 && !ua.includes('mobile', android))) return 'tablet';
  if (/mobi|iphone|ipod|android|windows phone|blackberry|opera mini/.test(ua)) return 'mobile';
  if (/windows|macintosh|x11|linux|cros/.test(ua)) return 'desktop';
  return 'other';
}

/** A referrer as its host only ("https://www.google.com/search?q=…" → "www.google.com"); "" when it is not a http(s) URL or a bare host. */
export function referrerHost(referrer: string | undefined): string {
  const text = (referrer ?? '').trim();
  if (!text) return '';
  if (/^[a-z0-9.-]+(:\d+)?$/i.test(text)) return text.toLowerCase().replace(/:\d+$/, '').slice(0, 253);
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase().slice(0, 253) : '';
  } catch {
    return '';
  }
}

/**
 * The longest campaign, source or landing page a visit keeps, in characters (code points; the
 * rule is engine/browser/visitValue.ts's, shared with the browser and the cost import): what the
 * console's filters take whole, so that any value a breakdown names can be filtered by, and what
 * a cost report's longer campaign is cut to (engine/traffic/costCsv.ts), so that every visit's
 * campaign can have its cost.
 */
export { VISIT_VALUE_MAX } from '../browser/visitValue';

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether a visit can keep `value` as its campaign, source or click id: it holds no control
 * character (C0, DEL, C1), which the browser drops (engine/browser/cleanText.ts) and the events
 * API refuses (schemas/api/events.schema.json's CampaignParam). Everything else is kept as the
 * landing URL gave it, "-brand-exact", "+broad", "=x" and "@home" included (ad platforms allow
 * such names). A cost report's campaign is held to the same rule (engine/traffic/costCsv.ts), so
 * that any campaign a visit can have can be given its cost, and none a visit cannot have is imported.
 */
export const visitKeeps = (value: string): boolean => !CONTROL_CHARACTER.test(value);

/** What the browser tells about its landing (the schema's "landing"). */
export interface LandingReport {
  path: string;
  referrerHost?: string;
  params?: Partial<Record<string, string>>;
}

export interface VisitRow {
  id: string;
  brand: string;
  host: string;
  landing_path: string;
  referrer_host: string;
  source1: string;
  source2: string;
  /** JSON of every utm_* parameter, keys sorted */
  utm: string;
  gclid: string;
  ttclid: string;
  fbclid: string;
  msclkid: string;
  /** the rollups' campaign: source1, else utm_campaign (SPEC §4's "id") */
  campaign: string;
  /** the rollups' source: source2, else utm_source, else "" (SPEC §4's "path" without the page fallback: the landing page is its own dimension) */
  source: string;
  device: DeviceClass;
  opted_out: number;
  created_at: string;
}

/** A landing as a stored visit: the host and brand from the request, never the body; click ids only when the visitor did not opt out. */
export function visitRow(id: string, landing: LandingReport, ctx: { brand: string; host: string; userAgent: string; optedOut: boolean; now: Date }): VisitRow {
  const params = landing.params ?? {};
  const get = (name: string) => (params[name] ?? '').trim();
  const utm = Object.fromEntries(
    Object.keys(params)
      .filter((k) => k.startsWith('utm_') && get(k))
      .sort()
      .map((k) => [k, get(k)]),
  );
  const click = (name: VisitClickId) => (ctx.optedOut ? '' : get(name));
  return {
    id,
    brand: ctx.brand,
    host: ctx.host.slice(0, 253),
    landing_path: landing.path,
    referrer_host: referrerHost(landing.referrerHost),
    source1: get('source1'),
    source2: get('source2'),
    utm: JSON.stringify(utm),
    gclid: click('gclid'),
    ttclid: click('ttclid'),
    fbclid: click('fbclid'),
    msclkid: click('msclkid'),
    campaign: get('source1') || get('utm_campaign'),
    source: get('source2') || get('utm_source'),
    device: deviceClass(ctx.userAgent),
    opted_out: ctx.optedOut ? 1 : 0,
    created_at: ctx.now.toISOString(),
  };
}

/** The funnel stages, in order, and the rollup metric each counts. */
export const FUNNEL_STAGES = [
  ['visits', 'visit'],
  ['applyViews', 'apply_view'],
  ['step1', 'step_1'],
  ['step2', 'step_2'],
  ['submitted', 'submitted'],
  ['stored', 'stored'],
  ['sold', 'sale_sold'],
] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number][0];

/** The rollup metric of an event: form steps by number ("step_2"), sales by outcome ("sale_sold"). */
export function metricOf(event: { type: BrowserEventType | ServerEventType; step?: number; outcome?: SaleOutcome }): string {
  if (event.type === 'step_completed') return `step_${event.step ?? 0}`;
  if (event.type === 'sale') return `sale_${event.outcome ?? 'sold'}`;
  return event.type;
}

/**
 * The funnel stage an event counts once per visit under, or "" for one counted every time: page
 * views (a visit sees many pages), the sale's outcomes (the sale's own records decide those) and
 * events without a visit. A refusal counts once per state the visitor tried.
 */
export function stageOf(e: { visitId: string; metric: string; state: string }): string {
  if (!e.visitId || e.metric === 'page_view' || e.metric.startsWith('sale_')) return '';
  return e.metric === 'state_refused' ? `state_refused:${e.state}` : e.metric;
}

/**
 * Whether an event adds to the rollups: the first of its stage in its visit, or any stored lead.
 * The funnel counts visits up to "submitted" but leads from "stored" on, as the sale records count
 * each lead sold: a visit that stores two leads and sells both shows two stored, never fewer stored
 * than sold. The stage is still marked once per visit (the experiments count converted visits).
 */
export const countedInRollups = (e: { repeated: number; metric: string }): boolean => !e.repeated || e.metric === 'stored';

/** The hour a time falls in, as the rollups key it: "2025-01-31T12". */
export const hourOf = (iso: string): string => iso.slice(0, 13);
