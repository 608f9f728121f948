import fs from 'node:fs';
import path from 'node:path';

/**
 * Picks, per workflow type, a few recorded histories that together cover everything the recording
 * run saw that type do: each kind of history event, activity, signal, update, child workflow and
 * timer count. Greedy set cover, at most `perType` histories each, smallest first on ties, so the
 * committed set stays small but a change to any branch the tests reached is replayed.
 *
 *   tsx test/replay/selectHistories.ts <candidates dir> <histories dir> [perType]
 */
type Event = Record<string, any>;

export function featuresOf(history: { events?: Event[] }): Set<string> {
  const features = new Set<string>();
  let timers = 0;
  for (const event of history.events ?? []) {
    const kind = Object.keys(event).find((key) => key.endsWith('EventAttributes'));
    if (!kind) continue;
    features.add(`event:${kind}`);
    const attributes = event[kind] as Record<string, any>;
    if (attributes.activityType?.name) features.add(`activity:${attributes.activityType.name}`);
    if (attributes.signalName) features.add(`signal:${attributes.signalName}`);
    if (attributes.acceptedRequest?.input?.name) features.add(`update:${attributes.acceptedRequest.input.name}`);
    if (kind.startsWith('startChildWorkflow') && attributes.workflowType?.name)
      features.add(`child:${attributes.workflowType.name}`);
    if (attributes.markerName) features.add(`marker:${attributes.markerName}`);
    if (kind === 'timerStartedEventAttributes') timers += 1;
  }
  // Histories with one, a few and many timers take different paths through loops.
  features.add(`timers:${timers === 0 ? 'none' : timers === 1 ? 'one' : timers < 5 ? 'few' : 'many'}`);
  return features;
}

export function selectCover<C extends { features: Set<string>; size: number }>(candidates: C[], perType: number) {
  const uncovered = new Set(candidates.flatMap((c) => [...c.features]));
  const chosen: C[] = [];
  while (uncovered.size > 0 && chosen.length < perType) {
    let best: C | undefined;
    let bestGain = 0;
    for (const candidate of candidates) {
      const gain = [...candidate.features].filter((f) => uncovered.has(f)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best && candidate.size < best.size)) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.push(best);
    for (const feature of best.features) uncovered.delete(feature);
  }
  return { chosen, uncovered: [...uncovered] };
}

function main(): void {
  const [candidatesDir, historiesDir, perTypeArg] = process.argv.slice(2);
  if (!candidatesDir || !historiesDir)
    throw new Error('usage: selectHistories <candidates dir> <histories dir> [perType]');
  const perType = Number(perTypeArg ?? 4);
  fs.mkdirSync(historiesDir, { recursive: true });
  for (const old of fs.readdirSync(historiesDir)) if (old.endsWith('.json')) fs.rmSync(path.join(historiesDir, old));
  for (const type of fs.readdirSync(candidatesDir).sort()) {
    const folder = path.join(candidatesDir, type);
    const candidates = fs.readdirSync(folder).map((name) => {
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      return { name, text, features: featuresOf(JSON.parse(text)), size: text.length };
    });
    const { chosen, uncovered } = selectCover(candidates, perType);
    chosen.forEach((candidate, index) => {
      const workflowId = candidate.name.split('--')[0];
      fs.writeFileSync(path.join(historiesDir, `${type}.${index + 1}.${workflowId}.json`), candidate.text);
    });
    const note = uncovered.length > 0 ? `; not covered within ${perType}: ${uncovered.join(', ')}` : '';
    process.stdout.write(`${type}: ${chosen.length} of ${candidates.length} histories${note}\n`);
  }
}

if (require.main === module) main();
