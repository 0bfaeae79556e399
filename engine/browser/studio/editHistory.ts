/**
 * Undo and redo for one editing session: each step is the patches an edit made and their
 * inverses (engine/browser/studio/patches.ts), so undo and redo cost the size of the edit, never
 * a copy of the document. Typing into one field is one step, not one per key: an edit of the
 * same field within `mergeMs` of the last one joins it. Pure; the studio page holds the state.
 * Tests in tests/unit/studio-edit-history.test.ts.
 */
import { applyPatches, applyWithInverse, type Patch } from './patches';

export interface Step {
  patches: Patch[];
  inverse: Patch[];
  /** what the step changed, for merging keystrokes into one step ("/routes/0/path") */
  key?: string;
  at: number;
}

export interface EditHistory<T> {
  doc: T;
  past: Step[];
  future: Step[];
}

export const MERGE_MS = 1000;
/** Steps kept: enough for a session, bounded so a day of typing does not grow without end. */
export const MAX_STEPS = 500;

export const startHistory = <T>(doc: T): EditHistory<T> => ({ doc, past: [], future: [] });

/** An edit applied: a new step (or the last one grown, for more typing into the same field), and no redo left. */
export function edit<T>(h: EditHistory<T>, patches: Patch[], options: { key?: string; now?: number; mergeMs?: number } = {}): EditHistory<T> {
  if (!patches.length) return h;
  const now = options.now ?? Date.now();
  const { doc, inverse } = applyWithInverse(h.doc, patches);
  const last = h.past[h.past.length - 1];
  if (options.key && last?.key === options.key && now - last.at <= (options.mergeMs ?? MERGE_MS) && !h.future.length) {
    const merged: Step = { patches: [...last.patches, ...patches], inverse: [...inverse, ...last.inverse], key: options.key, at: now };
    return { doc, past: [...h.past.slice(0, -1), merged], future: [] };
  }
  const step: Step = { patches, inverse, key: options.key, at: now };
  return { doc, past: [...h.past, step].slice(-MAX_STEPS), future: [] };
}

export const canUndo = (h: EditHistory<unknown>): boolean => h.past.length > 0;
export const canRedo = (h: EditHistory<unknown>): boolean => h.future.length > 0;

export function undo<T>(h: EditHistory<T>): EditHistory<T> {
  const step = h.past[h.past.length - 1];
  if (!step) return h;
  return { doc: applyPatches(h.doc, step.inverse), past: h.past.slice(0, -1), future: [step, ...h.future] };
}

export function redo<T>(h: EditHistory<T>): EditHistory<T> {
  const [step, ...future] = h.future;
  if (!step) return h;
  return { doc: applyPatches(h.doc, step.patches), past: [...h.past, { ...step, key: undefined }], future };
}

/**
 * The document replaced from outside (another editor's saved version after a conflict, a restore)
 * with the session's steps kept on top of it where they still apply: the returned history's
 * document is `base` with the unsaved edits (`pending` patches) re-applied, so no edit is lost.
 */
export function rebase<T>(h: EditHistory<T>, base: T, pending: readonly Patch[]): EditHistory<T> {
  let doc = base;
  for (const p of pending) {
    try {
      doc = applyPatches(doc, [p]);
    } catch {
      // a patch whose place is gone in the other version (its array entry removed) is dropped; the caller shows both versions
    }
  }
  return { doc, past: [], future: [] };
}
