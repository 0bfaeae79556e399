/**
 * Filling a layout's placeholders for a page: every string filled, the layout itself never
 * changed, and the parts without a placeholder shared between pages rather than copied for each.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { resolvePage } from '../../engine/site/resolve';
import { fillDeep } from '../../engine/site/templates';

describe('fillDeep', () => {
  const block = {
    type: 'faq',
    heading: 'Payday loans in {city.name}',
    items: [
      { q: 'Is {brand.name} a lender?', a: 'No.' },
      { q: 'How fast?', a: 'Minutes.' },
    ],
    note: { text: 'No placeholder here', links: [{ label: 'Rates', href: '/rates' }] },
  };
  const vars = { 'city.name': 'Houston', 'brand.name': 'iPaydayLoans' };

  it('fills every string at any depth and leaves the value it was given as it was', () => {
    const before = structuredClone(block);
    const filled = fillDeep(block, vars);
    expect(filled.heading).toBe('Payday loans in Houston');
    expect(filled.items[0]).toEqual({ q: 'Is iPaydayLoans a lender?', a: 'No.' });
    expect(block).toEqual(before);
  });

  it('returns a new value at the first level, and shares below it only what has nothing to fill', () => {
    const filled = fillDeep(block, vars);
    expect(filled).not.toBe(block);
    expect(filled.items).not.toBe(block.items);
    expect(filled.items[0]).not.toBe(block.items[0]);
    expect(filled.items[1]).toBe(block.items[1]);
    expect(filled.note).toBe(block.note);
  });

  it('leaves the fields it is told to skip as written', () => {
    const filled = fillDeep({ heading: '{city.name}', itemTemplate: { label: '{item.name}' } }, vars, new Set(['itemTemplate']));
    expect(filled).toEqual({ heading: 'Houston', itemTemplate: { label: '{item.name}' } });
  });
});

describe('pages of one route', () => {
  const { brands, layouts } = readSources({ extraDir: '' });
  const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
  const NOW = new Date('2026-11-26T15:00:00Z');
  const page = (path: string) => JSON.stringify(resolvePage(catalog, 'ipaydayloans', path, NOW));

  it('each show their own place, whatever was rendered before them, and leave the layout as it was', () => {
    const loaded = catalog.brands.get('ipaydayloans')!;
    const route = loaded.brand.routes.find((r) => r.path === '/location/{stateCode}/{city}')!;
    const layoutBefore = JSON.stringify(loaded.layout(route.layout, route.layoutParams));
    const houston = page('/location/tx/houston');
    expect(houston).toContain('Houston');
    const providence = page('/location/ri/providence');
    expect(providence).toContain('Providence');
    expect(providence).not.toContain('Houston');
    page('/location/ca/fresno');
    expect(page('/location/tx/houston')).toBe(houston);
    expect(JSON.stringify(loaded.layout(route.layout, route.layoutParams))).toBe(layoutBefore);
  });
});
