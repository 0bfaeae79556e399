/**
 * Ad costs imported and set against the funnel, on SQLite and PostgreSQL: a report imported
 * twice counts once (the second replaces the first, both audited), and the overview shows the
 * cost, cost per lead, profit and ROAS of the whole funnel, a campaign and a day — and '—'
 * (null) for cuts cost reports do not give.
 */
import { describe, expect, it } from 'vitest';
import { costCells } from '../../engine/store/costs';
import { writeTraffic } from '../../engine/store/traffic';
import { insertLead } from '../../engine/store/leads';
import { VISIT_VALUE_MAX, visitRow } from '../../engine/store/trafficRules';
import { landingParams } from '../../engine/browser/visit';
import { cutSummary, importCostReport } from '../../engine/traffic/costImport';
import { overview } from '../../engine/traffic/funnelQuery';
import { overviewQuery } from '../../engine/console/range';
import { leadListQuery } from '../../engine/console/leadFilter';
import { listLeadsPage } from '../../engine/console/leadQueries';
import { queryText } from '../../engine/console/pages';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';

const stores = bothStores('loansites-costs-');
const day1 = new Date('2026-11-01T10:00:00.000Z');
const RANGE = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' };
const ctx = (now: Date) => ({ brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now });
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;

describe.each(stores.kinds('costs.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('imports a report, and importing it again replaces its days instead of adding them (each import audited)', async () => {
    const first = await importCostReport(db(), {
      text: 'day,campaign,cost,clicks\n2026-11-01,spring,30.00,10\n2026-11-02,spring,5,2\n',
      source: 'generic',
      actor: 'ops@example.com',
    });
    expect(first).toMatchObject({ ok: true, rows: 2, replaced: 0, days: { from: '2026-11-01', to: '2026-11-02' } });
    const again = await importCostReport(db(), { text: 'day,campaign,cost,clicks\n2026-11-01,spring,20.00,10\n', source: 'generic', actor: 'cli' });
    expect(again).toMatchObject({ ok: true, rows: 1, replaced: 1 });
    const google = await importCostReport(db(), { text: 'Day,Campaign,Cost,Clicks,Impr.\n2026-11-01,spring,1.00,1,9\n', source: 'google', actor: 'cli' });
    expect(google).toMatchObject({ ok: true, replaced: 0 });
    const cells = await costCells(db(), '2026-11-01', '2026-11-03');
    expect(cells.map((c) => [c.day, c.source, c.campaign, c.costCents, c.clicks]).sort()).toEqual([
      ['2026-11-01', 'generic', 'spring', 2000, 10],
      ['2026-11-01', 'google', 'spring', 100, 1],
      ['2026-11-02', 'generic', 'spring', 500, 2],
    ]);
    const audits = await db().selectFrom('console_audit').select(['actor', 'target', 'detail']).where('action', '=', 'cost_import').orderBy('at').execute();
    expect(audits.map((a) => [a.actor, a.target, JSON.parse(a.detail).rows])).toEqual([
      ['ops@example.com', 'generic', 2],
      ['cli', 'generic', 1],
      ['cli', 'google', 1],
    ]);
  });

  it('refuses a bad report whole: nothing of it is stored', async () => {
    const a = await importCostReport(db(), { text: 'day,campaign,cost\n2026-11-02,spring,1\n2026-11-02,"spr\ning",1\n', source: 'generic', actor: 'cli' });
    expect(a).toEqual({ ok: false, errors: ['line 3: the campaign "spr\\x0aing" holds a control character, which no visit’s campaign has'] });
    expect((await costCells(db(), '2026-11-02', '2026-11-03')).map((c) => c.costCents)).toEqual([500]);
  });

  it('shows cost, cost per lead, profit and ROAS for the funnel, the campaign and the day; none for a brand', async () => {
    // Two visits of "spring" on day 1, both stored leads; one sold for $42.00.
    await writeTraffic(db(), {
      visits: [1, 2].map((n) => visitRow(v(n), { path: '/payday-loans', params: { utm_campaign: 'spring' } }, ctx(day1))),
      events: [1, 2].map((n) => trafficEvent(v(n), 'stored', day1.toISOString(), { state: 'TX' })),
    });
    const lead = await insertLead(db(), leadRow({ visit_id: v(1), created_at: day1.toISOString() }), []);
    await recordSaleRow(db(), { leadId: lead.id, buyer: 'acme', priceCents: 4200, at: day1 });

    const o = await overview(db(), RANGE);
    // $20.00 + $1.00 + $5.00 spent; $42.00 earned from 2 visits, 2 leads, 1 sale, 13 clicks
    expect(o.cost).toEqual({
      costCents: 2600,
      clicks: 13,
      costPerVisitCents: 1300,
      costPerLeadCents: 1300,
      revenuePerLeadCents: 2100,
      revenuePerSoldCents: 4200,
      earningsPerClickCents: 323.08,
      profitCents: 1600,
      roas: 1.62,
    });
    expect(o.byCampaign.find((r) => r.key === 'spring')!.cost).toMatchObject({ costCents: 2600, costPerLeadCents: 1300, profitCents: 1600 });
    expect(o.chart.map((p) => [p.at, p.cost.costCents, p.cost.profitCents])).toEqual([['2026-11-01', 2100, 2100]]);
    expect(o.byState.find((r) => r.key === 'TX')!.cost).toMatchObject({ costCents: null, profitCents: null, revenuePerLeadCents: 2100 });

    const branded = await overview(db(), { ...RANGE, brand: 'ipaydayloans' });
    expect([branded.costApplies, branded.cost.costCents, branded.cost.profitCents]).toEqual([false, null, null]);
    const campaign = await overview(db(), { ...RANGE, campaign: 'spring' });
    expect(campaign.cost).toMatchObject({ costCents: 2600, profitCents: 1600 });
  });

  it('lists a campaign that cost money but brought no visit, so the campaigns’ costs add up to the total', async () => {
    await importCostReport(db(), { text: 'day,campaign,cost,clicks\n2026-11-02,summer-typo,7.50,3\n', source: 'microsoft', actor: 'cli' });
    const o = await overview(db(), RANGE);
    expect(o.byCampaign.find((r) => r.key === 'summer-typo')).toMatchObject({
      visits: 0,
      stored: 0,
      sold: 0,
      revenueCents: 0,
      cost: { costCents: 750, clicks: 3, costPerVisitCents: null, profitCents: -750, roas: 0 },
    });
    expect(o.byCampaign.reduce((sum, r) => sum + (r.cost.costCents ?? 0), 0)).toBe(o.cost.costCents);
    // cut to another campaign, it is not there
    expect((await overview(db(), { ...RANGE, campaign: 'spring' })).byCampaign.map((r) => r.key)).toEqual(['spring']);
  });

  it('leaves costs in another currency out, and says which', async () => {
    await importCostReport(db(), { text: 'day,campaign,cost,currency\n2026-11-01,ca-spring,10,CAD\n', source: 'generic', actor: 'cli' });
    const o = await overview(db(), RANGE);
    expect(o.costsLeftOut).toEqual([{ currency: 'CAD', cents: 1000 }]);
    expect(o.cost.costCents).toBe(3350);
    expect(o.byCampaign.map((r) => r.key)).not.toContain('ca-spring');
  });
  it('a campaign as long as a visit keeps (500 characters) filters the overview and the leads list as the breakdown names it', async () => {
    const long = `brand-search-exact-${'texas-payday-'.repeat(30)}`.slice(0, 500);
    const at = new Date('2026-11-02T09:00:00.000Z');
    await writeTraffic(db(), {
      visits: [visitRow(v(30), { path: '/payday-loans', params: { utm_campaign: long, utm_source: long } }, ctx(at))],
      events: [trafficEvent(v(30), 'stored', at.toISOString(), { state: 'TX' })],
    });
    await insertLead(db(), leadRow({ visit_id: v(30), created_at: at.toISOString(), email: 'long-campaign@example.org' }), []);
    const all = await overview(db(), RANGE);
    expect(all.byCampaign.find((r) => r.key === long)).toMatchObject({ visits: 1, stored: 1 });
    // what an operator pastes from that row into the filter
    const asked = overviewQuery(
      { from: '2026-11-01', to: '2026-11-02', campaign: long, source: long },
      new Set(['ipaydayloans']),
      new Date('2026-11-03T00:00:00Z'),
    );
    const filtered = await overview(db(), asked.filter);
    expect(filtered.funnel.stages.find((s) => s.stage === 'visits')!.count).toBe(1);
    const leads = leadListQuery({ from: '2026-11-01', to: '2026-11-02', campaign: long, source: long }, new Set(['ipaydayloans']), 'admin');
    expect(leads.problems).toEqual([]);
    expect((await listLeadsPage(db(), 'admin', leads)).rows.map((r) => r.email)).toEqual(['long-campaign@example.org']);
  });

  it('gives a visit’s 500-character campaign the cost a report names for it, in the breakdown and the filtered overview', async () => {
    const long = `brand-search-exact-${'texas-payday-'.repeat(30)}`.slice(0, 500);
    const imported = await importCostReport(db(), { text: `day,campaign,cost,clicks\n2026-11-02,${long},4.00,2\n`, source: 'google', actor: 'cli' });
    expect(imported).toMatchObject({ ok: true, rows: 1 });
    const all = await overview(db(), RANGE);
    expect(all.byCampaign.find((r) => r.key === long)).toMatchObject({ visits: 1, stored: 1, cost: { costCents: 400, clicks: 2, costPerLeadCents: 400 } });
    const asked = overviewQuery({ from: '2026-11-01', to: '2026-11-02', campaign: long }, new Set(['ipaydayloans']), new Date('2026-11-03T00:00:00Z'));
    expect((await overview(db(), asked.filter)).cost).toMatchObject({ costCents: 400, costPerVisitCents: 400 });
  });

  it('gives the visits of a campaign starting with "-" (utm_campaign=-brand-exact) the cost a report names for it, in the breakdown', async () => {
    const at = new Date('2026-11-02T11:00:00.000Z');
    await writeTraffic(db(), {
      visits: [visitRow(v(40), { path: '/payday-loans', params: { utm_campaign: '-brand-exact' } }, ctx(at))],
      events: [trafficEvent(v(40), 'stored', at.toISOString(), { state: 'TX' })],
    });
    const imported = await importCostReport(db(), {
      text: 'Day,Campaign,Cost,Clicks,Impr.\n2026-11-02,-brand-exact,6.00,3,90\n2026-11-02,+broad,1.00,1,10\n',
      source: 'google',
      actor: 'cli',
    });
    expect(imported).toMatchObject({ ok: true, rows: 2 });
    const o = await overview(db(), RANGE);
    expect(o.byCampaign.find((r) => r.key === '-brand-exact')).toMatchObject({
      visits: 1,
      stored: 1,
      cost: { costCents: 600, clicks: 3, costPerLeadCents: 600 },
    });
    expect(o.byCampaign.find((r) => r.key === '+broad')).toMatchObject({ visits: 0, cost: { costCents: 100 } });
  });

  /** A visit landing on `?utm_campaign=…` as the browser reads and sends it, stored on 2026-11-02. */
  const landOn = async (n: number, campaign: string) => {
    const at = new Date('2026-11-02T12:00:00.000Z');
    const params = landingParams(`?utm_campaign=${encodeURIComponent(campaign)}`, false);
    await writeTraffic(db(), {
      visits: [visitRow(v(n), { path: '/payday-loans', params }, ctx(at))],
      events: [trafficEvent(v(n), 'stored', at.toISOString(), { state: 'TX' })],
    });
    return params.utm_campaign!;
  };

  it('gives the visits of a campaign of 300 emoji or CJK-supplement characters the cost a report names for it: 300 characters are within what a visit keeps', async () => {
    // each is one character to the events API (and JSON Schema) but two UTF-16 units to JavaScript
    const emoji = '\u{1F4B5}'.repeat(300);
    const cjk = '\u{20000}'.repeat(300);
    expect([await landOn(50, emoji), await landOn(51, cjk)]).toEqual([emoji, cjk]);
    const imported = await importCostReport(db(), {
      text: `day,campaign,cost,clicks\n2026-11-02,${emoji},3.00,1\n2026-11-02,${cjk},2.00,1\n`,
      source: 'meta',
      actor: 'cli',
    });
    expect(imported).toMatchObject({ ok: true, rows: 2, cut: 0 });
    const o = await overview(db(), RANGE);
    expect(o.byCampaign.find((r) => r.key === emoji)).toMatchObject({ visits: 1, stored: 1, cost: { costCents: 300, costPerLeadCents: 300 } });
    expect(o.byCampaign.find((r) => r.key === cjk)).toMatchObject({ visits: 1, stored: 1, cost: { costCents: 200, costPerLeadCents: 200 } });
  });

  it('gives the visits of a campaign longer than a visit keeps the cost a report names under its full name, and says it matched it by its first 500 characters', async () => {
    // as an ad platform exports them: 620 characters, and 520 emoji; a visit keeps the first 500 of each
    const full = `brand-search-exact-${'texas-payday-'.repeat(50)}`.slice(0, 620);
    const emoji = '\u{1F4B5}'.repeat(520);
    const kept = await landOn(52, full);
    const keptEmoji = await landOn(53, emoji);
    expect([kept, keptEmoji]).toEqual([full.slice(0, 500), '\u{1F4B5}'.repeat(500)]);
    const imported = await importCostReport(db(), {
      text: `day,campaign,cost,clicks\n2026-11-01,${full},1.50,1\n2026-11-02,${full},4.00,2\n2026-11-02,${emoji},7.00,3\n`,
      source: 'microsoft',
      actor: 'cli',
    });
    expect(imported).toMatchObject({ ok: true, rows: 3, cut: 2 });
    expect(cutSummary(imported.ok ? imported.cut : 0)).toBe(
      '; 2 campaigns longer than 500 characters matched to their visits by their first 500, all a visit keeps',
    );
    const audit = await db()
      .selectFrom('console_audit')
      .select('detail')
      .where('id', '=', imported.ok ? imported.auditId : '')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toMatchObject({ rows: 3, cut: 2 });
    const o = await overview(db(), RANGE);
    expect(o.byCampaign.find((r) => r.key === kept)).toMatchObject({ visits: 1, stored: 1, cost: { costCents: 550, clicks: 3, costPerLeadCents: 550 } });
    expect(o.byCampaign.find((r) => r.key === keptEmoji)).toMatchObject({ visits: 1, stored: 1, cost: { costCents: 700, clicks: 3 } });
    expect(o.byCampaign.map((r) => r.key)).not.toContain(full);
  });

  it('a campaign of 500 emoji filters the overview and the leads list as the breakdown names it, from the page’s query on', async () => {
    const emoji = await landOn(54, '\u{1F3E6}'.repeat(600));
    expect(emoji).toBe('\u{1F3E6}'.repeat(500));
    await insertLead(db(), leadRow({ visit_id: v(54), created_at: '2026-11-02T12:00:00.000Z', email: 'emoji-campaign@example.org' }), []);
    expect((await overview(db(), RANGE)).byCampaign.find((r) => r.key === emoji)).toMatchObject({ visits: 1, stored: 1 });
    // the breakdown's link, as the console's pages read it (engine/console/pages.ts)
    const q = { from: '2026-11-01', to: '2026-11-02', campaign: queryText(emoji, VISIT_VALUE_MAX), source: '' };
    const asked = overviewQuery(q, new Set(['ipaydayloans']), new Date('2026-11-03T00:00:00Z'));
    expect(asked.filter.campaign).toBe(emoji);
    expect((await overview(db(), asked.filter)).funnel.stages.find((s) => s.stage === 'visits')!.count).toBe(1);
    const leads = leadListQuery(q, new Set(['ipaydayloans']), 'admin');
    expect((await listLeadsPage(db(), 'admin', leads)).rows.map((r) => r.email)).toEqual(['emoji-campaign@example.org']);
  });

  it('refuses, naming both lines and both campaigns, two campaigns of a report that a visit cannot tell apart because they differ only after their first 500 characters', async () => {
    const stem = 'payday-'.repeat(80).slice(0, 500);
    const report = `day,campaign,cost\n2026-11-02,${stem}-mobile,1.00\n2026-11-02,other,1.00\n2026-11-02,${stem}-desktop,2.00\n2026-11-02,${stem},3.00\n`;
    const refused = await importCostReport(db(), { text: report, source: 'tiktok', actor: 'cli' });
    const why = (line: number, other: number, name: string) =>
      `line ${line}: the campaigns of line ${other} ("${stem}-mobile") and this line ("${name}") are the same in their first 500 characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first 500 characters`;
    expect(refused).toEqual({ ok: false, errors: [why(4, 2, `${stem}-desktop`), why(5, 2, stem)] });
    expect((await costCells(db(), '2026-11-02', '2026-11-03')).filter((c) => c.source === 'tiktok')).toEqual([]);
  });
  const clash = (line: number, mine: string, stored: string, source: string) =>
    `line ${line}: the campaign "${mine}" and the campaign "${stored}", imported before from ${source}, are the same in their first 500 characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first 500 characters`;

  it('refuses a report naming, under the first 500 characters of a campaign stored by an earlier import, another campaign, naming both in full; that campaign imported again replaces its days', async () => {
    const stem = `${'loan-'.repeat(100)}`.slice(0, 500);
    const mobile = `${stem}-mobile`;
    const first = await importCostReport(db(), { text: `day,campaign,cost,clicks\n2026-11-01,${mobile},4.00,2\n`, source: 'meta', actor: 'cli' });
    expect(first).toMatchObject({ ok: true, rows: 1, cut: 1 });
    // another day, another report: a different campaign the platform tells apart by its end
    const desktop = await importCostReport(db(), {
      text: `day,campaign,cost,clicks\n2026-11-02,short-one,1.00,1\n2026-11-02,${stem}-desktop,9.00,3\n`,
      source: 'meta',
      actor: 'ops@example.com',
    });
    expect(desktop).toEqual({ ok: false, errors: [clash(3, `${stem}-desktop`, mobile, 'meta')] });
    // its own first 500 characters, as a campaign of exactly that name, are another campaign too
    const exact = await importCostReport(db(), { text: `day,campaign,cost\n2026-11-02,${stem},2.00\n`, source: 'meta', actor: 'cli' });
    expect(exact).toEqual({ ok: false, errors: [clash(2, stem, mobile, 'meta')] });
    const metaCosts = async () =>
      (await costCells(db(), '2026-11-01', '2026-11-03'))
        .filter((c) => c.source === 'meta' && c.campaign.startsWith('loan-'))
        .map((c) => [c.day, c.costCents, c.clicks]);
    expect(await metaCosts()).toEqual([['2026-11-01', 400, 2]]);
    expect((await costCells(db(), '2026-11-02', '2026-11-03')).filter((c) => c.campaign === 'short-one')).toEqual([]);

    // the same campaign again: its day replaced, a new day added, no row twice
    const again = await importCostReport(db(), {
      text: `day,campaign,cost,clicks\n2026-11-01,${mobile},5.00,3\n2026-11-02,${mobile},6.00,4\n`,
      source: 'meta',
      actor: 'cli',
    });
    expect(again).toMatchObject({ ok: true, rows: 2, replaced: 1, cut: 1 });
    expect((await metaCosts()).sort()).toEqual([
      ['2026-11-01', 500, 3],
      ['2026-11-02', 600, 4],
    ]);
    // another platform's campaigns are its own: the same cut name there is another campaign
    expect(await importCostReport(db(), { text: `day,campaign,cost\n2026-11-01,${stem}-desktop,1.00\n`, source: 'tiktok', actor: 'cli' })).toMatchObject({
      ok: true,
      rows: 1,
    });
  });

  it('two imports naming different full campaigns under one cut name at once: exactly one is stored, the other refused naming both', async () => {
    const stem = `${'race-'.repeat(100)}`.slice(0, 500);
    for (const [round, source] of ['google', 'microsoft', 'tiktok', 'generic'].entries()) {
      const day = `2026-10-0${round + 1}`;
      const names = [`${stem}-a${round}`, `${stem}-b${round}`];
      const tries = await Promise.all(names.map((name) => importCostReport(db(), { text: `day,campaign,cost\n${day},${name},1.00\n`, source, actor: 'cli' })));
      expect(
        tries.filter((t) => t.ok),
        JSON.stringify(tries).slice(0, 400),
      ).toHaveLength(1);
      const refused = tries.find((t) => !t.ok) as { ok: false; errors: string[] };
      expect(refused.errors).toHaveLength(1);
      for (const name of names) expect(refused.errors[0]).toContain(`"${name}"`);
      expect((await costCells(db(), '2026-10-01', '2026-10-31')).filter((c) => c.source === source && c.campaign === stem)).toHaveLength(1);
    }
  });

  it('reads a report’s slash days day-first when told so, and month-first refuses it naming the line and the other order; YYYY-MM-DD days read the same either way', async () => {
    const report = 'day,campaign,cost\n2026-11-01,au-dates,1.00\n03/11/2026,au-dates,2.00\n25/11/2026,au-dates,3.00\n';
    const now = new Date('2026-11-30T00:00:00Z');
    const monthFirst = await importCostReport(db(), { text: report, source: 'generic', actor: 'cli', now });
    expect(monthFirst).toEqual({
      ok: false,
      errors: ['line 4: the day "25/11/2026" is not a date written month-first (M/D/YYYY); if this file writes the day first, choose day-first'],
    });
    expect((await costCells(db(), '2026-03-01', '2026-12-01')).filter((c) => c.campaign === 'au-dates')).toEqual([]);
    const dayFirst = await importCostReport(db(), { text: report, source: 'generic', actor: 'cli', now, dayOrder: 'day-first' });
    expect(dayFirst).toMatchObject({ ok: true, rows: 3, days: { from: '2026-11-01', to: '2026-11-25' } });
    expect(
      (await costCells(db(), '2026-03-01', '2026-12-01'))
        .filter((c) => c.campaign === 'au-dates')
        .map((c) => [c.day, c.costCents])
        .sort(),
    ).toEqual([
      ['2026-11-01', 100],
      ['2026-11-03', 200],
      ['2026-11-25', 300],
    ]);
    // a US report read day-first: 11/25/2026 has no 25th month
    expect(
      await importCostReport(db(), { text: 'day,campaign,cost\n11/25/2026,us-dates,1\n', source: 'generic', actor: 'cli', now, dayOrder: 'day-first' }),
    ).toEqual({
      ok: false,
      errors: ['line 2: the day "11/25/2026" is not a date written day-first (D/M/YYYY); if this file writes the month first, choose month-first'],
    });
    // neither order makes a date of it: no order to suggest
    expect(await importCostReport(db(), { text: 'day,campaign,cost\n13/25/2026,us-dates,1\n', source: 'generic', actor: 'cli', now })).toEqual({
      ok: false,
      errors: ['line 2: the day "13/25/2026" is not a date (YYYY-MM-DD or M/D/YYYY)'],
    });
    expect(await importCostReport(db(), { text: report, source: 'generic', actor: 'cli', now, dayOrder: 'year-first' })).toEqual({
      ok: false,
      errors: ['Unknown date order "year-first"; use one of month-first, day-first'],
    });
  });
});
