import { describe, expect, it } from 'vitest';
import { traceCounts } from '../../scripts/bench/lighthouseWork';

const PAGE = 'http://ipaydayloans.localhost:3540';
const thread = (pid: number, tid: number, name: string) => ({ name: 'thread_name', ph: 'M', pid, tid, args: { name } });
const parsed = (pid: number, url: string) => ({ name: 'ParseHTML', ph: 'X', dur: 1000, pid, tid: 1, args: { beginData: { url } } });
const recalc = (pid: number, tid: number, elementCount: number) => ({ name: 'UpdateLayoutTree', ph: 'X', dur: 1000, pid, tid, args: { elementCount } });
const layout = (pid: number, tid: number, dirtyObjects: number) => ({
  name: 'Layout',
  ph: 'X',
  dur: 1000,
  pid,
  tid,
  args: { beginData: { dirtyObjects, totalObjects: 500 } },
});
const task = (pid: number, tid: number, ms: number) => ({ name: 'RunTask', ph: 'X', dur: ms * 1000, pid, tid });

describe('load work read from a Chrome trace', () => {
  it("counts the style recalcs and layouts of the page's renderer main thread", () => {
    const events = [
      thread(10, 1, 'CrRendererMain'),
      parsed(10, `${PAGE}/apply`),
      recalc(10, 1, 120),
      recalc(10, 1, 30),
      layout(10, 1, 200),
      task(10, 1, 80),
      task(10, 1, 40),
    ];
    expect(traceCounts(events, PAGE)).toEqual({ recalcs: 2, restyled: 150, layouts: 1, laidOut: 200 });
  });

  it("leaves out the browser's own pages and the page's other threads", () => {
    const events = [
      thread(10, 1, 'CrRendererMain'),
      thread(10, 2, 'Compositor'),
      parsed(10, `${PAGE}/`),
      recalc(10, 1, 100),
      recalc(10, 2, 999),
      // a new-tab page rendered in another process while the page loaded
      thread(20, 1, 'CrRendererMain'),
      parsed(20, 'chrome://new-tab-page/'),
      recalc(20, 1, 50),
      layout(20, 1, 57),
      task(20, 1, 500),
    ];
    expect(traceCounts(events, PAGE)).toEqual({ recalcs: 1, restyled: 100, layouts: 0, laidOut: 0 });
  });
});
