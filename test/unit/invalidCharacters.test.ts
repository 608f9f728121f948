import { findInvalidCharacter } from '../../src/http/core/invalidCharacters';

describe('findInvalidCharacter', () => {
  it('names the path of U+0000 or a lone surrogate in a value or a key, keys escaped', () => {
    expect(findInvalidCharacter({ a: [{ b: 'x\u0000' }] }, 'body')).toEqual({
      path: 'body.a.0.b',
      problem: 'U+0000 (NUL) is not allowed',
    });
    expect(findInvalidCharacter({ a: 'ok', ['k\u0000\uD800']: 1 }, 'body')).toEqual({
      path: 'body.k\\u0000\\ud800',
      problem: 'U+0000 (NUL) is not allowed',
    });
    expect(findInvalidCharacter(['\uDC00'], 'body')?.problem).toBe('a lone UTF-16 surrogate is not allowed');
    expect(findInvalidCharacter({ s: 'a\uD800' }, 'query')?.path).toBe('query.s');
  });

  it('reports the shallowest offender first, in document order within a level', () => {
    expect(findInvalidCharacter({ a: ['ok', '\u0000'], b: ['\u0000'] }, 'body')?.path).toBe('body.a.1');
    expect(findInvalidCharacter({ a: { b: '\u0000' }, c: '\u0000' }, 'body')?.path).toBe('body.c');
  });

  it('lets surrogate pairs and everything else through', () => {
    expect(
      findInvalidCharacter({ name: 'Shop 😀 é \uD83D\uDE00', n: 1, t: true, z: null, list: [1, 'x'] }, 'body'),
    ).toBeUndefined();
    expect(findInvalidCharacter(undefined, 'body')).toBeUndefined();
  });

  it('walks a body nested deeper than the call stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInvalidCharacter(deep, 'body')?.path).toMatch(/^body(\.0){100000}$/);
  });
});
