import type { BlockProps } from '../types';
import { ApplyLink } from '../layout/ApplyLink';

export default function Hero({ block, brand }: BlockProps<'hero'>) {
  return (
    <div className="bg-slate-100">
      <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{block.heading}</h1>
        {block.text && <p className="mt-4 text-lg text-slate-700">{block.text}</p>}
        {block.ctaLabel && (
          <ApplyLink apply={brand.apply} href={block.data.applyHref} className="mt-6 inline-block rounded-md bg-brand px-6 py-3 font-bold text-white hover:opacity-90">
            {block.ctaLabel}
          </ApplyLink>
        )}
      </div>
    </div>
  );
}
