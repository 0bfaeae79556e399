'use client';
import type { BlockProps } from '../types';
import { CashForm } from '../parts/CashForm';
import { WidgetCostNote } from '../chrome/CostNote';

/**
 * The Get Your Cash widget: an amount field and "Get My Quotes Now!" (rules in engine/browser/widgets/amountInput.ts).
 * Right under the hero (engine/site/leadIn.ts) it opens the page: tighter on phones, with the cost note.
 */
export default function GetYourCash({ block, brand }: BlockProps<'getYourCash'>) {
  const headingId = `${block.key}-heading`;
  const opening = block.data.costNote;
  return (
    <section
      aria-labelledby={headingId}
      className={`mx-auto max-w-3xl px-4 ${opening ? 'my-4 sm:my-6' : 'my-6'}`}
      {...(opening ? { 'data-hero-cta': '' } : {})}
    >
      <div className={`rounded-lg border border-slate-200 shadow-sm ${opening ? 'p-4 sm:p-6' : 'p-6'}`}>
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {block.heading ?? 'Get Your Cash'}
        </h2>
        {block.text && <p className="mt-2 text-slate-800">{block.text}</p>}
        <div className="mt-4">
          <CashForm brand={brand} id={`${block.key}-amount`} {...(block.buttonLabel ? { buttonLabel: block.buttonLabel } : {})} />
        </div>
        {opening && <WidgetCostNote block={block} brand={brand} className="mt-4" />}
      </div>
    </section>
  );
}
