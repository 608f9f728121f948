import { call, type Harness } from '../../helpers/harness';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

const api = '/api/public/v1';

/** Sends `body` bytes exactly as given (no re-encoding), with a merchant key. */
async function postBytes(
  harness: Harness,
  path: string,
  token: string | undefined,
  body: Buffer,
  contentType = 'application/json',
) {
  const response = await fetch(`${harness.url}${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { code: string; message: string; issues?: { path?: string }[] },
  };
}

describe('HTTP request guards (characters, encodings, content types)', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);

  describe('U+0000 anywhere in the input is 400 INVALID_CHARACTER, naming where', () => {
    it.each([
      ['a store name', '/stores', { name: 'Sh\u0000op', baseCurrency: 'EUR' }, 'name'],
      [
        'a customer list filter',
        '/customers/list',
        { filters: { email: { condition: 'contains', value: '\u0000' } } },
        'filters.email.value',
      ],
      ['a store list filter', '/stores/list', { filters: { name: '\u0000' } }, 'filters.name'],
      ['a block-rule name', '/block-rules', { name: 'x\u0000', storeId: 'store_x' }, 'name'],
      ['a customer name', '/customers', { email: 'a@example.com', firstName: '\u0000' }, 'firstName'],
      ['a product name', '/products', { name: '\u0000', storeId: 'store_x' }, 'name'],
      ['an email template name', '/email-templates/create', { name: '\u0000', storeId: 'store_x' }, 'name'],
      ['an object key', '/stores', { name: 'Shop', baseCurrency: 'EUR', ['k\u0000']: 1 }, 'k\\u0000'],
    ])('in %s', async (_what, path, body, where) => {
      const answer = await call(harness, 'POST', `${api}${path}`, { token: merchant.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        code: 'INVALID_CHARACTER',
        message: expect.stringContaining(`body.${where}`),
        issues: [{ path: `body.${where}`, message: expect.any(String) }],
      });
    });

    it('in a query string (GET /webhooks?storeId=%00)', async () => {
      const answer = await call(harness, 'GET', `${api}/webhooks?storeId=%00`, { token: merchant.token });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_CHARACTER', issues: [{ path: 'query.storeId' }] });
    });

    it('in a path parameter', async () => {
      const answer = await call(harness, 'GET', `${api}/webhooks/wh%00x`, { token: merchant.token });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_CHARACTER', issues: [{ path: 'params.webhookId' }] });
    });
  });

  describe('a JSON body must be UTF-8 without lone surrogates (never silently U+FFFD)', () => {
    it('raw bytes that are not UTF-8 are 400 INVALID_ENCODING', async () => {
      for (const bytes of [[0xff, 0xfe], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
        const body = Buffer.concat([
          Buffer.from('{"name":"Shop'),
          Buffer.from(bytes),
          Buffer.from('","baseCurrency":"EUR"}'),
        ]);
        const answer = await postBytes(harness, '/stores', merchant.token, body);
        expect({ bytes, status: answer.status, code: answer.body.code }).toEqual({
          bytes,
          status: 400,
          code: 'INVALID_ENCODING',
        });
      }
      expect(await harness.db.store.count({ where: { accountId: merchant.accountId } })).toBe(0);
    });

    it('an escaped lone surrogate is 400 INVALID_CHARACTER', async () => {
      for (const escape of ['\\ud800', '\\udfff', '\\udc00\\ud800']) {
        const answer = await postBytes(
          harness,
          '/stores',
          merchant.token,
          Buffer.from(`{"name":"Shop${escape}","baseCurrency":"EUR"}`),
        );
        expect({ escape, status: answer.status, code: answer.body.code, issues: answer.body.issues }).toEqual({
          escape,
          status: 400,
          code: 'INVALID_CHARACTER',
          issues: [{ path: 'body.name', message: expect.any(String) }],
        });
      }
    });

    it('a surrogate pair, escaped or raw, is a character like any other', async () => {
      const escaped = await postBytes(
        harness,
        '/stores',
        merchant.token,
        Buffer.from('{"name":"Shop \\ud83d\\ude00","baseCurrency":"EUR"}'),
      );
      expect(escaped.status).toBe(200);
      const raw = await postBytes(
        harness,
        '/stores',
        merchant.token,
        Buffer.from('{"name":"Shop 😀 é","baseCurrency":"EUR"}'),
      );
      expect(raw.status).toBe(200);
      expect((raw.body as unknown as { name: string }).name).toBe('Shop 😀 é');
    });

    it('a charset other than UTF-8 is 415', async () => {
      const answer = await postBytes(
        harness,
        '/stores',
        merchant.token,
        Buffer.from('{"name":"Shop","baseCurrency":"EUR"}', 'utf16le'),
        'application/json; charset=utf-16le',
      );
      expect(answer.status).toBe(415);
      expect(answer.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('content types', () => {
    it('a JSON route answers 415 to a body of another type', async () => {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        const answer = await postBytes(
          harness,
          '/stores',
          merchant.token,
          Buffer.from('{"name":"Shop","baseCurrency":"EUR"}'),
          contentType,
        );
        expect({ contentType, status: answer.status, code: answer.body.code }).toEqual({
          contentType,
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
      const untyped = await fetch(`${harness.url}${api}/stores`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.token}` },
        body: new Uint8Array(Buffer.from('{"name":"Shop","baseCurrency":"EUR"}')),
      });
      expect(untyped.status).toBe(415);
    });

    it('a POST without a body needs no content type', async () => {
      const answer = await call(harness, 'POST', `${api}/checkout-offers/co_none`, { token: merchant.token });
      expect(answer.status).toBe(404);
      const emptyText = await call(harness, 'POST', `${api}/checkout-offers/co_none`, {
        token: merchant.token,
        raw: '',
        headers: { 'content-type': 'text/plain' },
      });
      expect(emptyText.status).toBe(404);
    });

    it('a route that takes no JSON body (the 3DS browser return) still accepts a form post', async () => {
      const answer = await postBytes(
        harness,
        '/threeds/3ds_none/return?token=nope',
        undefined,
        Buffer.from('cres=abc'),
        'application/x-www-form-urlencoded',
      );
      expect(answer.status).toBe(401);
    });
  });

  it('an unreadable body does not bind its Idempotency-Key: the corrected retry with the same key runs', async () => {
    const unreadable: [string, Buffer][] = [
      ['application/json', Buffer.from('{"broken": ')],
      ['text/plain', Buffer.from('{"name":"Keyed","baseCurrency":"EUR"}')],
      ['application/json', Buffer.from('{"name":"\\u0000","baseCurrency":"EUR"}')],
    ];
    for (const [contentType, body] of unreadable) {
      const key = `guard-${Math.random()}`;
      const headers = { authorization: `Bearer ${merchant.token}`, 'idempotency-key': key };
      const first = await fetch(`${harness.url}${api}/stores`, {
        method: 'POST',
        headers: { ...headers, 'content-type': contentType },
        body: new Uint8Array(body),
      });
      expect(first.status).toBeGreaterThanOrEqual(400);
      const retry = await call(harness, 'POST', `${api}/stores`, {
        token: merchant.token,
        headers: { 'idempotency-key': key },
        body: { name: 'Keyed', baseCurrency: 'EUR' },
      });
      expect({ contentType, status: retry.status }).toEqual({ contentType, status: 200 });
    }
  });

  describe('authentication comes first: without a key every one of these is 401', () => {
    it.each([
      ['malformed JSON', Buffer.from('{"broken": '), 'application/json'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'],
      ['U+0000', Buffer.from('{"name":"\\u0000"}'), 'application/json'],
      ['another content type', Buffer.from('name=x'), 'text/plain'],
    ])('%s', async (_what, body, contentType) => {
      const answer = await postBytes(harness, '/stores', undefined, body, contentType);
      expect(answer.status).toBe(401);
    });
  });

  it('documents 413 and 415 on operations that take a body, and 400 on every operation', async () => {
    const document = (await call(harness, 'GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    const withBody = operations.filter((operation) => operation.requestBody);
    expect(withBody.length).toBeGreaterThan(20);
    for (const operation of withBody)
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['413', '415']));
    for (const operation of operations) expect(Object.keys(operation.responses)).toContain('400');
    expect(Object.keys(document.paths[`${api}/webhooks`]!.get!.responses)).not.toContain('415');
  });
});
