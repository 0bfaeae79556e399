/**
 * The demo lender's offer page (/demo-lender/offer on a brand's host): what a lender's website
 * would show the borrower it bought, said plainly to be a demonstration. A link that is missing,
 * damaged, forged or expired gets its own 4xx page saying so. A self-contained page (no script):
 * the demo lender stands for another company's website, not a page of the brand. Everything
 * shown is escaped, although only this server can have made an offer that opens.
 */
import type { Brand } from '../../schemas/brand.types';
import { escapeHtml } from '../site/errorPages';
import { LOCALE_OF, type Country } from '../browser/regions';
import { timeZoneOf } from '../geo/regionTimeZones';
import type { DemoOffer, OpenedOffer } from './demoOffer';

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STYLE = `body{font:17px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
.demo{background:#fde68a;border-bottom:3px solid #92400e;padding:.75rem 1rem;margin:0}
.wrap{max-width:40rem;margin:0 auto;padding:1rem 1.25rem 2rem}
h1{font-size:1.6rem;line-height:1.25;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:1rem 0;padding:1rem;border:2px solid #334155;border-radius:.5rem}
dt{font-weight:700}dd{margin:0}
a{display:inline-flex;align-items:center;min-height:44px;color:#0b4fc0;font-weight:600}
a:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
footer{color:#334155;font-size:.95rem;border-top:1px solid #cbd5e1;margin-top:2rem;padding-top:.5rem}`;

const money = (amount: number, currency: string): string => `$${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${currency}`;

/** The kind of loan the borrower asked for: a title request, else what the brand they applied on offers. */
const KIND_OF_PRODUCT: Record<Brand['product'], string> = {
  payday: 'Payday loan',
  'bad-credit': 'Bad credit loan',
  installment: 'Installment loan',
  personal: 'Personal loan',
  title: 'Title loan',
  general: 'Loan',
};
export const loanKindText = (offer: Pick<DemoOffer, 'loanKind'>, product: Brand['product']): string =>
  offer.loanKind === 'title' ? KIND_OF_PRODUCT.title : KIND_OF_PRODUCT[product];

/** "Friday, November 27, 2026 at 9:00 AM CST": the time in the borrower's region (UTC only where it is unknown). */
export function localTime(ms: number, offer: Pick<DemoOffer, 'country' | 'region'>): string {
  const zone = timeZoneOf(offer.country, offer.region);
  const locale = LOCALE_OF[offer.country as Country] ?? 'en-US';
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: zone ?? 'UTC' }).format(ms);
}

function page(title: string, main: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} — Demo Lender (a demonstration)</title><style>${STYLE}</style></head><body>
<header><p class="demo"><strong>Demonstration — not a real lender.</strong> This page stands in for a lender's website. No loan exists, nobody will contact you, and nothing was charged.</p></header>
<main class="wrap">${main}</main>
<footer class="wrap"><p>Demo Lender is built into this site's software so its operators can try the whole journey. A deployment never uses it.</p></footer>
</body></html>`;
}

const HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

/** The page for an opened (or refused) offer link; `product`: what the brand the link was opened on offers. */
export function demoOfferPage(opened: OpenedOffer, product: Brand['product']): PageAnswer {
  if (!opened.ok) {
    const expired = opened.expired ? `<p>It expired on ${escapeHtml(localTime(opened.expired.expiresAt, opened.expired))}.</p>` : '';
    return {
      status: opened.status,
      headers: HEADERS,
      body: page(
        opened.title,
        `<h1>${escapeHtml(opened.title)}</h1><p>${escapeHtml(opened.reason)}</p>${expired}<p>To see a demo offer, send a new request from the site's apply page.</p><p><a href="/">Back to the site</a></p>`,
      ),
    };
  }
  const o = opened.offer;
  const kind = loanKindText(o, product);
  return {
    status: 200,
    headers: HEADERS,
    body: page(
      'Your demo offer',
      `<h1>Demo Lender: your demo offer</h1>
<p>Demo Lender accepted your request. A real lender would show its offer here: the amount, the APR, every fee and the repayment dates, before you sign anything.</p>
<h2>The request it accepted</h2>
<dl><dt>Amount</dt><dd>${escapeHtml(money(o.amount, o.currency))}</dd><dt>Loan type</dt><dd>${escapeHtml(kind)}</dd><dt>Offer valid until</dt><dd>${escapeHtml(localTime(o.expiresAt, o))}</dd></dl>
<h2>For the site's operators</h2>
<p>Demo Lender paid $${escapeHtml((o.priceCents / 100).toFixed(2))} for this request; <code>npm run leads</code> shows the sale with its price.</p>
<p><a href="/">Back to the site</a></p>`,
    ),
  };
}

/** Where the demo lender does not exist (a deployment, or buyer documents in use). */
export const noDemoLender = (): PageAnswer => ({
  status: 404,
  headers: { ...HEADERS },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head><body><main><h1>Not found</h1><p>There is no demo lender on this site.</p></main></body></html>`,
});
