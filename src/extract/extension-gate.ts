/**
 * Rejects a URL on its file extension before any network request is made
 * (docs/interface.md 4.2, rule 2): a refused URL costs no fetch and is never charged. The
 * set lists formats that cannot be turned into text (docs/interface.md 4.2: PDFs, images
 * incl. SVG, video, audio, archives, office documents, fonts, other binaries). Anything
 * not listed goes on to the fetch, where the content type and the first bytes decide; so
 * the list errs on the side of well-known binary extensions and never names a text format
 * (html, php, txt, md, csv, json, xml, rss, atom, ts, …).
 */

const REFUSED_EXTENSIONS: ReadonlySet<string> = new Set([
  // Documents that need a layout engine.
  'pdf',
  'ps',
  'eps',
  'ai',
  // Images (SVG too: docs/interface.md 4.2 lists it as unsupported even though it is XML).
  'svg',
  'svgz',
  'png',
  'apng',
  'jpg',
  'jpeg',
  'jfif',
  'pjpeg',
  'gif',
  'webp',
  'avif',
  'bmp',
  'ico',
  'tif',
  'tiff',
  'heic',
  'heif',
  'jxl',
  'psd',
  // Video.
  'mp4',
  'm4v',
  'mov',
  'avi',
  'mkv',
  'webm',
  'wmv',
  'flv',
  'mpeg',
  'mpg',
  '3gp',
  'ogv',
  'swf',
  // Audio.
  'mp3',
  'wav',
  'ogg',
  'oga',
  'flac',
  'aac',
  'm4a',
  'opus',
  'wma',
  'mid',
  'midi',
  'weba',
  'aif',
  'aiff',
  // Archives and disk images.
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'rar',
  'tar',
  'zst',
  'lz',
  'lz4',
  'lzma',
  'cab',
  'iso',
  'dmg',
  // Office documents and e-books.
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'epub',
  'pages',
  'numbers',
  'key',
  // Fonts.
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // Executables, packages, bytecode.
  'exe',
  'msi',
  'dll',
  'so',
  'bin',
  'apk',
  'ipa',
  'deb',
  'rpm',
  'jar',
  'wasm',
  'class',
  'dylib',
  'app',
  // Data blobs and model files.
  'parquet',
  'sqlite',
  'sqlite3',
  'db',
  'mdb',
  'accdb',
  'avro',
  'orc',
  'feather',
  'npy',
  'npz',
  'h5',
  'pkl',
  'onnx',
  'safetensors',
  'gguf',
]);

/**
 * The lower-cased extension of the URL's last path segment when that extension is refused,
 * else null. Query and fragment never count (`/a.php?f=x.pdf` passes); the segment is
 * percent-decoded (`/report%2Epdf` is a PDF) and cut at `;` (`/a.pdf;jsessionid=1`).
 */
export function rejectedExtension(url: URL): string | null {
  const path = url.pathname;
  let segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    segment = decodeURIComponent(segment);
  } catch {
    // A malformed escape: keep the raw segment, the extension is still readable.
  }
  const semicolon = segment.indexOf(';');
  if (semicolon >= 0) segment = segment.slice(0, semicolon);
  segment = segment.trim();
  const dot = segment.lastIndexOf('.');
  // No dot, or a dot-file like `.bin` (a name, not an extension): nothing to judge.
  if (dot <= 0 || dot === segment.length - 1) return null;
  const extension = segment.slice(dot + 1).toLowerCase();
  return REFUSED_EXTENSIONS.has(extension) ? extension : null;
}
