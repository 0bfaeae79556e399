/**
 * Every kind of problem the validator reports, made for real on a brand and put at the field of the
 * studio's form that the editor must change: schema, a link to no page, an unknown layout, a wrong
 * route parameter, contrast, a production placeholder, a host another brand has, a layout
 * parameter a route leaves out, a problem in a shared layout.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { placeholdersInBrandText } from '../../engine/validate/placeholders';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { allFields, fieldFor, fieldId, type FormContext, type Schema } from '../../engine/browser/studio/schemaForm';
import { placeProblems, problemsByField, type Problem } from '../../engine/browser/studio/problemFields';
import { layoutParamNames, layoutSwitchNames } from '../../engine/site/layoutParams';
import { readFileSync } from 'node:fs';
import type { Brand, Layout, Route } from '../../schemas/brand.types';

const root = JSON.parse(readFileSync('schemas/brand.schema.json', 'utf8')) as Schema;
const sources = readSources();
const FILE = 'brands/cocoloan.json';
const original = JSON.parse(sources.brands.find((s) => s.file === FILE)!.text) as Brand;
/** the brand's routes that are routes (not a shared part's), by index */
const route = (doc: Brand, i: number) => doc.routes[i] as Route;
const routeIndex = (doc: Brand, test: (r: Route) => boolean) => doc.routes.findIndex((r) => 'path' in r && test(r as Route));
const sharedLayouts = new Map(sources.layouts.filter((s) => /layouts\//.test(s.file)).map((s) => [s.file.replace(/^.*\/|\.json$/g, ''), JSON.parse(s.text)]));

/** The validator's problems for the brand as `doc`, with the other brands as they are (as `npm run validate` reports them). */
function problemsOf(doc: unknown): Problem[] {
  const text = JSON.stringify(doc, null, 2);
  const catalog = buildCatalog([...sources.brands.filter((s) => s.file !== FILE), { file: FILE, text }], sources.layouts, BLOCK_SPECS);
  const out: Problem[] = [];
  for (const line of catalog.problems) {
    const m = /^(\S+?)(?::\d+:\d+)? (\/\S*): (.*)$/.exec(line);
    if (m && (m[1] === FILE || catalog.broken.has(String(doc && (doc as { id: string }).id))))
      out.push({ file: m[1], pointer: m[2] === '/' ? '' : m[2]!, message: m[3]! });
  }
  return [...out, ...placeholdersInBrandText(FILE, text)];
}

/** Where each problem shows in the studio's form of `doc`. */
function placed(doc: Brand) {
  const ctx: FormContext = {
    root,
    refs: { layouts: [], blockParts: [], routeParts: [], linkLists: [], pages: [] },
    layoutParamsOf: (route) => {
      const layout = (doc.layouts?.[String(route.layout)] ?? sharedLayouts.get(String(route.layout))) as Layout | undefined;
      return layout ? { texts: layoutParamNames(layout), switches: layoutSwitchNames(layout) } : undefined;
    },
  };
  const fields = new Set([...allFields(fieldFor(ctx, root, doc, [], '', true)!)].map((f) => f.pointer));
  return placeProblems(problemsOf(doc), fields, doc as { routes: unknown[] });
}

/** The scaffold's placeholders the brand carries anyway (refused only for production): the other kinds' tests leave them aside. */
const PLACEHOLDER = /placeholder|reserved example|fictional/;
const notPlaceholders = (list: ReturnType<typeof placed>) => list.filter((p) => !PLACEHOLDER.test(p.message));

const edited = (change: (doc: Brand) => void) => {
  const doc = structuredClone(original);
  change(doc);
  return doc;
};

describe('each problem at its field', () => {
  it('the brand as it is has none', () => {
    expect(problemsOf(original).filter((p) => !PLACEHOLDER.test(p.message))).toEqual([]);
  });

  it('schema: a too-short hero heading stands at the heading, a missing required one at its own field', () => {
    const layout = route(
      original,
      routeIndex(original, (r) => r.path === '/'),
    ).layout;
    const own = original.layouts?.[layout];
    expect(own, 'cocoloan has its own home layout').toBeTruthy();
    const doc = edited((d) => {
      (d.layouts![layout]!.blocks[0] as { heading: string }).heading = 'Hi';
      // @ts-expect-error the document is made wrong on purpose: email is required
      delete d.organization.email;
    });
    const found = placed(doc);
    expect(found).toContainEqual(
      expect.objectContaining({
        pointer: `/layouts/${layout}/blocks/0/heading`,
        fieldId: fieldId(`/layouts/${layout}/blocks/0/heading`),
        message: expect.stringContaining('too short'),
      }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({ pointer: '/organization', at: '/organization/email', message: 'missing required property "email"' }),
    );
  });

  it("a footer's sentence about the brand past its length stands at that field, in the validator's words", () => {
    const found = notPlaceholders(placed(edited((d) => (d.footer.about = 'We compare lenders. '.repeat(16)))));
    expect(found).toEqual([
      expect.objectContaining({ at: '/footer/about', fieldId: fieldId('/footer/about'), message: 'is too long: at most 300 characters (it has 320)' }),
    ]);
  });

  it('a link to a page that does not exist stands at the link', () => {
    const i = original.nav!.items.findIndex((x) => x.href);
    const found = notPlaceholders(placed(edited((d) => (d.nav!.items[i]!.href = '/no-such-page'))));
    expect(found).toEqual([expect.objectContaining({ at: `/nav/items/${i}/href`, message: expect.stringContaining('link "/no-such-page" goes to no page') })]);
  });

  it("an unknown layout stands at the route's layout picker", () => {
    const found = placed(edited((d) => (route(d, 2).layout = 'no-such-layout')));
    expect(found).toContainEqual(expect.objectContaining({ at: '/routes/2/layout', message: expect.stringContaining('no-such-layout') }));
  });

  it("a wrong route parameter stands at the route's path", () => {
    const found = placed(edited((d) => (route(d, 2).path = '/loans/{county}')));
    expect(found).toContainEqual(expect.objectContaining({ at: '/routes/2/path', message: expect.stringContaining('county') }));
  });

  it('a colour too light for white text stands at the colour', () => {
    const found = notPlaceholders(placed(edited((d) => (d.config.theme = '#ffd54f'))));
    expect(found).toEqual([
      expect.objectContaining({ at: '/config/theme', fieldId: fieldId('/config/theme'), message: expect.stringContaining('contrast of 1.') }),
    ]);
  });

  it('a host another brand has stands at that host', () => {
    const found = placed(edited((d) => d.hosts.push('weloans.ca')));
    expect(found).toContainEqual(
      expect.objectContaining({ at: `/hosts/${original.hosts.length}`, message: expect.stringContaining('also claimed by brands/weloans.json') }),
    );
  });

  it('a production placeholder stands at the field holding it', () => {
    const found = placed(edited((d) => (d.organization.email = 'help@example.com'))).filter((p) => /example/.test(p.message));
    expect(found).toEqual([expect.objectContaining({ at: '/organization/email', message: expect.stringContaining('reserved example address') })]);
  });

  it("a layout parameter a route leaves out stands at that route's field for it", () => {
    const i = routeIndex(original, (r) => !!r.layoutParams?.statePath);
    const found = placed(edited((d) => delete (route(d, i).layoutParams as Record<string, unknown>).statePath));
    expect(found).toContainEqual(
      expect.objectContaining({ at: `/routes/${i}/layoutParams/statePath`, message: expect.stringContaining('writes {param.statePath}') }),
    );
    // the shared layout's own complaint about the unfilled text goes to the same field
    expect(found).toContainEqual(expect.objectContaining({ file: 'brands/layouts/location-search.json', at: `/routes/${i}/layoutParams/statePath` }));
  });

  it('a problem inside a shared layout stands at the layout picker of a route showing it; one with no field only at the top', () => {
    const doc = structuredClone(original);
    const i = routeIndex(doc, (r) => r.layout === 'location-search');
    const fields = new Set([`/routes/${i}/layout`]);
    const found = placeProblems(
      [
        { file: 'brands/layouts/location-search.json', pointer: '/blocks/1/heading', message: 'is too short' },
        { pointer: '/contentSections', message: 'x' },
      ],
      fields,
      doc,
    );
    expect(found[0]).toMatchObject({ at: `/routes/${i}/layout` });
    expect(found[1]!.fieldId).toBeUndefined();
    expect(problemsByField(found).get(fieldId(`/routes/${i}/layout`))).toHaveLength(1);
  });
});
