// Prints the GraphQL SDL of the Pothos schema. `--write` updates schema.graphql; `--check` fails
// when the committed schema.graphql no longer matches the code.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/main/schema.ts';

const file = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'schema.graphql');
const sdl = `${printSchema(lexicographicSortSchema(schema))}\n`;
const mode = process.argv[2];
if (mode === '--write') {
  fs.writeFileSync(file, sdl);
} else if (mode === '--check') {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== sdl) {
    process.stderr.write('schema.graphql is out of date: run `npm run print-schema -- --write`\n');
    process.exit(1);
  }
} else {
  process.stdout.write(sdl);
}
