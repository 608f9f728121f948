import fs from 'node:fs';
import path from 'node:path';
import {
  codeRuleOf,
  declineCategoryOf,
  declineCodes,
  isKnownDeclineCode,
  isOutcomeUnknown,
} from '../../src/processors/declineCodes';
import { processorTypes } from '../../src/processors/registry';
import { testCards } from '../../simulators/acquirer/cards';
import { blockedByRuleCode, noProcessorCode, outcomeUnknownCode } from '../../src/payments/workflowTypes';

const root = path.resolve(__dirname, '../..');

/** Error codes written as literals where they are produced: `code: '…'`, the acquirer's helpers, thrown errors. */
const codeLiterals = [
  /\bcode: '([a-z0-9_]+)'/g,
  /\bdecline\(\s*'([a-z0-9_]+)'/g,
  /\bfail\(\s*\d+,\s*'([a-z0-9_]+)'/g,
  /ProcessorTechnicalError\([^;]*?'([a-z0-9_]+)'\)/g,
];
/** The HTTP executor picks its codes in expressions (`a ? 'x' : 'y'`, `return 'x'`). */
const executorLiterals = [/'([a-z]+_[a-z0-9_]+)'/g];

function codesIn(files: string[], patterns: RegExp[]): string[] {
  return files.flatMap((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
  });
}

/** Every TypeScript file under a folder, as a path from the root (files move; the folders stay). */
const filesUnder = (folder: string) =>
  fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));

/** Every file of every processor folder (a new processor is scanned without touching this test). */
const processorFiles = filesUnder('src/processors').filter((file) => file.split(path.sep).length > 3);

/** Where codes are produced: the sandbox acquirer, 3-D Secure, the processors, the payment activities and workflows. */
const producers = [
  ...filesUnder('simulators/acquirer'),
  ...filesUnder('src/threeds'),
  ...processorFiles,
  ...filesUnder('activities/payments'),
  ...filesUnder('workflows/payments'),
];

describe('error code table', () => {
  it.each([
    // processor answers
    ['card_declined', 'hard_decline', false],
    ['insufficient_funds', 'hard_decline', false],
    ['lost_card', 'hard_decline', false],
    ['incorrect_number', 'hard_decline', false],
    ['expired_card', 'hard_decline', false],
    ['authentication_failed', 'hard_decline', false],
    ['invalid_authentication_data', 'hard_decline', false],
    ['do_not_honor', 'soft_decline', false],
    ['authentication_required', 'soft_decline', false],
    ['processing_error', 'technical', false],
    ['authorization_reversed', 'technical', false],
    // follow-up refusals
    ['already_captured', 'hard_decline', false],
    ['already_reversed', 'hard_decline', false],
    ['refund_exceeds_capture', 'hard_decline', false],
    ['transaction_not_found', 'hard_decline', false],
    // integration failures: refused before processing …
    ['processor_unavailable', 'technical', false],
    ['processor_unreachable', 'technical', false],
    ['invalid_credentials', 'technical', false],
    ['rate_limited', 'technical', false],
    ['invalid_request', 'technical', false],
    // … or no usable answer after the request went out
    ['timeout', 'technical', true],
    ['network_error', 'technical', true],
    ['invalid_response', 'technical', true],
    ['idempotency_conflict', 'technical', true],
    // the engine's own
    ['processor_timeout', 'technical', true],
    ['processor_error', 'technical', true],
    ['processor_outcome_unknown', 'technical', true],
    ['no_eligible_processor', 'technical', false],
    ['blocked_by_rule', 'hard_decline', false],
    ['threeds_authentication_failed', 'hard_decline', false],
    ['threeds_session_not_found', 'hard_decline', false],
    ['threeds_challenge_timeout', 'soft_decline', false],
    ['authentication_timeout', 'soft_decline', false],
    ['threeds_server_error', 'technical', false],
  ] as const)('%s is %s (outcome unknown: %s)', (code, category, outcomeUnknown) => {
    expect(isKnownDeclineCode(code)).toBe(true);
    expect(declineCategoryOf(code)).toBe(category);
    expect(isOutcomeUnknown(code)).toBe(outcomeUnknown);
  });

  it('fails closed on an unknown code: a hard decline (never cascades) whose outcome is unknown (reversed)', () => {
    expect(codeRuleOf('brand_new_issuer_code')).toEqual({ category: 'hard_decline', outcomeUnknown: true });
    expect(isKnownDeclineCode('toString')).toBe(false);
    expect(declineCategoryOf('constructor')).toBe('hard_decline');
  });

  it('only technical failures can have an unknown outcome', () => {
    for (const [code, rule] of Object.entries(declineCodes)) {
      expect([code, ['hard_decline', 'soft_decline', 'technical'].includes(rule.category)]).toEqual([code, true]);
      if (rule.outcomeUnknown) expect([code, rule.category]).toEqual([code, 'technical']);
    }
  });

  it('classifies every code the sandbox acquirer, the adapters and the payment engine can emit', () => {
    const emitted = new Set([
      ...codesIn(producers, codeLiterals),
      ...codesIn(['src/processors/httpExecutor.ts'], executorLiterals),
    ]);
    for (const card of Object.values(testCards)) if (card.kind === 'decline') emitted.add(card.code);
    for (const code of [blockedByRuleCode, noProcessorCode, outcomeUnknownCode]) emitted.add(code);
    // Sanity: the scan sees codes from each kind of producer, every processor folder among them.
    expect(processorFiles).toEqual(
      expect.arrayContaining(processorTypes.map((type) => expect.stringContaining(`${type}${path.sep}`))),
    );
    expect([...emitted]).toEqual(
      expect.arrayContaining([
        'card_declined',
        'authorization_reversed',
        'processor_unreachable',
        'processor_timeout',
        'threeds_challenge_timeout',
        'idempotency_conflict',
      ]),
    );
    const unknown = [...emitted].filter((code) => !isKnownDeclineCode(code) && !notCodes.has(code));
    expect(unknown).toEqual([]);
  });
});

/**
 * Literals the scan picks up that are not error codes the engine emits: the acquirer's 5xx body
 * (the HTTP executor classifies a 5xx by its status, never its body) and the simulator's hold controls.
 */
const notCodes = new Set(['nothing_to_reverse', 'internal_error', 'hold_not_found']);
