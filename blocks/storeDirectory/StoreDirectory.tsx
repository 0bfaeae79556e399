import type { BlockProps } from '../types';
import { Section } from '../layout/Section';

export default function StoreDirectory({ block }: BlockProps<'storeDirectory'>) {
  const { stores, groups } = block.data;
  return (
    <Section heading={block.heading}>
      {groups && (
        <nav aria-label="Store directory by letter" className="mb-4">
          <ul className="flex flex-wrap gap-1">
            {groups.map((g) => (
              <li key={g.href}>
                <a href={g.href} aria-current={g.current ? 'page' : undefined} className={`block rounded border px-2 py-1 ${g.current ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 text-blue-800'}`}>{g.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {stores.length ? (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {stores.map((s) => (
            <li key={s.href} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
              <a href={s.href} className="font-semibold text-blue-800 underline-offset-2 hover:underline">{s.label}</a>
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
