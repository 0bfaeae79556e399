/** WCAG 2.1 contrast between two #rrggbb colours. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

/** Why white text on a button of this colour is unreadable (the validator's words), or undefined when it is readable. */
export function whiteTextProblem(color: string): string | undefined {
  const ratio = contrastRatio(color, '#ffffff');
  return ratio < MIN_TEXT_CONTRAST
    ? `white text on ${color} has a contrast of ${ratio.toFixed(1)}:1; it needs at least ${MIN_TEXT_CONTRAST}:1 to be readable — use a darker colour`
    : undefined;
}
