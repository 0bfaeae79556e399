/**
 * Every amount widget of every brand keeps within the brand's loan rules (the application form's
 * smallest, largest and default amount): its range, its step and the amount it starts on, as the
 * page is resolved — so no widget hands the form an amount the form would quietly change, and an
 * amount page's widget starts on that page's amount. The exit popups' amount inputs too.
 */
import { describe, expect, it } from 'vitest';
import { amountOptions, widgetRange, type AmountRange } from '../../engine/browser/amounts';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { amountChangedNote, FORM_AMOUNT } from '../../engine/browser/formRules';
import { resolvePage } from '../../engine/site/resolve';
import { BORROW_AMOUNTS } from '../../engine/site/routeParams';
import { CASH_AMOUNT, TITLE_AMOUNT, blurCashAmount, cashSubmitAmount, titleSubmitAmount } from '../../engine/browser/widgets/amountInput';
import { sliderAmount, sliderInput, sliderRange } from '../../engine/browser/widgets/slider';

const { brands, layouts } = readSources({ extraDir: '' });
const catalog = buildCatalog(brands, layouts);
const NOW = new Date('2026-11-26T15:00:00Z');
const within = (n: number) => n >= FORM_AMOUNT.min && n <= FORM_AMOUNT.max;

/** Every page of every brand with an amount widget: the brand, the path, the page's own amount and the widgets resolved. */
function widgetPages() {
  const out: { brand: string; path: string; amount?: number; widgets: { type: string; data: unknown }[] }[] = [];
  for (const [id, loaded] of catalog.brands) {
    for (const route of loaded.brand.routes) {
      const samples: { path: string; amount?: number }[] = route.path.includes('{amount}')
        ? BORROW_AMOUNTS.map((amount) => ({ path: route.path.replace('{amount}', String(amount)), amount }))
        : route.path.includes('{')
          ? []
          : [{ path: route.path }];
      for (const { path, amount } of samples) {
        const model = resolvePage(catalog, id, path, NOW);
        const widgets = (model?.blocks ?? []).filter((b) => ['rangeSlider', 'quickAmount', 'getYourCash'].includes(b.type)) as {
          type: string;
          data: unknown;
        }[];
        if (widgets.length) out.push({ brand: id, path, ...(amount !== undefined ? { amount } : {}), widgets });
      }
    }
  }
  return out;
}
const PAGES = widgetPages();

function expectRangeWithinRules(range: AmountRange, where: string) {
  expect(within(range.min), `${where}: smallest ${range.min}`).toBe(true);
  expect(within(range.max), `${where}: largest ${range.max}`).toBe(true);
  expect(range.default, `${where}: starts on ${range.default}`).toBeGreaterThanOrEqual(range.min);
  expect(range.default, `${where}: starts on ${range.default}`).toBeLessThanOrEqual(range.max);
  expect((range.default - range.min) % range.step, `${where}: the start is a whole step`).toBe(0);
}

describe('amount widgets on every brand', () => {
  it('are found on every brand that has one, sliders and pickers alike', () => {
    expect(new Set(PAGES.map((p) => p.brand)).size).toBeGreaterThanOrEqual(8);
    const types = new Set(PAGES.flatMap((p) => p.widgets.map((w) => w.type)));
    expect([...types].sort()).toEqual(['getYourCash', 'quickAmount', 'rangeSlider']);
    expect(PAGES.some((p) => p.brand === 'ustitleloans' && p.path === '/title-loans')).toBe(true);
  });

  it.each(PAGES.map((p) => [`${p.brand}${p.path}`, p] as const))('%s: every widget keeps within the loan rules', (where, page) => {
    for (const w of page.widgets) {
      if (w.type === 'rangeSlider') {
        const { range } = w.data as { range: AmountRange };
        expectRangeWithinRules(range, where);
        // the slider's own ends send exactly its range's ends
        const input = sliderInput(range);
        expect([sliderAmount(input.min, range), sliderAmount(input.max, range)]).toEqual([range.min, range.max]);
        expect(range.default).toBe(page.amount ?? FORM_AMOUNT.default);
      } else if (w.type === 'quickAmount') {
        const data = w.data as { options: { value: number }[]; defaultAmount: number };
        for (const o of data.options) expect(within(o.value), `${where}: option ${o.value}`).toBe(true);
        expect(data.options.map((o) => o.value)).toContain(data.defaultAmount);
        expect(data.defaultAmount).toBe(page.amount ?? FORM_AMOUNT.default);
      } else {
        expectRangeWithinRules(CASH_AMOUNT, where);
      }
    }
  });
});

describe('typed amounts and the exit popups', () => {
  it('Get Your Cash: what blur shows is what is sent, and both are amounts the form takes as they are', () => {
    for (const typed of ['1', '50', '99', '100', '2500', '5000', '99999']) {
      const sent = cashSubmitAmount(typed);
      expect(within(sent), typed).toBe(true);
      expect(blurCashAmount(typed), typed).toBe(String(sent));
    }
    expect(cashSubmitAmount('')).toBe(FORM_AMOUNT.default);
  });

  it('the popups’ amount lists and the title popup send only amounts within the rules', () => {
    for (const a of amountOptions(true)) expect(within(a), String(a)).toBe(true);
    for (const typed of ['', '1', '600', '9999']) expect(within(titleSubmitAmount(typed)), typed).toBe(true);
    expect(within(TITLE_AMOUNT.default)).toBe(true);
  });

  it('a widget range is its span cut to the rules in whole steps, starting on the page’s amount or the default', () => {
    expect(sliderRange()).toEqual({ min: 100, max: 5000, step: 50, default: 1000 });
    expect(sliderRange(500)).toMatchObject({ default: 500 });
    expect(widgetRange({ min: 50, max: 5000, step: 50 }, undefined, { min: 120, max: 3010, default: 4000 })).toEqual({
      min: 150,
      max: 3000,
      step: 50,
      default: 3000,
    });
  });
});

describe('an amount from outside (an ad’s link) that the form changes is never changed silently', () => {
  it.each([
    ['?requested_amount=50', 'You asked for $50, but requests are for $100 to $35,000, so we put in $100. You can change it.'],
    ['?requested_amount=99999', 'You asked for $99,999, but requests are for $100 to $35,000, so we put in $35,000. You can change it.'],
    ['?requested_amount=100', undefined],
    ['?requested_amount=2,500', undefined],
    ['?requested_amount=', undefined],
    ['?requested_amount=abc', undefined],
    ['', undefined],
  ])('%s → %s', (search, note) => {
    expect(amountChangedNote(search, 'requested_amount')).toBe(note);
  });
  it('in the brand’s currency', () => {
    expect(amountChangedNote('?requestedamount=20', 'requestedamount', 'en-CA', 'CAD')).toBe(
      'You asked for $20, but requests are for $100 to $35,000, so we put in $100. You can change it.',
    );
  });
});
