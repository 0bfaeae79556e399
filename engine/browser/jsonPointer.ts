/** JSON pointers (RFC 6901) ↔ their keys: the validator reports problems by pointer, and the studio finds each one's field by it. */
export const decodePointer = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

export const encodePointer = (parts: readonly (string | number)[]): string =>
  parts.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
