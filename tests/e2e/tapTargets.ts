import type { Page } from '@playwright/test';

export interface SmallTarget {
  what: string;
  width: number;
  height: number;
}

/**
 * Every element a visitor can tap that is visible on the page (anywhere, not only on screen) and
 * smaller than the rule: at least 44 × 44 CSS px (WCAG 2.5.5), or, if smaller, spaced
 * so that a 44 × 44 square centred on it touches no other target (the spacing form of 2.5.8, with
 * 2.5.5's size). Exempt as in WCAG: links inside a sentence (an inline <a> in running text), and
 * controls the browser draws (a checkbox or radio inside its <label> is measured as the label).
 */
export function smallTapTargets(page: Page, min = 44): Promise<SmallTarget[]> {
  return page.evaluate((min) => {
    const selector =
      'a[href], button, summary, input:not([type=hidden]), select, textarea, [role=option], [role=button], [role=slider], [tabindex]:not([tabindex="-1"])';
    const visible = (el: Element) => {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
      const r = el.getBoundingClientRect();
      // sr-only elements (1 × 1, clipped): not a visible target
      return r.width > 2 && r.height > 2;
    };
    const inSentence = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const block = el.parentElement?.closest('p, li, td, dd, blockquote');
      return !!block && (block.textContent ?? '').trim().length > (el.textContent ?? '').trim().length + 1;
    };
    const boxOf = (el: Element) => {
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        const label = el.closest('label') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
        if (label) return label.getBoundingClientRect();
      }
      return el.getBoundingClientRect();
    };
    const all = [...document.querySelectorAll(selector)].filter(visible).filter((el) => !inSentence(el));
    // Nested targets (a button inside a link, an input inside a label) count once: the outer one.
    const targets = all.filter((el) => !all.some((o) => o !== el && o.contains(el)));
    const boxes = targets.map((el) => ({ el, r: boxOf(el) }));
    const overlaps = (a: { left: number; right: number; top: number; bottom: number }, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const small: { what: string; width: number; height: number }[] = [];
    for (const { el, r } of boxes) {
      if (r.width >= min - 0.5 && r.height >= min - 0.5) continue;
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const square = { left: cx - min / 2, right: cx + min / 2, top: cy - min / 2, bottom: cy + min / 2 };
      if (!boxes.some((o) => o.el !== el && overlaps(square, o.r))) continue;
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      small.push({ what: `<${el.tagName.toLowerCase()}> ${text}`, width: Math.round(r.width), height: Math.round(r.height) });
    }
    return small;
  }, min);
}
