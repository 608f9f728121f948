import fs from 'node:fs';
import path from 'node:path';
import { commandSignature, signatureId } from './commandSignature';
import { addNewFiles, releasedDir, releasedFiles } from './releasedManifest';

/**
 * Replay by branch: from the histories a recording run saved (`npm run replay:record`), keeps one
 * per distinct command signature of each workflow type (commandSignature.ts; the smallest history
 * of that signature) that `test/replay/histories/released/` does not have yet, writes it there as
 * `<type>.<signature id>.<workflow id>.json`, and lists it in the folder's manifest. Files already
 * there are never rewritten or removed.
 *
 *   tsx test/replay/selectHistories.ts <candidates dir> [released dir]
 */
type History = { events?: Record<string, any>[] };

export interface Candidate {
  type: string;
  workflowId: string;
  text: string;
  signature: string;
}

/** One candidate per (type, signature) not in `known`: the smallest, then the first by name. */
export function newBranches(candidates: Candidate[], known: ReadonlySet<string>): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const key = `${candidate.type}\u0000${candidate.signature}`;
    if (known.has(key)) continue;
    const current = best.get(key);
    if (!current || candidate.text.length < current.text.length) best.set(key, candidate);
  }
  return [...best.values()].sort((a, b) => `${a.type}.${a.workflowId}`.localeCompare(`${b.type}.${b.workflowId}`));
}

/** (type, signature) of every history already in `dir`. */
export function knownBranches(dir: string): Set<string> {
  return new Set(
    releasedFiles(dir).map((name) => {
      const history = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as History;
      return `${name.split('.')[0]}\u0000${commandSignature(history)}`;
    }),
  );
}

function main(): void {
  const [candidatesDir, targetDir = releasedDir] = process.argv.slice(2);
  if (!candidatesDir) throw new Error('usage: selectHistories <candidates dir> [released dir]');
  const candidates: Candidate[] = [];
  for (const type of fs.readdirSync(candidatesDir).sort()) {
    const folder = path.join(candidatesDir, type);
    for (const name of fs.readdirSync(folder).sort()) {
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      const signature = commandSignature(JSON.parse(text) as History);
      candidates.push({ type, workflowId: name.split('--')[0]!, text, signature });
    }
  }
  const known = knownBranches(targetDir);
  const added = newBranches(candidates, known);
  for (const candidate of added) {
    const file = `${candidate.type}.${signatureId(candidate.signature)}.${candidate.workflowId}.json`;
    fs.writeFileSync(path.join(targetDir, file), candidate.text);
    process.stdout.write(`+ ${file}: ${candidate.signature}\n`);
  }
  const types = new Set(candidates.map((c) => c.type));
  for (const type of [...types].sort()) {
    const seen = new Set(candidates.filter((c) => c.type === type).map((c) => c.signature));
    process.stdout.write(
      `${type}: ${seen.size} branches in ${candidates.filter((c) => c.type === type).length} runs\n`,
    );
  }
  addNewFiles(targetDir);
  process.stdout.write(`${added.length} new branches written to ${targetDir}\n`);
}

if (require.main === module) main();
