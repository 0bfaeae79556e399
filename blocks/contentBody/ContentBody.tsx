import type { BlockProps } from '../types';
import { dateText, FaqList } from '../chrome/FaqList';
import { Oops } from '../chrome/Oops';

/** The content item's body. Its HTML comes from engine/content/markdown.ts (escaped + allow-listed). */
export default function ContentBody({ block, brand }: BlockProps<'contentBody'>) {
  const data = block.data;
  if (data.error) return <Oops />;
  const meta = block.showMeta ?? true;
  return (
    <article className="mx-auto max-w-3xl px-4 py-6">
      {meta && (
        <p className="mb-4 text-sm text-slate-700">
          {data.author && (
            <>
              By{' '}
              {data.author.href ? (
                <a href={data.author.href} className="inline-flex min-h-11 items-center text-blue-800 underline">
                  {data.author.name}
                </a>
              ) : (
                data.author.name
              )}{' '}
              ·{' '}
            </>
          )}
          {data.publishedAt && (
            <>
              Published <time dateTime={data.publishedAt}>{dateText(data.publishedAt, brand.locale)}</time>
              {data.updatedAt ? ' · ' : ''}
            </>
          )}
          {/* empty when the CMS sent no readable date (engine/content/strapi.ts) */}
          {data.updatedAt && (
            <>
              Updated <time dateTime={data.updatedAt}>{dateText(data.updatedAt, brand.locale)}</time>
            </>
          )}
          {data.category && (
            <>
              {' '}
              ·{' '}
              <a href={data.category.href} className="inline-flex min-h-11 items-center text-blue-800 underline">
                {data.category.name}
              </a>
            </>
          )}
        </p>
      )}
      <div className="prose-content space-y-4 leading-relaxed text-slate-800" dangerouslySetInnerHTML={{ __html: data.html }} />
      {meta && data.tags.length > 0 && (
        <ul aria-label="Topics" className="mt-6 flex flex-wrap gap-2">
          {data.tags.map((t) => (
            <li key={t.href}>
              <a href={t.href} className="inline-flex min-h-11 items-center rounded-full border border-slate-300 px-3 py-1 text-sm text-blue-800">
                {t.name}
              </a>
            </li>
          ))}
        </ul>
      )}
      {data.faq.length > 0 && (
        <section className="mt-8">
          <h2 className="mb-3 text-2xl font-bold text-slate-900">Frequently asked questions</h2>
          <FaqList items={data.faq} />
        </section>
      )}
    </article>
  );
}
