import type { BlockProps } from '../types';
import { PillNav } from '../chrome/PillNav';
import { Section } from '../chrome/Section';

export default function StoreDirectory({ block }: BlockProps<'storeDirectory'>) {
  const { stores, groups } = block.data;
  return (
    <Section heading={block.heading}>
      {groups && <PillNav label="Store directory by letter" links={groups} />}
      {stores.length ? (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {stores.map((s) => (
            <li key={s.href} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
              <a href={s.href} className="inline-flex min-h-11 items-center font-semibold text-blue-800 underline-offset-2 hover:underline">
                {s.label}
              </a>
              <span className="text-sm text-slate-700">Known for {s.loanType}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-800">No loan store brands are listed under these letters yet. Try another letter, or compare online lenders instead.</p>
      )}
    </Section>
  );
}
