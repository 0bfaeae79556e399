/** Questions as <details>: open and close by keyboard and mouse without any script. */
export function FaqList({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {items.map((item) => (
        <details key={item.question} className="p-4">
          <summary className="cursor-pointer font-semibold text-slate-900">{item.question}</summary>
          <p className="mt-2 leading-relaxed text-slate-800">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** "2026-03-04" → "March 4, 2026" (the date itself, whatever the server's time zone). */
export const dateText = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
