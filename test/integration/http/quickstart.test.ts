import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../../../src/config';
import { createPartnerCommand } from '../../../src/keys/adminCommands';
import { testCards } from '../../../simulators/acquirer/cards';
import { curlRequest, differences, expand, fieldOf, readSteps, type DocStep } from '../../helpers/curlDoc';
import { useHarness } from '../../helpers/useHarness';

/**
 * docs/quickstart.md, run as written: every `sh` block is sent to a started engine (curl turned into
 * the same HTTP request), its answer must have the documented status and every documented field,
 * and the variables it names feed the next steps. A wrong path, field or value on the page fails here.
 */
const page = fs.readFileSync(path.join(projectRoot, 'docs/quickstart.md'), 'utf8');

describe('docs/quickstart.md', () => {
  const harness = useHarness();

  it('runs from a partner key to a refund, each answer as documented', async () => {
    const steps = readSteps(page);
    const variables: Record<string, string> = { API: harness.url };
    const answers: unknown[] = [];
    for (const step of steps) {
      const args = step.words.map((word) => expand(word, variables));
      const answer = await run(step, args, variables);
      if (answer === undefined) continue;
      answers.push(answer);
      expect({ step: step.title, differences: differences(step.answer, answer) }).toEqual({
        step: step.title,
        differences: [],
      });
      for (const { variable, field } of step.captures) {
        const value = fieldOf(answer, field);
        expect({ step: step.title, variable, value }).toEqual({
          step: step.title,
          variable,
          value: expect.any(String),
        });
        variables[variable] = value as string;
      }
    }
    // About ten calls, ending with the refund in the state the page shows.
    expect(answers.length).toBeGreaterThanOrEqual(10);
    const last = steps[steps.length - 1]!;
    const documentedRefund = last.answer as { id: string; status: string };
    expect(documentedRefund.id).toMatch(/^re_/);
    const refund = await harness.db.refund.findUniqueOrThrow({ where: { id: variables.REFUND_ID! } });
    expect(refund.status).toBe(documentedRefund.status);
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: variables.PAYMENT_ID! } });
    expect(payment.amountRefunded).toBe(refund.amount);
  });

  /** Runs one step; answers its parsed answer, or undefined for a step that only sets variables. */
  async function run(step: DocStep, args: string[], variables: Record<string, string>): Promise<unknown> {
    if (args[0] === 'export') {
      // The test's own engine replaces the page's address.
      for (const assignment of args.slice(1)) {
        const [name, value] = assignment.split(/=(.*)/s) as [string, string];
        variables[name] ??= value;
      }
      return undefined;
    }
    if (args[0] === 'npm') {
      // The CLI's own command, in process (test/integration/keys/keysAdminCli.test.ts runs the process).
      expect(args.slice(0, 6)).toEqual(['npm', 'run', '--silent', 'admin', '--', 'create-partner']);
      const { values } = parseArgs({
        args: args.slice(6),
        options: { name: { type: 'string' }, mode: { type: 'string' } },
      });
      expect(values.mode).toBe('test');
      return createPartnerCommand(harness.db, { name: values.name!, mode: 'test', crmOnly: false });
    }
    const request = curlRequest(args);
    expect(request.url.startsWith(harness.url)).toBe(true);
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    if (step.status === undefined || response.status !== step.status)
      throw new Error(`${step.title}: answered ${response.status}, documented ${step.status}: ${text}`);
    return body;
  }

  it('lists every sandbox test card with its outcome, and no other', () => {
    const table = page.slice(page.indexOf('## Sandbox test cards'));
    const listed = [...table.matchAll(/^\| ([\d ]{19}) \| (.+) \|$/gm)].map(([, number, outcome]) => ({
      number: number!.replace(/ /g, ''),
      outcome: outcome!,
    }));
    expect(listed.map((card) => card.number).sort()).toEqual(Object.keys(testCards).sort());
    for (const { number, outcome } of listed) {
      const behaviour = testCards[number]!;
      if (behaviour.kind === 'decline') expect(outcome).toContain(`\`${behaviour.code}\``);
      if (behaviour.kind === 'approve') expect(outcome).toMatch(/^approved/);
    }
  });
});
