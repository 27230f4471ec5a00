import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actors, multipart, type Actors } from './fixtures';
import { decodeCsv } from '../../../server/services/admin/csv';

/**
 * Issue 10 E: a CSV in Latin-1/ANSI (Excel's "CSV" in Western European locales) or UTF-16 imports with its
 * accents intact instead of as U+FFFD; the report names the encoding that was used.
 */
const NAMES = [['Zoë', 'Müller'], ['François', 'Façade'], ['Niccolò', 'Bräuer']] as const;
const csvText = (domain: string) =>
  'email;first_name;last_name;locale;auth_type\r\n' + NAMES.map(([f, l], i) => `p${i}@${domain};${f};${l};de;CREDENTIALS`).join('\r\n') + '\r\n';

const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

describe('decodeCsv', () => {
  it('recognises UTF-8 (with/without BOM), UTF-16 LE/BE (with/without BOM), else windows-1252', () => {
    const s = 'a;b\r\nZoë;Müller – “x” €\r\n';
    const cases: Array<[Buffer, string]> = [
      [Buffer.from(s, 'utf8'), 'utf-8'],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s, 'utf8')]), 'utf-8'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]), 'utf-16le'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)]), 'utf-16be'],
      [Buffer.from(s, 'utf16le'), 'utf-16le'],
      [utf16be(s), 'utf-16be'],
    ];
    for (const [buf, encoding] of cases) expect(decodeCsv(buf)).toEqual({ text: s, encoding });
    // windows-1252: 0x80 is €, 0x93/0x94 are curly quotes, 0x96 an en dash
    const ansi = Buffer.from([0x61, 0x3b, 0x62, 0x0d, 0x0a, 0x5a, 0x6f, 0xeb, 0x3b, 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x20, 0x96, 0x20, 0x93, 0x78, 0x94, 0x20, 0x80, 0x0d, 0x0a]);
    expect(decodeCsv(ansi)).toEqual({ text: s, encoding: 'windows-1252' });
    expect(decodeCsv(Buffer.from(s, 'latin1').subarray(0, 9)).text).toBe('a;b\r\nZoë;');
  });
});

describeEachDb('users import: encodings', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });
  const upload = (content: Buffer) => {
    const m = multipart('file', 'users.csv', content, 'text/csv');
    return get().app.inject({ method: 'POST', url: '/api/admin/users/import', headers: { ...who.superAdmin.headers, ...m.headers }, payload: m.payload });
  };

  for (const [encoding, encode] of [
    ['windows-1252', (s: string) => Buffer.from(s, 'latin1')],
    ['utf-16le', (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])],
    ['utf-16be', (s: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)])],
    ['utf-8', (s: string) => Buffer.from(s, 'utf8')],
  ] as const) {
    it(`${encoding}: names keep their accents and the report says ${encoding}`, async () => {
      const domain = `${encoding}.enc.test`;
      const res = await upload(encode(csvText(domain)));
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ total: 3, created: 3, failed: [], encoding });
      const list = await get().app.inject({ method: 'GET', url: `/api/admin/users?search=${domain}&size=10`, headers: who.manager.headers });
      const got = list.json().data.map((u: { first_name: string; last_name: string }) => [u.first_name, u.last_name]).sort();
      expect(got).toEqual(NAMES.map((n) => [...n]).sort());
      expect(JSON.stringify(got)).not.toContain('\ufffd');
    });
  }
});
