/** Browser storage, or undefined where it is blocked (reading the property itself can throw). */
export function storage(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[name];
  } catch {
    return undefined;
  }
}
