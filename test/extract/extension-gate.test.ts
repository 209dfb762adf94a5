import { describe, expect, it } from 'vitest';
import { rejectedExtension } from '../../src/extract/extension-gate.js';

const at = (path: string) => rejectedExtension(new URL(path, 'https://example.com'));

describe('rejectedExtension', () => {
  const refused: Record<string, string[]> = {
    pdf: ['pdf'],
    images: ['svg', 'svgz', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'psd'],
    video: ['mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm', 'wmv', 'flv', 'mpeg', 'mpg', '3gp'],
    audio: ['mp3', 'wav', 'ogg', 'oga', 'flac', 'aac', 'm4a', 'opus', 'wma', 'mid', 'midi'],
    archives: ['zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'zst', 'lz', 'cab', 'iso', 'dmg'],
    office: [
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
    ],
    fonts: ['woff', 'woff2', 'ttf', 'otf', 'eot'],
    binaries: ['exe', 'msi', 'dll', 'so', 'bin', 'apk', 'ipa', 'deb', 'rpm', 'jar', 'wasm', 'class', 'dylib', 'app'],
    data: ['parquet', 'sqlite', 'db'],
  };

  for (const [group, extensions] of Object.entries(refused)) {
    it(`refuses ${group}`, () => {
      for (const extension of extensions) {
        expect(at(`/files/report.${extension}`), extension).toBe(extension);
      }
    });
  }

  it('lower-cases the extension', () => {
    expect(at('/Scan.PDF')).toBe('pdf');
    expect(at('/photo.JpEg')).toBe('jpeg');
  });

  it('lets text formats and extension-less paths through', () => {
    for (const extension of [
      'html',
      'htm',
      'xhtml',
      'php',
      'asp',
      'aspx',
      'jsp',
      'txt',
      'md',
      'csv',
      'json',
      'xml',
      'rss',
      'atom',
      'ts',
    ]) {
      expect(at(`/page.${extension}`), extension).toBeNull();
    }
    expect(at('/')).toBeNull();
    expect(at('/docs/getting-started')).toBeNull();
    expect(at('/v1.2/release')).toBeNull();
  });

  it('ignores query and fragment', () => {
    expect(at('/download.php?file=report.pdf')).toBeNull();
    expect(at('/page#figure.png')).toBeNull();
    expect(at('/report.pdf?download=1#page=2')).toBe('pdf');
  });

  it('judges only the last path segment', () => {
    expect(at('/archive.zip/readme')).toBeNull();
    expect(at('/files.pdf/')).toBeNull();
    expect(at('/backup.tar.gz')).toBe('gz');
  });

  it('percent-decodes the segment and cuts path parameters', () => {
    expect(at('/annual%20report%2Epdf')).toBe('pdf');
    expect(at('/paper.pdf;jsessionid=ABC123')).toBe('pdf');
    expect(at('/broken%E0%A4%A.png')).toBe('png');
  });

  it('does not treat a dot-file name as an extension', () => {
    expect(at('/.bin')).toBeNull();
    expect(at('/trailing.')).toBeNull();
  });
});
