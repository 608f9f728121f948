import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** README.md and every page under docs/, as paths relative to the repository root. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', ...walk('docs')];
}

/** The text outside fenced code blocks and inline code, where a link would not be a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors a page's headings get, as GitHub makes them (a repeated heading gets -1, -2 …). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every problem with the links of one page: a link leaving the repository, a missing file or anchor. */
function linkProblems(file: string, markdown: string, read = (p: string) => readFileSync(p, 'utf8')): string[] {
  const problems: string[] = [];
  for (const match of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) {
      problems.push(`${file}: ${target} leaves the repository`);
      continue;
    }
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart
      ? path.resolve(root, path.dirname(file), decodeURIComponent(pathPart))
      : path.join(root, file);
    if (path.relative(root, resolved).startsWith('..') || path.isAbsolute(pathPart)) {
      problems.push(`${file}: ${target} leaves the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${target} names no file`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor))
      problems.push(`${file}: ${target} names no heading of ${path.relative(root, resolved)}`);
  }
  return problems;
}

describe('links of README.md and docs/', () => {
  it('every relative link resolves inside the repository, anchors included, and none leaves it', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(20);
    const problems = files.flatMap((file) => linkProblems(file, readFileSync(path.join(root, file), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('reports a missing file, a missing anchor, a link out of the repository and an outside site', () => {
    const page = [
      '[ok](docs/testing.md#test-tiers-which-to-run-when) [code](`x`) `[not a link](nowhere.md)`',
      '[gone](docs/nothing-here.md) [anchor](docs/testing.md#no-such-heading)',
      '[up](../outside.md) [site](https://example.com/spec)',
      '```',
      '[in a code block](nowhere.md)',
      '```',
    ].join('\n');
    expect(linkProblems('README.md', page)).toEqual([
      'README.md: docs/nothing-here.md names no file',
      'README.md: docs/testing.md#no-such-heading names no heading of docs/testing.md',
      'README.md: ../outside.md leaves the repository',
      'README.md: https://example.com/spec leaves the repository',
    ]);
  });

  it('makes anchors as GitHub does, punctuation and code spans included', () => {
    expect([
      ...anchorsOf('## Crash safety (`npm run chaos`)\n## Keys, encryption at rest\n## Keys, encryption at rest'),
    ]).toEqual(['crash-safety-npm-run-chaos', 'keys-encryption-at-rest', 'keys-encryption-at-rest-1']);
  });
});
