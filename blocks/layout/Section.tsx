import type { ReactNode } from 'react';

export const Section = ({ heading, children, wide = false }: { heading?: string; children: ReactNode; wide?: boolean }) => (
  <section className={`mx-auto ${wide ? 'max-w-6xl' : 'max-w-3xl'} px-4 py-6`}>
    {heading && <h2 className="mb-3 text-2xl font-bold text-slate-900">{heading}</h2>}
    {children}
  </section>
);
