import { toPublicAttempt } from '../../src/http/webhooks/validators';
import { responseExcerpt } from '../../src/webhooks/responseExcerpt';

describe("webhook receivers' answers: only a short, sanitized excerpt", () => {
  it('turns line breaks and tabs into spaces and drops other control characters and bidi overrides', () => {
    expect(responseExcerpt('a\r\nb\tc\u0000d\u001b[0me\u007ff\u0085g\u202eh\u2066i')).toBe('a b cd[0mefghi');
  });

  it('keeps at most 200 characters, never splitting a character', () => {
    expect(responseExcerpt('x'.repeat(1000))).toBe('x'.repeat(200));
    const emoji = responseExcerpt('😀'.repeat(300))!;
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji).toBe('😀'.repeat(200));
  });

  it('answers null when nothing readable is left', () => {
    expect(responseExcerpt('')).toBeNull();
    expect(responseExcerpt(null)).toBeNull();
    expect(responseExcerpt('\u0000\u0001\r\n')).toBeNull();
  });

  it('cuts what the attempts list shows, also for rows stored before excerpts were cut', () => {
    const stored = {
      id: 'whd_1',
      accountId: 'acc_1',
      mode: 'test' as const,
      eventId: 'evt_1',
      endpointId: 'we_1',
      workflowId: 'whd_evt_1_we_1',
      attempt: 1,
      outcome: 'failed',
      responseStatus: 500,
      latencyMs: 12,
      error: 'HTTP 500',
      responseSnippet: `secret-ish\u001b]0;title\u0007${'y'.repeat(990)}`,
      createdAt: new Date('2026-11-28T00:00:00Z'),
    };
    const shown = toPublicAttempt(stored as Parameters<typeof toPublicAttempt>[0]);
    expect(shown.responseStatus).toBe(500);
    expect(shown.responseSnippet).toHaveLength(200);
    expect(shown.responseSnippet).toBe(`secret-ish]0;title${'y'.repeat(200 - 'secret-ish]0;title'.length)}`);
  });
});
