// Validates the OpenAPI document on stdin against the official 3.x JSON schema and prints the
// verdict as JSON. Run in its own process (`node --import tsx`): the validator is an ES module
// that jest's module loader cannot require.
import { Validator } from '@seriousme/openapi-schema-validator';

async function main(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(text) as Record<string, unknown>);
  process.stdout.write(
    JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }),
  );
}

void main();
