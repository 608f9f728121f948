import fs from 'node:fs';
import path from 'node:path';
import { processorDefinition, processorTypes } from '../../src/processors/registry';
import type { ProcessorDefinition } from '../../src/processors/types';

/**
 * One shape for every processor folder under src/processors/ (docs/processors.md, "Adding a
 * processor"): the same files in each, so a reader finds a vendor's credentials, codes or request
 * mapping at the same path in every folder.
 */
const processorsDir = path.resolve(__dirname, '../../src/processors');

/** Every processor folder has each of these. */
const requiredFiles = [
  'index.ts', // the ProcessorDefinition the registry loads, and nothing else
  'capabilities.ts', // what the type can do, as data
  'credentials.ts', // its credentials schema (and its mode check, when the credentials tell the environment)
  'codes.ts', // the vendor's decline/error codes → the engine's
  'requests.ts', // the engine's calls → the vendor's requests (pure)
  'responses.ts', // the vendor's answers → the engine's results (pure)
  'adapter.ts', // the contract's implementation: transport and mapping only
  'webhooks.ts', // the vendor's notifications verified and parsed, or an explicit `none` with the reason
];

/** A folder may have these too, and nothing else. */
const optionalFiles = [
  'client.ts', // a vendor SDK's client, sending through the shared executor (Stripe)
  'lookup.ts', // status by key read from the vendor's stored answers, for a vendor without a status API (Adyen)
  'stepUp.ts', // the vendor's own call that settles a step-up authentication (Adyen's /payments/details)
];

/**
 * A variant folder holds only `index.ts`: a definition over another folder's parts. It is the same
 * vendor seen with other capabilities (`sandbox_hosted3ds`: the sandbox acquirer running its own
 * hosted 3DS), so a copy of each file would be the base's again and could drift from it.
 */
const variantOf: Readonly<Record<string, string>> = { sandbox_hosted3ds: 'sandbox' };

function shapeProblems(folder: string, entries: string[]): string[] {
  if (Object.hasOwn(variantOf, folder)) {
    const extra = entries.filter((entry) => entry !== 'index.ts');
    return [
      ...(entries.includes('index.ts') ? [] : [`${folder}: index.ts is missing`]),
      ...extra.map((entry) => `${folder}/${entry}: a variant folder holds only index.ts`),
    ];
  }
  return [
    ...requiredFiles.filter((file) => !entries.includes(file)).map((file) => `${folder}: ${file} is missing`),
    ...entries
      .filter((entry) => !requiredFiles.includes(entry) && !optionalFiles.includes(entry))
      .map((entry) => `${folder}/${entry}: not a file of the processor shape`),
  ];
}

const folders = fs
  .readdirSync(processorsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const fullFolders = folders.filter((folder) => !Object.hasOwn(variantOf, folder));

/* eslint-disable @typescript-eslint/no-require-imports */
const load = (folder: string, file: string) =>
  require(path.join(processorsDir, folder, file.replace(/\.ts$/, ''))) as Record<string, unknown>;
/* eslint-enable @typescript-eslint/no-require-imports */

describe('processor folders', () => {
  it('are exactly the registered types', () => {
    expect(folders).toEqual([...processorTypes].sort());
  });

  it.each(folders.map((folder) => [folder]))('%s has the files of its shape and no others', (folder) => {
    expect(shapeProblems(folder, fs.readdirSync(path.join(processorsDir, folder)).sort())).toEqual([]);
  });

  it('the shape check names what is missing and what is not allowed', () => {
    expect(shapeProblems('acme', ['adapter.ts', 'index.ts', 'transformers.ts'])).toEqual(
      expect.arrayContaining(['acme: codes.ts is missing', 'acme/transformers.ts: not a file of the processor shape']),
    );
    expect(shapeProblems('sandbox_hosted3ds', ['codes.ts', 'index.ts'])).toEqual([
      'sandbox_hosted3ds/codes.ts: a variant folder holds only index.ts',
    ]);
  });

  it.each(folders.map((folder) => [folder]))(
    "%s/index.ts exports only the registry's definition of its type",
    (folder) => {
      const exported = Object.values(load(folder, 'index.ts'));
      expect(exported).toHaveLength(1);
      const definition = exported[0] as ProcessorDefinition;
      expect(definition).toBe(processorDefinition(folder));
      expect(definition.type).toBe(folder);
      expect(typeof definition.createAdapter).toBe('function');
      expect(typeof definition.classify).toBe('function');
      const adapter = definition.createAdapter({ sandboxUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
      expect(adapter.type).toBe(folder);
      expect(adapter.capabilities).toEqual(definition.capabilities);
    },
  );

  it.each(fullFolders.map((folder) => [folder]))(
    '%s: each part of the definition comes from its own file',
    (folder) => {
      const definition = processorDefinition(folder);
      const exportsOf = (file: string) => Object.values(load(folder, file));
      expect(exportsOf('capabilities.ts')).toContain(definition.capabilities);
      expect(exportsOf('credentials.ts')).toContain(definition.credentialsSchema);
      if (definition.credentialsModeProblem)
        expect(exportsOf('credentials.ts')).toContain(definition.credentialsModeProblem);
      expect(exportsOf('codes.ts')).toContain(definition.classify);
      for (const file of ['requests.ts', 'responses.ts', 'adapter.ts'])
        expect([file, exportsOf(file).some((value) => typeof value === 'function')]).toEqual([file, true]);
      const webhooks = exportsOf('webhooks.ts').filter(
        (value) => typeof value === 'object' && value !== null && ('verify' in value || 'none' in value),
      );
      expect(webhooks).toHaveLength(1);
      if (definition.webhooks) expect(webhooks[0]).toBe(definition.webhooks);
      // No webhooks: the file says why, in words.
      else expect(webhooks[0]).toEqual({ none: expect.stringMatching(/\w+ \w+ \w+ \w+/) });
    },
  );

  it.each(Object.entries(variantOf))('%s takes the credentials and codes of %s', (variant, base) => {
    const definition = processorDefinition(variant);
    expect(definition.credentialsSchema).toBe(processorDefinition(base).credentialsSchema);
    expect(definition.classify).toBe(processorDefinition(base).classify);
    expect(fullFolders).toContain(base);
  });
});
