/**
 * A funnel is an ordered graph of steps: landing → checkout → upsell/downsell (accept/decline
 * edges) → thankyou. Pure logic only: workflow code imports this file.
 */
export const funnelStepTypes = ['landing', 'checkout', 'upsell', 'downsell', 'thankyou'] as const;
export type FunnelStepType = (typeof funnelStepTypes)[number];

/** A step as stored: edges name other steps of the same funnel by id. */
export interface FunnelStep {
  id: string;
  /** The merchant's own name for the step, unique in the funnel; edges of a request name steps by it. */
  key: string;
  type: FunnelStepType;
  name?: string | null;
  /** landing, checkout: the step that follows. */
  next?: string | null;
  /** upsell, downsell: the offer's price (its product follows from it). */
  priceId?: string | null;
  /** upsell, downsell: the offer's title by language code, shown on the hosted offer page. */
  titleTrans?: Record<string, string> | null;
  onAccept?: string | null;
  onDecline?: string | null;
}

export interface FunnelGraphIssue {
  /** Where the problem is: `steps.2.onAccept`. */
  path: string;
  message: string;
}

export const isOfferStep = (type: FunnelStepType) => type === 'upsell' || type === 'downsell';

/** The edges a step of its type must have; every other edge must be absent. */
const edgesOf: Record<FunnelStepType, ('next' | 'onAccept' | 'onDecline')[]> = {
  landing: ['next'],
  checkout: ['next'],
  upsell: ['onAccept', 'onDecline'],
  downsell: ['onAccept', 'onDecline'],
  thankyou: [],
};
const allEdges = ['next', 'onAccept', 'onDecline'] as const;

/** The steps a step leads to (its edges that are set). */
export function successorsOf(step: FunnelStep): string[] {
  return allEdges.map((edge) => step[edge]).filter((target): target is string => !!target);
}

/**
 * Checks a funnel's graph, with `ref` the field edges name steps by (`key` in requests, `id` when
 * stored): unique refs, valid types, the edges each type needs (and no others) pointing at existing
 * steps, offer steps naming a price, exactly one entry (the only step no edge points at), every step
 * reachable from it, no cycle, and at least one thankyou. Answers every problem found; none = valid.
 */
export function validateFunnelGraph(steps: FunnelStep[], ref: 'key' | 'id' = 'key'): FunnelGraphIssue[] {
  const issues: FunnelGraphIssue[] = [];
  if (steps.length === 0) return [{ path: 'steps', message: 'a funnel needs at least one step' }];
  const byRef = new Map<string, FunnelStep>();
  steps.forEach((step, index) => {
    if (byRef.has(step[ref])) issues.push({ path: `steps.${index}.${ref}`, message: `duplicate step ${step[ref]}` });
    byRef.set(step[ref], step);
  });
  steps.forEach((step, index) => {
    if (!(funnelStepTypes as readonly string[]).includes(step.type)) {
      issues.push({ path: `steps.${index}.type`, message: `unknown step type ${String(step.type)}` });
      return;
    }
    const needed = edgesOf[step.type];
    for (const edge of allEdges) {
      const target = step[edge];
      if (needed.includes(edge) && !target)
        issues.push({ path: `steps.${index}.${edge}`, message: `a ${step.type} step needs ${edge}` });
      if (!needed.includes(edge) && target)
        issues.push({ path: `steps.${index}.${edge}`, message: `a ${step.type} step has no ${edge}` });
      if (target && !byRef.has(target))
        issues.push({ path: `steps.${index}.${edge}`, message: `${edge} names no step of this funnel: ${target}` });
      if (target && target === step[ref])
        issues.push({ path: `steps.${index}.${edge}`, message: `${edge} points at the step itself` });
    }
    if (isOfferStep(step.type) && !step.priceId)
      issues.push({ path: `steps.${index}.priceId`, message: `a ${step.type} step needs the priceId it offers` });
    if (!isOfferStep(step.type) && step.priceId)
      issues.push({ path: `steps.${index}.priceId`, message: `a ${step.type} step offers no price` });
  });
  if (!steps.some((step) => step.type === 'thankyou'))
    issues.push({ path: 'steps', message: 'a funnel needs a thankyou step' });
  if (issues.length > 0) return issues;

  const targeted = new Set(steps.flatMap(successorsOf));
  const entries = steps.filter((step) => !targeted.has(step[ref]));
  if (entries.length !== 1) {
    const names = entries.map((step) => step[ref]).join(', ') || 'none';
    return [{ path: 'steps', message: `a funnel needs exactly one entry step (no edge points at it); found ${names}` }];
  }
  const cycle = findCycle(entries[0]!, byRef, ref);
  if (cycle) return [{ path: 'steps', message: `steps form a cycle through ${cycle}` }];
  const reached = reachableFrom(entries[0]!, byRef, ref);
  steps.forEach((step, index) => {
    if (!reached.has(step[ref]))
      issues.push({ path: `steps.${index}`, message: `step ${step[ref]} cannot be reached from the entry` });
  });
  return issues;
}

/** The entry of a valid graph: the one step no edge points at. */
export function entryStepOf<S extends FunnelStep>(steps: S[]): S {
  const targeted = new Set(steps.flatMap(successorsOf));
  const entry = steps.find((step) => !targeted.has(step.id));
  if (!entry) throw new Error('funnel graph without an entry step');
  return entry;
}

function reachableFrom(entry: FunnelStep, byRef: Map<string, FunnelStep>, ref: 'key' | 'id'): Set<string> {
  const seen = new Set<string>([entry[ref]]);
  const queue = [entry];
  while (queue.length > 0) {
    for (const target of successorsOf(queue.shift()!)) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(byRef.get(target)!);
    }
  }
  return seen;
}

/** A step that is reached again from itself, or null (depth-first from the entry). */
function findCycle(entry: FunnelStep, byRef: Map<string, FunnelStep>, ref: 'key' | 'id'): string | null {
  const done = new Set<string>();
  const onPath = new Set<string>();
  const visit = (step: FunnelStep): string | null => {
    if (onPath.has(step[ref])) return step[ref];
    if (done.has(step[ref])) return null;
    onPath.add(step[ref]);
    for (const target of successorsOf(step)) {
      const found = visit(byRef.get(target)!);
      if (found) return found;
    }
    onPath.delete(step[ref]);
    done.add(step[ref]);
    return null;
  };
  return visit(entry);
}
