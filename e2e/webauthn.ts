/**
 * Chromium's virtual authenticator (DevTools protocol, `WebAuthn` domain) for the passkey walks: a platform
 * authenticator with resident keys and user verification, as a phone or laptop with a passkey provider has. It
 * answers `navigator.credentials.create()/get()` of the page it is attached to, with no prompt.
 *
 * - `userVerified(false)`: the person fails or refuses verification: the ceremony rejects with NotAllowedError
 *   (what a cancelled prompt gives too).
 * - `presence(false)`: nobody touches the authenticator: the ceremony waits (until the page aborts it or the
 *   options' timeout passes), for the timeout walks.
 * - `credentials()` / `removeCredential(id)` / `clear()`: what the device holds (a passkey removed from the device).
 */
import type { CDPSession, Page } from '@playwright/test';

export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
  privateKey: string;
}

export interface VirtualAuthenticator {
  id: string;
  credentials(): Promise<VirtualCredential[]>;
  addCredential(credential: VirtualCredential): Promise<void>;
  removeCredential(credentialId: string): Promise<void>;
  clear(): Promise<void>;
  userVerified(verified: boolean): Promise<void>;
  presence(automatic: boolean): Promise<void>;
  remove(): Promise<void>;
}

export interface VirtualAuthenticatorOptions {
  /** `internal`: a platform authenticator (default); `usb`: a security key (amr hwk when not backup-eligible). */
  transport?: 'internal' | 'usb' | 'nfc' | 'ble';
  /** A synced passkey (BE flag); platform passkeys of today's providers are. Default false. */
  backupEligible?: boolean;
}

export async function addVirtualAuthenticator(page: Page, options: VirtualAuthenticatorOptions = {}): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: options.transport ?? 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      ...(options.backupEligible ? { defaultBackupEligibility: true, defaultBackupState: true } : {}),
    },
  });
  const id = authenticatorId;
  return {
    id,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials as VirtualCredential[],
    addCredential: async (credential) => {
      await cdp.send('WebAuthn.addCredential', { authenticatorId: id, credential });
    },
    removeCredential: async (credentialId) => {
      await cdp.send('WebAuthn.removeCredential', { authenticatorId: id, credentialId });
    },
    clear: async () => {
      await cdp.send('WebAuthn.clearCredentials', { authenticatorId: id });
    },
    userVerified: async (isUserVerified) => {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId: id, isUserVerified });
    },
    presence: async (enabled) => {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: id, enabled });
    },
    remove: async () => {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: id });
      await cdp.detach();
    },
  };
}
