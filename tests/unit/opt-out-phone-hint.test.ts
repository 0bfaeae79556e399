/**
 * The opt-out page's phone hint names the phone of the brand's country, as its application form
 * does (a US brand's borrower is not told about Australian mobiles), while any country's phone is
 * still accepted: a borrower may have applied on another country's brand. The page's deadline for
 * lenders is the brand's country's too.
 */
import { describe, expect, it } from 'vitest';
import { readOptOut } from '../../engine/sale/optOut';
import { contactHashes } from '../../engine/sale/contact';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../engine/content/embedded';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { renderPage } from '../support/pageSamples';

describe('the opt-out phone hint follows the brand’s country', () => {
  it.each([
    ['US', '/phone: enter a 10-digit US phone number, for example (512) 555-0123'],
    ['CA', '/phone: enter a 10-digit Canadian phone number, for example 416-555-0123'],
    ['AU', '/phone: enter an Australian mobile number, for example 0412 345 678 or +61 412 345 678'],
  ] as const)('%s: %s', (country, hint) => {
    expect(readOptOut({ phone: '12345' }, country)).toEqual({ ok: false, problems: [hint] });
  });

  it('a US brand’s hint does not mention Australia', () => {
    expect(JSON.stringify(readOptOut({ phone: '12345' }, 'US'))).not.toMatch(/Australia/);
  });

  it.each(['US', 'CA', 'AU'] as const)('%s: a phone of any served country is accepted', (country) => {
    for (const phone of ['(214) 555-0142', '416-555-0187', '+61 412 345 678']) expect(readOptOut({ phone }, country).ok).toBe(true);
  });

  it('an Australian mobile written with the trunk 0 after +61 is the same contact as the one stored on the request', () => {
    const key = Buffer.alloc(32, 7);
    const stored = contactHashes(key, { phone: '0412345678', email: '' });
    for (const phone of ['+61 (0)412 345 678', '+61 0412 345 678']) {
      expect(readOptOut({ phone }, 'AU').ok).toBe(true);
      expect(contactHashes(key, { phone, email: '' })).toEqual(stored);
    }
  });
});

describe('the stop-calls page gives the deadline of the brand’s country', () => {
  const sources = readSources();
  const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
  const content = createEmbeddedSource(embeddedIndex());
  it.each([
    ['ipaydayloans', '10 business days'], // the FCC's TCPA revocation rule
    ['weloans', '10 business days'], // CASL
    ['fastloansau', '5 business days'], // the Spam Act 2003
  ])('%s: lenders must honour it within %s', async (brand, deadline) => {
    const page = await renderPage(catalog, brand, '/stop-calls-and-emails', content);
    expect(page === 'notFound' ? '' : page.main).toContain(`Lenders must honour it within ${deadline};`);
  });
});
