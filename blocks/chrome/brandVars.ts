import type { CSSProperties } from 'react';
import type { BrandView } from '../../engine/site/model';

/** The brand's colours as the CSS variables Tailwind's bg-brand / bg-brand-progress read (styles/globals.css). */
export const brandVars = (brand: Pick<BrandView, 'theme' | 'progressColor'>): CSSProperties =>
  ({ '--brand-theme': brand.theme, '--brand-progress': brand.progressColor }) as CSSProperties;
