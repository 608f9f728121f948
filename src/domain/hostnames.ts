/** Largest hostname DNS allows (253 characters without the trailing dot). */
const maxLength = 253;
const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A hostname a store may serve on, lower-cased and without a trailing dot; null when it is not one:
 * at least two labels of letters, digits and inner hyphens (1–63 each), an alphabetic top-level
 * label (so no IP address), 253 characters at most. Internationalised names come in punycode.
 */
export function normaliseHostname(input: string): string | null {
  const hostname = input.trim().toLowerCase().replace(/\.$/, '');
  if (hostname.length === 0 || hostname.length > maxLength) return null;
  const labels = hostname.split('.');
  if (labels.length < 2 || !labels.every((part) => label.test(part))) return null;
  const top = labels.at(-1)!;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top)) return null;
  return hostname;
}

/** The TXT record a domain owner publishes: its name and the value that proves control. */
export function verificationRecord(hostname: string, token: string): { name: string; value: string } {
  return { name: `_payengine-verify.${hostname}`, value: `payengine-verify=${token}` };
}

/** Whether TXT answers (each record a list of character-strings, joined as DNS says) hold the value. */
export function txtRecordsMatch(records: string[][], value: string): boolean {
  return records.some((chunks) => chunks.join('').trim() === value);
}
