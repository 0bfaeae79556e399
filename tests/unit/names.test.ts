/** Issue 16 item 7: names and labels as pages show them, from the generators (not page by page). */
import { describe, expect, it } from 'vitest';
import { getCatalog } from '../../engine/site/catalog';
import { cityInState } from '../../engine/geo/cities';
import { lendingView } from '../../engine/site/lending';
import { capitalizeFirst, displayPlaceName } from '../../engine/geo/names';
import { loanTypeOptionLabel } from '../../engine/blockSpecs/searchForm';
import { resolvePage } from '../../engine/site/resolve';
import { STATE_SETS, stateByCode } from '../../engine/geo/states';
import { fill, possessive } from '../../engine/site/templates';
import { mobileMenuGroups } from '../../engine/browser/widgets/menu';

const catalog = getCatalog();

describe('place names (displayPlaceName)', () => {
  it.each([
    ['Mcallen', 'McAllen'],
    ['MCALLEN', 'MCALLEN'],
    ['Mckinney', 'McKinney'],
    ['District Of Columbia', 'District of Columbia'],
    ['Isle Of Palms', 'Isle of Palms'],
    ["O'fallon", "O'Fallon"],
    ["D'iberville", "D'Iberville"],
    ['Winston-salem', 'Winston-Salem'],
    ['The Villages', 'The Villages'],
    ['Houston', 'Houston'],
    ['Macon', 'Macon'],
    ['  New   York ', 'New York'],
  ])('%s → %s', (name, out) => expect(displayPlaceName(name)).toBe(out));

  it('is idempotent', () => {
    for (const n of ['McAllen', 'District of Columbia', "O'Fallon"]) expect(displayPlaceName(displayPlaceName(n))).toBe(n);
  });

  it('the derived city table has McAllen, TX (slug unchanged)', () => {
    expect(cityInState('tx', 'mcallen')?.name).toBe('McAllen');
  });

  it('DC shows as "District of Columbia"; SPEC §3 records keep "District Of Columbia"; the restricted list still finds it', () => {
    const dc = stateByCode('dc')!;
    expect(dc.name).toBe('District of Columbia');
    expect(dc.slug).toBe('district-of-columbia');
    expect(dc.recordName).toBe('District Of Columbia');
    expect(STATE_SETS.restricted.has(dc.name)).toBe(true);
  });
});

describe('labels', () => {
  it.each([
    ['title loans in Houston: what to expect', 'Title loans in Houston: what to expect'],
    ['Borrowing in McAllen', 'Borrowing in McAllen'],
    ['iPaydayLoans and you', 'IPaydayLoans and you'],
    ['', ''],
  ])('capitalizeFirst(%j) → %j', (text, out) => expect(capitalizeFirst(text)).toBe(out));

  it('headings of generated pages start with a capital (ustitleloans city page)', () => {
    const page = resolvePage(catalog, 'ustitleloans', '/title-loans/houston')!;
    const headings = page.blocks.flatMap((b) => ('heading' in b && typeof b.heading === 'string' ? [b.heading] : []));
    expect(headings).toContain('Title loans in Houston: what to expect');
    for (const h of headings) expect(h).toMatch(/^[^a-z]/);
  });

  it('no demonym reads as an adjective: "borrowers in New York", not "New Yorker borrowers"', () => {
    const page = resolvePage(catalog, 'ipaydayloans', '/location/ny')!;
    const text = JSON.stringify(page.blocks);
    expect(text).not.toMatch(/New Yorker borrowers/);
    expect(text).toContain('borrowers in New York');
  });

  it('loan-type choices never read the same (ustitleloans: title loans and title loans near me)', () => {
    expect(loanTypeOptionLabel('title-loans')).toBe('Title loans');
    expect(loanTypeOptionLabel('title-loans-near-me')).toBe('Title loans near me');
    const search = resolvePage(catalog, 'ustitleloans', '/title-loans/search')!.blocks.find((b) => b.type === 'searchForm');
    if (search?.type === 'searchForm') {
      const labels = search.data.loanTypes.map((t) => t.label);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('possessives stay as before', () => {
    expect(possessive('US Title Loans')).toBe("US Title Loans'");
    expect(fill("{state.name}'s rules", { 'state.name': 'District of Columbia' })).toBe("District of Columbia's rules");
  });
});

describe('the phone menu groups (engine/browser/widgets/menu.ts)', () => {
  it('a group label is never a link; its own page is among its links; plain items stay links', () => {
    const groups = mobileMenuGroups([
      { label: 'Loan Types', children: [{ label: 'Payday', href: '/payday-loans' }] },
      { label: 'Near Me', href: '/loans-near-me', children: [{ label: 'Loans Near Me', href: '/loans-near-me' }] },
      { label: 'Learn', href: '/hub', children: [{ label: 'FAQs', href: '/faqs' }] },
      { label: 'Blog', href: '/blog' },
      { label: 'Contact', href: '/contact' },
    ]);
    expect(groups).toEqual([
      { label: 'Loan Types', links: [{ label: 'Payday', href: '/payday-loans' }] },
      { label: 'Near Me', links: [{ label: 'Loans Near Me', href: '/loans-near-me' }] },
      {
        label: 'Learn',
        links: [
          { label: 'Learn: overview', href: '/hub' },
          { label: 'FAQs', href: '/faqs' },
        ],
      },
      {
        links: [
          { label: 'Blog', href: '/blog' },
          { label: 'Contact', href: '/contact' },
        ],
      },
    ]);
  });
});

describe('cost and trust (brand lending, engine/site/lending.ts)', () => {
  it('every brand has a representative example, a how-we-are-paid line and its operator', () => {
    for (const [id, loaded] of catalog.brands) {
      const l = lendingView(loaded.brand, { 'brand.name': loaded.brand.name });
      // Each country words its example as its rules ask: US installments, Canada's instalments, Australia's repayments with a comparison rate.
      expect(l.representativeExample, id).toMatch(
        /^Representative example: a \$[\d,]+ (title |personal )?loan repaid (in|over) 12 (monthly installments|monthly instalments|months in monthly repayments)/,
      );
      expect(l.howWePaid, id).toContain('not a lender');
      expect(l.contact.telephone, id).toBe(loaded.brand.organization.telephone);
      expect(l.contact.address, id).toContain(loaded.brand.organization.address.addressLocality);
    }
  });

  it('the apply form reads the same text as the hero', () => {
    const page = resolvePage(catalog, 'ustitleloans', '/apply-title-loans')!;
    const form = page.blocks.find((b) => b.type === 'applyForm');
    expect(form?.type === 'applyForm' && form.data.representativeExample).toBe(page.brand.lending.representativeExample);
    expect(page.brand.lending.representativeExample).toMatch(/title loan/);
    expect(page.noApply).toBe(true);
  });
});

describe('a state the brand cannot serve (item 5)', () => {
  it('/location/ny: no apply button, the reason first, alternatives instead of the call to action, no amount widget', () => {
    const page = resolvePage(catalog, 'ipaydayloans', '/location/ny')!;
    const hero = page.blocks.find((b) => b.type === 'hero');
    expect(hero?.type === 'hero' && hero.ctaLabel).toBeFalsy();
    expect(hero?.type === 'hero' && hero.data.unavailable?.reason).toMatch(/cannot connect borrowers in New York/);
    const cta = page.blocks.find((b) => b.type === 'applyCta');
    expect(cta?.type === 'applyCta' && cta.data.unavailable?.alternatives.length).toBeGreaterThan(0);
    expect(page.blocks.some((b) => b.type === 'quickAmount' || b.type === 'getYourCash' || b.type === 'rangeSlider')).toBe(false);
    expect(page.noApply).toBe(true);
  });

  it('/location/tx keeps its button', () => {
    const page = resolvePage(catalog, 'ipaydayloans', '/location/tx')!;
    const hero = page.blocks.find((b) => b.type === 'hero');
    expect(hero?.type === 'hero' && hero.ctaLabel).toBeTruthy();
    expect(page.noApply).toBeUndefined();
  });
});
