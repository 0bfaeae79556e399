/** The rules behind the interactive blocks (SPEC §4, §5, §9), as tables. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  blurCashAmount,
  cashSubmitAmount,
  digitsOnly,
  titleSubmitAmount,
  typeCashAmount,
  typeTitleAmount,
  withSeparators,
} from '../../engine/browser/widgets/amountInput';
import { claimExitPopup, exitFlagKey, exitPopupSeen, leftDocument, type FlagStorage } from '../../engine/browser/widgets/exitIntent';
import { BLOCK_ERROR_TEXT, boundaryState, isHeaderSolid } from '../../engine/browser/widgets/layout';
import { progressState } from '../../engine/browser/widgets/routeProgress';
import { BREAKPOINTS, debounce, isDesktopWidth, RESIZE_DEBOUNCE_MS } from '../../engine/browser/widgets/viewport';
import { initialListbox, listboxReducer, type ListboxEvent, type ListboxState } from '../../engine/browser/widgets/listbox';
import { EXIT_POPUP_WIDTHS, modalWidthPx, wrapFocus } from '../../engine/browser/widgets/modal';
import { sliderAmount, sliderInput, sliderRange, sliderValueForAmount, sliderValueText, snapSliderValue } from '../../engine/browser/widgets/slider';
import { amountLabel, amountOptions, formatMoney, formatNumber } from '../../engine/browser/amounts';
import { LOAN_PURPOSES } from '../../engine/browser/data/purposes';

describe('typed amounts', () => {
  it.each([
    ['', ''],
    ['abc', ''],
    ['12a3', '123'],
    ['$1,500', '1500'],
    ['007', '7'],
    ['0', '0'],
    [' 2 500 ', '2500'],
  ])('digitsOnly(%j) → %j', (input, out) => expect(digitsOnly(input)).toBe(out));

  it.each([
    ['1234', '1,234'],
    ['', ''],
    ['999', '999'],
  ])('withSeparators(%j) → %j', (input, out) => expect(withSeparators(input)).toBe(out));

  describe('title popup amount: separators while typing, above 5000 → 5000', () => {
    it.each([
      ['2', '2'],
      ['25', '25'],
      ['250', '250'],
      ['2500', '2,500'],
      ['2,5001', '5,000'],
      ['4,999', '4,999'],
      ['5001', '5,000'],
      ['99999999', '5,000'],
      ['1a0b0', '100'],
      ['', ''],
      ['$', ''],
      ['0', '0'],
    ])('typing %j shows %j', (typed, shown) => expect(typeTitleAmount(typed)).toBe(shown));
  });

  describe('title popup amount on submit: rounded up to 500, 1000, 2500 or 5000; default 2500', () => {
    it.each([
      ['1', 500],
      ['500', 500],
      ['501', 1000],
      ['1,000', 1000],
      ['1,001', 2500],
      ['2,500', 2500],
      ['2,501', 5000],
      ['5,000', 5000],
      ['9,999', 5000],
      ['', 2500],
      ['0', 2500],
      ['2,500', 2500],
    ])('%j → %d', (shown, sent) => expect(titleSubmitAmount(shown)).toBe(sent));
  });

  describe('Get Your Cash: digits only while typing', () => {
    it.each([
      ['12', '12'],
      ['1.5', '15'],
      ['-300', '300'],
      ['1e3', '13'],
      ['123456', '12345'],
      ['', ''],
    ])('typing %j shows %j', (typed, shown) => expect(typeCashAmount(typed)).toBe(shown));
  });

  describe("Get Your Cash: clamped on blur to SPEC's 50–5000 within the form's amounts (from 100), empty stays empty", () => {
    it.each([
      ['', ''],
      ['1', '100'],
      ['49', '100'],
      ['50', '100'],
      ['99', '100'],
      ['101', '101'],
      ['4999', '4999'],
      ['5000', '5000'],
      ['5001', '5000'],
      ['99999', '5000'],
      ['0', '100'],
    ])('%j → %j', (typed, shown) => expect(blurCashAmount(typed)).toBe(shown));
  });

  describe('Get Your Cash: the amount sent (empty → 1000, clamped also without a blur)', () => {
    it.each([
      ['', 1000],
      ['10', 100],
      ['777', 777],
      ['7000', 5000],
      ['1000', 1000],
    ])('%j → %d', (typed, sent) => expect(cashSubmitAmount(typed)).toBe(sent));
  });
});

describe("range slider: SPEC's 5–500 step 5 (amount ×10) within the form's amounts: 10–500, starting on 100 ($1,000)", () => {
  const range = sliderRange();
  it("runs from the form's smallest amount to SPEC's largest, in SPEC's steps, from the form's default", () => {
    expect(sliderInput(range)).toEqual({ min: 10, max: 500, step: 5, default: 100 });
    expect(sliderAmount(sliderInput(range).default, range)).toBe(1000);
  });
  it.each([
    [10, 100],
    [250, 2500],
    [500, 5000],
    [5, 100],
    [13, 150],
    [0, 100],
    [1000, 5000],
    [Number.NaN, 1000],
  ])('value %d sends %d', (value, amount) => expect(sliderAmount(value, range)).toBe(amount));
  it.each([
    [252, 250],
    [253, 255],
    [-10, 10],
    [501, 500],
    [Number.POSITIVE_INFINITY, 100],
  ])('snap %d → %d', (value, snapped) => expect(snapSliderValue(value, range)).toBe(snapped));
  it.each([
    [1230, 250, 125],
    [1224, 250, 120],
    [10, 250, 10],
    [9000, 250, 500],
    [undefined, 300, 300],
    [2500, 10, 250],
  ])('typed $%s (slider at %d) → value %d', (amount, current, value) => expect(sliderValueForAmount(amount, current, range)).toBe(value));
  it('names the value as money for aria-valuetext', () => {
    expect(sliderValueText(250, range)).toBe('$2,500');
    expect(sliderValueText(10, range)).toBe('$100');
    expect(sliderValueText(500, range, 'en-CA', 'CAD')).toBe('$5,000');
  });
  it("starts on a page's own amount", () => {
    expect(sliderInput(sliderRange(500)).default).toBe(50);
  });
});

describe('amount dropdown options', () => {
  it('lists 100–1000 by 100, 1500–5000 by 500, and the quick picker adds 35000 shown as "Above $5000"', () => {
    const labels = amountOptions(true).map((v) => amountLabel(v));
    expect(labels.slice(0, 3)).toEqual(['$100', '$200', '$300']);
    expect(labels).toContain('$1,500');
    expect(labels.at(-2)).toBe('$5,000');
    expect(labels.at(-1)).toBe('Above $5000');
    expect(amountOptions()).not.toContain(35000);
  });

  it('formats each locale and currency with its own rules, whatever was formatted before (formats are reused)', () => {
    for (let round = 0; round < 2; round++) {
      expect(formatMoney(1500, 'de-DE', 'EUR')).toBe('1.500\u00a0€');
      expect(formatMoney(1500)).toBe('$1,500');
      expect(amountLabel(35000, 'de-DE', 'EUR')).toBe('Above 5000\u00a0€');
      expect(amountLabel(35000)).toBe('Above $5000');
      expect(formatMoney(2500, 'en-AU', 'AUD')).toBe('$2,500');
      expect(withSeparators('12345', 'de-DE')).toBe('12.345');
      expect(withSeparators('12345')).toBe('12,345');
      expect(() => formatMoney(100, 'en-US', 'NOT-A-CURRENCY')).toThrow(RangeError);
    }
  });

  it("writes the brands' amounts exactly as Intl does, without making an Intl formatter (en-US, en-CA, en-AU)", () => {
    const amounts = [0, 1, 7, 99, 100, 999, 1000, 1500, 2.5, 999.5, 9999.49, 12345, 35000, 100000, 1234567, 987654321012, 999999999999999];
    for (const locale of ['en-US', 'en-CA', 'en-AU'])
      for (const amount of amounts) {
        expect(formatNumber(amount, locale)).toBe(new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(amount));
        expect(formatNumber(amount, locale, false)).toBe(new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: false }).format(amount));
        for (const currency of ['USD', 'CAD', 'AUD'])
          expect(formatMoney(amount, locale, currency)).toBe(
            new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, currencyDisplay: 'narrowSymbol' }).format(amount),
          );
      }
    // Outside what the brand schema allows, Intl answers.
    expect(formatMoney(-1500)).toBe('-$1,500');
    expect(formatNumber(1e21)).toBe('1,000,000,000,000,000,000,000');
    expect(formatNumber(12345, 'en-IN')).toBe('12,345');
    expect(formatNumber(1234567, 'en-IN')).toBe('12,34,567');
    expect(() => formatMoney(100, 'en-US', 'constructor')).toThrow(RangeError);
  });
});

describe('amount dropdown keyboard and pointer (select-only combobox)', () => {
  const labels = amountOptions(true).map((v) => amountLabel(v)); // 19 options, $1,000 is index 9
  const run = (events: ListboxEvent[], start: ListboxState = initialListbox(9)) =>
    events.reduce<{ state: ListboxState; handled: boolean }>((acc, e) => listboxReducer(acc.state, e, labels), { state: start, handled: false });
  const key = (k: string, extra: Partial<Extract<ListboxEvent, { type: 'key' }>> = {}): ListboxEvent => ({ type: 'key', key: k, now: 0, ...extra });

  it.each<[string, ListboxEvent[], { open: boolean; active: number; selected: number }]>([
    ['click opens on the selected option', [{ type: 'click' }], { open: true, active: 9, selected: 9 }],
    ['a second click closes without changing', [{ type: 'click' }, { type: 'click' }], { open: false, active: 9, selected: 9 }],
    ['blur closes and drops the highlight', [{ type: 'click' }, key('ArrowDown'), { type: 'blur' }], { open: false, active: 9, selected: 9 }],
    ['clicking an option chooses it and closes', [{ type: 'click' }, { type: 'pick', index: 2 }], { open: false, active: 2, selected: 2 }],
    ['hover moves the highlight only while open', [{ type: 'hover', index: 3 }], { open: false, active: 9, selected: 9 }],
    ['ArrowDown opens (closed)', [key('ArrowDown')], { open: true, active: 9, selected: 9 }],
    ['ArrowUp opens (closed)', [key('ArrowUp')], { open: true, active: 9, selected: 9 }],
    ['Enter opens (closed)', [key('Enter')], { open: true, active: 9, selected: 9 }],
    ['Space opens (closed)', [key(' ')], { open: true, active: 9, selected: 9 }],
    ['Home opens on the first', [key('Home')], { open: true, active: 0, selected: 9 }],
    ['End opens on the last', [key('End')], { open: true, active: 18, selected: 9 }],
    ['ArrowDown then Enter chooses the next', [key('ArrowDown'), key('ArrowDown'), key('Enter')], { open: false, active: 10, selected: 10 }],
    ['Space chooses when open', [key('ArrowDown'), key('ArrowUp'), key(' ')], { open: false, active: 8, selected: 8 }],
    ['ArrowDown stops at the last', [key('End'), key('ArrowDown')], { open: true, active: 18, selected: 9 }],
    ['ArrowUp stops at the first', [key('Home'), key('ArrowUp')], { open: true, active: 0, selected: 9 }],
    ['PageDown moves 10', [key('Home'), key('PageDown')], { open: true, active: 10, selected: 9 }],
    ['PageUp moves 10 back, not past the first', [key('ArrowDown'), key('PageUp')], { open: true, active: 0, selected: 9 }],
    ['Escape closes without choosing', [key('ArrowDown'), key('ArrowDown'), key('Escape')], { open: false, active: 9, selected: 9 }],
    ['Tab chooses the highlighted and closes', [key('ArrowDown'), key('ArrowDown'), key('Tab')], { open: false, active: 10, selected: 10 }],
    ['Alt+ArrowUp chooses and closes', [key('ArrowDown'), key('ArrowDown'), key('ArrowUp', { altKey: true })], { open: false, active: 10, selected: 10 }],
    ['type-ahead "5" searches on from $1,000 and finds $5,000', [key('5')], { open: true, active: 17, selected: 9 }],
    ['type-ahead "5" again (later) wraps round to $500', [key('5', { now: 0 }), key('5', { now: 1000 })], { open: true, active: 4, selected: 9 }],
    ['type-ahead "55" (quickly) cycles like "5" twice', [key('5', { now: 0 }), key('5', { now: 100 })], { open: true, active: 4, selected: 9 }],
    ['type-ahead "15" finds $1,500', [key('1', { now: 0 }), key('5', { now: 100 })], { open: true, active: 10, selected: 9 }],
    ['type-ahead "a" finds Above $5000', [key('a')], { open: true, active: 18, selected: 9 }],
    ['type-ahead with no match keeps the highlight', [key('z')], { open: true, active: 9, selected: 9 }],
  ])('%s', (_name, events, expected) => {
    const { state } = run(events);
    expect({ open: state.open, active: state.active, selected: state.selected }).toEqual(expected);
  });

  it.each<[string, ListboxEvent[], boolean]>([
    ['Escape on a closed list is not handled (a dialog around it may close)', [key('Escape')], false],
    ['Tab is never prevented', [key('ArrowDown'), key('Tab')], false],
    ['Ctrl+key is left to the browser', [key('c', { ctrlKey: true })], false],
    ['a letter on a closed list is handled (opens and searches)', [key('7')], true],
    ['Escape on an open list is handled', [key('ArrowDown'), key('Escape')], true],
  ])('%s', (_name, events, handled) => expect(run(events).handled).toBe(handled));

  it('returns the same state object when nothing changes', () => {
    const start = initialListbox(9);
    expect(listboxReducer(start, { type: 'blur' }, labels).state).toBe(start);
  });
});

describe('exit-intent popup: once per browser per brand', () => {
  const fakeStorage = (initial: Record<string, string> = {}) => {
    const data = new Map(Object.entries(initial));
    const storage: FlagStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, String(v)) };
    return { storage, data };
  };

  it('keys the flag by brand', () => {
    expect(exitFlagKey('ipaydayloans')).not.toBe(exitFlagKey('weloans'));
    expect(exitFlagKey('ipaydayloans')).toContain('ipaydayloans');
  });

  it('opens the first time, sets the flag to 1 at that moment, and never again (same storage = after a reload too)', () => {
    const { storage, data } = fakeStorage();
    const key = exitFlagKey('ipaydayloans');
    expect(exitPopupSeen(storage, key)).toBe(false);
    expect(claimExitPopup(storage, key)).toBe(true);
    expect(data.get(key)).toBe('1');
    expect(claimExitPopup(storage, key)).toBe(false);
    expect(exitPopupSeen(storage, key)).toBe(true);
  });

  it('one brand seeing it does not stop another', () => {
    const { storage } = fakeStorage({ [exitFlagKey('weloans')]: '1' });
    expect(claimExitPopup(storage, exitFlagKey('ipaydayloans'))).toBe(true);
  });

  it.each<[string, FlagStorage | undefined]>([
    ['no storage', undefined],
    [
      'storage that throws on read',
      {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => undefined,
      },
    ],
    [
      'storage that throws on write',
      {
        getItem: () => null,
        setItem: () => {
          throw new Error('quota');
        },
      },
    ],
    ['storage that does not keep what is written', { getItem: () => null, setItem: () => undefined }],
  ])('does not open with %s (it could not stay closed afterwards)', (_name, storage) => {
    expect(claimExitPopup(storage, 'k')).toBe(false);
  });

  it('any stored value counts as seen', () => {
    expect(claimExitPopup(fakeStorage({ k: '0' }).storage, 'k')).toBe(false);
  });

  it.each([
    [{ relatedTarget: null }, true],
    [{ relatedTarget: undefined }, true],
    [{ relatedTarget: {} }, false],
  ])('mouseout %j left the document: %s', (event, left) => expect(leftDocument(event)).toBe(left));
});

describe('modal', () => {
  it.each([
    [undefined, 542],
    ['default', 542],
    ['small', 428],
    ['payday', 676],
    ['apply', 720],
    [600, 600],
  ] as const)('width %s → %d px', (w, px) => expect(modalWidthPx(w)).toBe(px));
  it('exit popup widths are 500 px (md) and 870 px (lg)', () => expect(EXIT_POPUP_WIDTHS).toEqual({ md: 500, lg: 870 }));
  it.each([
    [0, 3, false, 1],
    [2, 3, false, 0],
    [0, 3, true, 2],
    [1, 3, true, 0],
    [-1, 3, false, 0],
    [-1, 3, true, 2],
    [0, 1, false, 0],
    [0, 0, false, -1],
  ])('Tab from %d of %d (shift %s) → %d', (current, count, backwards, next) => expect(wrapFocus(current, count, backwards)).toBe(next));
});

describe('layout behaviour', () => {
  it.each([
    [0, false],
    [64, false],
    [65, true],
    [2000, true],
  ])('scrollY %d → solid header %s', (y, solid) => expect(isHeaderSolid(y)).toBe(solid));

  it('breakpoints are SPEC §9 and the Tailwind theme uses the same px', () => {
    expect(BREAKPOINTS).toEqual({ xs: 480, sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 });
    const css = readFileSync(join(process.cwd(), 'styles/globals.css'), 'utf8');
    for (const [name, px] of Object.entries(BREAKPOINTS)) expect(css).toContain(`--breakpoint-${name}: ${px}px;`);
    expect([767, 768].map(isDesktopWidth)).toEqual([false, true]);
  });

  it('resize handling runs once, 240 ms after the last resize', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const onResize = debounce(fn, RESIZE_DEBOUNCE_MS);
      onResize();
      vi.advanceTimersByTime(200);
      onResize();
      vi.advanceTimersByTime(239);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
      expect(RESIZE_DEBOUNCE_MS).toBe(240);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['routeChangeStart', 'loading'],
    ['routeChangeComplete', 'done'],
    ['routeChangeError', 'done'],
  ] as const)('progress bar on %s: %s', (event, state) => expect(progressState(event)).toBe(state));

  describe('error boundary', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    it.each<[string, Parameters<typeof boundaryState>[0], Parameters<typeof boundaryState>[1], { failed: boolean; block: unknown }]>([
      ['a render error shows the fallback', { failed: false, block: a }, { type: 'error' }, { failed: true, block: a }],
      ['the next routeChangeStart resets it', { failed: true, block: a }, { type: 'routeChangeStart' }, { failed: false, block: a }],
      ['the next page putting a new block in its place resets it', { failed: true, block: a }, { type: 'props', block: b }, { failed: false, block: b }],
      ['re-rendering the same block keeps the fallback', { failed: true, block: a }, { type: 'props', block: a }, { failed: true, block: a }],
      ['a healthy block stays healthy on route change', { failed: false, block: a }, { type: 'routeChangeStart' }, { failed: false, block: a }],
    ])('%s', (_name, state, event, expected) => expect(boundaryState(state, event)).toEqual(expected));
    it('says exactly the SPEC text', () => expect(BLOCK_ERROR_TEXT).toBe('Oh snap! There was a problem loading this content'));
  });
});

describe('title popup purposes', () => {
  it('are the 14 of SPEC §3 in order', () => {
    expect(LOAN_PURPOSES).toHaveLength(14);
    expect(LOAN_PURPOSES[0]).toBe('Debt Consolidation');
    expect(LOAN_PURPOSES.at(-1)).toBe('Other');
  });
});
