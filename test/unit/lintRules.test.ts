import { execFileSync } from 'node:child_process';
import { projectRoot } from '../../src/config';

interface Snippet {
  filePath: string;
  code: string;
}
/** A module of `count` one-line declarations. */
const linesOfCode = (count: number) =>
  Array.from({ length: count }, (_, i) => `export const value${i} = ${i};\n`).join('');

interface Finding {
  ruleId: string | null;
  message: string;
}

/**
 * Lints each snippet as if it were the file at `filePath`, with the repository's eslint.config.mjs.
 * ESLint runs in a child Node (the config is ESM, which jest's module system cannot import). The
 * texts are not in the TypeScript project, so the type-aware rules are turned off for them; the
 * layer rules only read the import statements.
 */
function lint(snippets: Snippet[]): Finding[][] {
  const script = `
    const { ESLint } = await import('eslint');
    const snippets = JSON.parse(process.argv[1]);
    const eslint = new ESLint({
      cwd: process.cwd(),
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
      },
    });
    const out = [];
    for (const { filePath, code } of snippets) {
      const [result] = await eslint.lintText(code, { filePath });
      out.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
    }
    process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(snippets)], {
      cwd: projectRoot,
      encoding: 'utf8',
    }),
  ) as Finding[][];
}

const cases: { name: string; snippet: Snippet; rule: string | null }[] = [
  {
    name: 'src/http importing the Prisma client module',
    snippet: {
      filePath: 'src/http/stores/example.ts',
      code: "import { createPrisma } from '../../db/prisma';\nvoid createPrisma;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'src/http importing a Prisma value',
    snippet: {
      filePath: 'src/http/stores/example.ts',
      code: "import { Prisma } from '../../generated/prisma/client';\nvoid Prisma;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'src/http importing Prisma types only',
    snippet: {
      filePath: 'src/http/stores/example.ts',
      code: "import type { Store } from '../../generated/prisma/client';\nimport type { Db } from '../../db/prisma';\nexport type Pair = [Store, Db];\n",
    },
    rule: null,
  },
  {
    name: 'a process module importing ApiError',
    snippet: {
      filePath: 'src/commerce/example.ts',
      code: "import { ApiError } from '../http/core/errors';\nvoid ApiError;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'a process module importing its DomainError helpers',
    snippet: { filePath: 'src/commerce/example.ts', code: "import { notFound } from '../errors';\nvoid notFound;\n" },
    rule: null,
  },
  {
    name: 'an activity importing from src/http',
    snippet: {
      filePath: 'activities/payments/example.ts',
      code: "import { toApiError } from '../../src/http/core/errors';\nvoid toApiError;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'workflow code importing from src/http',
    snippet: {
      filePath: 'workflows/payments/example.ts',
      code: "import type { ErrorBody } from '../../src/http/core/errors';\nexport type E = ErrorBody;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'temporal/ importing from src/http',
    snippet: {
      filePath: 'temporal/example.ts',
      code: "import { createApp } from '../src/http/app';\nvoid createApp;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'src/ importing an activity',
    snippet: {
      filePath: 'src/payments/example.ts',
      code: "import { createActivities } from '../../activities';\nvoid createActivities;\n",
    },
    rule: 'no-restricted-imports',
  },
  {
    name: 'an activity handing the database to a process module',
    snippet: {
      filePath: 'activities/payments/example.ts',
      code: "import { preparePayment } from '../../src/payments/prepare';\nexport const run = (deps: { db: never }) => preparePayment(deps.db, {} as never);\n",
    },
    rule: null,
  },
  {
    name: 'an activity querying the database through its deps',
    snippet: {
      filePath: 'activities/payments/example.ts',
      code: 'export const run = (deps: { db: never }) => deps.db.payment.findMany();\n',
    },
    rule: 'no-restricted-syntax',
  },
  {
    name: 'an activity opening a transaction',
    snippet: {
      filePath: 'activities/payments/example.ts',
      code: 'export const run = (db: never) => db.$transaction([]);\n',
    },
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a production file of 301 lines',
    snippet: { filePath: 'src/payments/example.ts', code: linesOfCode(301) },
    rule: 'max-lines',
  },
  {
    name: 'a production file of 300 lines',
    snippet: { filePath: 'src/payments/example.ts', code: linesOfCode(300) },
    rule: null,
  },
  {
    name: 'a test file of 301 lines',
    snippet: { filePath: 'test/unit/example.test.ts', code: linesOfCode(301) },
    rule: null,
  },
];

describe('layer lint rules', () => {
  const findings = lint(cases.map(({ snippet }) => snippet));

  it.each(cases.map((c, i) => [c.name, c.rule, i] as const))('%s → %s', (_name, rule, i) => {
    const rules = findings[i]!.map((finding) => finding.ruleId);
    if (rule === null) expect(findings[i]).toEqual([]);
    else expect(rules).toContain(rule);
  });
});
