import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { messages as deAdmin } from '../../locales/de/admin';
import { messages as deCommon } from '../../locales/de/common';
import { activateLocale, loadAdminCatalogs, loadMessages, setAdminCatalogs } from '../../src/lib/i18n';

const adminId = Object.keys(deAdmin).find((id) => !(id in deCommon))!;
const commonId = Object.keys(deCommon)[0]!;

describe('catalogs by area', () => {
  afterEach(() => setAdminCatalogs(true));

  it('outside the console the admin catalog is not loaded; the admin layouts add it, and a language change keeps it', async () => {
    setAdminCatalogs(false);
    expect(Object.keys(await loadMessages('de'))).not.toContain(adminId);
    await activateLocale('de');
    expect(i18n.messages).toHaveProperty(commonId);
    expect(i18n.messages).not.toHaveProperty(adminId);

    await loadAdminCatalogs();
    expect(i18n.locale).toBe('de');
    expect(i18n.messages[adminId]).toEqual(deAdmin[adminId]);
    expect(i18n.messages).toHaveProperty(commonId);

    await activateLocale('fr');
    await activateLocale('de');
    expect(i18n.messages[adminId]).toEqual(deAdmin[adminId]);
  });

  it('loads every catalog unless told otherwise (tests, the console)', async () => {
    expect(Object.keys(await loadMessages('de'))).toEqual(expect.arrayContaining([adminId, commonId]));
  });
});
