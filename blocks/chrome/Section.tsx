import type { ReactNode } from 'react';

/** A block's band with its heading (styles/globals.css .sec: on most pages several times, so one short class). */
export const Section = ({ heading, children, wide = false }: { heading?: string; children: ReactNode; wide?: boolean }) => (
  <section className={wide ? 'sec sec-wide' : 'sec'}>
    {heading && <h2 className="sec-h">{heading}</h2>}
    {children}
  </section>
);
