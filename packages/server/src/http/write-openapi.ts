/**
 * Writes packages/server/openapi.json from the schemas (`npm run openapi -w @conclave/server`). The
 * server serves the same document at /admin/openapi.json; openapi.test.ts fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '@conclave/protocol/schemas';

/** The committed document's text: the generated document, two-space indented. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('../../openapi.json', import.meta.url);
  writeFileSync(target, openApiText());
  console.log(`wrote ${target.pathname}`);
}
