import type { BlockProps } from '../types';
import { ApplyLink } from '../chrome/ApplyLink';
import { CostNote } from '../chrome/CostNote';

/** The closing call to action; on a state the brand cannot serve, the alternatives instead (no apply button). */
export default function ApplyCta({ block, brand }: BlockProps<'applyCta'>) {
  const unavailable = block.data.unavailable;
  if (unavailable) {
    return (
      <section id="alternatives" className="cta-band">
        <h2 className="text-2xl font-bold text-slate-900">{block.heading}</h2>
        {block.text && <p className="mt-2 text-slate-800">{block.text}</p>}
        <ul className="mt-3">
          {unavailable.alternatives.map((l) => (
            <li key={l.href}>
              <a href={l.href} rel="noopener" className="flex min-h-11 items-center py-1 text-blue-800 underline">
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <section className="cta-band text-center">
      <h2 className="text-2xl font-bold text-slate-900">{block.heading}</h2>
      {block.text && <p className="mx-auto mt-2 max-w-xl text-slate-800">{block.text}</p>}
      <ApplyLink apply={brand.apply} href={block.data.applyHref} className="btn-apply mt-5">
        {block.label}
      </ApplyLink>
      <p className="mt-3 text-sm text-slate-700">This won&apos;t affect your credit score</p>
      <CostNote lending={brand.lending} example={false} className="mt-2" />
    </section>
  );
}
