import type { DeclineCategory } from '../processors/types';

/**
 * Routing a payment through a payment flow: which processors, in what order. Pure and
 * deterministic (workflow code imports it): the weighted pick takes its random number from the
 * caller, which in a workflow comes from the workflow's seeded randomness.
 */
export interface RoutingProcessor {
  id: string;
  enabled: boolean;
  supportedCurrencies: string[];
  /** Capability names the processor has (e.g. `externalThreeDs`), matched against `requiredCapabilities`. */
  capabilities?: string[];
}

export interface ProcessorConfig {
  processorId: string;
  weight: number;
  disabled: boolean;
  nonStickable: boolean;
}

export interface FallbackProcessorConfig {
  processorId: string;
  orderIndex: number;
}

export interface RoutingFlow {
  strategy: string;
  stickyProcessorEnabled: boolean;
  pickProcessorStrategy: string;
  fallbackMode: boolean;
  maxFallbackRetries: number;
  processorConfigs: ProcessorConfig[];
  fallbackProcessorConfigs: FallbackProcessorConfig[];
}

export interface RoutePlan {
  /** Processor ids in try order: first pick, then fallbacks; at most 1 + maxFallbackRetries when cascading, else 1. Empty when nothing is eligible. */
  order: string[];
  /** How the first processor was chosen. */
  reason: 'sticky' | 'weighted' | 'ordered';
}

export interface RouteInput {
  flow: RoutingFlow;
  processors: RoutingProcessor[];
  currency: string;
  /** The customer's last successful processor in this flow. */
  stickyProcessorId?: string | null;
  /** In [0, 1): the workflow's deterministic randomness. */
  random: number;
  /** Capabilities a processor must have to be tried at all (e.g. `externalThreeDs` when forwarding 3DS values). */
  requiredCapabilities?: string[];
}

/**
 * Capabilities a processor needs for a payment of this intent: a purchase is authorized and
 * captured in one call, an `auth` is captured later by its own call. Names as
 * `capabilityNames` (src/processors/registry.ts) derives them from an adapter's capabilities.
 */
export function requiredCapabilities(intent: 'purchase' | 'auth'): string[] {
  return [intent === 'auth' ? 'capture:manual' : 'capture:automatic'];
}

/** True when the flow falls back to further processors at all. */
export function cascades(flow: RoutingFlow): boolean {
  return flow.strategy === 'cascade' && flow.fallbackMode;
}

/** A hard decline never cascades; soft declines and technical failures only in a cascading flow. */
export function shouldCascade(category: DeclineCategory, flow: RoutingFlow): boolean {
  switch (category) {
    case 'hard_decline':
      return false;
    case 'soft_decline':
    case 'technical':
      return cascades(flow);
  }
}

/**
 * Eligible = known, enabled, not disabled in the flow, supports the currency, has every required
 * capability. Ineligible processors are never tried, not even as a fallback.
 */
export function isEligible(processorId: string, input: RouteInput): boolean {
  const processor = input.processors.find((p) => p.id === processorId);
  if (!processor || !processor.enabled) return false;
  if (input.flow.processorConfigs.some((c) => c.processorId === processorId && c.disabled)) return false;
  const currency = input.currency.toUpperCase();
  if (!processor.supportedCurrencies.some((c) => c.toUpperCase() === currency)) return false;
  const capabilities = processor.capabilities ?? [];
  return (input.requiredCapabilities ?? []).every((needed) => capabilities.includes(needed));
}

/**
 * The try order. First pick: the sticky processor when the flow is sticky and it is eligible and
 * not `nonStickable`; else by weight (`weighted`) or list order (`ordered`, or when every eligible
 * weight is 0). Then, when cascading, fallbacks by orderIndex (ties keep list order), skipping
 * ineligible and already-listed ones, capped at maxFallbackRetries further processors.
 */
export function planRoute(input: RouteInput): RoutePlan {
  const { flow } = input;
  const first = pickFirst(input);
  if (!first) return { order: [], reason: flow.pickProcessorStrategy === 'ordered' ? 'ordered' : 'weighted' };
  const order = [first.processorId];
  if (!cascades(flow)) return { order, reason: first.reason };

  const budget = Math.max(0, Math.trunc(flow.maxFallbackRetries));
  const fallbacks = flow.fallbackProcessorConfigs
    .map((config, position) => ({ config, position }))
    .sort((a, b) => a.config.orderIndex - b.config.orderIndex || a.position - b.position);
  for (const { config } of fallbacks) {
    if (order.length >= 1 + budget) break;
    if (order.includes(config.processorId) || !isEligible(config.processorId, input)) continue;
    order.push(config.processorId);
  }
  return { order, reason: first.reason };
}

function pickFirst(input: RouteInput): { processorId: string; reason: RoutePlan['reason'] } | undefined {
  const { flow, stickyProcessorId } = input;
  if (flow.stickyProcessorEnabled && stickyProcessorId && isEligible(stickyProcessorId, input)) {
    const config = flow.processorConfigs.find((c) => c.processorId === stickyProcessorId);
    if (!config?.nonStickable) return { processorId: stickyProcessorId, reason: 'sticky' };
  }

  const candidates = flow.processorConfigs.filter((c) => isEligible(c.processorId, input));
  const weighted = candidates.filter((c) => c.weight > 0);
  if (flow.pickProcessorStrategy !== 'ordered' && weighted.length > 0) {
    return { processorId: weightedPick(weighted, input.random), reason: 'weighted' };
  }
  if (candidates[0]) return { processorId: candidates[0].processorId, reason: 'ordered' };

  // No eligible primary: the first eligible fallback takes its place, so a flow whose primaries
  // are all down still charges through its fallbacks.
  const fallback = [...flow.fallbackProcessorConfigs]
    .sort((a, b) => a.orderIndex - b.orderIndex)
    .find((c) => isEligible(c.processorId, input));
  return fallback && { processorId: fallback.processorId, reason: 'ordered' };
}

/** Cumulative-weight pick; `random` is clamped into [0, 1) so a bad input cannot fall off the end. */
function weightedPick(configs: ProcessorConfig[], random: number): string {
  const total = configs.reduce((sum, c) => sum + c.weight, 0);
  const fraction = Number.isFinite(random) ? Math.min(Math.max(random, 0), 1 - Number.EPSILON) : 0;
  const target = fraction * total;
  let cumulative = 0;
  for (const config of configs) {
    cumulative += config.weight;
    if (target < cumulative) return config.processorId;
  }
  return configs[configs.length - 1]!.processorId;
}
