import { ApiError } from './errors';

/** Where a string that no column may hold was found (`body.filters.name`), and why. */
export interface InvalidCharacter {
  path: string;
  problem: string;
}

const nul = '\u0000';
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

function problemOf(text: string): string | undefined {
  // Postgres text and jsonb cannot store U+0000; a lone surrogate is no character at all.
  if (text.includes(nul)) return 'U+0000 (NUL) is not allowed';
  if (loneSurrogate.test(text)) return 'a lone UTF-16 surrogate is not allowed';
  return undefined;
}

/** A key as it can be shown (and stored with an idempotent answer): offending code units escaped. */
function printable(key: string): string {
  const escape = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return key.split(nul).join(escape(nul)).replace(loneSurrogates, escape);
}

/** A value met on the walk; the path is only spelt out for an offender. */
interface Visit {
  value: unknown;
  key: string;
  parent?: Visit;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at; at = at.parent) keys.push(printable(at.key));
  return keys.reverse().join('.');
}

/**
 * A string under `value`, object key or value, that holds U+0000 or a lone surrogate; shallower
 * ones first, in document order within a level. Walks breadth first with its own queue rather
 * than recursion, since a 1 MB body may nest deeper than the call stack, and allocates only for
 * nested objects: it runs on every JSON body.
 */
export function findInvalidCharacter(value: unknown, root: string): InvalidCharacter | undefined {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { path: root, problem } : undefined;
  }
  const queue: Visit[] = [{ value, key: root }];
  for (let next = 0; next < queue.length; next++) {
    const visit = queue[next]!;
    const current = visit.value as Record<string, unknown> | unknown[] | null;
    if (current === null || typeof current !== 'object') continue;
    const keys = Array.isArray(current) ? undefined : Object.keys(current);
    const length = keys ? keys.length : (current as unknown[]).length;
    for (let i = 0; i < length; i++) {
      const key = keys?.[i];
      const item = key === undefined ? (current as unknown[])[i] : (current as Record<string, unknown>)[key];
      const problem =
        (key === undefined ? undefined : problemOf(key)) ?? (typeof item === 'string' ? problemOf(item) : undefined);
      if (problem) return { path: pathOf({ value: item, key: key ?? String(i), parent: visit }), problem };
      if (item !== null && typeof item === 'object') queue.push({ value: item, key: key ?? String(i), parent: visit });
    }
  }
  return undefined;
}

export function invalidCharacterError({ path, problem }: InvalidCharacter): ApiError {
  const message = `Invalid character in ${path}: ${problem}`;
  return new ApiError(400, 'INVALID_CHARACTER', message, [{ path, message }]);
}
