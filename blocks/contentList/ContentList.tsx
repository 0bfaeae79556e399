import type { BlockProps } from '../types';
import { dateText } from '../chrome/FaqList';
import { Oops } from '../chrome/Oops';
import { PillNav } from '../chrome/PillNav';
import { Section } from '../chrome/Section';

type ContentCollection = BlockProps<'contentList'>['block']['collection'];

/** What an empty list says: the page answers (a blog before its first article, a hub before its first entry) and says why it shows no links. */
const NOTHING_YET: Record<ContentCollection, string> = {
  article: 'No articles yet.',
  answer: 'No answers yet.',
  hub: 'No hub entries yet.',
  author: 'No authors yet.',
  category: 'No topics yet.',
  tag: 'No topics yet.',
};

export default function ContentList({ block, brand }: BlockProps<'contentList'>) {
  const { items, pages, error } = block.data;
  if (error) return <Oops />;
  return (
    <Section heading={block.heading}>
      {items.length === 0 ? (
        <p className="text-slate-800">{NOTHING_YET[block.collection]}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {items.map((item) => (
            <li key={item.href} className="py-4">
              <a href={item.href} className="inline-flex min-h-11 items-center text-lg font-semibold text-blue-800 underline-offset-2 hover:underline">
                {item.title}
              </a>
              {item.date && block.collection !== 'category' && block.collection !== 'tag' && block.collection !== 'author' && (
                <p className="text-sm text-slate-600">
                  <time dateTime={item.date}>{dateText(item.date, brand.locale)}</time>
                </p>
              )}
              <p className="mt-1 text-slate-800">{item.description}</p>
            </li>
          ))}
        </ul>
      )}
      {pages && <PillNav label={`Pages, ${pages.current} of ${pages.count}`} links={pages.links} className="mt-4" />}
    </Section>
  );
}
