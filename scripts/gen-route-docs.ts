import './check-node.cjs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeParamDocs } from './routeParamDocs';

for (const [file, text] of Object.entries(routeParamDocs())) {
  writeFileSync(join(process.cwd(), file), text);
  console.log(`gen: wrote the route parameters of ${file}`);
}
