import type { BlockProps } from '../types';
import { ApplyLink } from '../layout/ApplyLink';

export default function ApplyCta({ block, brand }: BlockProps<'applyCta'>) {
  return (
    <section className="mx-auto my-6 max-w-3xl rounded-lg bg-slate-100 px-6 py-8 text-center">
      <h2 className="text-2xl font-bold text-slate-900">{block.heading}</h2>
      {block.text && <p className="mx-auto mt-2 max-w-xl text-slate-800">{block.text}</p>}
      <ApplyLink apply={brand.apply} href={block.data.applyHref} className="mt-5 inline-block rounded-md bg-brand px-6 py-3 font-bold text-white hover:opacity-90">
        {block.label}
      </ApplyLink>
      <p className="mt-3 text-sm text-slate-700">This won&apos;t affect your credit score</p>
    </section>
  );
}
