/** Questions as <details>: open and close by keyboard and mouse without any script; the whole row (the <summary>) is the target. Styled in globals.css (.faq-list, the chevron included: no SVG repeated per question). */
export function FaqList({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="faq-list">
      {items.map((item) => (
        <details key={item.question}>
          <summary>{item.question}</summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** Which comes first in a written date, for the brand schema's locales. */
const FIRST: Record<string, 'month' | 'day'> = { 'en-US': 'month', 'en-CA': 'month', 'en-AU': 'day' };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * "2026-03-04" → "March 4, 2026" (en-US, en-CA) or "4 March 2026" (en-AU: Australians put the day
 * first), the date itself whatever the server's time zone: what toLocaleDateString(locale, { year,
 * month: 'long', day }) writes, without it. Its first call maps ICU's locale data (~5 MB resident
 * on the server for the life of the process; main-thread time in a phone's browser), which nothing
 * else on these pages needs.
 */
export function dateText(iso: string, locale = 'en-US'): string {
  const date = new Date(`${iso}T12:00:00Z`);
  const year = date.getUTCFullYear();
  const first = FIRST[locale];
  if (!first || !(year >= 1 && year <= 9999)) return date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const [month, day] = [MONTHS[date.getUTCMonth()], date.getUTCDate()];
  return first === 'day' ? `${day} ${month} ${year}` : `${month} ${day}, ${year}`;
}
