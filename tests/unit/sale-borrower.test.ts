import { describe, expect, it } from 'vitest';
import {
  REVIEW_POLL_MS,
  REVIEW_WAIT_MS,
  SALE_POLL_MS,
  salePoll,
  saleView,
  safeContinueUrl,
  SALE_WAIT_MS,
  type SaleWait,
} from '../../blocks/applyForm/saleView';
import { readSaleToken, SALE_TOKEN_KEY, writeSaleToken } from '../../blocks/applyForm/persist';
import { outcomeOf } from '../../blocks/applyForm/send';
import { demoBid, demoBuyer, demoPostAnswer } from '../../engine/sale/demoLender';
import { leadOfSaleToken, saleToken } from '../../engine/sale/keys';
import { saleBuyers } from '../../engine/sale/settings';
import { saleStatusAnswer } from '../../engine/sale/status';
import type { LeadSalesTable } from '../../engine/store/saleTables';

/** A sealed demo offer as the demo lender's reference (its form only: what it opens to is tested in sale-demo-offer.test.ts). */
const OFFER = `o2.${'Qk'.repeat(40)}`;

process.env.LEADS_ENCRYPTION_KEY ??= 'f'.repeat(64);

describe("the demo lender, by the rules written in the operators' guide", () => {
  it.each([
    ['a Texas request for $800', { amount: 800, state: 'TX', loanKind: 'general' as const }, { bid: true, price: 12 }],
    ['a title loan for $3,000', { amount: 3000, state: 'TX', loanKind: 'title' as const }, { bid: true, price: 20 }],
    ['$3,001', { amount: 3001, state: 'TX', loanKind: 'general' as const }, { bid: false, reason: 'the demo lender refuses amounts above $3,000' }],
    ['New York', { amount: 500, state: 'NY', loanKind: 'general' as const }, { bid: false, reason: 'the demo lender does not lend in New York' }],
  ])('%s', (_, ping, expected) => expect(demoBid(ping)).toMatchObject(expected));
  it('accepts the post of what it bid on and refuses the rest', () => {
    expect(demoPostAnswer({ amount: 800, state: 'TX', loanKind: 'general' })).toMatchObject({ accepted: true });
    expect(demoPostAnswer({ amount: 5000, state: 'TX', loanKind: 'general' })).toMatchObject({ accepted: false });
  });
  it('is called on the server itself', () => expect(demoBuyer('http://127.0.0.1:3000').endpoints.ping).toBe('http://127.0.0.1:3000/api/demo-lender/ping'));
});

describe("the borrower's status token", () => {
  it('names its lead and cannot be forged or guessed', () => {
    const t = saleToken('ld_abc123def456');
    expect(leadOfSaleToken(t)).toBe('ld_abc123def456');
    expect(leadOfSaleToken(t.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeUndefined();
    expect(leadOfSaleToken('ld_abc123def457.' + t.split('.')[1])).toBeUndefined();
    expect(leadOfSaleToken('ld_abc123def456')).toBeUndefined();
    expect(leadOfSaleToken('')).toBeUndefined();
  });
});

describe("the borrower's status token across a lead-key rotation", () => {
  it('is still taken once the key it was made under is an older key of the ring, and not once that key is dropped', () => {
    const saved = { ...process.env };
    const [oldKey, newKey] = ['1'.repeat(64), '2'.repeat(64)];
    try {
      delete process.env.LEADS_ENCRYPTION_KEY;
      process.env.LEADS_ENCRYPTION_KEYS = oldKey;
      const t = saleToken('ld_abc123def456');
      process.env.LEADS_ENCRYPTION_KEYS = `${newKey},${oldKey}`;
      expect(leadOfSaleToken(t)).toBe('ld_abc123def456');
      expect(saleToken('ld_abc123def456')).not.toBe(t);
      process.env.LEADS_ENCRYPTION_KEYS = newKey;
      expect(leadOfSaleToken(t)).toBeUndefined();
    } finally {
      process.env = saved;
    }
  });
});

describe('the status answer holds nothing personal and no unchecked redirect', () => {
  const sale = (over: Partial<LeadSalesTable>): LeadSalesTable => ({
    lead_id: 'ld_abc123def456',
    status: 'pending',
    duplicate: 0,
    buyer_id: null,
    price_cents: null,
    redirect_url: null,
    buyer_lead_id: null,
    reason: null,
    buyer_day: null,
    buyer_month: null,
    claimed_by: null,
    claimed_until: null,
    runs: 0,
    created_at: '',
    decided_at: null,
    ...over,
  });
  const acme = { ...demoBuyer('https://x'), id: 'acme', displayName: 'Acme Lending', redirectHosts: ['offers.acme.example'] };
  const of = (id: string) => (id === 'acme' ? acme : undefined);
  it.each<[string, Partial<LeadSalesTable>, string | undefined, object]>([
    ['pending', {}, undefined, { state: 'finding' }],
    // held for review: it may still be released and sold, so never "nothing sold"; why it was held is not said
    ['held for review', { status: 'unsold', reason: 'held for review by screening (score 20: bot-fast)' }, 'hold', { state: 'review' }],
    ['held for review, a duplicate', { status: 'duplicate' }, 'hold', { state: 'review' }],
    ['held, then its contact opted out', { status: 'suppressed' }, 'hold', { state: 'none' }],
    ['released, its sale running', {}, 'released', { state: 'finding' }],
    ['released and unsold', { status: 'unsold' }, 'released', { state: 'none' }],
    ['rejected by review', { status: 'unsold' }, 'rejected', { state: 'none' }],
    ['unsold', { status: 'unsold' }, undefined, { state: 'none' }],
    ['duplicate', { status: 'duplicate' }, undefined, { state: 'none' }],
    ['suppressed', { status: 'suppressed' }, undefined, { state: 'none' }],
    [
      'sold with a redirect',
      { status: 'sold', buyer_id: 'acme', price_cents: 900, redirect_url: 'https://offers.acme.example/x' },
      undefined,
      { state: 'matched', lender: 'Acme Lending', continueUrl: 'https://offers.acme.example/x' },
    ],
    [
      'sold, the redirect host no longer declared',
      { status: 'sold', buyer_id: 'acme', redirect_url: 'https://old.acme.example/x' },
      undefined,
      { state: 'matched', lender: 'Acme Lending' },
    ],
    // The demo lender's offer page moved from /api/demo-lender/offer to /demo-lender/offer (the front door routes it), and
    // carries the demo lender's sealed offer, its reference for the lead: opaque, so the answer still shows no amount or price.
    [
      'sold to the demo lender, no offer recorded',
      { status: 'sold', buyer_id: 'demo-lender' },
      undefined,
      { state: 'matched', demo: true, continueUrl: '/demo-lender/offer' },
    ],
    [
      'sold to the demo lender with its sealed offer',
      { status: 'sold', buyer_id: 'demo-lender', price_cents: 900, buyer_lead_id: OFFER },
      undefined,
      { state: 'matched', demo: true, continueUrl: `/demo-lender/offer?o=${OFFER}` },
    ],
    [
      'sold to the demo lender, a reference that is not an offer left out of the link',
      { status: 'sold', buyer_id: 'demo-lender', buyer_lead_id: 'x"><script>' },
      undefined,
      { state: 'matched', demo: true, continueUrl: '/demo-lender/offer' },
    ],
  ])('%s', (_, over, routing, expected) => {
    const answer = saleStatusAnswer(sale(over), of, routing);
    expect(answer).toEqual(expect.objectContaining(expected));
    expect(JSON.stringify(answer)).not.toMatch(/900|ld_abc123def456|bot-fast|screening/);
  });
});

describe('what the form shows while the lead is sold', () => {
  it.each<[string, Parameters<typeof saleView>[0], number, string]>([
    ['no answer yet', undefined, 0, 'finding'],
    ['still finding', { state: 'finding' }, 10_000, 'finding'],
    ['still finding at the bound', { state: 'finding' }, SALE_WAIT_MS, 'none'],
    ['matched', { state: 'matched', lender: 'Acme', continueUrl: 'https://a.example/' }, 1000, 'matched https://a.example/'],
    ['matched, a javascript: link dropped', { state: 'matched', lender: 'Acme', continueUrl: 'javascript:alert(1)' }, 1000, 'matched -'],
    ['matched, a protocol-relative link dropped', { state: 'matched', lender: 'Acme', continueUrl: '//evil.example/' }, 1000, 'matched -'],
    ['matched, a path of this site kept', { state: 'matched', lender: 'Demo', continueUrl: '/api/demo-lender/offer' }, 1000, 'matched /api/demo-lender/offer'],
    ['none', { state: 'none' }, 1000, 'none'],
    ['being checked', { state: 'review' }, 1000, 'review'],
    ['being checked, past the bound', { state: 'review' }, SALE_WAIT_MS + 1000, 'review'],
  ])('%s', (_, answer, waited, expected) => {
    const v = saleView(answer, waited);
    expect(v.kind === 'matched' ? `matched ${v.continueUrl ?? '-'}` : v.kind).toBe(expected);
  });
  it('only follows https or a path of this site', () => {
    expect(safeContinueUrl('http://a.example/')).toBeUndefined();
    expect(safeContinueUrl('/\\evil.example')).toBeUndefined();
  });
  it('keeps the sale token from the answer to the lead post', () => {
    expect(outcomeOf(201, { id: 'ld_1', status: 'received', saleToken: 'ld_1.x' }, null)).toEqual({ kind: 'received', id: 'ld_1', saleToken: 'ld_1.x' });
  });
});

describe('how the page follows a request held for a check', () => {
  const MIN = 60_000;
  /** The page's polls, answer after answer, from a mount at 0: what each showed and when it asked again. */
  function follow(answers: [at: number, answer: Parameters<typeof salePoll>[0]][]) {
    let wait: SaleWait = { phase: 'finding', since: 0 };
    return answers.map(([at, answer]) => {
      const step = salePoll(answer, wait, at);
      wait = step.wait;
      const shown = step.view.kind === 'review' && step.view.stopped ? 'review, stopped' : step.view.kind;
      return `${shown} ${step.nextMs ?? 'stop'}`;
    });
  }
  it('keeps asking, less often, while the request is checked, and shows the sale that follows its release as any sale', () => {
    expect(
      follow([
        [0, { state: 'finding' }],
        [1_500, { state: 'review' }],
        [10 * MIN, { state: 'review' }],
        // released after ten minutes: its sale is given the whole wait, not over at once for the time since submit
        [10 * MIN + REVIEW_POLL_MS, { state: 'finding' }],
        [10 * MIN + REVIEW_POLL_MS + SALE_WAIT_MS - 1_000, { state: 'finding' }],
        [10 * MIN + REVIEW_POLL_MS + SALE_WAIT_MS, { state: 'matched', lender: 'Acme', continueUrl: 'https://a.example/' }],
      ]),
    ).toEqual([
      `finding ${SALE_POLL_MS}`,
      `review ${REVIEW_POLL_MS}`,
      `review ${REVIEW_POLL_MS}`,
      `finding ${SALE_POLL_MS}`,
      `finding ${SALE_POLL_MS}`,
      'matched stop',
    ]);
  });
  it("stops at the sale's end, released or rejected, and at the bound of the released sale", () => {
    expect(
      follow([
        [0, { state: 'review' }],
        [REVIEW_POLL_MS, { state: 'none' }],
      ]),
    ).toEqual([`review ${REVIEW_POLL_MS}`, 'none stop']);
    expect(
      follow([
        [0, { state: 'review' }],
        [REVIEW_POLL_MS, { state: 'finding' }],
        [REVIEW_POLL_MS + SALE_WAIT_MS, { state: 'finding' }],
      ]),
    ).toEqual([`review ${REVIEW_POLL_MS}`, `finding ${SALE_POLL_MS}`, 'none stop']);
  });
  it('stops asking by itself once the check has taken longer than the page waits, and a lost answer changes nothing', () => {
    expect(
      follow([
        [0, { state: 'review' }],
        [REVIEW_POLL_MS, undefined],
        [REVIEW_WAIT_MS - 1, { state: 'review' }],
        [REVIEW_WAIT_MS, { state: 'review' }],
      ]),
    ).toEqual([`review ${REVIEW_POLL_MS}`, `review ${REVIEW_POLL_MS}`, `review ${REVIEW_POLL_MS}`, 'review, stopped stop']);
  });
  it("keeps the request's status token for a reload, and nothing that is not one", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const token = saleToken('ld_abc123def456');
    writeSaleToken(storage, token);
    expect(readSaleToken(storage)).toBe(token);
    store.set(SALE_TOKEN_KEY, '<script>');
    expect(readSaleToken(storage)).toBeUndefined();
    expect(readSaleToken(undefined)).toBeUndefined();
  });
});

describe('which buyers the sale uses', () => {
  const fixtures = 'tests/fixtures/buyers';
  it.each<[string, Record<string, string>, string[]]>([
    [
      'the demo lender on a server with no buyer documents',
      { LOANSITES_BUYERS_DIR: 'tests/no-such-folder', LOANSITES_DEMO_LENDER_ORIGIN: 'http://127.0.0.1:3800' },
      ['demo-lender'],
    ],
    [
      'never in a deployment',
      { LOANSITES_BUYERS_DIR: 'tests/no-such-folder', LOANSITES_DEMO_LENDER_ORIGIN: 'http://127.0.0.1:3800', LOANSITES_DEPLOYMENT: 'production' },
      [],
    ],
    ['none in a process that serves nothing', { LOANSITES_BUYERS_DIR: 'tests/no-such-folder' }, []],
    [
      'the documents whose secret is set, and then no demo lender',
      { LOANSITES_BUYERS_DIR: fixtures, LOANSITES_DEMO_LENDER_ORIGIN: 'http://x', BUYER_ACME_SECRET: 's' },
      ['acme-lending'],
    ],
  ])('%s', (_, env, ids) => {
    expect(saleBuyers(env).buyers.map((b) => b.id)).toEqual(ids);
  });
});
