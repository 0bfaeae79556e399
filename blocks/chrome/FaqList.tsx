/** Questions as <details>: open and close by keyboard and mouse without any script; the whole row (the <summary>) is the target. Styled in globals.css (.faq-list, the chevron included: no SVG repeated per question). */
export function FaqList({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="faq-list divide-y divide-slate-200 rounded-md border border-slate-200">
      {items.map((item) => (
        <details key={item.question}>
          <summary>{item.question}</summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** "2026-03-04" → "March 4, 2026" (the date itself, whatever the server's time zone). */
export const dateText = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
