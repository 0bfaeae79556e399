/** The studio's forms, generated from the brand schema (and the blocks' schemas in it): what an editor sees for each kind of field. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { applyPatches, setPatch } from '../../engine/browser/studio/patches';
import { allFields, emptyValue, fieldFor, fieldId, type Field, type FormContext, type Schema } from '../../engine/browser/studio/schemaForm';

const root = JSON.parse(readFileSync('schemas/brand.schema.json', 'utf8')) as Schema;
const brand = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
const refs = {
  layouts: ['home', 'about-us', 'starter-home'],
  blockParts: ['guide-hero'],
  routeParts: ['legal-pages-us'],
  linkLists: [],
  pages: ['/', '/about', '/contact'],
};
const ctx: FormContext = {
  root,
  refs,
  layoutParamsOf: (route) => (route.layout === 'starter-home' ? { texts: ['headline'], switches: ['keepReading'] } : undefined),
};

const whole = fieldFor(ctx, root, brand, [], '', true)!;
const byPointer = new Map([...allFields(whole)].map((f) => [f.pointer, f]));
const at = (pointer: string): Field => {
  const f = byPointer.get(pointer);
  if (!f) throw new Error(`no field at ${pointer}`);
  return f;
};

describe("the form generated from a block's schema", () => {
  const hero = fieldFor(ctx, { $ref: '#/$defs/block' }, { type: 'hero', heading: 'Hello there' }, ['blocks', 0], 'block', true)!;

  it("gives each property a labelled field with its description as help, and leaves the block's type out", () => {
    expect(hero.kind).toBe('object');
    const fields = hero.kind === 'object' ? hero.fields : [];
    expect(fields.map((f) => f.label)).toEqual(['Heading', 'Text', 'Button label', 'Loan types', 'When']);
    expect(fields[0]).toMatchObject({
      kind: 'text',
      value: 'Hello there',
      required: true,
      minLength: 3,
      maxLength: 120,
      help: expect.stringContaining('main heading'),
    });
    expect(fields[1]).toMatchObject({ kind: 'textarea', required: false, maxLength: 600 });
  });

  it('makes an enum a select, and an optional one offers none', () => {
    expect(at('/product')).toMatchObject({
      kind: 'select',
      value: 'payday',
      options: expect.arrayContaining([{ value: 'installment', label: 'installment' }]),
    });
    const loanTypes = hero.kind === 'object' ? hero.fields.find((f) => f.label === 'Loan types') : undefined;
    expect(loanTypes).toMatchObject({ kind: 'array', itemNoun: 'loan type', newItem: 'payday-loans' });
  });

  it('makes a colour a colour field and a boolean a checkbox', () => {
    expect(at('/config/theme')).toMatchObject({ kind: 'color', label: 'Brand colour', value: brand.config.theme });
    expect(fieldFor(ctx, { $ref: '#/$defs/exitPopup' }, { variant: 'payday' }, ['exitPopup'], 'exitPopup', false)).toMatchObject({
      fields: expect.arrayContaining([expect.objectContaining({ kind: 'checkbox', label: 'Mask closable', value: false })]),
    });
  });

  it('lists an array with one entry field each, named by what the entry is, and what a new entry starts as', () => {
    const routes = at('/routes');
    expect(routes).toMatchObject({ kind: 'array', itemNoun: 'route', minItems: 1 });
    if (routes.kind !== 'array') throw new Error('routes');
    expect(routes.items[0]).toMatchObject({ label: '/', pointer: '/routes/0' });
    expect(routes.items[1]).toMatchObject({ label: 'loan-type-pages-us', pointer: '/routes/1' });
    expect(emptyValue(root, { $ref: '#/$defs/link' })).toEqual({ label: '', href: '' });
    expect(emptyValue(root, { $ref: '#/$defs/block_faq' })).toMatchObject({ type: 'faq' });
  });

  it('makes references pickers of what exists: layouts, parts and pages (a link may also go elsewhere)', () => {
    expect(at('/routes/0/layout')).toMatchObject({
      kind: 'reference',
      refKind: 'layout',
      value: 'home',
      free: false,
      options: refs.layouts.map((v) => ({ value: v, label: v })),
    });
    expect(at('/routes/1')).toMatchObject({ kind: 'choice', chosen: 0 });
    expect(at('/routes/1/part')).toMatchObject({ kind: 'reference', refKind: 'routePart', value: 'loan-type-pages-us' });
    const href = at('/nav/items/0/children/0/href');
    expect(href).toMatchObject({ kind: 'reference', refKind: 'page', free: true, value: '/payday-loans' });
    // a layout that does not exist stays shown, marked, so its problem has a field to stand at
    const broken = fieldFor(ctx, { $ref: '#/$defs/route' }, { path: '/x', layout: 'gone' }, ['routes', 5], 'route', true)!;
    expect(broken.kind === 'object' && broken.fields.find((f) => f.label === 'Layout')).toMatchObject({
      options: expect.arrayContaining([{ value: 'gone', label: 'gone (not found)' }]),
    });
  });

  it("gives a route on a shared layout its own text for the layout's parameters", () => {
    const route = fieldFor(
      ctx,
      { $ref: '#/$defs/route' },
      { path: '/x', layout: 'starter-home', layoutParams: { headline: 'Cash today' } },
      ['routes', 3],
      'route',
      true,
    )!;
    const params = route.kind === 'object' ? route.fields.find((f) => f.pointer === '/routes/3/layoutParams') : undefined;
    expect(params).toMatchObject({
      label: "This page's text",
      fields: [
        { kind: 'text', label: 'Headline', value: 'Cash today', pointer: '/routes/3/layoutParams/headline' },
        { kind: 'checkbox', label: 'Show "Keep reading" blocks', value: false },
      ],
    });
  });

  it('a list of links that may instead name a link list offers both forms', () => {
    const children = at('/nav/items/0/children');
    expect(children).toMatchObject({
      kind: 'choice',
      chosen: 1,
      forms: [
        { label: 'The name of a shared list', empty: '' },
        { label: 'A list written here', empty: [{ label: '', href: '' }] },
      ],
    });
  });

  it('gives every field an id made from its pointer, unique and safe in HTML', () => {
    const ids = [...allFields(whole)].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_-]*$/);
    expect(fieldId('/layouts/home/blocks/0/heading')).not.toBe(fieldId('/layouts/home/blocks/0heading'));
  });
});

describe("a page's list of blocks", () => {
  it('offers a new block of each type, started with what its schema requires, and a shared part', () => {
    const blocks = at('/layouts/home/blocks');
    expect(blocks.kind).toBe('array');
    const choices = blocks.kind === 'array' ? (blocks.choices ?? []) : [];
    expect(choices).toContainEqual({ label: 'Hero block', value: JSON.stringify({ type: 'hero', heading: '' }) });
    expect(choices).toContainEqual({ label: 'Faq block', value: expect.stringContaining('"type":"faq"') });
    expect(choices[0]).toEqual({ label: 'The blocks of a shared part', value: '{"part":""}' });
    expect(at('/hosts').kind === 'array' && at('/hosts')).not.toHaveProperty('choices');
  });
});

describe('the form of a large brand after an edit', () => {
  it('is made again only where the edit changed the brand: the other parts are the same fields', () => {
    const cached: FormContext = { ...ctx, cache: new WeakMap() };
    const before = fieldFor(cached, root, brand, [], '', true)!;
    const edited = applyPatches(brand, setPatch(brand, ['layouts', 'home', 'blocks', 0, 'heading'], 'New words'));
    const after = fieldFor(cached, root, edited, [], '', true)!;
    const part = (f: Field, pointer: string) => [...allFields(f)].find((x) => x.pointer === pointer);
    expect(part(after, '/footer')).toBe(part(before, '/footer'));
    expect(part(after, '/layouts/home/blocks/1')).toBe(part(before, '/layouts/home/blocks/1'));
    expect(part(after, '/layouts/home/blocks/0/heading')).toMatchObject({ value: 'New words' });
    expect(part(before, '/layouts/home/blocks/0/heading')).toMatchObject({
      value: brand.layouts!.home!.blocks[0]!.type === 'hero' ? (brand.layouts!.home!.blocks[0] as { heading: string }).heading : '',
    });
  });
});
