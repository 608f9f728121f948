import { DomainError, invalid, type DomainErrorKind } from '../../src/errors';
import { ApiError, toApiError } from '../../src/http/core/errors';

describe('toApiError: any thrown value to a status and the error body', () => {
  it('keeps a 4xx status set by Express, router or http-errors, in the error shape', () => {
    const uriError = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
    expect(toApiError(uriError).body()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Malformed percent-encoding in the URL path',
    });
    expect(toApiError(uriError).status).toBe(400);

    const methodNotAllowed = toApiError(Object.assign(new Error('nope'), { status: 405 }));
    expect({ status: methodNotAllowed.status, body: methodNotAllowed.body() }).toEqual({
      status: 405,
      body: { code: 'METHOD_NOT_ALLOWED', message: 'Method Not Allowed' },
    });

    const exposed = toApiError(Object.assign(new Error('too many parameters'), { statusCode: 413, expose: true }));
    expect({ status: exposed.status, body: exposed.body() }).toEqual({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE', message: 'too many parameters' },
    });
  });

  it('does not pass on 5xx statuses or their messages', () => {
    const answer = toApiError(
      Object.assign(new Error('connection string with a password'), { status: 503, expose: true }),
    );
    expect(answer).toBeInstanceOf(ApiError);
    expect({ status: answer.status, body: answer.body() }).toEqual({
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: 'Internal server error' },
    });
    expect(toApiError(new Error('plain')).status).toBe(500);
  });

  it('answers a DomainError with the status of its kind, its code and its message', () => {
    const statuses: [DomainErrorKind, number][] = [
      ['invalid', 400],
      ['unauthenticated', 401],
      ['forbidden', 403],
      ['not_found', 404],
      ['conflict', 409],
      ['unavailable', 503],
      ['internal', 500],
    ];
    for (const [kind, status] of statuses) {
      const answer = toApiError(
        new DomainError(kind, 'SOME_CODE', `a ${kind} refusal`, { secret: 'kept out of the body' }),
      );
      expect({ status: answer.status, body: answer.body() }).toEqual({
        status,
        body: { code: 'SOME_CODE', message: `a ${kind} refusal` },
      });
    }
  });

  it('passes on the issues of a DomainError that names each problem', () => {
    const issues = [{ message: 'value.1: not a country code', path: 'value.1' }];
    const answer = toApiError(
      invalid('Invalid block rule value: value.1: not a country code', 'VALIDATION_ERROR', issues),
    );
    expect({ status: answer.status, body: answer.body() }).toEqual({
      status: 400,
      body: { code: 'VALIDATION_ERROR', message: 'Invalid block rule value: value.1: not a country code', issues },
    });
  });
});
