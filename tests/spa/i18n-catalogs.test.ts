import { readdirSync } from 'node:fs';
import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { messages as deAccount } from '../../locales/de/account';
import { messages as deAccountUser } from '../../locales/de/account-user';
import { messages as deAdmin } from '../../locales/de/admin';
import { messages as deAdminDashboard } from '../../locales/de/admin-dashboard';
import { messages as deAdminUsers } from '../../locales/de/admin-users';
import { messages as deCommon } from '../../locales/de/common';
import { ALL_CATALOGS, catalogsForPath } from '../../src/lib/catalog-areas';
import { activateLocale, loadCatalogsFor, loadMessages, setCatalogs } from '../../src/lib/i18n';

const only = (catalog: Record<string, unknown>, ...others: Array<Record<string, unknown>>) =>
  Object.keys(catalog).find((id) => others.every((other) => !(id in other)))!;
const adminId = only(deAdmin, deCommon, deAccount, deAdminDashboard, deAdminUsers);
const dashboardId = only(deAdminDashboard, deCommon, deAccount, deAdmin, deAdminUsers);
const usersId = only(deAdminUsers, deCommon, deAccount, deAdmin, deAdminDashboard);
const accountId = only(deAccount, deCommon, deAdmin, deAdminDashboard, deAdminUsers);
const commonId = Object.keys(deCommon)[0]!;
const accountUserId = only(deAccountUser, deCommon, deAccount, deAdmin, deAdminDashboard, deAdminUsers);

describe('catalogs by area', () => {
  afterEach(() => setCatalogs(ALL_CATALOGS));

  it('every catalog in locales/ is known by name', () => {
    const files = readdirSync('locales/en').filter((file) => file.endsWith('.po')).map((file) => file.replace(/\.po$/, ''));
    expect([...ALL_CATALOGS].sort()).toEqual(files.sort());
  });

  it('a page gets common, then account outside the console and on its account screens, else admin and its own area', () => {
    expect(catalogsForPath('/login')).toEqual(['common', 'account']);
    expect(catalogsForPath('/forgot-password')).toEqual(['common', 'account']);
    // the user area's screens (home, profile) have a catalog of their own, off the sign-in page
    expect(catalogsForPath('/')).toEqual(['common', 'account', 'account-user']);
    expect(catalogsForPath('/profile')).toEqual(['common', 'account', 'account-user']);
    expect(catalogsForPath('/profile/more')).toEqual(['common', 'account']);
    expect(catalogsForPath('/admin/login')).toEqual(['common', 'account', 'admin']);
    expect(catalogsForPath('/admin/profile')).toEqual(['common', 'account', 'account-user', 'admin']);
    expect(catalogsForPath('/admin/dashboard')).toEqual(['common', 'admin', 'admin-dashboard']);
    expect(catalogsForPath('/admin/user-information/123')).toEqual(['common', 'admin', 'admin-users']);
    // the second-factor settings are set per role: the catalog pages' area (no catalog of its own in the entry's loader table)
    expect(catalogsForPath('/admin/settings')).toEqual(['common', 'admin', 'admin-catalog']);
    expect(catalogsForPath('/admin/service-apps')).toEqual(['common', 'admin', 'admin-catalog']);
    expect(catalogsForPath('/admin/admin-management')).toEqual(['common', 'admin', 'admin-admins']);
    expect(catalogsForPath('/admin/nowhere')).toEqual(['common', 'admin']);
  });

  it('outside the console no admin catalog is loaded; going to a page adds its catalogs, and a language change keeps them', async () => {
    setCatalogs(catalogsForPath('/login'));
    expect(Object.keys(await loadMessages('de'))).not.toContain(adminId);
    await activateLocale('de');
    expect(i18n.messages).toHaveProperty(commonId);
    expect(i18n.messages).toHaveProperty(accountId);
    expect(i18n.messages).not.toHaveProperty(adminId);

    await loadCatalogsFor('/admin/dashboard');
    expect(i18n.locale).toBe('de');
    expect(i18n.messages[adminId]).toEqual(deAdmin[adminId]);
    expect(i18n.messages[dashboardId]).toEqual(deAdminDashboard[dashboardId]);
    expect(i18n.messages).not.toHaveProperty(usersId);
    expect(i18n.messages).toHaveProperty(commonId);

    await activateLocale('fr');
    await activateLocale('de');
    expect(i18n.messages[dashboardId]).toEqual(deAdminDashboard[dashboardId]);
    expect(i18n.messages[accountId]).toEqual(deAccount[accountId]);
  });

  it('a console page opened first has no account catalog and no other page area until the SPA goes there', async () => {
    setCatalogs(catalogsForPath('/admin/dashboard'));
    await activateLocale('de');
    expect(i18n.messages).toHaveProperty(dashboardId);
    expect(i18n.messages).not.toHaveProperty(accountId);
    expect(i18n.messages).not.toHaveProperty(usersId);
    await loadCatalogsFor('/admin/user-management');
    expect(i18n.messages[usersId]).toEqual(deAdminUsers[usersId]);
    await loadCatalogsFor('/admin/profile');
    expect(i18n.messages[accountId]).toEqual(deAccount[accountId]);
  });

  it("the sign-in page has no user-area messages; signed in, home adds them before it renders", async () => {
    expect(accountUserId).toBeDefined();
    setCatalogs(catalogsForPath('/login'));
    await activateLocale('de');
    expect(i18n.messages).toHaveProperty(accountId);
    expect(i18n.messages).not.toHaveProperty(accountUserId);
    await loadCatalogsFor('/');
    expect(i18n.messages[accountUserId]).toEqual(deAccountUser[accountUserId]);
    expect(i18n.messages[accountId]).toEqual(deAccount[accountId]);
  });

  it("issue 29: the account's language applied at sign-in and home's catalogs asked for at once: home gets them in that language", async () => {
    setCatalogs(catalogsForPath('/login/callback'));
    await activateLocale('en');
    // the session applies the saved language (not awaited) and the router goes home in the same moment
    const switched = activateLocale('de');
    const home = loadCatalogsFor('/');
    await Promise.all([switched, home]);
    expect(i18n.locale).toBe('de');
    expect(i18n.messages[accountUserId]).toEqual(deAccountUser[accountUserId]);
    expect(i18n.messages[accountId]).toEqual(deAccount[accountId]);
  });

  it('a page asked for while a language loads renders in that language: loadCatalogsFor waits for the switch', async () => {
    setCatalogs(catalogsForPath('/login'));
    await activateLocale('en');
    void activateLocale('de');
    await loadCatalogsFor('/');
    expect(i18n.locale).toBe('de');
    expect(i18n.messages[accountUserId]).toEqual(deAccountUser[accountUserId]);
  });

  it('loads every catalog unless told otherwise (tests)', async () => {
    expect(Object.keys(await loadMessages('de'))).toEqual(expect.arrayContaining([adminId, dashboardId, usersId, accountId, accountUserId, commonId]));
  });
});
