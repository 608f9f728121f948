import { cascades, shouldCascade, type RoutingFlow } from '../../../src/domain/routing';
import { classifyAdyenCode, refusalReasons, resultCodes, serviceErrors } from '../../../src/processors/adyen/codes';
import {
  codeRuleOf,
  declineCategoryOf,
  declineCodes,
  isKnownDeclineCode,
  isOutcomeUnknown,
} from '../../../src/processors/declineCodes';
import { classifyStripeCode } from '../../../src/processors/stripe/codes';
import type { DeclineCategory } from '../../../src/processors/types';
import { fc } from './fcConfig';

const categories: DeclineCategory[] = ['hard_decline', 'soft_decline', 'technical'];
const knownCodes = Object.keys(declineCodes);
const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/** Known codes, their near misses, names every object has, and anything at all. */
const anyCode = fc.oneof(
  fc.constantFrom(...knownCodes),
  fc.constantFrom(...knownCodes).map((c) => c.toUpperCase()),
  fc.constantFrom(...knownCodes).map((c) => ` ${c}`),
  fc.constantFrom(...prototypeNames),
  fc.string(),
);

const flow: fc.Arbitrary<RoutingFlow> = fc.record({
  strategy: fc.constantFrom('cascade', 'single'),
  stickyProcessorEnabled: fc.boolean(),
  pickProcessorStrategy: fc.constantFrom('weighted', 'ordered'),
  fallbackMode: fc.boolean(),
  maxFallbackRetries: fc.integer({ min: 0, max: 10 }),
  processorConfigs: fc.constant([]),
  fallbackProcessorConfigs: fc.constant([]),
});

describe('decline classification laws', () => {
  it('every code maps to exactly one class: the classes partition the table', () => {
    const byClass = categories.map((c) => knownCodes.filter((code) => declineCategoryOf(code) === c));
    expect(byClass.flat().sort()).toEqual([...knownCodes].sort());
    fc.assert(
      fc.property(fc.constantFrom(...knownCodes), (code) => {
        expect(byClass.filter((codes) => codes.includes(code))).toHaveLength(1);
      }),
    );
  });

  it('classification is total: any string gets one of the three classes, an unknown one fails closed', () => {
    fc.assert(
      fc.property(anyCode, (code) => {
        const category = declineCategoryOf(code);
        expect(categories).toContain(category);
        if (!isKnownDeclineCode(code)) {
          expect(Object.keys(declineCodes)).not.toContain(code);
          expect(codeRuleOf(code)).toEqual({ category: 'hard_decline', outcomeUnknown: true });
        }
      }),
    );
  });

  it('only soft declines and technical failures cascade, and only in a cascading flow', () => {
    fc.assert(
      fc.property(anyCode, flow, (code, f) => {
        const category = declineCategoryOf(code);
        expect(shouldCascade(category, f)).toBe(category !== 'hard_decline' && cascades(f));
      }),
    );
  });

  it('an unknown outcome (may have charged) is a technical failure, or an unknown code', () => {
    fc.assert(
      fc.property(anyCode, (code) => {
        if (isOutcomeUnknown(code))
          expect(!isKnownDeclineCode(code) || declineCategoryOf(code) === 'technical').toBe(true);
      }),
    );
  });

  it("every vendor code, known or not, becomes one of the engine's known codes", () => {
    const stripeCode = fc.oneof(anyCode, fc.constantFrom('generic_decline', 'do_not_try_again', 'rate_limit'));
    const adyenCode = fc.oneof(
      anyCode,
      fc.constantFrom(...Object.keys(refusalReasons), ...Object.keys(resultCodes), ...Object.keys(serviceErrors)),
      fc.integer({ min: 0, max: 999 }).map(String),
    );
    fc.assert(
      fc.property(stripeCode, adyenCode, (stripe, adyen) => {
        expect(isKnownDeclineCode(classifyStripeCode(stripe))).toBe(true);
        expect(isKnownDeclineCode(classifyAdyenCode(adyen))).toBe(true);
      }),
    );
  });
});
