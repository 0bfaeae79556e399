import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources, type Source } from '../../engine/site/catalog';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { checkBuyerSchema } from '../../engine/validate/schema';

const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const FILE = 'brands/acme.json';

/** The fixture with one edit; fails loudly if the edit did not apply. */
function edit(from: string, to: string, text = base): string {
  expect(text.includes(from), `fixture contains ${from}`).toBe(true);
  return text.replace(from, to);
}

/** line:column of the first occurrence of `needle` (searching from `after`) — found by plain string search. */
function at(text: string, needle: string, after = ''): string {
  const start = after ? text.indexOf(after) : 0;
  const offset = text.indexOf(needle, start);
  expect(offset, `text contains ${needle}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const problemsOf = (text: string, extra: Source[] = []) => buildCatalog([{ file: FILE, text }, ...extra], [], BLOCK_SPECS).problems;

describe('the fixture brand is valid', () => {
  it('has no problems and loads', () => {
    const catalog = buildCatalog([{ file: FILE, text: base }], [], BLOCK_SPECS);
    expect(catalog.problems).toEqual([]);
    expect([...catalog.brands.keys()]).toEqual(['acme']);
  });
});

describe('broken brand documents: file:line:col /pointer: message', () => {
  it('unknown block type', () => {
    const text = edit('{ "type": "hero", "heading": "Loans when', '{ "type": "heroo", "heading": "Loans when');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"type": "heroo"')} /layouts/home/blocks/0/type: unknown block "heroo" (known: addressAutocomplete, applyCta, applyForm, cityIndex, cityList, contactOptOut, contentBody, contentList, faq, getYourCash, hero, linkGrid, locationFacts, locationSearch, privacyChoice, quickAmount, rangeSlider, richText, searchForm, stateList, steps, storeDirectory, storeFacts)`,
    ]);
  });

  it('unknown property in config', () => {
    const text = edit('"layout": "full"', '"layout": "full",\n    "colour": "#ffffff"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"colour"')} /config/colour: unknown property "colour" (allowed: theme, progressColor, pageTitle, gtmId, tiktokPixelId, mapKey, siteKey, layout, applyFormType)`,
    ]);
  });

  it('missing required property', () => {
    const text = edit('    "pageTitle": "Acme Loans",\n', '');
    expect(problemsOf(text)).toEqual([`${FILE}:${at(text, '"config"')} /config: missing required property "pageTitle"`]);
  });

  it('value outside an enum', () => {
    const text = edit('"layout": "full"', '"layout": "wide"');
    expect(problemsOf(text)).toEqual([`${FILE}:${at(text, '"layout": "wide"')} /config/layout: "wide" is not allowed here (allowed: full, logo-only)`]);
  });

  it('pattern with a plain-English hint', () => {
    const text = edit('"gtmId": "GTM-ACME123"', '"gtmId": "ACME"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"gtmId"')} /config/gtmId: "ACME" is not valid: expected a Google Tag Manager container id such as GTM-ABC1234`,
    ]);
  });

  it('a contact email with mailto: parameters, which the consent wording would print as the address to write to, is refused with what a plain one is', () => {
    for (const email of [
      'help@acmeloans.com?bcc=x@evil.example',
      'help@acmeloans.com?subject=hi.com',
      'help@acmeloans.com?bcc=x%40evil.example',
      'help@acmeloans.com%0Abcc:evil.com',
      'mailto:help@acmeloans.com',
    ]) {
      const text = edit('"email": "help@acmeloans.com"', `"email": ${JSON.stringify(email)}`);
      expect(problemsOf(text), email).toEqual([
        `${FILE}:${at(text, '"email"')} /organization/email: ${JSON.stringify(email)} is not valid: expected a plain email address such as help@example.com: letters, digits and . _ + ' - before the @, a domain after it, and nothing more (no mailto:, no ?subject= or ?bcc=, no %-escapes)`,
      ]);
    }
    expect(problemsOf(edit('"email": "help@acmeloans.com"', `"email": "first.o'neil+loans@mail.acme-loans.co.uk"`))).toEqual([]);
  });

  it('wrong type', () => {
    const text = edit('"hosts": ["acmeloans.com", "www.acmeloans.com"]', '"hosts": "acmeloans.com"');
    expect(problemsOf(text)).toEqual([`${FILE}:${at(text, '"hosts"')} /hosts: must be an array, not a string`]);
  });

  it('JSON syntax error (trailing comma)', () => {
    const text = edit('"siteKey": "6Lc-acme",', '"siteKey": "6Lc-acme",,');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, ',', '"siteKey": "6Lc-acme",').replace(/:(\d+)$/, (_, c) => `:${Number(c) + 1}`)} /: not valid JSON: a property name in double quotes is expected here (is there a trailing comma before?)`,
    ]);
  });

  it('a name given twice in one object is refused at the second, naming the first (JSON.parse would keep the last silently)', () => {
    const text = edit('"theme": "#0b5394",', '"theme": "#0b5394", "theme": "#000000",');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"theme": "#000000"')} /config/theme: "theme" is given twice in the same object (first at line ${at(text, '"theme"').replace(':', ', column ')}): keep the one you mean and remove the other`,
    ]);
  });

  it('a value listed twice is named, at the second, with the entries counted from 1', () => {
    const text = edit('"hosts": ["acmeloans.com", "www.acmeloans.com"]', '"hosts": ["acmeloans.com", "www.acmeloans.com", "acmeloans.com"]');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"acmeloans.com"', '"www.acmeloans.com"')} /hosts/2: "acmeloans.com" is in this list twice (entries 1 and 3, counting from 1); keep one`,
    ]);
  });

  it('a file saved with a byte-order mark says so and how to save it without', () => {
    const [problem] = problemsOf(`\uFEFF${base}`);
    expect(problem).toContain(`${FILE}:1:1 /: not valid JSON: the file starts with an invisible byte-order mark (BOM)`);
    expect(problem).toContain('save it as "UTF-8" without BOM');
  });

  it('the pixel on a brand that is not general', () => {
    const text = edit('"gtmId": "GTM-ACME123"', '"gtmId": "GTM-ACME123", "tiktokPixelId": "C4ABCDEFGHIJKLMN0123"');
    expect(problemsOf(text).join('\n')).toContain('/config/tiktokPixelId: the pixel is for general brands only');
  });

  it('a US brand without its Do Not Sell or Share page', () => {
    const text = edit('{ "path": "/do-not-sell-or-share", "layout": "privacy-choice" }', '{ "path": "/do-not-sell-or-share", "layout": "home" }');
    expect(problemsOf(text).join('\n')).toContain('/routes: a US brand needs its "Do Not Sell or Share My Personal Information" page');
  });

  it('route naming a layout that does not exist', () => {
    const text = edit('{ "path": "/location/{stateCode}", "layout": "state" }', '{ "path": "/location/{stateCode}", "layout": "statee" }');
    expect(problemsOf(text)).toContain(
      `${FILE}:${at(text, '"layout": "statee"')} /routes/3/layout: no layout named "statee" (this brand's: privacy-choice, home, state; shared: none)`,
    );
  });

  it('unknown route parameter', () => {
    const text = edit('{ "path": "/location/{stateCode}/{city}"', '{ "path": "/location/{stateCode}/{town}"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"path": "/location/{stateCode}/{town}"')} /routes/4/path: unknown parameter {town} (known: {state}, {stateCode}, {city}, {cityState}, {letter}, {page}, {list}, {slug}, {loanType}, {letterGroup}, {amount}, {store}, {page?})`,
    ]);
  });

  it('internal link to no page', () => {
    const text = edit('"href": "/payday-loans"', '"href": "/paydy-loans"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"href": "/paydy-loans"')} /nav/items/0/children/0/href: link "/paydy-loans" goes to no page of this brand (no route matches it; routes: /, /payday-loans, /apply, /location/{stateCode}, /location/{stateCode}/{city}, /do-not-sell-or-share)`,
    ]);
  });

  it('unknown placeholder', () => {
    const text = edit('"heading": "Loans in {state.name}"', '"heading": "Loans in {stat.name}"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"heading": "Loans in {stat.name}"')} /layouts/state/blocks/0/heading: unknown placeholder {stat.name} (known: {brand.name}, {brand.host}, {year}, {optOut.deadline}, {state.name}, {state.code}, {state.shortName}, {state.slug}, {state.demonym}, {city.name}, {city.slug}, {city.zip}, {loanType.singular}, {loanType.plural}, {loanType.slug}, {loanType.singularCapitalized}, {loanType.pluralCapitalized}, {loanType.title}, {loanType.name}, {loanType.article}, {loanType.withArticle}, {letter}, {letter.slug}, {page}, {list}, {content.title}, {content.h1}, {content.description}, {letterGroup}, {letterGroup.slug}, {amount}, {amount.value}, {store.name}, {store.slug}, {store.loanType}, {store.nearMePath})`,
    ]);
  });

  it('placeholder with no value on a route that uses the layout', () => {
    const text = edit('"title": "Short-term loans from {brand.name}"', '"title": "Short-term loans in {state.name}"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"title": "Short-term loans in')} /layouts/home/title: placeholder {state.name} has no value on route "/" (available there: {brand.name}, {brand.host}, {year}, {optOut.deadline})`,
    ]);
  });

  it('first block is not a hero', () => {
    const text = edit('{ "type": "hero", "heading": "Loans in {state.name}" },', '{ "type": "richText", "paragraphs": ["Intro"] },');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"type": "richText", "paragraphs": ["Intro"]')} /layouts/state/blocks/0/type: the first block must be a "hero": it holds the page's one <h1> heading`,
    ]);
  });

  it('a brand layout with the name of a shared one, unless it says it overrides it', () => {
    const shared: Source = {
      file: 'brands/layouts/privacy-choice.json',
      text: JSON.stringify({
        title: 'Privacy choice',
        description: 'The shared privacy choice page of every brand.',
        blocks: [{ type: 'hero', heading: 'Your privacy choice' }],
      }),
    };
    const catalog = buildCatalog([{ file: FILE, text: base }], [shared], BLOCK_SPECS);
    expect(catalog.problems).toEqual([
      `${FILE}:${at(base, '"privacy-choice": {')} /layouts/privacy-choice: layout "privacy-choice" has the name of the shared layout brands/layouts/privacy-choice.json, which it hides for this brand; rename it, delete it and use the shared one, or add "overrides": true if replacing it is intended`,
    ]);
    const overriding = edit('"privacy-choice": {', '"privacy-choice": {\n      "overrides": true,');
    expect(buildCatalog([{ file: FILE, text: overriding }], [shared], BLOCK_SPECS).problems).toEqual([]);
    expect(problemsOf(overriding)).toEqual([
      `${FILE}:${at(overriding, '"overrides"')} /layouts/privacy-choice/overrides: there is no shared layout "privacy-choice" in brands/layouts/ to override; remove "overrides"`,
    ]);
  });

  it('a block for some loan types on a page that has none', () => {
    const text = edit(
      '{ "type": "locationFacts", "heading": "Availability" }',
      '{ "type": "locationFacts", "heading": "Availability", "loanTypes": ["payday-loans"] }',
    );
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"loanTypes": ["payday-loans"]')} /layouts/state/blocks/1/loanTypes: this block shows only for some loan types, but route "/location/{stateCode}" has no loan type ({loanType} in its path or "loanType"), so it would never show`,
    ]);
  });

  it('a second hero on the pages of one loan type', () => {
    const text = edit(
      '{ "type": "richText", "heading": "How it works"',
      '{ "type": "hero", "heading": "Payday loans", "loanTypes": ["payday-loans"] },\n        { "type": "richText", "heading": "How it works"',
    );
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '{ "type": "hero", "heading": "Payday loans"')} /layouts/home/blocks/1: a page has one hero (on payday-loans pages); this is a second one (the first is block 0)`,
    ]);
  });

  it('theme colour too light for white text', () => {
    const text = edit('"theme": "#0b5394"', '"theme": "#ffcc00"');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"theme"')} /config/theme: white text on #ffcc00 has a contrast of 1.5:1; it needs at least 4.5:1 to be readable — use a darker colour`,
    ]);
  });

  it('nav entry with neither href nor children', () => {
    const text = edit('{ "label": "States", "href": "/location/tx" }', '{ "label": "States" }');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '{ "label": "States" }')} /nav/items/1: a navigation entry needs an "href", "children" (a drop-down group), or both`,
    ]);
  });

  it('cityList on a route without a state', () => {
    const text = edit(
      '"paragraphs": ["You fill in one form and lenders answer."] }',
      '"paragraphs": ["You fill in one form and lenders answer."] },\n        { "type": "cityList", "heading": "Cities", "hrefTemplate": "/location/{state.shortName}/{city.slug}" }',
    );
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '{ "type": "cityList"')} /layouts/home/blocks/2: a cityList block needs a route with {state}, {stateCode}, {city} or {cityState}; route "/" has none`,
    ]);
  });

  it('id that does not match the file name', () => {
    const text = edit('"id": "acme"', '"id": "acme-loans"');
    expect(problemsOf(text)).toEqual([`${FILE}:${at(text, '"id"')} /id: "acme-loans" must equal the file name "acme" (the id is how the brand is found)`]);
  });

  it('a host claimed by two brands is refused in both, whichever file comes first', () => {
    const other = edit('"id": "acme"', '"id": "acme2"');
    const problems = problemsOf(base, [{ file: 'brands/acme2.json', text: other }]);
    const clashes = (file: string, text: string, with_: string) => [
      `${file}:${at(text, '"acmeloans.com"')} /hosts/0: host "acmeloans.com" is also claimed by ${with_}; a host can belong to one brand only`,
      `${file}:${at(text, '"www.acmeloans.com"')} /hosts/1: host "www.acmeloans.com" is also claimed by ${with_}; a host can belong to one brand only`,
      `${file}:${at(text, '"hosts"')} /hosts: the automatic host "dev.acmeloans.com" clashes with ${with_}`,
      `${file}:${at(text, '"hosts"')} /hosts: the automatic host "test123.acmeloans.com" clashes with ${with_}`,
    ];
    expect(problems).toEqual([...clashes(FILE, base, 'brands/acme2.json'), ...clashes('brands/acme2.json', other, FILE)]);
  });

  it('a copy whose id was not changed yet is the one left out, by its file name; the brand it copied is served', () => {
    const copy = edit('"hosts": ["acmeloans.com", "www.acmeloans.com"]', '"hosts": ["copy.example"]');
    const catalog = buildCatalog(
      [
        { file: 'brands/aaa.json', text: copy },
        { file: FILE, text: base },
      ],
      [],
      BLOCK_SPECS,
    );
    expect([...catalog.brands.keys()]).toEqual(['acme']);
    expect([...catalog.broken.keys()]).toEqual(['aaa']);
    expect(catalog.broken.get('aaa')!.join('\n')).toContain('brands/aaa.json:3:3 /id: "acme" must equal the file name "aaa"');
    expect(catalog.problems.every((p) => p.startsWith('brands/aaa.json:'))).toBe(true);
    expect(catalog.hostMap.get('acme.localhost')).toBe('acme');
  });

  it('a brand copied from another, its hosts not yet changed, does not take them from the brand it was copied from', () => {
    // "aaa" sorts before "acme", as a copy named so would in brands/
    const copy = edit('"id": "acme"', '"id": "aaa"');
    const catalog = buildCatalog(
      [
        { file: 'brands/aaa.json', text: copy },
        { file: FILE, text: base },
      ],
      [],
      BLOCK_SPECS,
    );
    expect([...catalog.brands.keys()]).toEqual([]);
    expect([...catalog.broken.keys()].sort()).toEqual(['aaa', 'acme']);
    expect(catalog.broken.get('aaa')!.join('\n')).toContain('host "acmeloans.com" is also claimed by brands/acme.json');
  });
});

describe('exit-intent popup settings', () => {
  const withPopup = (popup: string) => edit('"loanTypes": [', `"exitPopup": ${popup},\n  "loanTypes": [`);

  it('accepts a generic or general popup without more settings', () => {
    expect(problemsOf(withPopup('{ "variant": "generic" }'))).toEqual([]);
    expect(problemsOf(withPopup('{ "variant": "general", "maskClosable": false }'))).toEqual([]);
  });

  it('rejects an unknown variant with the allowed ones', () => {
    const text = withPopup('{ "variant": "loud" }');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"variant": "loud"')} /exitPopup/variant: "loud" is not allowed here (allowed: generic, general, title, payday)`,
    ]);
  });

  it('a title popup needs the /apply-title-loans route', () => {
    const text = withPopup('{ "variant": "title" }');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"variant": "title"')} /exitPopup/variant: the title popup's Contact Now goes to "/apply-title-loans", which has no route; add a route for it or pick another variant`,
    ]);
  });

  it('a payday popup needs store links, and they must be pages of the brand', () => {
    const missing = withPopup('{ "variant": "payday" }');
    expect(problemsOf(missing)).toEqual([
      `${FILE}:${at(missing, '"exitPopup"')} /exitPopup: the payday popup links to the 11 store brands: add "storeHrefTemplate", e.g. "/loans-near-me/lending-companies/{store.slug}"`,
    ]);
    const nowhere = withPopup('{ "variant": "payday", "storeHrefTemplate": "/stores/{store.slug}" }');
    expect(problemsOf(nowhere)).toEqual([
      `${FILE}:${at(nowhere, '"storeHrefTemplate": "/stores')} /exitPopup/storeHrefTemplate: link template "/stores/{store.slug}" gives "/stores/advance-america", which no route of this brand matches`,
    ]);
    const routed = edit(
      '{ "path": "/apply", "layout": "home" },',
      '{ "path": "/apply", "layout": "home" },\n    { "path": "/stores/{store}", "layout": "home" },',
      withPopup('{ "variant": "payday", "storeHrefTemplate": "/stores/{store.slug}" }'),
    );
    expect(problemsOf(routed)).toEqual([]);
  });

  it('store links on a popup that does not show them are reported', () => {
    const text = withPopup('{ "variant": "generic", "storeHrefTemplate": "/x/{store.slug}" }');
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"storeHrefTemplate"')} /exitPopup/storeHrefTemplate: only the payday variant uses store links; remove this or set "variant": "payday"`,
    ]);
  });
});

describe('the application form', () => {
  const withForm = (form: string, apply = '"apply": { "path": "/apply", "amountParam": "requested_amount" }') =>
    edit(
      '{ "type": "richText", "heading": "How it works"',
      `${form},\n        { "type": "richText", "heading": "How it works"`,
      edit('"apply": { "path": "/apply", "amountParam": "requested_amount" }', apply),
    );
  const form = (kind: string) =>
    `{ "type": "applyForm", "heading": "Request your loan", "loanKind": "${kind}", "representativeExample": "Representative example: a $1,000 loan over 12 months at 35.99% APR costs $1,205.52." }`;

  it('asks for what the server needs from the brand: a title form only where the apply page is /apply-title-loans', () => {
    expect(problemsOf(withForm(form('general')))).toEqual([]);
    const text = withForm(form('title'));
    expect(problemsOf(text)).toEqual([
      `${FILE}:${at(text, '"loanKind": "title"')} /layouts/home/blocks/1/loanKind: brand "acme" takes general loan requests (its apply page is /apply), but this form asks for "title"; use a layout whose form has "loanKind": "general"`,
    ]);
  });

  it('the script provider needs its loader', () => {
    const text = withForm(form('general').replace('"loanKind"', '"provider": "script", "loanKind"'));
    expect(problemsOf(text)).toEqual([`${FILE}:${at(text, '{ "type": "applyForm"')} /layouts/home/blocks/1: missing required property "script"`]);
  });
});

describe('test-only brands (LOANSITES_EXTRA_BRANDS_DIR)', () => {
  it('are read only when asked for, and are valid', () => {
    const plain = readSources({ extraDir: '' });
    expect(plain.brands.map((b) => b.file).filter((f) => f.startsWith('tests/'))).toEqual([]);
    const withFixtures = readSources({ extraDir: 'tests/fixtures/brands' });
    expect(withFixtures.brands.map((b) => b.file)).toEqual(
      expect.arrayContaining(['tests/fixtures/brands/acmetitle.json', 'tests/fixtures/brands/acmeonline.json']),
    );
    const catalog = buildCatalog(withFixtures.brands, withFixtures.layouts, BLOCK_SPECS);
    expect(catalog.problems).toEqual([]);
    expect(catalog.brands.get('acmetitle')?.brand.exitPopup).toEqual({ variant: 'title', maskClosable: false });
  });
  it('are not read by default (no LOANSITES_EXTRA_BRANDS_DIR in the test environment)', () => {
    expect(process.env.LOANSITES_EXTRA_BRANDS_DIR).toBeUndefined();
    expect(readSources().brands.some((b) => b.file.startsWith('tests/'))).toBe(false);
  });
});

describe('a broken brand does not take the others down', () => {
  it('keeps the valid brand and records the broken one with its hosts', () => {
    const broken = edit('"id": "acme"', '"id": "zeta"')
      .replace('acmeloans.com', 'zetaloans.com')
      .replace('www.acmeloans.com', 'www.zetaloans.com')
      .replace('"layout": "full"', '"layout": "wide"');
    const catalog = buildCatalog(
      [
        { file: FILE, text: base },
        { file: 'brands/zeta.json', text: broken },
      ],
      [],
      BLOCK_SPECS,
    );
    expect([...catalog.brands.keys()]).toEqual(['acme']);
    expect([...catalog.broken.keys()]).toEqual(['zeta']);
    expect(catalog.hostMap.get('zeta.localhost')).toBe('zeta');
    expect(catalog.hostMap.get('acme.localhost')).toBe('acme');
  });

  it('a brand file that is not even JSON is reported and skipped', () => {
    const catalog = buildCatalog(
      [
        { file: FILE, text: base },
        { file: 'brands/bad.json', text: '{ "id": ' },
      ],
      [],
      BLOCK_SPECS,
    );
    expect([...catalog.brands.keys()]).toEqual(['acme']);
    expect(catalog.problems).toEqual(['brands/bad.json:1:9 /: not valid JSON: a value is expected here (is there a trailing comma before?)']);
  });
});

describe('reading the brand folder', () => {
  it('a folder named like a brand file (mkdir brands/acme.json) is not read: the brands are still read and checked', () => {
    const root = mkdtempSync(join(tmpdir(), 'brand-folder-'));
    const before = process.env.LOANSITES_ROOT;
    try {
      mkdirSync(join(root, 'brands/acme.json'), { recursive: true });
      writeFileSync(join(root, 'brands/real.json'), edit('"id": "acme"', '"id": "real"'));
      process.env.LOANSITES_ROOT = root;
      const { brands } = readSources();
      expect(brands.map((b) => b.file)).toEqual(['brands/real.json']);
    } finally {
      if (before === undefined) delete process.env.LOANSITES_ROOT;
      else process.env.LOANSITES_ROOT = before;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('schema words for a non-engineer', () => {
  it('an object that allows one of some properties says which, not "must NOT have more than 1 properties"', () => {
    const buyer = JSON.parse(readFileSync(join(__dirname, '../fixtures/buyers/acme-lending.json'), 'utf8')) as { filters: { states: unknown } };
    buyer.filters.states = { allow: ['TX'], deny: ['NY'] };
    const problems = checkBuyerSchema(buyer);
    expect(problems).toContainEqual({ pointer: '/filters/states', message: 'can have at most 1 property (of allow, deny)' });
    expect(problems.map((p) => p.message).join('\n')).not.toContain('must NOT');
  });
});
