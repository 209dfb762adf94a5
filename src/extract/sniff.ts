/**
 * Binary detection on the first bytes of a body (docs/interface.md 4.2, rule 3: a binary
 * served under a text content type is still detected and rejected). Three layers,
 * cheapest first:
 *   1. `%PDF-` within the first 1024 bytes (PDF readers accept leading junk, so do servers);
 *   2. magic numbers via `file-type` (precise names: image/png, application/zip, …);
 *   3. the WHATWG "binary data byte" heuristic for anything without a known signature.
 * An SVG document (root element `<svg>`) is reported as `image/svg+xml`:
 * docs/interface.md 4.2 refuses SVG as an image, whatever type the server claims. Plain
 * XML and HTML (even with inline SVG) pass.
 */

/** Bytes examined: file-type's own sample size covers every signature it knows. */
const SAMPLE_BYTES = 4100;
const PDF_WINDOW = 1024;
/** Share of binary data bytes above which a body without NUL is still binary. */
const CONTROL_RATIO = 0.1;

/** file-type verdicts that name a text format we can extract or treat as text. */
const TEXT_MIMES: ReadonlySet<string> = new Set(['application/xml', 'text/vtt', 'text/vcard', 'text/calendar']);
/**
 * Text-serialised formats that are documents, not text: trusted from file-type even when the
 * sample is clean text (their signatures, `{\rtf` and `%!PS`, cannot start a prose text).
 */
const TEXT_SERIALISED_REFUSED: ReadonlySet<string> = new Set(['application/rtf', 'application/postscript']);

type FileTypeFromBuffer = (buffer: Uint8Array) => Promise<{ mime: string } | undefined>;
let fileTypeLoader: Promise<FileTypeFromBuffer> | undefined;

/** file-type pulls in a tokenizer stack: load it on first use only (start-up time). */
function loadFileType(): Promise<FileTypeFromBuffer> {
  fileTypeLoader ??= import('file-type').then(
    (module) => module.fileTypeFromBuffer as FileTypeFromBuffer,
    (error: unknown) => {
      fileTypeLoader = undefined;
      throw error;
    },
  );
  return fileTypeLoader;
}

/**
 * A short description (a MIME type) of the binary format of `bytes`, or null when they look
 * like text. Only the first 4100 bytes are read, so it suits the fetcher's first-bytes hook.
 */
export async function sniffBinary(bytes: Uint8Array): Promise<string | null> {
  if (bytes.length === 0) return null;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (containsPdfMagic(sample)) return 'application/pdf';

  // UTF-16 text is full of NUL bytes and its LE BOM (FF FE) reads as an MPEG frame sync to
  // file-type: judge it on its decoded code units instead.
  const utf16 = utf16Endianness(sample);
  if (utf16 !== null) return looksLikeUtf16Text(sample, utf16) ? null : 'application/octet-stream';

  const clean = binaryByteCount(sample) === 0;
  const detected = await detectFileType(sample);
  if (detected !== undefined && !TEXT_MIMES.has(detected)) {
    // Two-byte signatures (`BM`, `MZ`, `ID3`…) also start ordinary sentences ("BMW is…"); a
    // real binary carries control bytes within its first 4 KiB, so a clean sample is text.
    if (!clean || TEXT_SERIALISED_REFUSED.has(detected)) return detected;
  }
  if (isSvgDocument(sample)) return 'image/svg+xml';
  return looksBinary(sample) ? 'application/octet-stream' : null;
}

async function detectFileType(sample: Uint8Array): Promise<string | undefined> {
  try {
    const fileTypeFromBuffer = await loadFileType();
    return (await fileTypeFromBuffer(sample))?.mime;
  } catch {
    // A parser hiccup on odd bytes must not fail the request: the heuristic still runs.
    return undefined;
  }
}

function containsPdfMagic(sample: Uint8Array): boolean {
  const end = Math.min(sample.length, PDF_WINDOW) - 5;
  for (let i = 0; i <= end; i++) {
    if (
      sample[i] === 0x25 &&
      sample[i + 1] === 0x50 &&
      sample[i + 2] === 0x44 &&
      sample[i + 3] === 0x46 &&
      sample[i + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

/** WHATWG MIME Sniffing: 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F (tab, LF, FF, CR, ESC are text). */
function isBinaryDataByte(byte: number): boolean {
  return byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);
}

function binaryByteCount(sample: Uint8Array): number {
  let count = 0;
  for (const byte of sample) if (isBinaryDataByte(byte)) count++;
  return count;
}

/** Any NUL, or more than 10% binary data bytes. */
function looksBinary(sample: Uint8Array): boolean {
  if (sample.includes(0)) return true;
  return binaryByteCount(sample) > sample.length * CONTROL_RATIO;
}

export function utf16Endianness(bytes: Uint8Array): 'le' | 'be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  return null;
}

/** The same heuristic applied to 16-bit code units after the BOM. */
function looksLikeUtf16Text(sample: Uint8Array, endianness: 'le' | 'be'): boolean {
  let units = 0;
  let binary = 0;
  for (let i = 2; i + 1 < sample.length; i += 2) {
    const unit = endianness === 'le' ? sample[i]! | (sample[i + 1]! << 8) : (sample[i]! << 8) | sample[i + 1]!;
    units++;
    if (unit === 0) return false;
    if (unit < 0x20 && isBinaryDataByte(unit)) binary++;
  }
  return binary <= units * CONTROL_RATIO;
}

/**
 * Whether the document's root element is `<svg>`: skips a UTF-8 BOM, whitespace, the XML
 * declaration, processing instructions, comments and a DOCTYPE. HTML with inline SVG has
 * `<html>` or text first, so it passes.
 */
function isSvgDocument(sample: Uint8Array): boolean {
  let text = Buffer.from(sample.buffer, sample.byteOffset, Math.min(sample.length, 2048)).toString('latin1');
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3);
  for (;;) {
    text = text.trimStart();
    if (text.startsWith('<?')) {
      const end = text.indexOf('?>');
      if (end < 0) return false;
      text = text.slice(end + 2);
    } else if (text.startsWith('<!--')) {
      const end = text.indexOf('-->');
      if (end < 0) return false;
      text = text.slice(end + 3);
    } else if (/^<!doctype/i.test(text)) {
      // `<!DOCTYPE svg PUBLIC "…">` decides on its own; an internal subset is rare in SVG.
      if (/^<!doctype\s+svg[\s>]/i.test(text)) return true;
      const end = text.indexOf('>');
      if (end < 0) return false;
      text = text.slice(end + 1);
    } else {
      return /^<(?:[a-z_][\w.-]*:)?svg[\s>/]/i.test(text);
    }
  }
}
