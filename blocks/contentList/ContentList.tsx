import type { BlockProps } from '../types';
import { Oops } from '../layout/Oops';
import { Section } from '../layout/Section';

const dateText = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export default function ContentList({ block }: BlockProps<'contentList'>) {
  const { items, pages, error } = block.data;
  if (error) return <Oops />;
  return (
    <Section heading={block.heading}>
      {items.length === 0 ? (
        <p className="text-slate-800">Nothing here yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {items.map((item) => (
            <li key={item.href} className="py-4">
              <a href={item.href} className="text-lg font-semibold text-blue-800 underline-offset-2 hover:underline">{item.title}</a>
              {item.date && block.collection !== 'category' && block.collection !== 'tag' && block.collection !== 'author' && (
                <p className="text-sm text-slate-600"><time dateTime={item.date}>{dateText(item.date)}</time></p>
              )}
              <p className="mt-1 text-slate-800">{item.description}</p>
            </li>
          ))}
        </ul>
      )}
      {pages && (
        <nav aria-label={`Pages, ${pages.current} of ${pages.count}`} className="mt-4">
          <ul className="flex flex-wrap gap-1">
            {pages.links.map((l) => (
              <li key={l.href}>
                <a href={l.href} aria-current={l.current ? 'page' : undefined} className={`block min-w-9 rounded border px-2 py-1 text-center ${l.current ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 text-blue-800'}`}>{l.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </Section>
  );
}
