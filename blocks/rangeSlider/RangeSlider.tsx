'use client';
import { useRef, useState } from 'react';
import { applyUrl } from '../../engine/browser/applyUrl';
import { funnel } from '../chrome/funnel';
import { formatMoney } from '../../engine/browser/amounts';
import { digitsOnly } from '../../engine/browser/widgets/amountInput';
import { sliderAmount, sliderInput, sliderValueForAmount, sliderValueText, snapSliderValue } from '../../engine/browser/widgets/slider';
import type { BlockProps } from '../types';
import { CREDIT_NOTE } from '../parts/CashForm';
import { WidgetCostNote } from '../chrome/CostNote';
import { useApplySource } from '../parts/useApplySource';

/**
 * Range-slider banner (SPEC §5): a native range input in steps of 5 whose amount is ten times the
 * value, named by aria-valuetext ("$1,000"); its range and starting amount are the page's, from
 * the loan rules (engine/browser/widgets/slider.ts); a field to type the amount instead of dragging; and
 * the See Rates / Check Your Rate link with that amount. Right under the hero (engine/site/leadIn.ts)
 * it opens the page: tighter on phones, with the cost note after the link.
 */
export default function RangeSlider({ block, brand }: BlockProps<'rangeSlider'>) {
  const { range } = block.data;
  const input = sliderInput(range);
  const [value, setValue] = useState<number>(input.default);
  /** what is in the typed field while it is being edited; null shows the slider's amount */
  const [typed, setTyped] = useState<string | null>(null);
  /**
   * A touch on the track moves the thumb there at once, before the browser knows whether the
   * finger will slide along the slider or scroll the page. When it scrolls (the browser cancels
   * the pointer), the amount from before the touch is put back: scrolling past the banner with a
   * thumb that happened to land on it must not change the amount.
   */
  const touch = useRef<{ before?: number } | null>(null);
  const source = useApplySource();
  const typedValue = (text: string) => sliderValueForAmount(text === '' ? undefined : Number(text), value, range);
  const effective = typed === null ? value : typedValue(typed);
  const money = (v: number) => sliderValueText(v, range, brand.locale, brand.currency);
  /** `amount_used`, once per page (a slider dragged ten times is one use). */
  const amountUsed = () => funnel({ type: 'amount_used' }, { once: true });
  const commit = () => {
    if (typed === null) return;
    setValue(typedValue(typed));
    setTyped(null);
  };
  const ids = { heading: `${block.key}-heading`, slider: `${block.key}-slider`, typed: `${block.key}-typed` };
  const span = `${formatMoney(range.min, brand.locale, brand.currency)} to ${formatMoney(range.max, brand.locale, brand.currency)}`;
  return (
    <section aria-labelledby={ids.heading} className="bg-slate-900 text-white" {...(block.data.costNote ? { 'data-hero-cta': '' } : {})}>
      <div className={`mx-auto max-w-3xl px-4 ${block.data.costNote ? 'py-5 sm:py-8' : 'py-8'}`}>
        <h2 id={ids.heading} className={block.data.costNote ? 'text-xl font-bold sm:text-2xl' : 'text-2xl font-bold'}>
          {block.heading ?? 'How much would you like to borrow?'}
        </h2>
        {block.text && <p className="mt-2 text-slate-100">{block.text}</p>}
        <div className="mt-5 flex items-end justify-between gap-4">
          <label htmlFor={ids.slider} className="font-medium">
            Loan amount
          </label>
          <output htmlFor={ids.slider} className="text-3xl font-extrabold">
            {money(effective)}
          </output>
        </div>
        <input
          id={ids.slider}
          type="range"
          min={input.min}
          max={input.max}
          step={input.step}
          value={effective}
          aria-valuetext={money(effective)}
          onPointerDown={(e) => {
            touch.current = e.pointerType === 'touch' ? {} : null;
          }}
          onPointerUp={() => {
            // A touch that moved the amount and ended on the slider was a use of it.
            if (touch.current?.before !== undefined) amountUsed();
            touch.current = null;
          }}
          onPointerCancel={() => {
            const before = touch.current?.before;
            touch.current = null;
            if (before !== undefined) setValue(before);
          }}
          onChange={(e) => {
            if (touch.current && touch.current.before === undefined) touch.current.before = effective;
            setTyped(null);
            setValue(snapSliderValue(Number(e.target.value), range));
            // Under a touch it is not known yet whether this is a use or a scroll: counted on pointerup.
            if (!touch.current) amountUsed();
          }}
          className="mt-2 h-11 w-full accent-amber-400"
        />
        <div aria-hidden="true" className="flex justify-between text-sm text-slate-200">
          <span>{money(input.min)}</span>
          <span>{money(input.max)}</span>
        </div>
        <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end">
          <div>
            <label htmlFor={ids.typed} className="block text-sm font-medium">
              {`Or type an amount (${span})`}
            </label>
            <div className="mt-1 flex items-center rounded-md bg-white text-slate-900">
              <span aria-hidden="true" className="pl-3">
                $
              </span>
              <input
                id={ids.typed}
                inputMode="numeric"
                autoComplete="off"
                value={typed ?? String(sliderAmount(value, range))}
                onChange={(e) => setTyped(digitsOnly(e.target.value).slice(0, 5))}
                onBlur={commit}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    commit();
                  }
                }}
                className="min-h-11 w-32 rounded-md px-2 py-2"
              />
            </div>
          </div>
          <a
            href={applyUrl(brand.apply, { source, amount: sliderAmount(effective, range) })}
            rel="nofollow"
            data-full-load=""
            className="inline-flex min-h-11 items-center justify-center rounded-md bg-amber-400 px-6 py-2.5 text-center font-bold text-slate-900 hover:bg-amber-300 sm:ml-auto"
          >
            {block.ctaLabel ?? 'Check Your Rate'}
          </a>
        </div>
        <p className="mt-3 text-sm text-slate-100">{CREDIT_NOTE}</p>
        {block.data.costNote && <WidgetCostNote block={block} brand={brand} className="mt-4 rounded-md bg-white p-3" />}
      </div>
    </section>
  );
}
