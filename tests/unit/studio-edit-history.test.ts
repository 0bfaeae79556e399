/** Undo and redo in the studio: each edit one step (typing into one field one step), undone and redone exactly, the untouched parts shared. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, edit, rebase, redo, startHistory, undo } from '../../engine/browser/studio/editHistory';
import type { Brand } from '../../schemas/brand.types';
import { applyPatches, setPatch, type Patch } from '../../engine/browser/studio/patches';

const brand = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;

describe('patches', () => {
  it('replace, add, remove and move leave the original untouched and share what they do not change', () => {
    const doc = { a: { b: [1, 2, 3] }, c: { d: 1 } };
    const out = applyPatches(doc, [
      { op: 'replace', path: ['a', 'b', 0], value: 9 },
      { op: 'add', path: ['a', 'b', 1], value: 8 },
      { op: 'move', path: ['a', 'b', 0], from: 3 },
      { op: 'remove', path: ['a', 'b', 1] },
    ]);
    expect(out).toEqual({ a: { b: [3, 8, 2] }, c: { d: 1 } });
    expect(doc).toEqual({ a: { b: [1, 2, 3] }, c: { d: 1 } });
    expect(out.c).toBe(doc.c);
  });

  it('setting a field under an absent object adds the object, so undoing leaves nothing behind', () => {
    const doc = { config: {} } as Record<string, unknown>;
    const h = edit(startHistory(doc), setPatch(doc, ['exitPopup', 'variant'], 'payday'));
    expect(h.doc).toEqual({ config: {}, exitPopup: { variant: 'payday' } });
    expect(undo(h).doc).toEqual({ config: {} });
  });
});

describe('the edit history', () => {
  it('undoes and redoes a headline change, a block removal and a reorder on a real brand, back to the same document', () => {
    let h = startHistory(brand);
    const blocks = ['layouts', 'home', 'blocks'];
    h = edit(h, setPatch(h.doc, [...blocks, 0, 'heading'], 'A new headline'), { key: 'heading', now: 0 });
    h = edit(h, [{ op: 'remove', path: [...blocks, 2] }], { now: 5000 });
    h = edit(h, [{ op: 'move', path: [...blocks, 0], from: 1 }], { now: 10000 });
    expect(h.past).toHaveLength(3);
    const edited = h.doc;
    h = undo(undo(undo(h)));
    expect(h.doc).toEqual(brand);
    expect(canUndo(h)).toBe(false);
    h = redo(redo(redo(h)));
    expect(h.doc).toEqual(edited);
    expect(canRedo(h)).toBe(false);
  });

  it('typing into one field is one step; another field, or a pause, starts a new one', () => {
    let h = startHistory({ name: '' });
    for (const [i, text] of ['A', 'Ac', 'Acm', 'Acme'].entries()) h = edit(h, setPatch(h.doc, ['name'], text), { key: '/name', now: i * 200 });
    expect(h.past).toHaveLength(1);
    expect(undo(h).doc).toEqual({ name: '' });
    h = edit(h, setPatch(h.doc, ['name'], 'Acme Loans'), { key: '/name', now: 5000 });
    expect(h.past).toHaveLength(2);
    expect(undo(h).doc).toEqual({ name: 'Acme' });
  });

  it('a new edit after an undo drops the redo', () => {
    let h = edit(startHistory({ a: 1 }), setPatch({ a: 1 }, ['a'], 2));
    h = undo(h);
    h = edit(h, setPatch(h.doc, ['a'], 3));
    expect(canRedo(h)).toBe(false);
    expect(h.doc).toEqual({ a: 3 });
  });

  it("the other editor's version with this session's unsaved edits on top loses neither", () => {
    const base = { name: 'Acme', hosts: ['acme.com'] };
    const mine: Patch[] = setPatch(base, ['name'], 'Acme Loans');
    const theirs = { name: 'Acme', hosts: ['acme.com', 'acme.net'] };
    expect(rebase(startHistory(base), theirs, mine).doc).toEqual({ name: 'Acme Loans', hosts: ['acme.com', 'acme.net'] });
  });
});
