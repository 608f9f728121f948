import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collapseRepeats, commandSequence } from '../replay/commandSignature';
import { addNewFiles, manifestProblems, releasedFiles } from '../replay/releasedManifest';
import { newBranches } from '../replay/selectHistories';

/** The released histories are frozen: no listed file changes or disappears, none is unlisted. */
describe('released workflow histories (test/replay/histories/released)', () => {
  it('match their manifest: nothing changed, nothing gone, nothing unlisted (new files: npm run replay:manifest)', () => {
    expect(releasedFiles().length).toBeGreaterThan(0);
    expect(manifestProblems()).toEqual({ changed: [], missing: [], unlisted: [] });
  });

  it('the check fails on a changed or removed file, and adding lists a new one without touching the others', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'released-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.1.x.json'), '{"events":[]}');
      fs.writeFileSync(path.join(dir, 'b.1.y.json'), '{"events":[]}');
      expect(addNewFiles(dir)).toEqual(['a.1.x.json', 'b.1.y.json']);
      expect(manifestProblems(dir)).toEqual({ changed: [], missing: [], unlisted: [] });
      fs.writeFileSync(path.join(dir, 'c.1.z.json'), '{}');
      expect(manifestProblems(dir).unlisted).toEqual(['c.1.z.json']);
      expect(addNewFiles(dir)).toEqual(['c.1.z.json']);
      fs.writeFileSync(path.join(dir, 'a.1.x.json'), '{"events":[{}]}');
      fs.rmSync(path.join(dir, 'b.1.y.json'));
      expect(manifestProblems(dir)).toEqual({ changed: ['a.1.x.json'], missing: ['b.1.y.json'], unlisted: [] });
      expect(() => addNewFiles(dir)).toThrow(/must not change or disappear/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('command signatures (one released history per branch)', () => {
  const payload = (value: unknown) => ({ data: Buffer.from(JSON.stringify(value)).toString('base64') });
  const history = (...events: Record<string, unknown>[]) => ({ events });
  const activity = (name: string) => ({ activityTaskScheduledEventAttributes: { activityType: { name } } });
  const local = (type: string) => ({
    markerRecordedEventAttributes: {
      markerName: 'core_local_activity',
      details: { data: { payloads: [payload({ seq: 1, activity_type: type })] } },
    },
  });
  const timer = { timerStartedEventAttributes: { timerId: '1' } };
  const completed = { workflowExecutionCompletedEventAttributes: {} };

  it('names commands by type, leaves ids, payloads and non-command events out', () => {
    const run = history(
      { workflowExecutionStartedEventAttributes: {} },
      local('preparePayment'),
      { activityTaskStartedEventAttributes: {} },
      activity('authorizeAttempt'),
      timer,
      completed,
    );
    expect(commandSequence(run)).toEqual([
      'local:preparePayment',
      'activity:authorizeAttempt',
      'timer',
      'end:completed',
    ]);
  });

  it('counts a loop as once or again however often it went round, and keeps different branches apart', () => {
    expect(collapseRepeats(['a', 'b', 'b', 'b', 'b', 'c'])).toEqual(['a', 'b', 'b', 'c']);
    expect(collapseRepeats(['t', 'x', 't', 'x', 't', 'x', 't', 'x', 'end'])).toEqual(['t', 'x', 't', 'x', 'end']);
    expect(collapseRepeats(['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    const declined = history(activity('authorizeAttempt'), local('finalizePayment'), completed);
    const cascaded = history(
      activity('authorizeAttempt'),
      activity('authorizeAttempt'),
      local('finalizePayment'),
      completed,
    );
    const longer = history(...Array(5).fill(activity('authorizeAttempt')), local('finalizePayment'), completed);
    const blocked = history(local('checkBlockRules'), local('finalizePayment'), completed);
    expect(commandSequence(cascaded)).not.toEqual(commandSequence(declined));
    expect(commandSequence(longer)).toEqual(commandSequence(cascaded));
    expect(commandSequence(blocked)).not.toEqual(commandSequence(declined));
  });

  it('selects the smallest history of each new branch, none of a branch already released', () => {
    const candidate = (type: string, workflowId: string, signature: string, size: number) => ({
      type,
      workflowId,
      signature,
      text: 'x'.repeat(size),
    });
    const chosen = newBranches(
      [
        candidate('paymentWorkflow', 'pay_big', 'a b', 30),
        candidate('paymentWorkflow', 'pay_small', 'a b', 10),
        candidate('paymentWorkflow', 'pay_known', 'a c', 5),
        candidate('refundWorkflow', 're_1', 'a b', 7),
      ],
      new Set(['paymentWorkflow\u0000a c']),
    );
    expect(chosen.map((c) => c.workflowId)).toEqual(['pay_small', 're_1']);
  });
});
