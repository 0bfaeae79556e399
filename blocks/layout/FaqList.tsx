/** Questions as <details>: open and close by keyboard and mouse without any script; the whole row (the <summary>) is the target. */
export function FaqList({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {items.map((item) => (
        <details key={item.question} className="group/faq">
          <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            <span>{item.question}</span>
            <svg aria-hidden="true" viewBox="0 0 20 20" width="16" height="16" fill="currentColor" className="shrink-0 transition-transform group-open/faq:rotate-180">
              <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
            </svg>
          </summary>
          <p className="px-4 pb-4 leading-relaxed text-slate-800">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** "2026-03-04" → "March 4, 2026" (the date itself, whatever the server's time zone). */
export const dateText = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
