import { describe, expect, it } from 'vitest';
import eventsSchema from '../../schemas/api/events.schema.json' with { type: 'json' };
import { cleanText } from '../../engine/browser/cleanText';
import { landingParams } from '../../engine/browser/visit';
import { visitKeeps, visitRow } from '../../engine/store/trafficRules';
import { amountCurrency, centsOf, COST_CSV_MAX_BYTES, COST_CSV_MAX_ROWS, dayOf, parseCostCsv, reportText, type CostSource } from '../../engine/traffic/costCsv';

/** Each platform's report as it exports it, and the rows an operator expects from it. */
const REPORTS: [CostSource, string, { day: string; campaign: string; costCents: number; clicks: number; impressions: number; currency: string }[]][] = [
  [
    'google',
    'Campaign report\n"November 1, 2026 - November 2, 2026"\nDay,Campaign,Currency code,Cost,Clicks,Impr.\n2026-11-01,tx-payday,USD,"1,234.50","1,020","40,100"\n2026-11-02,tx-payday,USD,10.05,3,--\nTotal: Account,,USD,"1,244.55",1023,40100\n',
    [
      { day: '2026-11-01', campaign: 'tx-payday', costCents: 123450, clicks: 1020, impressions: 40100, currency: 'USD' },
      { day: '2026-11-02', campaign: 'tx-payday', costCents: 1005, clicks: 3, impressions: 0, currency: 'USD' },
    ],
  ],
  [
    'microsoft',
    '\uFEFFGregorian date,Campaign name,Spend,Clicks,Impressions,Currency code\r\n11/1/2026,ca-installment,12.3,4,100,CAD\r\n',
    [{ day: '2026-11-01', campaign: 'ca-installment', costCents: 1230, clicks: 4, impressions: 100, currency: 'CAD' }],
  ],
  [
    'meta',
    'Reporting starts,Reporting ends,Campaign name,Amount spent (USD),Link clicks,Impressions\n2026-11-01,2026-11-01,"fb, lookalike",7.5,2,90\n',
    [{ day: '2026-11-01', campaign: 'fb, lookalike', costCents: 750, clicks: 2, impressions: 90, currency: 'USD' }],
  ],
  [
    'tiktok',
    'By Day\tCampaign name\tCost\tClicks (Destination)\tImpressions\n2026-11-01 00:00:00\ttt-spring\t$3.00\t1\t50\n',
    [{ day: '2026-11-01', campaign: 'tt-spring', costCents: 300, clicks: 1, impressions: 50, currency: 'USD' }],
  ],
  [
    'generic',
    'day,campaign,cost,clicks,impressions\n2026-11-01,tx-payday,0.99,1,1\n',
    [{ day: '2026-11-01', campaign: 'tx-payday', costCents: 99, clicks: 1, impressions: 1, currency: 'USD' }],
  ],
];

describe('cost reports per platform', () => {
  it.each(REPORTS)('%s: every day and campaign with its cost in cents, clicks and impressions', (source, text, expected) => {
    const r = parseCostCsv(text, source);
    expect(r.ok ? r.rows.map(({ line: _line, ...row }) => row) : r.errors).toEqual(expected);
  });

  it('uses the currency given when the report has no currency column', () => {
    const r = parseCostCsv('day,campaign,cost\n2026-11-01,au-payday,5\n', 'generic', 'aud');
    expect(r.ok && r.rows[0]!.currency).toBe('AUD');
  });
});

describe('the lines a report holds are all imported, each in its own currency', () => {
  const rows = (text: string, source: CostSource = 'generic', currency?: string) => {
    const r = parseCostCsv(text, source, currency);
    return r.ok ? r.rows.map(({ campaign, costCents, currency }) => ({ campaign, costCents, currency })) : r.errors;
  };

  it('keeps a campaign whose name begins with "Total" on a dated line, and still skips the report\'s own total line', () => {
    expect(rows('Day,Campaign,Cost\n2026-11-01,Totally Fast Loans,50\n2026-11-01,total-tx,2\nTotal: Account,,52\n', 'google')).toEqual([
      { campaign: 'Totally Fast Loans', costCents: 5000, currency: 'USD' },
      { campaign: 'total-tx', costCents: 200, currency: 'USD' },
    ]);
    expect(rows('Campaign,Day,Cost\ntx,2026-11-01,5\nTotal: Account,--,5\n', 'google')).toEqual([{ campaign: 'tx', costCents: 500, currency: 'USD' }]);
  });

  it("takes an amount that names its currency in that currency, not the form's default", () => {
    expect(rows('day,campaign,cost\n2026-11-01,a,12.30 EUR\n2026-11-01,b,€7\n2026-11-01,c,£1.50\n2026-11-01,d,$2\n', 'generic', 'USD')).toEqual([
      { campaign: 'a', costCents: 1230, currency: 'EUR' },
      { campaign: 'b', costCents: 700, currency: 'EUR' },
      { campaign: 'c', costCents: 150, currency: 'GBP' },
      { campaign: 'd', costCents: 200, currency: 'USD' },
    ]);
  });

  it('reads a tab-separated report whose amounts carry thousands commas', () => {
    expect(rows('Day\tCampaign\tCost\n2026-11-01\ttx\t1,234.56\n', 'google')).toEqual([{ campaign: 'tx', costCents: 123456, currency: 'USD' }]);
  });
});

/** Files an operator (or someone else) might upload, and the message that must come back. */
const HOSTILE: [what: string, source: CostSource, text: string, error: RegExp][] = [
  [
    'a terminal escape in the campaign',
    'generic',
    'day,campaign,cost\n2026-11-01,spring\u001b[2J,1\n',
    /^line 2: the campaign "spring\\x1b\[2J" holds a control character, which no visit’s campaign has/,
  ],
  ['a negative cost', 'generic', 'day,campaign,cost\n2026-11-01,a,-5\n', /^line 2: the cost "-5" is not an amount/],
  ['a formula as the cost', 'generic', 'day,campaign,cost\n2026-11-01,a,=1+1\n', /^line 2: the cost "=1\+1" is not an amount/],
  ['a day that does not exist', 'generic', 'day,campaign,cost\n2026-02-30,a,1\n', /^line 2: the day "2026-02-30" is not a date/],
  ['clicks with a fraction', 'generic', 'day,campaign,cost,clicks\n2026-11-01,a,1,1.5\n', /^line 2: the clicks "1.5" are not a whole number/],
  [
    'the same day and campaign twice',
    'generic',
    'day,campaign,cost\n2026-11-01,a,1\n2026-11-02,a,1\n2026-11-01,a,2\n',
    /^line 4: 2026-11-01 for campaign "a" is already on line 2/,
  ],
  ['wrong columns', 'google', 'date,name,amount\n2026-11-01,a,1\n', /^No header line with the google columns day \("day" or "date"\), campaign/],
  ['a Meta report given as Google', 'google', 'Reporting starts,Campaign name,Amount spent (USD)\n2026-11-01,a,1\n', /^No header line with the google columns/],
  ['a header and nothing else', 'generic', 'day,campaign,cost\n', /^The file has a header but no cost lines/],
  [
    'an amount in another currency than its currency column',
    'generic',
    'day,campaign,cost,currency\n2026-11-01,a,12.30 EUR,USD\n',
    /^line 2: the cost "12.30 EUR" is in EUR, but the line's currency is USD/,
  ],
  [
    'a line cut short before the cost',
    'generic',
    'day,campaign,cost,clicks\n2026-11-01,a\n',
    /^line 2: the line ends before the cost column \(2 of the header's columns\)/,
  ],
  [
    'a day that has not come yet (a typo for 2026)',
    'generic',
    'day,campaign,cost\n2026-11-01,a,1\n2062-11-01,a,1\n',
    /^line 3: the day 2062-11-01 has not come yet \(a cost report has the days already spent\)/,
  ],
  [
    'a day before the console could show it (a typo for 2026)',
    'generic',
    'day,campaign,cost\n2026-11-01,a,1\n1026-11-01,a,1\n',
    /^line 3: the day 1026-11-01 is before 2000-01-01, older than any day the console shows/,
  ],
  ['binary noise', 'generic', '\u0000\u0001\u0002PK\u0003\u0004', /^The file is not CSV text \(it is a spreadsheet workbook or another binary file\)/],
  ['a spreadsheet workbook (.xlsx, a zip)', 'google', 'PK\u0003\u0004\u0014\u0000\u0006\u0000[Content_Types].xml', /^The file is not CSV text/],
  [
    'a report a spreadsheet saved with semicolons',
    'generic',
    'day;campaign;cost\r\n2026-11-01;a;1,50\r\n',
    /^The file’s columns are separated by semicolons, as a spreadsheet set to a European list separator saves it/,
  ],
  [
    'a line break in a quoted campaign',
    'generic',
    'day,campaign,cost\n2026-11-01,"a\nb",1\n2026-11-01,c,x\n',
    /^line 2: the campaign "a\\x0ab" holds a control character, which no visit’s campaign has/,
  ],
];

describe('hostile cost reports are refused whole, with line numbers', () => {
  it.each(HOSTILE)('%s', (_what, source, text, error) => {
    const r = parseCostCsv(text, source);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]).toMatch(error);
  });

  it("takes tomorrow's day in UTC (some operator's today) and refuses the day after", () => {
    const now = new Date('2026-11-20T23:00:00.000Z');
    const r = parseCostCsv('day,campaign,cost\n2026-11-21,a,1\n2026-11-22,a,1\n', 'generic', 'USD', now);
    expect(!r.ok && r.errors).toEqual(['line 3: the day 2026-11-22 has not come yet (a cost report has the days already spent)']);
  });

  it('refuses a report saved as Windows-1252 rather than import its accented campaign garbled, naming the line and column', () => {
    const bytes = Buffer.from('day,campaign,cost\r\n2026-11-01,tx-payday,1.00\r\n2026-11-01,préstamos,2.00\r\n', 'latin1');
    const r = parseCostCsv(reportText(bytes), 'generic');
    expect(!r.ok && r.errors).toEqual(['line 3: the campaign "pr\uFFFDstamos" is not UTF-8 text; save the report as “CSV UTF-8” and upload it again']);
    const utf8 = parseCostCsv(reportText(Buffer.from(bytes.toString('latin1'), 'utf8')), 'generic');
    expect(utf8.ok && utf8.rows.map((row) => row.campaign)).toEqual(['tx-payday', 'préstamos']);
  });

  it('reports the line of a later problem after a quoted line break', () => {
    const r = parseCostCsv('day,campaign,cost\n2026-11-01,"x",1\n2026-11-01,c,x\n', 'generic');
    expect(!r.ok && r.errors).toEqual(['line 3: the cost "x" is not an amount']);
  });

  it('lists at most twenty problems, then says there are more', () => {
    const text = `day,campaign,cost\n${Array.from({ length: 30 }, (_, i) => `2026-11-01,c${i},bad`).join('\n')}\n`;
    const r = parseCostCsv(text, 'generic');
    expect(!r.ok && r.errors.length).toBe(21);
    expect(!r.ok && r.errors[20]).toBe('… and more; fix these first');
  });

  it('refuses a file over the size cap before reading its lines', () => {
    const r = parseCostCsv(`day,campaign,cost\n${'2026-11-01,a,1\n'.repeat(COST_CSV_MAX_BYTES / 15 + 1)}`, 'generic');
    expect(!r.ok && r.errors).toEqual(['The file is larger than 2 MB; split it by date range']);
  });

  it('takes a campaign as long as a visit keeps (500 characters, counted as the events API counts them) whole, and a longer one cut as a visit cuts it', () => {
    expect(eventsSchema.$defs.CampaignParam.maxLength).toBe(500);
    const named = (campaign: string) => parseCostCsv(`day,campaign,cost\n2026-11-01,${campaign},1\n`, 'generic');
    const long = `brand-search-exact-${'texas-payday-'.repeat(40)}`.slice(0, 500);
    const taken = named(long);
    expect(taken.ok && taken.rows.map((row) => [row.campaign, row.named])).toEqual([[long, undefined]]);
    // 500 emoji are 500 characters to the events API, though 1,000 UTF-16 units
    const emoji = '\u{1F4B5}'.repeat(500);
    const whole = named(emoji);
    expect(whole.ok && whole.rows.map((row) => [row.campaign, row.named])).toEqual([[emoji, undefined]]);
    // longer: cut where a visit from that landing URL is cut (a space the cut leaves at the end trimmed, as the API trims)
    for (const full of [`${long}x`, `${long.slice(0, 499)} tail`, `${emoji}\u{1F4B5}`]) {
      const visit = landingParams(`?utm_campaign=${encodeURIComponent(full)}`, false).utm_campaign;
      const cut = named(full);
      expect(cut.ok && cut.rows.map((row) => [row.campaign, row.named])).toEqual([[visit, full]]);
    }
  });

  it('names both campaigns that a visit cannot tell apart, a name of more than 1,000 characters quoted up to there', () => {
    const stem = 'a'.repeat(1200);
    const r = parseCostCsv(`day,campaign,cost\n2026-11-01,${stem}-one,1\n2026-11-01,${stem}-two,1\n`, 'generic');
    expect(!r.ok && r.errors).toEqual([
      `line 3: the campaigns of line 2 ("${'a'.repeat(1000)}…") and this line ("${'a'.repeat(1000)}…") are the same in their first 500 characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first 500 characters`,
    ]);
  });

  it('takes a campaign starting with =, +, - or @ exactly as a visit from that landing URL keeps it', () => {
    const names = ['-brand-exact', '+broad', '=HYPERLINK("http://x")', '@home', "'quoted", 'rtl\u202ename'];
    const report = `day,campaign,cost\n${names.map((n, i) => `2026-11-01,"${n.replace(/"/g, '""')}",${i + 1}`).join('\n')}\n`;
    const r = parseCostCsv(report, 'generic');
    expect(r.ok && r.rows.map((row) => [row.campaign, row.costCents])).toEqual(names.map((n, i) => [n, (i + 1) * 100]));
    // the campaign a visit stores from `?utm_campaign=…` (as the browser reads and sends it)
    const visited = names.map((n) => {
      const params = landingParams(`?utm_campaign=${encodeURIComponent(n)}`, false);
      const ctx = { brand: 'b', host: 'b.localhost', userAgent: '', optedOut: false, now: new Date() };
      return visitRow('v1', { path: '/', params }, ctx).campaign;
    });
    expect(visited).toEqual(names);
  });

  it('refuses exactly the characters a visit cannot keep: those the events API refuses and the browser drops', () => {
    const schema = new RegExp(eventsSchema.$defs.CampaignParam.pattern, 'u');
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      const browserKeeps = cleanText(`a${ch}b`, 10) === `a${ch}b`;
      if (schema.test(ch) !== visitKeeps(ch) || browserKeeps !== visitKeeps(ch)) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
    const refused = ['\u0000', '\t', '\u0007', '\u007f', '\u0085', '\u009b'].map((ch) =>
      parseCostCsv(`day,campaign,cost\n2026-11-01,"a${ch}b",1\n`, 'generic'),
    );
    expect(refused.map((r) => !r.ok && r.errors[0]!.replace(/ holds.*/, ''))).toEqual(
      ['\\x00', '\\x09', '\\x07', '\\x7f', '\\x85', '\\x9b'].map((shown) => `line 2: the campaign "a${shown}b"`),
    );
  });

  it('refuses more lines than the cap', () => {
    const text = `day,campaign,cost\n${Array.from({ length: COST_CSV_MAX_ROWS + 1 }, (_, i) => `2026-11-01,c${i},1`).join('\n')}`;
    const r = parseCostCsv(text, 'generic');
    expect(!r.ok && r.errors).toEqual(['The file has more than 50,000 lines; split it by date range']);
  });
});

describe('cells', () => {
  it.each([
    ['12', 1200],
    ['12.345', 1235],
    // half a cent up, as 12.345 is, however the fraction falls in binary (0.285 × 100 is 28.4999…)
    ['0.285', 29],
    ['0.145', 15],
    ['1.005', 101],
    ['0.994999', 99],
    ['0.995', 100],
    ['$1,000.10', 100010],
    ['7.5 USD', 750],
    ['--', 0],
    ['1e3', undefined],
    ['12,34', undefined],
  ])('the amount %s is %s cents', (raw, cents) => expect(centsOf(raw)).toBe(cents));

  it.each([
    ['12.30 EUR', 'EUR'],
    ['€7', 'EUR'],
    ['£7', 'GBP'],
    ['$7', undefined],
    ['7', undefined],
  ])('the amount %s names the currency %s', (raw, currency) => expect(amountCurrency(raw)).toBe(currency));

  it.each([
    ['2026-11-01', '2026-11-01'],
    ['11/30/2026', '2026-11-30'],
    ['2026-11-01T00:00:00Z', '2026-11-01'],
    ['31/12/2026', undefined],
    ['yesterday', undefined],
  ])('the day %s is %s', (raw, day) => expect(dayOf(raw)).toBe(day));

  it.each([
    ['2026-11-01', '2026-11-01'],
    ['30/11/2026', '2026-11-30'],
    ['03/04/2026', '2026-04-03'],
    ['1/2/2026', '2026-02-01'],
    ['11/30/2026', undefined],
    ['29/02/2026', undefined],
  ])('read day-first, the day %s is %s', (raw, day) => expect(dayOf(raw, 'day-first')).toBe(day));
});
