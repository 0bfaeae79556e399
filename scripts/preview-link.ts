/** npm run preview-link -- <brand> <path>: prints a signed draft-preview link (needs CONTENT_PREVIEW_SECRET). */
import './check-node.cjs';
import { previewLink } from '../engine/http/preview';

const [brand, path] = process.argv.slice(2);
const secret = process.env.CONTENT_PREVIEW_SECRET;
if (!brand || !path || !secret) {
  console.error('usage: CONTENT_PREVIEW_SECRET=… npm run preview-link -- <brand> <path>');
  process.exit(1);
}
console.log(previewLink(secret, brand, path));
