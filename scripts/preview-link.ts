/** npm run preview-link -- <brand> <path>: prints a signed draft-preview link (needs CONTENT_PREVIEW_SECRET). */
import './check-node.cjs';
import { PREVIEW_PATH, previewLink } from '../engine/http/preview';

const [brand, path] = process.argv.slice(2);
const secret = process.env.CONTENT_PREVIEW_SECRET;
if (!brand || !path || !secret) {
  console.error('usage: CONTENT_PREVIEW_SECRET=… npm run preview-link -- <brand> <path>');
  process.exit(1);
}
// the link would be refused when followed: say so now
if (!PREVIEW_PATH.test(path)) {
  console.error(`"${path}" is not a page of the site: one slash first, then lower-case letters, digits, "-" and "/" (for example /blog/my-draft)`);
  process.exit(1);
}
console.log(previewLink(secret, brand, path));
