/** npm run preview-link -- <brand> <path>: prints a signed draft-preview link (needs CONTENT_PREVIEW_SECRET). */
import './check-node.cjs';
import { PREVIEW_PATH, previewLink } from '../engine/http/preview';
import { brandFile, publishedBrands } from '../engine/store/brandRevisions';
import { closeStore, getStore } from '../engine/store/db';

const USAGE = 'usage: CONTENT_PREVIEW_SECRET=… npm run preview-link -- <brand> <path>   (for example ipaydayloans /blog/my-draft)';
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const [brand, path] = args;
const secret = process.env.CONTENT_PREVIEW_SECRET;
// an option would be signed as the brand's id, and a third word dropped without a word
if (!brand || !path || !secret || args.length > 2 || brand.startsWith('-')) {
  console.error(USAGE);
  process.exit(1);
}
// the link would be refused when followed: say so now
if (!PREVIEW_PATH.test(path)) {
  console.error(`"${path}" is not a page of the site: one slash first, then lower-case letters, digits, "-" and "/" (for example /blog/my-draft)`);
  process.exit(1);
}
// a brand the server does not know is refused when the link is followed ("No brand"): a file in
// brands/, or a brand published from the studio (which may have no file yet)
if (!brandFile(brand)) {
  let published = false;
  try {
    published = (await publishedBrands(await getStore())).has(brand);
  } finally {
    await closeStore();
  }
  if (!published) {
    console.error(`preview-link: no brand "${brand}" (no brands/${brand}.json and none published from the studio); give the brand's id, e.g. ipaydayloans`);
    process.exit(1);
  }
}
console.log(previewLink(secret, brand, path));
