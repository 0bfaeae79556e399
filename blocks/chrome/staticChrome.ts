/** The site chrome's part of the static chunk (blocks/generated/staticBlocks.ts): kept on the first load, rendered by a client-side navigation. */
export { Footer } from './Footer';
export { Header } from './Header';
export { writePageHead } from './pageHead';
