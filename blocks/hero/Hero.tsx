import type { BlockProps } from '../types';
import { ApplyLink } from '../chrome/ApplyLink';
import { CostNote } from '../chrome/CostNote';

/**
 * The page's opening band. With a button: cost and trust right under it (CostNote); the sticky
 * phone button (layout/StickyApply) appears once this button has scrolled away. On a state the
 * brand cannot serve (engine/site/availability.ts unavailableHere) there is no button: the text says so
 * first and links to the alternatives further down. Right before an amount widget or the
 * application form (engine/site/leadIn.ts) it only introduces that input, tighter on phones, so the
 * input is on the first screen; the widget carries the button and the cost note.
 */
export default function Hero({ block, brand }: BlockProps<'hero'>) {
  const unavailable = block.data.unavailable;
  const leadIn = !!block.data.leadIn;
  return (
    <div className="bg-slate-100">
      <div className={`mx-auto max-w-3xl px-4 ${leadIn ? 'py-5 sm:py-14' : 'py-8 sm:py-14'}`}>
        <h1 className="hero-h">{block.heading}</h1>
        {unavailable ? (
          <div data-state-unavailable="" className="mt-4 rounded-md border-l-4 border-amber-600 bg-white p-4 text-lg text-slate-800">
            <p className="font-semibold">{unavailable.reason}</p>
            <a href={unavailable.alternativesHref} className="mt-1 inline-flex min-h-11 items-center font-medium text-blue-800 underline">
              See other options
            </a>
          </div>
        ) : (
          block.text && <p className={leadIn ? 'mt-2 text-base text-slate-700 sm:mt-4 sm:text-lg' : 'mt-4 text-lg text-slate-700'}>{block.text}</p>
        )}
        {block.ctaLabel && !unavailable && !leadIn && (
          <>
            <div data-hero-cta="" className="mt-6">
              <ApplyLink apply={brand.apply} href={block.data.applyHref} className="btn-apply">
                {block.ctaLabel}
              </ApplyLink>
            </div>
            <CostNote lending={brand.lending} className="mt-4" />
          </>
        )}
      </div>
    </div>
  );
}
