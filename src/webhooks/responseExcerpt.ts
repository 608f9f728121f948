/** How much of a receiver's answer is kept: enough to recognise an error page, not to hold its data. */
export const excerptLength = 200;

// Line breaks and tabs read as spaces; other control characters (C0, DEL, C1) and the bidirectional
// overrides that can disguise text in a dashboard are dropped.
const whitespaceControls = /[\t\n\v\f\r]+/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const otherControls = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The excerpt of a webhook receiver's answer that is stored and shown: control characters
 * stripped, at most `excerptLength` characters (whole code points), or null when nothing is left.
 */
export function responseExcerpt(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const clean = raw.replace(whitespaceControls, ' ').replace(otherControls, '').trim();
  const excerpt = Array.from(clean).slice(0, excerptLength).join('');
  return excerpt || null;
}
