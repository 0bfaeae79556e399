import './check-node.cjs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedFiles } from './schema-build';

const files = await generatedFiles();
for (const [file, text] of Object.entries(files)) {
  writeFileSync(join(process.cwd(), file), text);
  console.log(`gen:types: wrote ${file}`);
}
