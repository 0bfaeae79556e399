'use client';
import { useState } from 'react';
import { bracketAmount } from '../../engine/browser/amounts';
import { applyUrl } from '../../engine/browser/applyUrl';
import { ApplyForm } from '../parts/ApplyForm';
import type { BlockProps } from '../types';
import { AmountDropdown } from '../parts/AmountDropdown';
import { CREDIT_NOTE } from '../parts/CashForm';
import { WidgetCostNote } from '../chrome/CostNote';
import { useApplySource } from '../parts/useApplySource';

/**
 * Quick amount picker "How Much Instant Cash Do You Need?": the amount dropdown (100–5000 and
 * "Above $5000") whose choice is rounded up to a bracket (500, 1000, 2500, 5000, above → 35000)
 * and handed to the apply page. Without script it is a plain GET form with the default amount.
 * Right under the hero (engine/site/leadIn.ts) it opens the page: tighter on phones, with the cost note.
 */
export default function QuickAmount({ block, brand }: BlockProps<'quickAmount'>) {
  const [amount, setAmount] = useState(block.data.defaultAmount);
  const source = useApplySource();
  const href = applyUrl(brand.apply, { source, amount: bracketAmount(amount) });
  const headingId = `${block.key}-heading`;
  const opening = block.data.costNote;
  return (
    <section
      aria-labelledby={headingId}
      className={`mx-auto max-w-3xl px-4 ${opening ? 'my-4 sm:my-6' : 'my-6'}`}
      {...(opening ? { 'data-hero-cta': '' } : {})}
    >
      <ApplyForm apply={brand.apply} href={href} source={source} className={`rounded-lg border border-slate-200 shadow-sm ${opening ? 'p-4 sm:p-6' : 'p-6'}`}>
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {block.heading ?? 'How Much Instant Cash Do You Need?'}
        </h2>
        <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <AmountDropdown
            id={`${block.key}-amount`}
            label="Loan amount"
            options={block.data.options}
            defaultValue={block.data.defaultAmount}
            onChange={setAmount}
            name={brand.apply.amountParam}
            className="w-full sm:w-60"
          />
          <button type="submit" className="btn-go">
            {block.buttonLabel ?? 'Get Started'}
          </button>
        </div>
        <p className="mt-3 text-sm text-slate-700">{CREDIT_NOTE}</p>
      </ApplyForm>
      {opening && <WidgetCostNote block={block} brand={brand} className="mt-3" />}
    </section>
  );
}
