/** Questions as <details>: open and close by keyboard and mouse without any script; the whole row (the <summary>) is the target. Styled in globals.css (.faq-list). */
export function FaqList({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="faq-list divide-y divide-slate-200 rounded-md border border-slate-200">
      {items.map((item) => (
        <details key={item.question}>
          <summary>
            <span>{item.question}</span>
            <svg aria-hidden="true" viewBox="0 0 20 20" width="16" height="16" fill="currentColor">
              <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
            </svg>
          </summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** "2026-03-04" → "March 4, 2026" (the date itself, whatever the server's time zone). */
export const dateText = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
