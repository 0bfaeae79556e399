/**
 * A certificate's human-readable page (/certificate/<id> on the brand's host): the consent as the
 * borrower saw it, who asked for it, the form's steps and their times, how the fields were filled
 * (counts only) and whether the signature holds. For the borrower (the thank-you screen links it)
 * and for a buyer's compliance team. A test lead's says so first, in its heading and a note, so
 * that nobody takes it for a borrower's consent. Self-contained (no script), everything shown escaped; not
 * indexed. No address or browser string: those are in the signed JSON the buyer fetches.
 */
import { escapeHtml } from '../../site/errorPages';
import type { SignedCertificate } from './certificate';

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STYLE = `body{font:17px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
.wrap{max-width:44rem;margin:0 auto;padding:1rem 1.25rem 2rem}
h1{font-size:1.6rem;line-height:1.25;margin:1rem 0}
blockquote{margin:1rem 0;padding:1rem;border-left:4px solid #334155;background:#f1f5f9}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #cbd5e1}
.ok{color:#14532d;font-weight:700}.bad{color:#991b1b;font-weight:700}
.test{margin:1rem 0;padding:1rem;border:3px solid #92400e;background:#fffbeb;color:#1a1a1a}
a{color:#0b4fc0;font-weight:600}a:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
code{word-break:break-all}`;

const HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

function page(title: string, main: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main class="wrap">${main}</main></body></html>`;
}

const e = escapeHtml;

/** The words that mark a test lead's certificate, on its page and in its title. */
export const TEST_CERTIFICATE_NOTE =
  'Test lead: this certificate records a submission on a test or development site, not a borrower’s real request. No consent to contact anyone was given.';

export function certificatePage(signed: SignedCertificate, problem: string | undefined, test = signed.certificate.test === true): PageAnswer {
  const c = signed.certificate;
  const steps = c.times.steps
    .map((s) => `<tr><td>Step ${s.step}</td><td>${e(s.shownAt)}</td><td>${e(s.doneAt)}</td><td>${(s.ms / 1000).toFixed(1)} s</td></tr>`)
    .join('');
  const fields = Object.entries(c.fields)
    .map(([name, f]) => `<tr><td>${e(name)}</td><td>${f.typed}</td><td>${f.pasted}</td><td>${f.autofilled}</td></tr>`)
    .join('');
  const d = c.consent.display;
  const display =
    d.fontSizePx === null
      ? '<p>The consent’s size and contrast were not measured.</p>'
      : `<p>Shown at ${d.fontSizePx}px with a contrast of ${d.contrast}:1 (at least ${d.minFontPx}px and ${d.minContrast}:1 required): <span class="${d.meetsRules ? 'ok">meets the rules' : `bad">${e(d.problems.join('; '))}`}</span>.</p>`;
  return {
    status: 200,
    headers: HEADERS,
    body: page(
      test ? 'Consent certificate (test lead)' : 'Consent certificate',
      `<h1>Consent certificate${test ? ' (test lead)' : ''}</h1>
${
  test
    ? `<p class="test" role="note"><strong>${e(TEST_CERTIFICATE_NOTE)}</strong></p>
`
    : ''
}<p>${problem ? `<span class="bad">This certificate does not verify: ${e(problem)}.</span>` : `<span class="ok">Signature valid</span> (Ed25519, key ${e(signed.signature.kid)}): nothing in it was changed since it was issued.`}</p>
<dl><dt>Certificate</dt><dd><code>${e(c.id)}</code></dd><dt>Issued</dt><dd>${e(c.issuedAt)}</dd><dt>Asked by</dt><dd>${e(c.seller.legalName)} (${e(c.seller.brandName)})</dd><dt>Page</dt><dd>${e(c.page.url)}</dd><dt>The page’s HTML as served</dt><dd>${c.page.htmlSha256 ? `SHA-256 <code>${e(c.page.htmlSha256)}</code>${c.page.htmlCachedAt ? ` (the version rendered ${e(c.page.htmlCachedAt)})` : ''}` : 'Not recorded'}</dd></dl>
<h2>The consent as it was shown</h2>
<blockquote lang="en">${e(c.consent.text)}</blockquote>
<p>Version ${e(c.consent.version)}, SHA-256 <code>${e(c.consent.sha256)}</code>.</p>
${display}
<h2>The form’s steps</h2>
<p>Page loaded ${e(c.times.pageLoadedAt)}; submitted ${e(c.times.submittedAt)}; received ${e(c.times.receivedAt)}.</p>
${steps ? `<table><thead><tr><th scope="col">Step</th><th scope="col">Shown</th><th scope="col">Left</th><th scope="col">Time spent</th></tr></thead><tbody>${steps}</tbody></table>` : '<p>No steps were recorded.</p>'}
<h2>How the fields were filled</h2>
${fields ? `<table><thead><tr><th scope="col">Field</th><th scope="col">Typed</th><th scope="col">Pasted</th><th scope="col">Autofilled</th></tr></thead><tbody>${fields}</tbody></table>` : '<p>Not recorded.</p>'}
<p><a href="/">Back to the site</a></p>`,
    ),
  };
}

export const noCertificate = (): PageAnswer => ({
  status: 404,
  headers: HEADERS,
  body: page(
    'Certificate not found',
    '<h1>Certificate not found</h1><p>There is no certificate at this address: check the link you were given.</p><p><a href="/">Back to the site</a></p>',
  ),
});

/** A certificate that is kept but cannot be opened right now (its lead key is not configured): not a 404, the link is right. */
export const unreadableCertificate = (): PageAnswer => ({
  status: 503,
  headers: HEADERS,
  body: page(
    'Certificate unavailable',
    '<h1>Certificate unavailable</h1><p>This certificate cannot be shown right now. Please try again later.</p><p><a href="/">Back to the site</a></p>',
  ),
});
