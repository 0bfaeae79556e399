/**
 * What the application form records for the consent certificate (engine/leads/certificate, on the
 * server): when each step was shown and left, a SHA-256 of each step's form as shown, how each
 * field was filled — typed, pasted or autofilled, counted, never the values — and the consent
 * text's font size and contrast as rendered. Times are milliseconds since the page loaded
 * (performance.now), so the browser's clock never matters: the server anchors them on its own.
 */
import type { LeadEvidence } from '../../schemas/api.types';

type Fill = { typed: number; pasted: number; autofilled: number };
type Step = { step: number; shownMs: number; doneMs: number; htmlSha256?: string };

/** WCAG 2.1 relative luminance of an sRGB colour given as 0–255 channels. */
const luminance = ([r, g, b]: number[]): number => {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
};

/** The contrast ratio of two colours (1 to 21), two decimals. */
export function contrastRatio(fg: number[], bg: number[]): number {
  const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return Math.round(((a! + 0.05) / (b! + 0.05)) * 100) / 100;
}

/** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" → [r, g, b, alpha]; undefined for anything else. */
export function parseColour(css: string): number[] | undefined {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(css.trim());
  if (!m) return undefined;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
}

let paint: CanvasRenderingContext2D | null | undefined;

/** Any CSS colour the page computes (Tailwind's oklch() included) as [r, g, b, alpha]: rgb() read directly, anything else painted on a 1 px canvas. */
function colourOf(css: string): number[] | undefined {
  const direct = parseColour(css);
  if (direct) return direct;
  if (paint === undefined) {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    paint = canvas.getContext('2d', { willReadFrequently: true });
  }
  if (!paint) return undefined;
  paint.clearRect(0, 0, 1, 1);
  paint.fillStyle = css;
  paint.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = paint.getImageData(0, 0, 1, 1).data;
  return [r!, g!, b!, a! / 255];
}

/** The consent text's computed size and its contrast with the first opaque background behind it (white when none is). */
export function measureConsent(el: Element): { fontSizePx: number; contrast: number } | undefined {
  const style = getComputedStyle(el);
  const fg = colourOf(style.color);
  if (!fg) return undefined;
  let bg = [255, 255, 255];
  for (let node: Element | null = el; node; node = node.parentElement) {
    const c = colourOf(getComputedStyle(node).backgroundColor);
    if (c && c[3]! >= 0.99) {
      bg = c.slice(0, 3);
      break;
    }
  }
  return { fontSizePx: Math.round(parseFloat(style.fontSize) * 10) / 10, contrast: contrastRatio(fg.slice(0, 3), bg) };
}

async function sha256Hex(text: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined; // not a secure context: the step is recorded without its hash
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const MAX_STEPS = 20;
const MAX_FIELDS = 30;
const DAY_MS = 86_400_000;

/** One form's recorder: watch(form) once, step(n, form) on each step shown, evidence() at submit. */
export function consentRecorder(fieldPrefix: string) {
  const fields = new Map<string, Fill>();
  const steps: Step[] = [];
  const hashes: Promise<void>[] = [];
  const now = () => Math.round(performance.now());

  const nameOf = (target: EventTarget | null): string | undefined => {
    const id = (target as HTMLElement | null)?.id;
    if (!id?.startsWith(fieldPrefix)) return undefined;
    const name = id.slice(fieldPrefix.length).replace(/[^A-Za-z0-9]/g, '');
    return /^[A-Za-z]/.test(name) ? name.slice(0, 40) : undefined;
  };
  const count = (target: EventTarget | null, how: keyof Fill) => {
    const name = nameOf(target);
    if (!name || (!fields.has(name) && fields.size >= MAX_FIELDS)) return;
    const fill = fields.get(name) ?? { typed: 0, pasted: 0, autofilled: 0 };
    fill[how] = Math.min(10_000, fill[how] + 1);
    fields.set(name, fill);
  };
  const onInput = (e: Event) => {
    const type = (e as InputEvent).inputType;
    // Chromium and Safari fire input without an inputType (or insertReplacementText) for autofill; paste says so
    if (type === 'insertFromPaste' || type === 'insertFromDrop') count(e.target, 'pasted');
    else if (!type || type === 'insertReplacementText') count(e.target, 'autofilled');
    else count(e.target, 'typed');
  };
  const onChange = (e: Event) => {
    const t = e.target as HTMLElement;
    if (t.tagName === 'SELECT' || (t as HTMLInputElement).type === 'checkbox') count(t, 'typed');
  };

  return {
    /** listens to the form's fields (input bubbles; a select or checkbox counts as typed on change) */
    watch(root: HTMLElement): () => void {
      root.addEventListener('input', onInput, true);
      root.addEventListener('change', onChange, true);
      return () => {
        root.removeEventListener('input', onInput, true);
        root.removeEventListener('change', onChange, true);
      };
    },
    /** a step is shown: the one before it is left now; its markup hashed as shown */
    step(step: number, form: Element | null) {
      const t = now();
      const last = steps[steps.length - 1];
      if (last && last.doneMs < last.shownMs) last.doneMs = t;
      if (steps.length >= MAX_STEPS) return;
      const entry: Step = { step, shownMs: t, doneMs: -1 };
      steps.push(entry);
      if (form)
        hashes.push(
          sha256Hex(form.outerHTML).then((h) => {
            if (h) entry.htmlSha256 = h;
          }),
        );
    },
    /** what goes with the lead: the step now being submitted is left at this moment */
    async evidence(consent: Element | null): Promise<LeadEvidence> {
      // a page left open over a day is recorded as a day: the schema's bound
      const t = Math.min(now(), DAY_MS);
      await Promise.all(hashes).catch(() => undefined);
      const shown = consent ? measureConsent(consent) : undefined;
      return {
        page: location.pathname.slice(0, 300),
        steps: steps.map((s) => ({ ...s, shownMs: Math.min(s.shownMs, t), doneMs: Math.min(s.doneMs < s.shownMs ? t : s.doneMs, t) })) as LeadEvidence['steps'],
        submitMs: t,
        fields: Object.fromEntries(fields),
        ...(shown ? { consent: shown } : {}),
      };
    },
  };
}

export type ConsentRecorder = ReturnType<typeof consentRecorder>;
