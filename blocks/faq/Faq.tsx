import type { BlockProps } from '../types';
import { Section } from '../layout/Section';

/** Questions as <details>: open and close by keyboard and mouse without any script. */
export default function Faq({ block }: BlockProps<'faq'>) {
  return (
    <Section heading={block.heading ?? 'Frequently asked questions'}>
      <div className="divide-y divide-slate-200 rounded-md border border-slate-200">
        {block.items.map((item) => (
          <details key={item.question} className="group p-4">
            <summary className="cursor-pointer font-semibold text-slate-900">{item.question}</summary>
            <p className="mt-2 leading-relaxed text-slate-800">{item.answer}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
