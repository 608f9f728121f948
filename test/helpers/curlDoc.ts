/**
 * Reads the walkthrough steps of a Markdown page (docs/quickstart.md) so a test can run them: each
 * fenced `sh` block is one command, the paragraph after it names the answer's status (**201**) and
 * the variables later steps take from it (`PROCESSOR_ID` from `id`), and the `json` block after
 * that is the documented (abbreviated) answer.
 */
export interface DocStep {
  /** The `###` heading the block sits under. */
  title: string;
  /** The command's words after shell quoting is undone; `$VAR`s are still unexpanded (see expand). */
  words: Word[];
  status?: number;
  captures: { variable: string; field: string }[];
  answer?: unknown;
}

/** One shell word: its parts, literal text or a variable to expand ('…' keeps `$` as is). */
export type Word = ({ text: string } | { variable: string })[];

const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;

export function readSteps(markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  let last = 0;
  let title = '';
  let current: DocStep | undefined;
  for (const match of markdown.matchAll(fence)) {
    const between = markdown.slice(last, match.index);
    last = match.index + match[0].length;
    title = [...between.matchAll(/^###+ (.+)$/gm)].pop()?.[1] ?? title;
    if (current) describeAnswer(current, between);
    const [, language, body] = match;
    if (language === 'sh') {
      current = { title, words: shellWords(body!), captures: [] };
      steps.push(current);
    } else if (language === 'json' && current && current.answer === undefined) {
      current.answer = JSON.parse(body!);
    }
  }
  if (current) describeAnswer(current, markdown.slice(last));
  return steps;
}

function describeAnswer(step: DocStep, prose: string): void {
  if (step.status !== undefined || step.answer !== undefined) return;
  const status = /→ \*\*(\d{3})\*\*/.exec(prose);
  if (status) step.status = Number(status[1]);
  for (const capture of prose.matchAll(/`([A-Z][A-Z0-9_]*)` from `([\w.]+)`/g))
    step.captures.push({ variable: capture[1]!, field: capture[2]! });
}

/** Splits a command as sh would: `\`-newlines join lines, '…' is literal, "…" and bare words expand `$VAR`. */
export function shellWords(source: string): Word[] {
  const text = source.replace(/\\\n/g, ' ').replace(/^\s*#.*$/gm, '');
  const words: Word[] = [];
  let word: Word | undefined;
  const push = (part: Word[number]) => (word ??= []).push(part);
  for (let i = 0; i < text.length;) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      if (word) words.push(word);
      word = undefined;
      i++;
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${source}`);
      push({ text: text.slice(i + 1, end) });
      i = end + 1;
    } else if (char === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unterminated " in: ${source}`);
      expandInto(text.slice(i + 1, end), push);
      i = end + 1;
    } else {
      const end = text.slice(i).search(/[\s'"]/);
      const stop = end < 0 ? text.length : i + end;
      expandInto(text.slice(i, stop), push);
      i = stop;
    }
  }
  if (word) words.push(word);
  return words;
}

function expandInto(text: string, push: (part: Word[number]) => void): void {
  let rest = text;
  for (let match = /\$\{?([A-Za-z_]\w*)\}?/.exec(rest); match; match = /\$\{?([A-Za-z_]\w*)\}?/.exec(rest)) {
    if (match.index > 0) push({ text: rest.slice(0, match.index) });
    push({ variable: match[1]! });
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest) push({ text: rest });
}

/** A word with its variables filled; an unknown variable is an error (a step used what no step set). */
export function expand(word: Word, variables: Record<string, string>): string {
  return word
    .map((part) => {
      if ('text' in part) return part.text;
      const value = variables[part.variable];
      if (value === undefined) throw new Error(`$${part.variable} is used before any step sets it`);
      return value;
    })
    .join('');
}

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The HTTP request a `curl` command sends; flags the walkthrough does not use are refused. */
export function curlRequest(args: string[]): CurlRequest {
  if (args[0] !== 'curl') throw new Error(`not a curl command: ${args.join(' ')}`);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '-s' || arg === '-sS' || arg === '--silent') continue;
    else if (arg === '-X' || arg === '--request') method = value();
    else if (arg === '-H' || arg === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') body = value();
    else if (arg.startsWith('-')) throw new Error(`curl flag ${arg} is not understood by the walkthrough test`);
    else if (url === undefined) url = arg;
    else throw new Error(`a second URL ${arg}`);
  }
  if (!url) throw new Error('curl without a URL');
  // As curl does: -d without -X is a POST.
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, body };
}

/**
 * Whether a real answer agrees with the documented, abbreviated one: every documented field is
 * there with that value (arrays element by element); a documented string with `…` stands for any
 * text in its place (`"proc_…"` is any processor id).
 */
export function differences(documented: unknown, real: unknown, at = '$'): string[] {
  if (typeof documented === 'string' && documented.includes('…')) {
    const [head, tail] = documented.split('…', 2) as [string, string];
    const fits = typeof real === 'string' && real.startsWith(head) && real.endsWith(tail);
    return fits ? [] : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(real)}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(real)) return [`${at}: documented an array, got ${JSON.stringify(real)}`];
    return documented.flatMap((item, index) => differences(item, real[index], `${at}[${index}]`));
  }
  if (documented !== null && typeof documented === 'object') {
    if (real === null || typeof real !== 'object') return [`${at}: documented an object, got ${JSON.stringify(real)}`];
    return Object.entries(documented).flatMap(([key, value]) =>
      key in real
        ? differences(value, (real as Record<string, unknown>)[key], `${at}.${key}`)
        : [`${at}.${key}: documented, but not in the answer`],
    );
  }
  return documented === real ? [] : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(real)}`];
}

/** `a.b.0.c` of an answer. */
export function fieldOf(answer: unknown, field: string): unknown {
  return field
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], answer);
}
