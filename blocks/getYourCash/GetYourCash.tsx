'use client';
import type { BlockProps } from '../types';
import { CashForm } from '../parts/CashForm';

/** The Get Your Cash widget: an amount field and "Get My Quotes Now!" (rules in engine/widgets/amountInput.ts). */
export default function GetYourCash({ block, brand }: BlockProps<'getYourCash'>) {
  const headingId = `${block.key}-heading`;
  return (
    <section aria-labelledby={headingId} className="mx-auto my-6 max-w-3xl px-4">
      <div className="rounded-lg border border-slate-200 p-6 shadow-sm">
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {block.heading ?? 'Get Your Cash'}
        </h2>
        {block.text && <p className="mt-2 text-slate-800">{block.text}</p>}
        <div className="mt-4">
          <CashForm brand={brand} id={`${block.key}-amount`} {...(block.buttonLabel ? { buttonLabel: block.buttonLabel } : {})} />
        </div>
      </div>
    </section>
  );
}
