import type { BlockProps } from '../types';
import { Section } from '../layout/Section';

export default function Steps({ block }: BlockProps<'steps'>) {
  return (
    <Section heading={block.heading}>
      <ol className="space-y-4">
        {block.items.map((step, i) => (
          <li key={step.title} className="flex gap-4">
            <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand font-bold text-white">{i + 1}</span>
            <div>
              <h3 className="font-semibold text-slate-900">{step.title}</h3>
              <p className="text-slate-800">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}
