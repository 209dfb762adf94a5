/**
 * windows-1252 decoding by hand. Node 20's TextDecoder takes a Latin-1 fast path for this
 * encoding (and for its aliases `latin1`, `iso-8859-1`, `us-ascii`), so 0x80–0x9F come out
 * as C1 controls instead of € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ. Those
 * bytes are exactly why the WHATWG standard maps Latin-1 labels to windows-1252, so the
 * mapping (WHATWG index-windows-1252) is applied here.
 */

/** Code points of bytes 0x80–0x9F; the five unassigned bytes map to the C1 control itself. */
const HIGH: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d,
  0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x009d, 0x017e, 0x0178,
];

/** The character of one byte 0x80–0x9F. */
function windows1252Char(byte: number): string {
  return String.fromCharCode(HIGH[byte - 0x80] ?? byte);
}

export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (char) => windows1252Char(char.charCodeAt(0)));
}
